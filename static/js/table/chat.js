/* The table's chat: the snapshot's lines, then each "chat" message; the form sends one line. */
import { $, clear, el } from "./dom.js";
import { S } from "./state.js";
import { send } from "./socket.js";

/* Who wrote a line is drawn by the players' menu (a button to mute or report him), which
 * installs it here so that this module does not depend on that one. */
let authorOf = (m) => el("span", "chat-from", (m.from || "?") + ": ");
export function setAuthor(fn) { authorOf = fn; }

function chatLine(m) {
  const line = el("div", "chat-line");
  line.appendChild(authorOf(m));
  line.appendChild(el("span", "chat-text", m.text || ""));
  return line;
}
export function renderChat() {
  const log = clear($("#chat-log"));
  S.chat.forEach((m) => log.appendChild(chatLine(m)));
  log.scrollTop = log.scrollHeight;
}
export function appendChat(m) {
  S.chat.push(m);
  const log = $("#chat-log");
  log.appendChild(chatLine(m));
  while (log.childNodes.length > 200) log.removeChild(log.firstChild);
  log.scrollTop = log.scrollHeight;
}
/* The lines of players just muted go at once. */
export function dropMuted(muted) {
  const shown = S.chat.length;
  S.chat = S.chat.filter((m) => muted.indexOf(m.from) < 0);
  if (S.chat.length !== shown) renderChat();
}

export function bindChat() {
  const form = $("#chat-form");
  if (!form) return;
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const input = form.querySelector("input");
    const text = (input.value || "").trim();
    if (!text) return;
    if (send({ type: "chat", text: text.slice(0, 500) })) input.value = "";
  });
}
