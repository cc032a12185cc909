/* The challenge page (templates/botapi/challenge.html): follows the challenge until the bot answers
   or it expires, then shows the answer, and goes to the table when the bot accepted. */
(function () {
  var box = document.getElementById("challenge");
  if (!box || box.getAttribute("data-status") !== "pending") return;
  var url = box.getAttribute("data-status-url");
  var status = document.getElementById("challenge-status");
  var reason = document.getElementById("challenge-reason");
  function poll() {
    fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) { setTimeout(poll, 4000); return; }
        status.textContent = data.label;
        reason.textContent = data.reason || "";
        if (data.table_url) { location.href = data.table_url; return; }
        if (data.status === "pending") { setTimeout(poll, 2000); return; }
        var wait = document.getElementById("challenge-wait");
        if (wait) wait.hidden = true;
        var cancel = box.querySelector('[data-action="cancel-challenge"]');
        if (cancel) cancel.hidden = true;
      })
      .catch(function () { setTimeout(poll, 4000); });
  }
  setTimeout(poll, 1500);
})();
