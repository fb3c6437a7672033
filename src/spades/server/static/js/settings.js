// Settings: the table's look, the computer players, and the rule options for the next new game.

import { $, state } from "./state.js";
import { esc } from "./html.js";
import { api } from "./api.js";
import { render } from "./table.js";
import { changedOptions, grouped, optionRow } from "./ruleform.js";

export function applySettings() {
  const body = document.body;
  body.className = body.className.replace(/\b(table|back)-\w+/g, "").trim();
  body.classList.add(`table-${state.settings.table_color}`, `back-${state.settings.card_back}`);
  body.classList.toggle("four-color", state.settings.four_color);
}

// A form's rule options in the API's groups, each with its label, help and choices from the API
// (Settings, and the rules of a friends' table).
export function fillRuleOptions(form, values) {
  form.querySelector(".rule-options").innerHTML = grouped(state.rulesMeta).map(([group, options]) => `
    <details class="rule-group" data-group="${esc(group.name)}"><summary>${esc(group.label)}<span class="changed"></span></summary>
      <div class="opts">${options.map((o) => optionRow(o, values[o.name])).join("")}</div></details>`).join("");
  markChanged(form);
}

// Each group's heading says how many of its options differ from the chosen preset.
function markChanged(form) {
  const changed = Object.keys(readRuleOptions(form));
  for (const g of form.querySelectorAll(".rule-group")) {
    const n = changed.filter((name) => g.querySelector(`[data-option="${name}"]`)).length;
    g.querySelector(".changed").textContent = n ? ` · ${n} changed` : "";
  }
}

function presetValues(name) {
  return state.rulesMeta.presets.find((p) => p.name === name).options;
}

/** A form with a preset and rule options: choosing a preset shows its values, a change is counted. */
export function wireRuleForm(form) {
  form.elements.preset.addEventListener("change", (e) => fillRuleOptions(form, presetValues(e.target.value)));
  form.querySelector(".rule-options").addEventListener("input", () => markChanged(form));
}

/** Fill a form's preset, rule options and level with the player's own choices (the API's lists first). */
export async function fillRules(form) {
  if (!state.rulesMeta) state.rulesMeta = await api.get("/api/rules");
  const { rules, level } = state.settings;
  form.elements.level.innerHTML = state.rulesMeta.levels.map((l) => `<option ${l === level ? "selected" : ""}>${l}</option>`).join("");
  form.elements.preset.innerHTML = state.rulesMeta.presets.map((p) => `<option ${p.name === rules.preset ? "selected" : ""}>${p.name}</option>`).join("");
  fillRuleOptions(form, { ...presetValues(rules.preset), ...rules.options });
}

export async function openSettings() {
  const f = $("settings-form");
  await fillRules(f);
  for (const key of ["table_color", "card_back", "speed"]) f.elements[key].value = state.settings[key];
  for (const key of ["four_color", "sounds", "auto_play", "bots_bid_nil"]) f.elements[key].checked = state.settings[key];
  $("settings-error").textContent = "";
  $("dlg-settings").showModal();
}

/** A form's rule options that differ from its chosen preset's. */
export function readRuleOptions(form) {
  return changedOptions(form, presetValues(form.elements.preset.value));
}

function readSettings() {
  const f = $("settings-form");
  const preset = f.elements.preset.value;
  const options = readRuleOptions(f);
  return {
    table_color: f.elements.table_color.value, card_back: f.elements.card_back.value,
    four_color: f.elements.four_color.checked, sounds: f.elements.sounds.checked,
    auto_play: f.elements.auto_play.checked, speed: f.elements.speed.value,
    level: f.elements.level.value, bots_bid_nil: f.elements.bots_bid_nil.checked,
    rules: { preset, options },
  };
}

export async function saveSettings() {
  try {
    const before = JSON.stringify(state.settings.rules);
    state.settings = await api.put("/api/settings", readSettings());
    applySettings();
    $("dlg-settings").close();
    // Stays in the message line until the next move, so it is seen; rules never change a game under way.
    state.notice = JSON.stringify(state.settings.rules) === before ? "Settings saved."
      : "Settings saved. The new rules start with your next new game; this one keeps its rules.";
    render();
  } catch (e) {
    $("settings-error").textContent = e.message;
  }
}
