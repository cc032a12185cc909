/* The players' menu: mute, report (docs/PROTOCOL.md, "Mute and report").
 * A player's name (a chat line's author, another player's seat box) is a button that opens a
 * small menu: Mute/Unmute and Report (a reason and optional words, then a "Report sent" toast).
 * The server keeps a muted player's chat away from all this user's sockets and leaves it out of
 * snapshots; here the lines already shown go at once when the "muted" list comes. Keyboard: arrows
 * move through the menu, Escape closes it, Tab leaves it. */
import { app, clear, el } from "./dom.js";
import { t } from "./i18n.js";
import { isBotName } from "./state.js";
import { toast } from "./controls.js";
import { send } from "./socket.js";
import { dropMuted } from "./chat.js";

const PM = { me: null, muted: [], pop: null, trigger: null, name: null, where: null, pending: null };
const REASONS = ["abuse", "cheating", "spam", "other"];

export function pmSnapshot(msg) {
  PM.me = msg.me || null;
  PM.muted = msg.muted || [];
}

export function pmMessage(msg) {
  if (msg.type === "reported") { toast(t("pm_report_sent")); return; }
  const before = PM.muted;
  PM.muted = msg.muted || [];
  dropMuted(PM.muted);
  const p = PM.pending;
  if (p && (p.kind === "mute") === (PM.muted.indexOf(p.name) >= 0)) {
    toast(t(p.kind === "mute" ? "pm_muted" : "pm_unmuted", { name: p.name }));
    PM.pending = null;
  }
  // Someone unmuted: a fresh snapshot brings his earlier lines back.
  if (before.some((name) => PM.muted.indexOf(name) < 0)) send({ type: "sync" });
}

/* Only a logged-in user (the snapshot's "me") acts on another person; bots are no one to mute. */
function canTarget(name) { return !!PM.me && !!name && name !== PM.me && !isBotName(name); }

function trigger(name, content, where) {
  const b = el("button", "player-name-btn");
  b.type = "button";
  b.setAttribute("aria-haspopup", "menu");
  b.setAttribute("aria-expanded", PM.pop && !PM.pop.hidden && PM.name === name && PM.where === where ? "true" : "false");
  b.setAttribute("data-player", name);
  b.setAttribute("data-where", where);
  b.appendChild(content);
  b.addEventListener("click", () => open(name, b, where));
  return b;
}
/* A chat line's author: a button for another person. */
export function pmChatFrom(m) {
  const from = el("span", "chat-from");
  if (!canTarget(m.from)) { from.textContent = (m.from || "?") + ": "; return from; }
  from.appendChild(trigger(m.from, el("span", null, m.from), "chat"));
  from.appendChild(document.createTextNode(": "));
  return from;
}
/* A seat's name: a button for another person. */
export function pmSeatName(node, info) {
  return info && info.name && !info.is_bot && canTarget(info.name) ? trigger(info.name, node, "seat") : node;
}

function popup() {
  if (PM.pop) return PM.pop;
  const pop = PM.pop = el("div", "player-menu");
  pop.id = "player-menu";
  pop.hidden = true;
  pop.addEventListener("keydown", onKey);
  pop.addEventListener("focusout", (e) => {
    if (e.relatedTarget && !pop.contains(e.relatedTarget)) close(false);
  });
  // A press elsewhere closes it (on pointerdown: a click inside may redraw it, leaving its target
  // outside by the time the click reaches the document).
  document.addEventListener("pointerdown", (e) => {
    if (!pop.hidden && !pop.contains(e.target) && !(e.target.closest && e.target.closest(".player-name-btn"))) close(false);
  });
  app.appendChild(pop);
  return pop;
}

function item(label, action, onClick) {
  const b = el("button", "player-menu-item", label);
  b.type = "button";
  b.setAttribute("role", "menuitem");
  b.setAttribute("tabindex", "-1");
  b.setAttribute("data-pm", action);
  b.addEventListener("click", onClick);
  return b;
}

function title(text) {
  const node = el("div", "player-menu-title", text);
  node.id = "player-menu-title";
  return node;
}

function open(name, by, where) {
  const pop = popup();
  if (!pop.hidden && PM.name === name && PM.where === where) { close(true); return; }   // a toggle
  setExpanded(false);
  PM.name = name; PM.trigger = by; PM.where = where;
  clear(pop);
  pop.removeAttribute("role");
  pop.appendChild(title(name));
  const menu = el("div", "player-menu-items");
  menu.setAttribute("role", "menu");
  menu.setAttribute("aria-labelledby", "player-menu-title");
  const muted = PM.muted.indexOf(name) >= 0, kind = muted ? "unmute" : "mute";
  menu.appendChild(item(t("pm_" + kind), kind, () => {
    PM.pending = { kind: kind, name: name };
    if (send({ type: kind, name: name })) close(true);
  }));
  menu.appendChild(item(t("pm_report"), "report", () => reportForm(name)));
  const profile = el("a", "player-menu-item", t("pm_profile"));
  profile.href = "/accounts/u/" + encodeURIComponent(name) + "/";      // accounts/urls.py "profile"
  profile.setAttribute("role", "menuitem");
  profile.setAttribute("tabindex", "-1");
  menu.appendChild(profile);
  pop.appendChild(menu);
  pop.hidden = false;
  place();
  setExpanded(true);
  items()[0].focus();
}

function reportForm(name) {
  const pop = PM.pop;
  clear(pop);
  pop.setAttribute("role", "dialog");
  pop.setAttribute("aria-labelledby", "player-menu-title");
  const form = el("form", "player-report");
  form.appendChild(title(t("pm_report_title", { name: name })));
  const reason = el("label", "player-report-field", t("pm_reason"));
  const select = el("select");
  select.name = "reason";
  REASONS.forEach((r) => {
    const o = el("option", null, t("pm_reason_" + r));
    o.value = r;
    select.appendChild(o);
  });
  reason.appendChild(select);
  form.appendChild(reason);
  const words = el("label", "player-report-field", t("pm_report_text"));
  const text = el("textarea");
  text.name = "text";
  text.rows = 3;
  text.maxLength = 1000;
  words.appendChild(text);
  form.appendChild(words);
  const row = el("div", "player-report-buttons");
  const submit = el("button", "btn small primary", t("pm_report_send"));
  submit.type = "submit";
  submit.setAttribute("data-pm", "send-report");
  const cancel = el("button", "btn small subtle", t("cancel"));
  cancel.type = "button";
  cancel.addEventListener("click", () => close(true));
  row.appendChild(submit);
  row.appendChild(cancel);
  form.appendChild(row);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (send({ type: "report", name: name, reason: select.value, text: text.value.trim().slice(0, 1000) })) close(true);
  });
  pop.appendChild(form);
  place();
  select.focus();
}

function items() { return Array.prototype.slice.call(PM.pop.querySelectorAll("[role=menuitem]")); }

function onKey(e) {
  if (e.key === "Escape" || e.key === "Esc") {
    e.preventDefault();
    e.stopPropagation();          // the result overlay's Escape handler is not for this one
    close(true);
    return;
  }
  const all = items();
  if (!all.length) return;      // the report form: the browser's own keys
  const at = all.indexOf(document.activeElement);
  let next = null;
  if (e.key === "ArrowDown") next = (at + 1) % all.length;
  else if (e.key === "ArrowUp") next = (at - 1 + all.length) % all.length;
  else if (e.key === "Home") next = 0;
  else if (e.key === "End") next = all.length - 1;
  else if (e.key === "Tab") { e.preventDefault(); close(true); return; }
  if (next === null) return;
  e.preventDefault();
  all[next].focus();
}

/* The name's button now: the seat box or chat line it was in may have been drawn again. */
function triggerNow() {
  if (PM.trigger && document.body.contains(PM.trigger)) return PM.trigger;
  let found = null;
  app.querySelectorAll('.player-name-btn[data-where="' + PM.where + '"]').forEach((b) => {
    if (b.getAttribute("data-player") === PM.name) found = b;
  });
  return found;
}
function setExpanded(on) {
  const b = PM.trigger && triggerNow();
  if (b) b.setAttribute("aria-expanded", on ? "true" : "false");
}

/* Below the name, kept inside the window (left and right). */
function place() {
  const pop = PM.pop, anchor = triggerNow() || app;
  const r = anchor.getBoundingClientRect();
  const base = (pop.offsetParent || document.body).getBoundingClientRect();
  const left = r.left - base.left;
  pop.style.left = left + "px";
  pop.style.top = (r.bottom - base.top + 4) + "px";
  const p = pop.getBoundingClientRect(), width = document.documentElement.clientWidth;
  if (p.right > width - 8) pop.style.left = Math.max(8 - base.left, left - (p.right - width + 8)) + "px";
}

function close(refocus) {
  const pop = PM.pop;
  if (!pop || pop.hidden) return;
  pop.hidden = true;
  setExpanded(false);
  clear(pop);
  pop.removeAttribute("role");
  const b = refocus && triggerNow();
  if (b) b.focus();
}
