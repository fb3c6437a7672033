// Settings: the table's look, the computer players, and the rule options for the next new game.

import { $, state } from "./state.js";
import { esc } from "./html.js";
import { api } from "./api.js";
import { render } from "./table.js";
import { grouped, optionRow, readOption } from "./ruleform.js";

export function applySettings() {
  const body = document.body;
  body.className = body.className.replace(/\b(table|back)-\w+/g, "").trim();
  body.classList.add(`table-${state.settings.table_color}`, `back-${state.settings.card_back}`);
  body.classList.toggle("four-color", state.settings.four_color);
}

// The rule options in the API's groups, each with its label, help and choices from the API.
export function fillRuleOptions(values) {
  $("rule-options").innerHTML = grouped(state.rulesMeta).map(([group, options]) => `
    <details class="rule-group" data-group="${esc(group.name)}"><summary>${esc(group.label)}<span class="changed"></span></summary>
      <div class="opts">${options.map((o) => optionRow(o, values[o.name])).join("")}</div></details>`).join("");
  markChanged();
}

// Each group's heading says how many of its options differ from the chosen preset.
export function markChanged() {
  const changed = Object.keys(readRuleOptions());
  for (const g of document.querySelectorAll(".rule-group")) {
    const n = changed.filter((name) => g.querySelector(`[data-option="${name}"]`)).length;
    g.querySelector(".changed").textContent = n ? ` · ${n} changed` : "";
  }
}

export function presetValues(name) {
  return state.rulesMeta.presets.find((p) => p.name === name).options;
}

export async function openSettings() {
  if (!state.rulesMeta) state.rulesMeta = await api.get("/api/rules");
  const f = $("settings-form");
  for (const key of ["table_color", "card_back", "speed"]) f.elements[key].value = state.settings[key];
  for (const key of ["four_color", "sounds", "auto_play", "bots_bid_nil"]) f.elements[key].checked = state.settings[key];
  $("level-select").innerHTML = state.rulesMeta.levels.map((l) => `<option ${l === state.settings.level ? "selected" : ""}>${l}</option>`).join("");
  $("preset-select").innerHTML = state.rulesMeta.presets.map((p) => `<option ${p.name === state.settings.rules.preset ? "selected" : ""}>${p.name}</option>`).join("");
  fillRuleOptions({ ...presetValues(state.settings.rules.preset), ...state.settings.rules.options });
  $("settings-error").textContent = "";
  $("dlg-settings").showModal();
}

// The rule options that differ from the chosen preset's.
function readRuleOptions() {
  const base = presetValues($("preset-select").value);
  const options = {};
  for (const el of document.querySelectorAll("[data-option]")) {
    const v = readOption(el);
    if (v !== base[el.dataset.option]) options[el.dataset.option] = v;
  }
  return options;
}

function readSettings() {
  const f = $("settings-form");
  const preset = f.elements.preset.value;
  const options = readRuleOptions();
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
