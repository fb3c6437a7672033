// Rule options as form fields, built from GET /api/rules's descriptions (label, help, group, choices,
// bounds): the page keeps no list of its own, so a new option shows with its own words; and read back
// as the options a form changed from its preset.

import { esc } from "./html.js";

/** The field for one option, holding a value; it carries data-option, its name. */
export function optionInput(o, v) {
  const named = `data-option="${esc(o.name)}"`;
  if (o.kind === "bool") return `<input type="checkbox" ${named} ${v ? "checked" : ""}>`;
  if (o.kind === "choice") {
    return `<select ${named}>${o.choices.map((c) => `<option value="${esc(c)}" ${c === v ? "selected" : ""}>${
      esc(o.choice_labels[c] ?? c)}</option>`).join("")}</select>`;
  }
  const bounds = `${o.min === null ? "" : ` min="${o.min}"`}${o.max === null ? "" : ` max="${o.max}"`}`;
  return `<input type="number" inputmode="numeric" ${named}${bounds} value="${v ?? ""}"${
    o.kind === "int_or_null" ? ' placeholder="none"' : ""}>`;
}

/** An option's row: its label, its field, its help as the row's title. */
export function optionRow(o, v) {
  return `<label class="opt" title="${esc(o.help)}"><span>${esc(o.label)}</span>${optionInput(o, v)}</label>`;
}

/** The options in the API's groups, in its order: [group, its options] for each group that has any. */
export function grouped(meta, keep = () => true) {
  return meta.groups.map((g) => [g, meta.options.filter((o) => o.group === g.name && keep(o))])
    .filter(([, options]) => options.length);
}

/** A field's value as the API takes it: a checkbox's state, a number (an empty one is null), a choice. */
function readOption(el) {
  if (el.type === "checkbox") return el.checked;
  if (el.type === "number") return el.value === "" ? null : Number(el.value);
  return el.value;
}

/** A form's rule options whose values differ from `base` (its chosen preset's options), by name: the
 * options a game's rules send beside the preset. */
export function changedOptions(form, base) {
  const options = {};
  for (const field of form.querySelectorAll("[data-option]")) {
    const v = readOption(field);
    if (v !== base[field.dataset.option]) options[field.dataset.option] = v;
  }
  return options;
}
