/* Small behaviours any page may ask for with a data attribute. The Content-Security-Policy
 * (config/settings.py) runs no inline handler (onchange="...", onclick="..."), so they live here;
 * loaded by templates/base.html on every page. Delegated from the document, so markup added later
 * (the tournament page's live part, the table client) is covered too.
 *
 *   <select data-submit-on-change>   submits its form when the choice changes (the language)
 *   <input data-select-on-click>     selects its whole text when clicked (the table's invite link)
 *   <select data-note-target="ID">   shows the chosen option's data-note in element ID (the home
 *                                    page's bot level: what the level means in play) */
(function () {
  document.addEventListener("change", function (e) {
    var field = e.target;
    if (field.matches && field.matches("[data-submit-on-change]") && field.form) field.form.submit();
    if (field.matches && field.matches("select[data-note-target]")) showNote(field);
  });

  function showNote(select) {
    var target = document.getElementById(select.getAttribute("data-note-target"));
    var chosen = select.options[select.selectedIndex];
    if (target) target.textContent = (chosen && chosen.getAttribute("data-note")) || "";
  }

  // A choice the browser restored (back, reload) may differ from the page's default.
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("select[data-note-target]").forEach(showNote);
  });

  document.addEventListener("click", function (e) {
    var field = e.target;
    if (field.matches && field.matches("input[data-select-on-click], textarea[data-select-on-click]")) field.select();
  });
})();
