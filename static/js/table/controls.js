/* Buttons and toasts: the table's small building blocks. */
import { $, el } from "./dom.js";
import { S } from "./state.js";

/* A button, disabled while an action is on its way. */
export function button(label, onClick, cls, attrs) {
  const b = el("button", "btn" + (cls ? " " + cls : ""), label);
  b.type = "button";
  if (S.busy) b.disabled = true;
  b.addEventListener("click", onClick);
  if (attrs) Object.keys(attrs).forEach((k) => b.setAttribute(k, attrs[k]));
  return b;
}

export function toast(text, kind) {
  const box = document.getElementById("toasts") || $("#toasts");
  if (!box) return;
  const node = el("div", "toast" + (kind ? " " + kind : ""), text);
  node.setAttribute("role", "alert");
  box.appendChild(node);
  while (box.childNodes.length > 3) box.removeChild(box.firstChild);   // a short stack, never a wall
  setTimeout(() => { if (node.parentNode) node.parentNode.removeChild(node); }, 5000);
}
