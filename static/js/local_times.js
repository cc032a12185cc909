/* Times in the reader's own time zone: every <time datetime="..." data-local="date|time"> the
 * server rendered in UTC (with "UTC" after it) is rewritten as the browser's local time,
 * "2026-12-07 20:00" or "20:00:15", its time zone in the title. Without JavaScript the UTC stays.
 * The tournament page calls localTimes again on the live part it swaps in. */
function pad(n) { return ("0" + n).slice(-2); }
let zone = "";
try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }

export function localTimes(root) {
  for (const node of (root || document).querySelectorAll("time[data-local]")) {
    const d = new Date(node.getAttribute("datetime"));
    if (isNaN(d.getTime())) continue;
    const clock = pad(d.getHours()) + ":" + pad(d.getMinutes());
    node.textContent = node.getAttribute("data-local") === "time" ? clock + ":" + pad(d.getSeconds())
      : d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()) + " " + clock;
    if (zone) node.title = zone;
  }
}

localTimes();      // a module runs once the document is parsed
