// The scorekeeper page: the game lives in localStorage (no account); the server scores it.
// Every change sends the whole list of hands to POST /api/scorekeeper/score, which rescores
// from the first hand, so a corrected hand rescores all the hands after it. The page never
// scores anything itself: it shows what the server returns, or the server's reason for refusing.
// A game has a score column per team of partners, or per player where each scores alone
// (cutthroat, 3 or 2 players); the server's answer says which, and which bids may be written.

import { api } from "./api.js";
import { el, num } from "./html.js";
import { drawPlot } from "./plot.js";

const KEY = "spades.scorekeeper.v1";  // the stored form is unchanged for two teams: old games still load
const $ = (sel, root = document) => root.querySelector(sel);

let state = load();
let sheet = null;     // the server's last answer for state.game
let editing = null;   // the index of the hand being corrected, or null
let presets = {};     // rules preset name -> its options, from GET /api/rules

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

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

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

const partnersIn = (options) => options.players === 4 && options.partnerships;

function tableText(options) {
  if (partnersIn(options)) return "4 players in two teams of partners: a score per team.";
  const cards = options.players === 3 ? "17 cards each, 17 tricks" : "13 tricks";
  const who = options.players === 4 ? "4 players, each alone (cutthroat)" : `${options.players} players, each alone`;
  return `${who}: a score per player; ${cards}.`;
}

/** Show a preset's options in the form: its table (names per team or player) and its scoring. */
function applyPreset(name) {
  const form = $("#setup-form");
  const o = presets[name];
  if (!o) return;
  const partners = partnersIn(o);
  $("#table-line").textContent = tableText(o);
  const count = partners ? 2 : o.players;
  const names = partners ? ["Us", "Them"] : Array.from({ length: count }, (_, i) => `Player ${i + 1}`);
  $("#names").replaceChildren(...names.map((value, i) => el("label", {},
    `${partners ? "Team" : "Player"} ${i + 1} `, el("input", { name: `name${i}`, value, maxlength: "40", required: "" }))));
  for (const label of form.querySelectorAll("[data-partners]")) label.hidden = !partners;
  const set = (field, value) => { form.elements[field].value = String(value); };
  set("target", o.target);
  set("low_mark", o.low_mark ?? "");
  set("failed_bid", o.failed_bid);
  set("bags", `${o.bag_limit}/${o.bag_penalty}/${o.bag_value}`);
  set("nil", o.nil === "nil" ? o.nil_value : o.nil);
  set("failed_nil_tricks", o.failed_nil_tricks);
  set("blind_nil", o.blind_nil ? `${o.blind_nil_value}/${o.blind_nil_deficit}` : "");
  set("ten", !o.ten_for_two_hundred ? "" : o.ten_for_two_hundred_or_more ? "more" : "exact");
  set("renege_penalty", o.renege_penalty);
  form.elements.board.checked = o.min_team_bid >= 4;
  form.elements.no_bids.checked = o.first_hand_no_bids;
  $("[data-test=score-sheet]").href = `/api/scorekeeper/score-sheet.pdf?rules=${encodeURIComponent(name)}`;
  $("[data-test=rule-sheet]").href = `/api/scorekeeper/rule-sheet.pdf?rules=${encodeURIComponent(name)}`;
}

/** The preset chosen, with the scoring options the form shows over it. */
function rulesFromForm(form) {
  const f = new FormData(form);
  const preset = f.get("preset");
  const partners = partnersIn(presets[preset] || { players: 4, partnerships: true });
  const [bagLimit, bagPenalty, bagValue] = f.get("bags").split("/").map(Number);
  const rules = {
    preset,
    target: Number(f.get("target")),
    low_mark: f.get("low_mark") === "" ? null : Number(f.get("low_mark")),
    failed_bid: f.get("failed_bid"),
    bag_limit: bagLimit, bag_penalty: bagPenalty, bag_value: bagValue,
    renege_penalty: f.get("renege_penalty"),
    first_hand_no_bids: f.get("no_bids") !== null,
  };
  if (partners) {
    rules.failed_nil_tricks = f.get("failed_nil_tricks");
    rules.min_team_bid = f.get("board") ? 4 : 0;
    rules.ten_for_two_hundred = f.get("ten") !== "";
    rules.ten_for_two_hundred_or_more = f.get("ten") === "more";
  }
  const nil = f.get("nil");
  if (nil === "none" || nil === "plain") rules.nil = nil;
  else Object.assign(rules, { nil: "nil", nil_value: Number(nil) });
  const blind = f.get("blind_nil");
  rules.blind_nil = blind !== "";
  if (blind) [rules.blind_nil_value, rules.blind_nil_deficit] = blind.split("/").map(Number);
  return rules;
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
        const won = el("input", { type: "number", min: "0", max: "13", value: "0", "data-test": `niltricks-${s}-${p}` });
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
  drawPlot($("#plot"), state.game.names, sheet.rows.map((r) => r.sides.map((side) => side.total)), sheet.target);
}

function rulesSummary(r) {
  const parts = [sheet.alone ? `${sheet.names.length} players, each alone` : "two teams", `playing to ${r.target}`];
  if (r.low_mark !== null && r.low_mark !== undefined) parts.push(`low mark ${num(r.low_mark)}`);
  parts.push({ minus_bid: "a set loses 10 per trick bid", minus_short: "a set loses 10 per trick short",
    zero: "a set scores nothing" }[r.failed_bid]);
  if (r.bag_value !== 1) parts.push(`${num(r.bag_value, true)} a bag`);
  parts.push(r.bag_penalty ? `every ${r.bag_limit} bags cost ${r.bag_penalty}` : "no bag penalty");
  parts.push({ none: "no nil", plain: "0 is an ordinary bid" }[r.nil] || `nil ${r.nil_value ?? 100}`);
  if (r.blind_nil) parts.push(`blind nil ${r.blind_nil_value}`);
  if (r.ten_for_two_hundred) parts.push("10 for 200");
  if (r.min_team_bid) parts.push(`board ${r.min_team_bid}`);
  if (r.first_hand_no_bids) parts.push("first hand without bidding");
  return parts.join(" · ");
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

async function loadPresets() {
  try {
    for (const p of (await api.get("/api/rules")).presets) presets[p.name] = p.options;
  } catch { /* the form keeps the standard rules it starts with */ }
  const select = $("[data-test=preset]");
  if (Object.keys(presets).length) {
    select.replaceChildren(...Object.entries(presets).map(([name, o]) =>
      el("option", { value: name }, `${name} (${partnersIn(o) ? "two teams" : `${o.players} players alone`})`)));
  }
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
  await loadPresets();
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
