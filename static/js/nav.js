/* The site header on a phone: the menu (the site's links, the account and the language) folds
 * behind the "Menu" button (templates/base.html; static/css/site.css, "phone menu"). Loaded in the
 * <head> without defer, so the menu is folded before the page is first painted; without JS the
 * button stays hidden and the menu open. Escape closes an open menu and focuses the button. */
(function () {
  "use strict";

  document.documentElement.classList.add("nav-js");

  function setUp() {
    var button = document.querySelector(".site-nav .nav-toggle");
    var menu = button && document.getElementById(button.getAttribute("aria-controls"));
    if (!menu) return;
    var header = button.closest(".site-nav");

    function isOpen() { return button.getAttribute("aria-expanded") === "true"; }
    function setOpen(open) {
      button.setAttribute("aria-expanded", open ? "true" : "false");
      header.classList.toggle("menu-open", open);
    }

    button.addEventListener("click", function () { setOpen(!isOpen()); });
    document.addEventListener("keydown", function (e) {
      if ((e.key === "Escape" || e.key === "Esc") && isOpen()) {
        setOpen(false);
        button.focus();
      }
    });
    // A click elsewhere on the page folds the menu back (the button's own click toggles it).
    document.addEventListener("click", function (e) {
      if (isOpen() && !header.contains(e.target)) setOpen(false);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
