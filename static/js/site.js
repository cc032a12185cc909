/* Small behaviours any page may ask for with a data attribute. The Content-Security-Policy
 * (config/settings.py) runs no inline handler (onchange="...", onclick="..."), so they live here;
 * loaded by templates/base.html on every page. Delegated from the document, so markup added later
 * (the tournament page's live part, the table client) is covered too.
 *
 *   <select data-submit-on-change>   submits its form when the choice changes (the language)
 *   <input data-select-on-click>     selects its whole text when clicked (the table's invite link) */
(function () {
  "use strict";

  document.addEventListener("change", function (e) {
    var field = e.target;
    if (field.matches && field.matches("[data-submit-on-change]") && field.form) field.form.submit();
  });

  document.addEventListener("click", function (e) {
    var field = e.target;
    if (field.matches && field.matches("input[data-select-on-click], textarea[data-select-on-click]")) field.select();
  });
})();
