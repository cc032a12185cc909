/* The table's words: the translated JSON dictionary #table-i18n (templates/lobby/_table_i18n.html). */
import { readJSON } from "./dom.js";

const I18N = readJSON("table-i18n") || {};

export function t(key, params) {
  let s = I18N[key] !== undefined ? I18N[key] : key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? params[k] : m));
  return s;
}
