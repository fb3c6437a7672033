// The scorekeeper page: the game lives in localStorage (no account); the server scores it.
// Every change sends the whole list of hands to POST /api/scorekeeper/score, which rescores
// from the first hand, so a corrected hand rescores all the hands after it. The page never
// scores anything itself: it shows what the server returns, or the server's reason for refusing.

const KEY = "spades.scorekeeper.v1";
const SVG = "http://www.w3.org/2000/svg";
const $ = (sel, root = document) => root.querySelector(sel);

let state = load();
let sheet = null;     // the server's last answer for state.game
let editing = null;   // the index of the hand being corrected, or null

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

/** A number as a score sheet prints it, with a true minus sign. */
function num(n, signed = false) {
  const text = String(Math.abs(n));
  if (n < 0) return "−" + text;
  return signed && n > 0 ? "+" + text : text;
}

async function post(path, game) {
  const res = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(game),
  });
  if (!res.ok) {
    let detail = `The server answered ${res.status}.`;
    try { detail = (await res.json()).detail || detail; } catch { /* not JSON */ }
    throw new Error(detail);
  }
  return res;
}

/** Score a candidate game; on success it becomes the game, else the error is shown and nothing changes. */
async function commit(game) {
  try {
    sheet = await (await post("/api/scorekeeper/score", game)).json();
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

function rulesFromForm(form) {
  const f = new FormData(form);
  const [bagLimit, bagPenalty, bagValue] = f.get("bags").split("/").map(Number);
  const rules = {
    target: Number(f.get("target")),
    low_mark: f.get("low_mark") === "" ? null : Number(f.get("low_mark")),
    failed_bid: f.get("failed_bid"),
    bag_limit: bagLimit, bag_penalty: bagPenalty, bag_value: bagValue,
    failed_nil_tricks: f.get("failed_nil_tricks"),
    renege_penalty: f.get("renege_penalty"),
    min_team_bid: f.get("board") ? 4 : 0,
  };
  if (f.get("nil") === "none") rules.nil = "none";
  else rules.nil_value = Number(f.get("nil"));
  const blind = f.get("blind_nil");
  rules.blind_nil = blind !== "";
  if (blind) [rules.blind_nil_value, rules.blind_nil_deficit] = blind.split("/").map(Number);
  rules.ten_for_two_hundred = f.get("ten") !== "";
  rules.ten_for_two_hundred_or_more = f.get("ten") === "more";
  return rules;
}

async function startGame(event) {
  event.preventDefault();
  const form = event.target;
  const f = new FormData(form);
  const game = { rules: rulesFromForm(form), names: [f.get("name0").trim(), f.get("name1").trim()], hands: [] };
  editing = null;
  if (await commit(game)) buildHandForm();
}

// -- the hand form --------------------------------------------------------------------------

function bidOptions(rules) {
  const opts = [["", "bid…"]];
  if (rules.nil !== "none") opts.push(["nil", "nil"]);
  if (rules.blind_nil) opts.push(["blind nil", "blind nil"]);
  for (let n = 1; n <= 13; n++) opts.push([String(n), String(n)]);
  if (rules.ten_for_two_hundred) opts.push(["10 for 200", "10 for 200"]);
  return opts;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

function buildHandForm() {
  const { rules, names } = state.game;
  for (const box of document.querySelectorAll(".team-entry")) {
    const t = Number(box.dataset.team);
    box.replaceChildren(el("legend", { "data-col": `name-${t}` }, names[t]));
    for (let p = 0; p < 2; p++) {
      const select = el("select", { "data-test": `bid-${t}-${p}`, "aria-label": `${names[t]} player ${p + 1} bid` });
      for (const [value, label] of bidOptions(rules)) select.append(el("option", { value }, label));
      const kept = el("input", { type: "checkbox", "data-test": `kept-${t}-${p}` });
      kept.checked = true;
      const won = el("input", { type: "number", min: "0", max: "13", value: "0", "data-test": `niltricks-${t}-${p}` });
      const nil = el("span", { class: "nil", hidden: "" },
        el("label", {}, kept, " kept"), el("label", {}, "tricks won ", won));
      select.addEventListener("change", () => { nil.hidden = !select.value.includes("nil"); });
      box.append(el("div", { class: "player" }, el("label", {}, `Player ${p + 1} `, select), nil));
    }
    box.append(el("label", { class: "tricks" }, "Tricks won ",
      el("input", { type: "number", min: "0", max: "13", "data-test": `tricks-${t}` })));
  }
  const renege = $("[data-test=renege]");
  renege.replaceChildren(el("option", { value: "" }, "nobody"),
    ...names.map((n, i) => el("option", { value: String(i) }, n)));
}

function readHand() {
  const { names } = state.game;
  const teams = [];
  for (let t = 0; t < 2; t++) {
    const players = [];
    for (let p = 0; p < 2; p++) {
      const bid = $(`[data-test=bid-${t}-${p}]`).value;
      if (!bid) throw new Error(`Choose both bids for ${names[t]}.`);
      const player = { bid };
      if (bid.includes("nil")) {
        player.kept = $(`[data-test=kept-${t}-${p}]`).checked;
        player.nil_tricks = Number($(`[data-test=niltricks-${t}-${p}]`).value || 0);
      }
      players.push(player);
    }
    const tricks = $(`[data-test=tricks-${t}]`).value;
    if (tricks === "") throw new Error(`Enter the tricks ${names[t]} won.`);
    teams.push({ players, tricks: Number(tricks) });
  }
  const renege = $("[data-test=renege]").value;
  return { teams, renege: renege === "" ? null : Number(renege) };
}

function fillHand(hand) {
  hand.teams.forEach((team, t) => {
    team.players.forEach((player, p) => {
      const select = $(`[data-test=bid-${t}-${p}]`);
      select.value = player.bid;
      select.dispatchEvent(new Event("change"));
      $(`[data-test=kept-${t}-${p}]`).checked = player.kept ?? !player.nil_tricks;
      $(`[data-test=niltricks-${t}-${p}]`).value = String(player.nil_tricks || 0);
    });
    $(`[data-test=tricks-${t}]`).value = String(team.tricks);
  });
  $("[data-test=renege]").value = hand.renege === null || hand.renege === undefined ? "" : String(hand.renege);
}

function clearHand() {
  buildHandForm();
  editing = null;
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

function render() {
  const game = state.game;
  $("#setup").hidden = game !== null;
  $("#game").hidden = game === null;
  renderRecords();
  if (!game || !sheet) return;
  const over = sheet.winner !== null;
  for (let t = 0; t < 2; t++) {
    const name = $(`[data-test=name-${t}]`);
    if (document.activeElement !== name) name.value = game.names[t];
    $(`[data-test=total-${t}]`).textContent = num(sheet.totals[t]);
    $(`[data-test=bags-${t}]`).textContent = `${sheet.bags[t]} bag${sheet.bags[t] === 1 ? "" : "s"}`;
    for (const cell of document.querySelectorAll(`[data-col=name-${t}]`)) cell.textContent = game.names[t];
    document.querySelector(`.team[data-team="${t}"]`).classList.toggle("winner", sheet.winner === t);
  }
  $("#status").textContent = sheet.status;
  $("#rules-line").textContent = rulesSummary(game.rules);
  $("#hand-form").hidden = over && editing === null;
  $("#keep").hidden = !over;
  $("#hand-title").textContent = editing === null ? `Hand ${game.hands.length + 1}` : `Correcting hand ${editing + 1}`;
  $("[data-test=score-hand]").textContent = editing === null ? "Score the hand" : "Save the correction";
  $("#cancel-edit").hidden = editing === null;
  renderHands();
  renderPlot();
}

function rulesSummary(r) {
  const parts = [`Playing to ${r.target}`];
  if (r.low_mark !== null && r.low_mark !== undefined) parts.push(`low mark ${num(r.low_mark)}`);
  parts.push({ minus_bid: "a set loses 10 per trick bid", minus_short: "a set loses 10 per trick short",
    zero: "a set scores nothing" }[r.failed_bid]);
  parts.push(r.bag_penalty ? `every ${r.bag_limit} bags cost ${r.bag_penalty}` : "no bag penalty");
  parts.push(r.nil === "none" ? "no nil" : `nil ${r.nil_value ?? 100}`);
  if (r.blind_nil) parts.push(`blind nil ${r.blind_nil_value}`);
  if (r.ten_for_two_hundred) parts.push("10 for 200");
  if (r.min_team_bid) parts.push(`board ${r.min_team_bid}`);
  return parts.join(" · ");
}

function renderHands() {
  const body = $("#hands tbody");
  body.replaceChildren();
  for (const row of sheet.rows) {
    const tr = el("tr", { "data-hand": String(row.number) });
    if (editing === row.number - 1) tr.classList.add("editing");
    tr.append(el("td", {}, String(row.number)));
    row.sides.forEach((team, t) => {
      const notes = team.notes.join("; ");
      tr.append(el("td", { title: notes }, team.bid), el("td", {}, String(team.tricks)),
        el("td", { class: team.points < 0 ? "neg" : "", title: notes, "data-test": `points-${t}` }, num(team.points, true)),
        el("td", {}, String(team.bags)),
        el("td", { class: "total", "data-test": `row-total-${t}` }, num(team.total)));
    });
    const edit = el("button", { type: "button", "data-test": `edit-${row.number}` }, "Correct");
    edit.addEventListener("click", () => startEdit(row.number - 1));
    const remove = el("button", { type: "button", "data-test": `remove-${row.number}` }, "Remove");
    remove.addEventListener("click", () => removeHand(row.number - 1, remove));
    tr.append(el("td", { class: "actions" }, edit, remove));
    body.append(tr);
  }
}

function startEdit(i) {
  buildHandForm();
  editing = i;
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

function renderPlot() {
  const fig = $("#plot");
  const W = 640, H = 260, L = 48, R = 16, T = 14, B = 30;
  const series = [0, 1].map((t) => [0, ...sheet.rows.map((r) => r.sides[t].total)]);
  const all = [...series.flat(), 0, sheet.target];
  const lo = Math.min(...all), hi = Math.max(...all);
  const n = Math.max(1, sheet.rows.length);
  const x = (i) => L + (i / n) * (W - L - R);
  const y = (v) => T + ((hi - v) / (hi - lo || 1)) * (H - T - B);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Both teams' running scores after each hand");
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  for (const [v, cls] of [[0, "zero"], [sheet.target, "target"]]) {
    add("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: cls });
    add("text", { x: L - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, num(v));
  }
  for (let i = 0; i <= n; i++) {
    if (n <= 20 || i % 5 === 0) add("text", { x: x(i), y: H - 10, class: "axis", "text-anchor": "middle" }, String(i));
  }
  series.forEach((values, t) => {
    const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    add("polyline", { points, class: `line team${t}`, "data-test": `plot-line-${t}`,
      "data-values": values.join(",") });
    values.forEach((v, i) => add("circle", { cx: x(i), cy: y(v), r: 3.2, class: `dot team${t}` }));
  });
  const legend = el("figcaption", {},
    ...state.game.names.map((name, t) => el("span", { class: `key team${t}` }, name)), " · hands along the bottom");
  fig.replaceChildren(svg, legend);
}

function renderRecords() {
  const list = $("#records");
  list.replaceChildren();
  $("#records-section").hidden = state.records.length === 0;
  state.records.forEach((rec, i) => {
    const [a, b] = rec.names;
    const who = rec.winner === null ? "unfinished" : `${rec.names[rec.winner]} won`;
    const count = (rec.game.hands || []).length;
    const pdf = el("button", { type: "button" }, "Score sheet (PDF)");
    pdf.addEventListener("click", () => download(rec.game, "spades-game.pdf"));
    const drop = el("button", { type: "button" }, "Delete");
    drop.addEventListener("click", () => { state.records.splice(i, 1); save(); renderRecords(); });
    list.append(el("li", { "data-test": "record" },
      `${rec.date}: ${a} ${num(rec.totals[0])}, ${b} ${num(rec.totals[1])} (${who}, ${count} hand${count === 1 ? "" : "s"}) `,
      pdf, drop));
  });
}

async function download(game, name) {
  try {
    const blob = await (await post("/api/scorekeeper/score-sheet.pdf", game)).blob();
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
  state.records.unshift({ date: new Date().toISOString().slice(0, 10), names: state.game.names || ["?", "?"],
    totals: sheet ? sheet.totals : [0, 0], winner: sheet ? sheet.winner : null, game: state.game });
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

async function rename(t, input) {
  const name = input.value.trim();
  if (!name || name === state.game.names[t]) {
    input.value = state.game.names[t];
    return;
  }
  const names = [...state.game.names];
  names[t] = name;
  if (await commit({ ...state.game, names })) {
    const keep = editing;
    buildHandForm();
    editing = keep;
    if (keep !== null) fillHand(state.game.hands[keep]);
    render();
  }
}

async function init() {
  $("#setup-form").addEventListener("submit", startGame);
  $("#hand-form").addEventListener("submit", submitHand);
  $("#cancel-edit").addEventListener("click", () => { clearHand(); showError(""); render(); });
  $("#keep").addEventListener("click", keepRecord);
  $("#new-game").addEventListener("click", (e) => newGame(e.currentTarget));
  $("#print-game").addEventListener("click", () => download(state.game, "spades-game.pdf"));
  for (let t = 0; t < 2; t++) {
    const input = $(`[data-test=name-${t}]`);
    input.addEventListener("change", () => rename(t, input));
  }
  if (state.game) {
    try {
      sheet = await (await post("/api/scorekeeper/score", state.game)).json();
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
