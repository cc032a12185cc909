/* The header: the table's status and deal, the invite link of a private table, my role. */
import { $ } from "../dom.js";
import { t } from "../i18n.js";
import { S, invite, mySeat } from "../state.js";

export function renderHeader() {
  const tb = S.table;
  const node = $("#table-status");
  if (!node) return;
  const parts = [];
  if (tb) {
    parts.push(t("status_" + tb.status));
    if (tb.match && typeof tb.match.deal_number === "number" && tb.status !== "waiting") {
      const cut = tb.status === "finished" && S.view && !S.view.over;     // a forfeit mid-deal
      parts.push(t("deal_n", { n: tb.match.deal_number + (tb.status === "playing" || cut ? 1 : 0) }));
    }
  }
  node.textContent = parts.join(" \u00b7 ");
  const inv = $("#invite-box");
  if (inv) {
    const token = S.invite || invite;
    if (tb && tb.private && token && tb.status === "waiting") {
      inv.hidden = false;
      const input = inv.querySelector("input");
      const link = location.origin + location.pathname + "?invite=" + encodeURIComponent(token);
      if (input.value !== link) input.value = link;
    } else inv.hidden = true;
  }
  const role = $("#my-role");
  if (role) role.textContent = mySeat() === null ? t("spectating") : t("you_sit", { n: mySeat() + 1 });
}
