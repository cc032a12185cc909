/* Times in the reader's own time zone: every <time datetime="..." data-local="date|time"> the
 * server rendered in UTC (with "UTC" after it) is rewritten as the browser's local time,
 * "2026-12-07 20:00" or "20:00:15", its time zone in the title. Without JavaScript the UTC stays. */
(function () {
  "use strict";
  function pad(n) { return ("0" + n).slice(-2); }
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }

  function localTimes(root) {
    var nodes = (root || document).querySelectorAll("time[data-local]");
    for (var i = 0; i < nodes.length; i++) {
      var node = nodes[i], d = new Date(node.getAttribute("datetime"));
      if (isNaN(d.getTime())) continue;
      var clock = pad(d.getHours()) + ":" + pad(d.getMinutes());
      node.textContent = node.getAttribute("data-local") === "time" ? clock + ":" + pad(d.getSeconds())
        : d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()) + " " + clock;
      if (zone) node.title = zone;
    }
  }
  window.localTimes = localTimes;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { localTimes(); });
  else localTimes();
})();
