// Settings: the table's look, the computer players, and the rule options for the next new game.

import { $, state } from "./state.js";
import { esc } from "./html.js";
import { api } from "./api.js";
import { render } from "./table.js";

export function applySettings() {
  const body = document.body;
  body.className = body.className.replace(/\b(table|back)-\w+/g, "").trim();
  body.classList.add(`table-${state.settings.table_color}`, `back-${state.settings.card_back}`);
  body.classList.toggle("four-color", state.settings.four_color);
}

function optionLabel(name) {
  return name.replaceAll("_", " ");
}

// The rule options in the groups a player looks for them in, each with its name at the table.
// An option the page does not know yet still shows, under "Other", by its own name.
const RULE_GROUPS = [
  ["Players and deck", { players: "Players", partnerships: "Partnerships (off: cutthroat)", deck: "Deck",
    first_dealer: "First dealer", two_player_draw: "Two-player draw" }],
  ["Bidding", { bid_format: "Bidding style", min_team_bid: "Least a team may bid (board)",
    ten_for_two_hundred: "10 for 200", ten_for_two_hundred_or_more: "11 or more also makes 10 for 200",
    first_hand_no_bids: "First hand without bids", misdeal_no_spades: "A hand without spades may be thrown in" }],
  ["Nil", { nil: "Nil", nil_value: "Nil is worth", nil_pass: "Cards passed after nil", blind_nil: "Blind nil",
    blind_nil_value: "Blind nil is worth", blind_nil_deficit: "Blind nil only when behind by",
    blind_nil_pass: "Cards passed after blind nil", failed_nil_tricks: "A failed nil's tricks count as" }],
  ["Play", { first_lead: "First lead", spades_led_any_time: "Spades may be led any time",
    clubs_first_trick: "Clubs on the first trick", must_beat: "Must beat the highest card if able",
    renege_penalty: "Renege penalty" }],
  ["Scoring", { target: "Game to", low_mark: "A score this low loses", failed_bid: "A failed bid scores",
    bag_value: "Points per bag", bag_limit: "Bags that cost a penalty", bag_penalty: "Bag penalty",
    boston_bonus: "Bonus for all 13 tricks (Boston)" }],
];

function optionInput(o, v) {
  if (o.kind === "bool") return `<input type="checkbox" data-option="${o.name}" ${v ? "checked" : ""}>`;
  if (o.kind === "choice") {
    return `<select data-option="${o.name}">${o.choices.map((c) => `<option value="${c}" ${c === v ? "selected" : ""}>${optionLabel(c)}</option>`).join("")}</select>`;
  }
  return `<input type="number" inputmode="numeric" data-option="${o.name}" value="${v ?? ""}" ${o.kind === "int_or_null" ? 'placeholder="none"' : ""}>`;
}

export function fillRuleOptions(values) {
  const known = new Map(RULE_GROUPS.flatMap(([, names]) => Object.entries(names)));
  const groups = [...RULE_GROUPS, ["Other", Object.fromEntries(state.rulesMeta.options.filter((o) => !known.has(o.name)).map((o) => [o.name, optionLabel(o.name)]))]];
  const byName = new Map(state.rulesMeta.options.map((o) => [o.name, o]));
  $("rule-options").innerHTML = groups.map(([group, names]) => {
    const rows = Object.entries(names).filter(([name]) => byName.has(name)).map(([name, label]) => `
      <label class="opt"><span>${esc(label)}</span>${optionInput(byName.get(name), values[name])}</label>`).join("");
    return rows ? `<details class="rule-group" data-group="${group}"><summary>${group}<span class="changed"></span></summary>
      <div class="opts">${rows}</div></details>` : "";
  }).join("");
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
    const name = el.dataset.option;
    let v;
    if (el.type === "checkbox") v = el.checked;
    else if (el.type === "number") v = el.value === "" ? null : Number(el.value);
    else v = el.value;
    if (v !== base[name]) options[name] = v;
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
