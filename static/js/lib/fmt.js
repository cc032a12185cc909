/* A translated string's placeholders filled in: fmt("{p} plays {c}", {p: "Ann", c: "Q♠"}).
 * A placeholder without a value stays as it is, so a missing argument shows rather than vanishes. */
export function fmt(text, args) {
  if (!args) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (args[key] !== undefined ? args[key] : whole));
}
