// The scorekeeper page: the game lives in localStorage (no account); the server scores it.
// Every change sends the whole list of hands to POST /api/scorekeeper/score, which rescores
// from the first hand, so a corrected hand rescores all the hands after it. The page never
// scores anything itself: it shows what the server returns, or the server's reason for refusing.
// A game has a score column per team of partners, or per player where each scores alone
// (cutthroat, 3 or 2 players); the server says which (GET /api/rules gives each preset's table:
// seats, partners, cards each, and the words for it), and the scored game which bids may be written.

import { api } from "./api.js";
import { el, esc, num, plural } from "./html.js";
import { changedOptions, grouped, optionRow } from "./ruleform.js";
import { drawPlot } from "./plot.js";

const KEY = "spades.scorekeeper.v1";  // the stored form is unchanged for two teams: old games still load
const $ = (sel, root = document) => root.querySelector(sel);

let state = load();
let sheet = null;     // the server's last answer for state.game
let editing = null;   // the index of the hand being corrected, or null
let meta = null;      // GET /api/rules: the presets, and the options described for a form

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "null");
    if (saved && typeof saved === "object") return { game: saved.game || null, records: saved.records || [] };
  } catch { /* a damaged entry: start afresh */ }
  return { game: null, records: [] };
}

function save() {
  localStorage.setItem(KEY, JSON.stringify(state));
}


/** Score a candidate game; on success it becomes the game, else the error is shown and nothing changes. */
async function commit(game) {
  try {
    sheet = await api.post("/api/scorekeeper/score", game);
  } catch (e) {
    showError(e.message);
    return false;
  }
  state.game = game;
  save();
  showError("");
  render();
  return true;
}

function showError(text) {
  $(state.game ? "#error" : "#setup-error").textContent = text;
}

// -- setup ----------------------------------------------------------------------------------

// The options a paper game needs, as the API describes them: bidding, nil and scoring (the preset
// sets the table, the deck and the play), and the renege's penalty, which the sheet scores.
const onPaper = (o) => ["bidding", "nil", "scoring"].includes(o.group) || o.name === "renege_penalty";
const presetOf = (name) => meta.presets.find((p) => p.name === name);

/** Show a preset in the form: its table as the server works it out (names per team or player) and
 * its options' fields. */
function applyPreset(name) {
  const { options: o, table } = presetOf(name);
  const partners = table.partners;
  $("#table-line").textContent = table.text;
  const names = partners ? ["Us", "Them"] : Array.from({ length: table.sides }, (_, i) => `Player ${i + 1}`);
  $("#names").replaceChildren(...names.map((value, i) => el("label", {},
    `${partners ? "Team" : "Player"} ${i + 1} `, el("input", { name: `name${i}`, value, maxlength: "40", required: "" }))));
  $("#rule-options").innerHTML = grouped(meta, onPaper).map(([group, options]) => `<fieldset class="rule-group"
    data-group="${esc(group.name)}"><legend>${esc(group.label)}</legend>${options.map((opt) => optionRow(opt, o[opt.name])).join("")}</fieldset>`).join("");
  $("[data-test=score-sheet]").href = `/api/scorekeeper/score-sheet.pdf?rules=${encodeURIComponent(name)}`;
  $("[data-test=rule-sheet]").href = `/api/scorekeeper/rule-sheet.pdf?rules=${encodeURIComponent(name)}`;
}

/** The preset chosen, with the options the form changed from it. */
function rulesFromForm(form) {
  const preset = form.elements.preset.value;
  return { preset, ...changedOptions(form, presetOf(preset).options) };
}

async function startGame(event) {
  event.preventDefault();
  const form = event.target;
  const names = [...form.querySelectorAll("#names input")].map((input) => input.value.trim());
  const game = { rules: rulesFromForm(form), names, hands: [] };
  editing = null;
  if (await commit(game)) buildHandForm();
}

// -- the hand form --------------------------------------------------------------------------

/** The hand the form enters: the one being corrected, or the next. */
const formIndex = () => (editing === null ? state.game.hands.length : editing);
const withoutBids = (index) => sheet.first_hand_no_bids && index === 0;

function bidSelect(test, label) {
  const select = el("select", { "data-test": test, "aria-label": label });
  select.append(el("option", { value: "" }, "bid…"), ...sheet.bids.map((b) => el("option", { value: b }, b)));
  return select;
}

function tricksInput(s) {
  return el("input", { type: "number", min: "0", max: String(sheet.hand_size), "data-test": `tricks-${s}` });
}

function buildHandForm() {
  const { names } = state.game;
  const noBids = withoutBids(formIndex());
  const boxes = names.map((name, s) => {
    const box = el("fieldset", { class: "team-entry", "data-team": String(s) }, el("legend", {}, name));
    if (noBids) {
      box.append(el("p", { class: "muted" }, "No bidding this hand: 10 a trick."));
    } else if (sheet.alone) {
      box.append(el("div", { class: "player" }, el("label", {}, "Bid ", bidSelect(`bid-${s}-0`, `${name} bid`))));
    } else {
      for (let p = 0; p < 2; p++) {
        const select = bidSelect(`bid-${s}-${p}`, `${name} player ${p + 1} bid`);
        const kept = el("input", { type: "checkbox", "data-test": `kept-${s}-${p}` });
        kept.checked = true;
        const won = el("input", { type: "number", min: "0", max: String(sheet.hand_size), value: "0", "data-test": `niltricks-${s}-${p}` });
        const nil = el("span", { class: "nil", hidden: "" },
          el("label", {}, kept, " kept"), el("label", {}, "tricks won ", won));
        select.addEventListener("change", () => { nil.hidden = !select.value.includes("nil"); });
        box.append(el("div", { class: "player" }, el("label", {}, `Player ${p + 1} `, select), nil));
      }
    }
    box.append(el("label", { class: "tricks" }, "Tricks won ", tricksInput(s)));
    return box;
  });
  $("#entries").replaceChildren(...boxes);
  $("#entries").classList.toggle("alone", sheet.alone);
  $("#renege-line").hidden = noBids;
  $("[data-test=renege]").replaceChildren(el("option", { value: "" }, "nobody"),
    ...names.map((n, i) => el("option", { value: String(i) }, n)));
}

function readTricks(s, name) {
  const tricks = $(`[data-test=tricks-${s}]`).value;
  if (tricks === "") throw new Error(`Enter the tricks ${name} won.`);
  return Number(tricks);
}

function readHand() {
  const { names } = state.game;
  const noBids = withoutBids(formIndex());
  const lines = names.map((name, s) => {
    const tricks = readTricks(s, name);
    if (noBids) return sheet.alone ? { tricks } : { players: [], tricks };
    if (sheet.alone) {
      const bid = $(`[data-test=bid-${s}-0]`).value;
      if (!bid) throw new Error(`Choose the bid of ${name}.`);
      return { bid, tricks };
    }
    const players = [0, 1].map((p) => {
      const bid = $(`[data-test=bid-${s}-${p}]`).value;
      if (!bid) throw new Error(`Choose both bids for ${name}.`);
      const player = { bid };
      if (bid.includes("nil")) {
        player.kept = $(`[data-test=kept-${s}-${p}]`).checked;
        player.nil_tricks = Number($(`[data-test=niltricks-${s}-${p}]`).value || 0);
      }
      return player;
    });
    return { players, tricks };
  });
  const renege = noBids ? "" : $("[data-test=renege]").value;
  return { [sheet.alone ? "players" : "teams"]: lines, renege: renege === "" ? null : Number(renege) };
}

function fillHand(hand) {
  (hand.teams || hand.players).forEach((line, s) => {
    const partners = line.players || (line.bid === undefined || line.bid === null ? [] : [{ bid: line.bid }]);
    partners.forEach((player, p) => {
      const select = $(`[data-test=bid-${s}-${p}]`);
      if (!select) return;
      select.value = player.bid;
      select.dispatchEvent(new Event("change"));
      const kept = $(`[data-test=kept-${s}-${p}]`);
      if (!kept) return;
      kept.checked = player.kept ?? !player.nil_tricks;
      $(`[data-test=niltricks-${s}-${p}]`).value = String(player.nil_tricks || 0);
    });
    $(`[data-test=tricks-${s}]`).value = String(line.tricks);
  });
  $("[data-test=renege]").value = hand.renege === null || hand.renege === undefined ? "" : String(hand.renege);
}

function clearHand() {
  editing = null;
  buildHandForm();
}

async function submitHand(event) {
  event.preventDefault();
  let hand;
  try {
    hand = readHand();
  } catch (e) {
    showError(e.message);
    return;
  }
  const hands = [...state.game.hands];
  if (editing === null) hands.push(hand);
  else hands[editing] = hand;
  const wasEditing = editing;
  editing = null;
  if (await commit({ ...state.game, hands })) clearHand();
  else editing = wasEditing;
  render();
}

// -- rendering ------------------------------------------------------------------------------

function buildScoreboard() {
  const boxes = state.game.names.map((name, s) => {
    const input = el("input", { class: "team-name", "aria-label": `${sheet.alone ? "Player" : "Team"} ${s + 1} name`,
      maxlength: "40", "data-test": `name-${s}` });
    input.addEventListener("change", () => rename(s, input));
    return el("div", { class: "team", "data-team": String(s) }, input,
      el("output", { class: "total", "data-test": `total-${s}` }, "0"), el("span", { class: "bags", "data-test": `bags-${s}` }));
  });
  $("#scoreboard").replaceChildren(...boxes);
  const cols = ["Bid", "Tricks", "Points", "Bags", "Total"];
  $("#hands thead").replaceChildren(
    el("tr", {}, el("th", { rowspan: "2" }, "Hand"),
      ...state.game.names.map((_, s) => el("th", { colspan: String(cols.length), "data-col": `name-${s}` })),
      el("th", { rowspan: "2" })),
    el("tr", {}, ...state.game.names.flatMap(() => cols.map((c) => el("th", {}, c)))));
}

function render() {
  const game = state.game;
  $("#setup").hidden = game !== null;
  $("#game").hidden = game === null;
  renderRecords();
  if (!game || !sheet) return;
  const shape = `${game.names.length} ${sheet.alone ? "alone" : "teams"}`;
  if ($("#scoreboard").dataset.shape !== shape) {  // a new game, maybe at another table
    buildScoreboard();
    $("#scoreboard").dataset.shape = shape;
  }
  const over = sheet.winner !== null;
  game.names.forEach((name, s) => {
    const input = $(`[data-test=name-${s}]`);
    if (document.activeElement !== input) input.value = name;
    $(`[data-test=total-${s}]`).textContent = num(sheet.totals[s]);
    $(`[data-test=bags-${s}]`).textContent = plural(sheet.bags[s], "bag");
    for (const cell of document.querySelectorAll(`[data-col=name-${s}]`)) cell.textContent = name;
    $(`.team[data-team="${s}"]`).classList.toggle("winner", sheet.winner === s);
  });
  $("#status").textContent = sheet.status;
  $("#rules-line").textContent = rulesSummary(game.rules);
  $("#hand-form").hidden = over && editing === null;
  $("#keep").hidden = !over;
  const number = formIndex() + 1;
  const noBids = withoutBids(formIndex()) ? " (no bidding)" : "";
  $("#hand-title").textContent = editing === null ? `Hand ${number}${noBids}` : `Correcting hand ${number}${noBids}`;
  $("[data-test=score-hand]").textContent = editing === null ? "Score the hand" : "Save the correction";
  $("#cancel-edit").hidden = editing === null;
  renderHands();
  drawPlot($("#plot"), state.game.names, sheet.rows.map((r) => r.sides.map((side) => side.total)),
    [[0, "zero"], [sheet.target, "target"]]);
}

/** The game's rules in the API's words: the preset, the target, and each option changed from the preset. */
function rulesSummary(r) {
  const byName = new Map(meta.options.map((o) => [o.name, o]));
  const words = (name, v) => {
    const o = byName.get(name);
    if (!o) return `${name}: ${v}`;
    const shown = o.kind === "bool" ? (v ? "yes" : "no") : o.kind === "choice" ? o.choice_labels[v] ?? v : v ?? "none";
    return `${o.label}: ${shown}`;
  };
  const preset = meta.presets.find((p) => p.name === r.preset);
  const changed = Object.entries(r).filter(([name, v]) => name !== "preset" && name !== "target"
    && (!preset || v !== preset.options[name]));
  const target = r.target ?? (preset ? preset.options.target : null);
  return [`${r.preset ?? "standard"} rules`, ...(target === null ? [] : [words("target", target)]),
    ...changed.map(([name, v]) => words(name, v))].join(" · ");
}

function renderHands() {
  const body = $("#hands tbody");
  body.replaceChildren();
  for (const row of sheet.rows) {
    const tr = el("tr", { "data-hand": String(row.number) });
    if (editing === row.number - 1) tr.classList.add("editing");
    tr.append(el("td", {}, String(row.number)));
    row.sides.forEach((side, s) => {
      tr.append(el("td", { "data-test": `bid-cell-${s}` }, side.bid), el("td", {}, String(side.tricks)),
        el("td", { class: side.points < 0 ? "neg" : "", "data-test": `points-${s}` }, num(side.points, true)),
        el("td", {}, String(side.bags)),
        el("td", { class: "total", "data-test": `row-total-${s}` }, num(side.total)));
    });
    const edit = el("button", { type: "button", "data-test": `edit-${row.number}` }, "Correct");
    edit.addEventListener("click", () => startEdit(row.number - 1));
    const remove = el("button", { type: "button", "data-test": `remove-${row.number}` }, "Remove");
    remove.addEventListener("click", () => removeHand(row.number - 1, remove));
    tr.append(el("td", { class: "actions" }, edit, remove));
    body.append(tr);
    // Nils, penalties and the like in words under the row, where a touch screen shows them too.
    if (row.sides.some((side) => side.notes.length)) {
      body.append(el("tr", { class: "note-row" }, el("td", {}),
        ...row.sides.map((side, s) => el("td", { colspan: "5", "data-test": `notes-${row.number}-${s}` }, side.notes.join("; "))),
        el("td", {})));
    }
  }
}

function startEdit(i) {
  editing = i;
  buildHandForm();
  fillHand(state.game.hands[i]);
  showError("");
  render();
  $("#hand-form").scrollIntoView({ block: "nearest" });
}

async function removeHand(i, button) {
  if (button.dataset.armed !== "yes") {  // a second click confirms: paper lets you cross out, not undo
    button.dataset.armed = "yes";
    button.textContent = "Sure? Remove";
    return;
  }
  const hands = state.game.hands.filter((_, k) => k !== i);
  editing = null;
  if (await commit({ ...state.game, hands })) clearHand();
  render();
}

function renderRecords() {
  const list = $("#records");
  list.replaceChildren();
  $("#records-section").hidden = state.records.length === 0;
  state.records.forEach((rec, i) => {
    const who = rec.winner === null ? "unfinished" : `${rec.names[rec.winner]} won`;
    const count = (rec.game.hands || []).length;
    const scores = rec.names.map((name, s) => `${name} ${num(rec.totals[s] ?? 0)}`).join(", ");
    const pdf = el("button", { type: "button" }, "Score sheet (PDF)");
    pdf.addEventListener("click", () => download(rec.game, "spades-game.pdf"));
    const drop = el("button", { type: "button" }, "Delete");
    drop.addEventListener("click", () => { state.records.splice(i, 1); save(); renderRecords(); });
    list.append(el("li", { "data-test": "record" }, `${rec.date}: ${scores} (${who}, ${plural(count, "hand")}) `,
      pdf, drop));
  });
}

async function download(game, name) {
  try {
    const blob = await api.blob("/api/scorekeeper/score-sheet.pdf", game);
    const a = el("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (e) {
    showError(e.message);
  }
}

/** Move the current game to the kept records (with its result, if the server scored it). */
function keepRecord() {
  const names = state.game.names || [];
  state.records.unshift({ date: new Date().toISOString().slice(0, 10), names,
    totals: sheet ? sheet.totals : names.map(() => 0), winner: sheet ? sheet.winner : null, game: state.game });
  state.game = null;
  sheet = null;
  save();
  render();
}

function newGame(button) {
  if (state.game.hands.length && button.dataset.armed !== "yes") {
    button.dataset.armed = "yes";
    button.textContent = "Sure? Discard this game";
    return;
  }
  button.dataset.armed = "";
  button.textContent = "New game";
  state.game = null;
  sheet = null;
  editing = null;
  save();
  render();
}

async function rename(s, input) {
  const name = input.value.trim();
  if (!name || name === state.game.names[s]) {
    input.value = state.game.names[s];
    return;
  }
  const names = [...state.game.names];
  names[s] = name;
  if (await commit({ ...state.game, names })) {
    buildHandForm();
    if (editing !== null) fillHand(state.game.hands[editing]);
    render();
  } else {
    input.value = state.game.names[s];
  }
}

async function loadRules() {
  meta = await api.get("/api/rules");
  const select = $("[data-test=preset]");
  select.replaceChildren(...meta.presets.map(({ name, table }) =>
    el("option", { value: name }, `${name} (${table.partners ? "two teams" : `${table.seats} players alone`})`)));
  select.value = "standard";
  applyPreset("standard");
  select.addEventListener("change", () => applyPreset(select.value));
}

async function init() {
  $("#setup-form").addEventListener("submit", startGame);
  $("#hand-form").addEventListener("submit", submitHand);
  $("#cancel-edit").addEventListener("click", () => { clearHand(); showError(""); render(); });
  $("#keep").addEventListener("click", keepRecord);
  $("#new-game").addEventListener("click", (e) => newGame(e.currentTarget));
  $("#print-game").addEventListener("click", () => download(state.game, "spades-game.pdf"));
  try {
    await loadRules();
  } catch (e) {
    showError(e.message);
  }
  if (state.game) {
    try {
      sheet = await api.post("/api/scorekeeper/score", state.game);
      buildHandForm();
    } catch {  // a saved game the server refuses (another version): keep it as a record, start anew
      sheet = null;
      keepRecord();
    }
  }
  render();
  document.body.dataset.ready = "yes";
}

init();
