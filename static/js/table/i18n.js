/* The table's words: the translated JSON dictionary #table-i18n (templates/lobby/_table_i18n.html). */
import { readJSON } from "./dom.js";
import { fmt } from "../lib/fmt.js";

const I18N = readJSON("table-i18n") || {};

export function t(key, params) {
  return fmt(I18N[key] !== undefined ? I18N[key] : key, params);
}
