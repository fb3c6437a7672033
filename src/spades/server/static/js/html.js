// Small helpers for writing the page: escaping text for HTML, building elements, numbers as a score
// sheet prints them, counts in words.

/** A number as a score sheet prints it, with a true minus sign. */
export function num(n, signed = false) {
  const text = String(Math.abs(n));
  if (n < 0) return "−" + text;
  return signed && n > 0 ? "+" + text : text;
}

/** `n` and the word, in the plural unless `n` is 1: "1 trick", "3 spare tricks" (as outcome.plural). */
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Text made safe to put in HTML. */
export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/** An element with its attributes and children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}
