/* The staff status page (templates/ops/status.html): every 5 seconds, the server's fresh reading
   of the numbers, rendered by it in the reader's language, replaces the page's body. */
(function () {
  var box = document.getElementById("ops-status");
  if (!box) return;
  var url = box.getAttribute("data-status-url");
  var body = document.getElementById("ops-status-body");
  function poll() {
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && data.html) {
          body.innerHTML = data.html;
          box.setAttribute("data-readings", String(Number(box.getAttribute("data-readings") || "0") + 1));
        }
        setTimeout(poll, 5000);
      })
      .catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 5000);
})();
