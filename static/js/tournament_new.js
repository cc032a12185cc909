// The staff's tournament form (templates/tournaments/new.html): the browser's time zone goes with
// the form (its times are local), the chosen game shows its variants and the chosen format its own
// settings, and every change is checked by the server's own form (/tournaments/new/check/), whose
// errors show under their fields; the form is submitted only once that check finds nothing.
(function () {
  const form = document.getElementById("tournament-new");
  if (!form) return;
  const variantGames = JSON.parse(document.getElementById("variant-games").textContent);
  const formatSettings = JSON.parse(document.getElementById("format-settings").textContent);
  const zoneInput = form.elements.time_zone;
  let zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
  if (zone) {
    zoneInput.value = zone;
    const shown = document.querySelector("#zone-note [data-zone]");
    if (shown) shown.textContent = zone;
  }

  function showVariants() {
    const game = form.elements.game.value;
    const select = form.elements.variant;
    let firstOfGame = null;
    for (const option of select.options) {
      const mine = variantGames[option.value] === game;
      option.hidden = !mine;
      option.disabled = !mine;
      if (mine && firstOfGame === null) firstOfGame = option;
    }
    if (select.selectedOptions[0] && select.selectedOptions[0].disabled && firstOfGame) firstOfGame.selected = true;
  }

  function showSettings() {
    const own = formatSettings[form.elements.format.value] || [];
    for (const field of form.querySelectorAll("[data-setting]")) {
      const used = own.includes(field.dataset.setting);
      field.hidden = !used;
      for (const input of field.querySelectorAll("input, select")) input.disabled = !used;
    }
  }

  function showErrors(errors) {
    for (const field of form.querySelectorAll("[data-field]")) {
      const list = field.querySelector(".errorlist");
      const mine = errors[field.dataset.field] || [];
      list.replaceChildren(...mine.map((text) => Object.assign(document.createElement("li"), {textContent: text})));
      field.classList.toggle("has-errors", mine.length > 0);
      const input = field.querySelector("input, select");
      if (input) input.setAttribute("aria-invalid", mine.length ? "true" : "false");
    }
    let general = document.getElementById("form-errors");
    const rest = errors.__all__ || [];
    if (!general && rest.length) {
      const alert = Object.assign(document.createElement("div"), {role: "alert"});
      general = Object.assign(document.createElement("ul"), {className: "errorlist form-errors", id: "form-errors"});
      alert.append(general);
      form.querySelector("fieldset").before(alert);
    }
    if (general) general.replaceChildren(...rest.map((text) => Object.assign(document.createElement("li"), {textContent: text})));
  }

  let asked = 0;
  let touched = new Set();
  async function check(all) {
    const mine = ++asked;
    const answer = await fetch(form.dataset.checkUrl, {method: "POST", body: new FormData(form),
                                                       credentials: "same-origin"});
    if (!answer.ok) return null;
    const errors = (await answer.json()).errors;
    if (mine !== asked) return undefined;   // a later change asked again: its answer counts
    const shown = all ? errors : Object.fromEntries(Object.entries(errors).filter(([k]) => touched.has(k)));
    showErrors(shown);
    form.dataset.checked = all ? "all" : "some";
    return errors;
  }

  form.addEventListener("change", (event) => {
    if (event.target.name) touched.add(event.target.name);
    if (event.target.name === "game") showVariants();
    if (event.target.name === "format") showSettings();
    check(false);
  });
  form.addEventListener("submit", async (event) => {
    if (form.dataset.confirmed) return;
    event.preventDefault();
    const errors = await check(true);
    if (errors === undefined) return;
    // No answer (the check failed): the server decides on submitting, with the same form.
    if (errors === null || Object.keys(errors).length === 0) { form.dataset.confirmed = "1"; form.submit(); return; }
    const first = form.querySelector(".has-errors input, .has-errors select");
    if (first) first.focus();
  });
  showVariants();
  showSettings();
})();
