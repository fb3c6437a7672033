// The table: renders the server's state for South, sends intents, animates the computer players.

import { api, ApiError, ensureToken } from "./api.js";
import { cardBack, cardFace, cardName, shortName, suitClass } from "./cards.js";
import { play as sound } from "./sound.js";

const SPEED_MS = { slow: 1000, normal: 550, fast: 160, instant: 0 };
// How long a finished trick stays on the table before the next one starts; at "instant", until a tap or a key.
const TRICK_MS = { slow: 2400, normal: 1500, fast: 800, instant: null };
const $ = (id) => document.getElementById(id);

let state = null;        // the last GameState the server sent
let settings = null;     // the player's settings
let rulesMeta = null;    // presets, options and levels, for the settings form
let busy = false;        // true while a request or an animation runs
let selected = new Set(); // cards chosen for a pass
let hintCard = null;
let hintBid = null;
let hintMove = null;
let news = "";           // what the others did since your last move that the table no longer shows: bids, a misdeal
let shownReview = null;  // the finished hand the score sheet shows face up, or null
let bidKeys = "";
let bidKeyTimer = null;
let pendingLeave = null;  // what the "leave this game?" question will do if confirmed
let usingKeys = false;    // whether the player's last input was a key rather than a pointer
let swallowClick = false; // the pointer gesture under way ended a finished trick's hold, so its click does nothing

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function say(text) {
  $("message").textContent = text;
}

function seatOf(seat) {
  return state.seats[seat];
}

function myTurn() {
  return state && state.turn === state.human && !["hand_over", "game_over"].includes(state.phase);
}

// -- rendering ------------------------------------------------------------------------------

function render(overlay = null) {
  if (!state) return;
  const bids = overlay ? overlay.bids : state.seats.map((s) => s.bid);
  const tricks = overlay ? overlay.tricks : state.seats.map((s) => s.tricks);
  // Between tricks the one just won stays on the table, its winner marked, until the next card is played.
  const done = !overlay && state.trick.length === 0 && state.last_trick && state.phase !== "draw";
  const trick = overlay ? overlay.trick : done ? state.last_trick.cards : state.trick;
  const winner = overlay ? overlay.winner : done ? state.last_trick.winner : null;
  const turn = overlay ? null : state.turn;

  $("deal-label").textContent = state.daily ? `Daily Deal ${state.daily} · #${state.deal}` : `Deal #${state.deal}`;
  $("scores").innerHTML = state.sides.map((side) => {
    const c = contract(side, bids, tricks);
    return `
    <div class="score ${side.side === state.human_side ? "mine" : ""}" data-side="${side.side}" role="group"
         aria-label="${esc(side.name)}: ${side.score} points, ${side.bags} bags${c ? `, ${c} tricks bid won` : ""}">
      <span class="team">${esc(side.name)}</span>
      <span class="points">${side.score}</span>
      <span class="bags">bags ${side.bags}</span>${c ? `<span class="contract">won ${c}</span>` : ""}
    </div>`;
  }).join("") + `<div class="target">to ${state.target}</div>`;

  for (const pos of ["top", "left", "right", "bottom"]) $(`seat-${pos}`).innerHTML = "";
  for (const s of state.seats) {
    const el = $(`seat-${s.position}`);
    const bid = bids[s.seat];
    const backs = s.human ? "" : `<div class="backs" aria-hidden="true">${cardBack().repeat(Math.min(s.cards, 13))}</div>`;
    const nilBroken = ["nil", "blind nil"].includes(bid) && tricks[s.seat] > 0;
    el.className = `seat pos-${s.position}${turn === s.seat ? " turn" : ""}${winner === s.seat ? " won" : ""}${nilBroken ? " nil-broken" : ""}`;
    el.setAttribute("role", "group");
    el.setAttribute("aria-label", `${s.name}: ${bid === null ? "no bid yet" : "bid " + bid}, ${tricks[s.seat]} trick${tricks[s.seat] === 1 ? "" : "s"} won${turn === s.seat ? ", to play" : ""}`);
    el.innerHTML = `
      <div class="nameplate">
        <span class="name">${esc(s.name)}${state.dealer === s.seat ? ' <span class="dealer" title="Dealer">D</span>' : ""}</span>
        <span class="bidline"><span class="bid">Bid ${bid === null ? "–" : esc(bid)}</span>
        <span class="won-count">Won ${tricks[s.seat]}</span></span>
      </div>${backs}`;
  }

  $("felt").className = `felt players-${state.players}${state.phase === "bid" ? " bidding" : ""}`;
  const byPos = {};
  for (const p of trick) byPos[seatOf(p.seat).position] = p;
  const drawing = overlay ? overlay.kind === "draw" && state.phase === "draw" : state.phase === "draw";
  $("trick").innerHTML = drawing ? drawPileHtml(!overlay) : Object.entries(byPos).map(([pos, p]) => `
    <div class="played at-${pos}${winner === p.seat ? " winner" : ""}${done ? " done" : ""}" data-card="${p.card}" role="img"
         aria-label="${esc(seatOf(p.seat).name)}: ${cardName(p.card)}${winner === p.seat ? ", takes the trick" : ""}">${cardFace(p.card)}</div>`).join("");

  renderHand(overlay !== null);
  renderPanel(overlay !== null);
  $("btn-last").disabled = !state.last_trick;
  $("btn-sheet").disabled = state.sheet.length === 0;
}

// The two-player draw, in the middle of the table: the stock, and the card(s) offered to you
// (not while the draws just made are being shown).
function drawPileHtml(showOffered) {
  const offered = (showOffered && myTurn() ? state.offered : []).map((c) => `
    <div class="offered" data-card="${c}" role="img" aria-label="Offered to you: ${cardName(c)}">${cardFace(c)}</div>`).join("");
  return `<div class="draw-pile"><div class="stock" role="img" aria-label="Stock: ${state.stock} cards left">${cardBack()}
    <span class="stock-count" aria-hidden="true">${state.stock} left</span></div>${offered}</div>`;
}

// A partnership's progress this hand, "3 of 7" (tricks won of tricks bid), once both partners have bid;
// 10 for 200 is the team's whole bid.
function contract(side, bids, tricks) {
  if (side.seats.length < 2 || !["bid", "play"].includes(state.phase)) return "";
  const sideBids = side.seats.map((s) => bids[s]);
  if (sideBids.some((b) => b === null)) return "";
  const bid = sideBids.includes("10 for 200") ? 10 : sideBids.reduce((t, b) => t + (parseInt(b, 10) || 0), 0);
  const won = side.seats.reduce((t, s) => t + tricks[s], 0);
  return `${won} of ${bid}`;
}

// While the computer players' moves are shown no card is playable, so none is dimmed either.
function renderHand(animating) {
  const hand = $("hand");
  const playing = !animating && state.phase === "play" && myTurn();
  const passing = !animating && state.phase === "pass" && myTurn();
  const legal = new Set(state.legal);
  let cards = state.hand;
  if (cards.length === 0 && state.phase === "bid" && state.can_look) {
    hand.innerHTML = `<div class="hidden-hand">${cardBack().repeat(state.seats[state.human].cards)}</div>`;
    return;
  }
  hand.innerHTML = cards.map((c, i) => {
    const dim = playing && !legal.has(c);
    const cls = ["card", suitClass(c)];
    if (dim) cls.push("dim");
    if (playing && legal.has(c)) cls.push("legal");
    if (passing && selected.has(c)) cls.push("selected");
    if (hintCard === c) cls.push("hint");
    if (state.received.includes(c)) cls.push("received");
    const label = `${cardName(c)}${dim ? ", cannot be played now" : ""}${hintCard === c ? ", suggested" : ""}`;
    return `<button type="button" class="${cls.join(" ")}" data-card="${c}" data-index="${i}"
      aria-label="${label}" tabindex="${i === 0 ? 0 : -1}">${cardFace(c)}</button>`;
  }).join("");
  hand.style.setProperty("--count", cards.length);
}

function bidLabel(b) {
  if (b === "nil") return "Nil";
  if (b === "blind nil") return "Blind Nil";
  return b;
}

function renderPanel(animating) {
  const panel = $("panel");
  if (animating) { panel.innerHTML = ""; return; }
  const t = state.last_trick;
  const justWon = state.phase === "play" && !state.trick.length && t;
  say([news, justWon ? `${seatOf(t.winner).name} took the trick.` : "", state.message].filter(Boolean).join(" "));
  const parts = [];
  if (myTurn() && state.phase === "bid") {
    const bids = state.legal_bids.map((b) => `<button type="button" class="bid-btn${hintBid === b ? " hint" : ""}"
        data-bid="${esc(b)}" aria-label="Bid ${esc(bidLabel(b))}">${esc(bidLabel(b))}</button>`).join("");
    parts.push(`<div class="bids" role="group" aria-label="Your bid">${bids}</div>`);
    if (state.can_look) parts.push(actionButton("look", "Look at my cards", "primary"));
    if (state.can_misdeal) parts.push(actionButton("misdeal", "Call a misdeal (no spades)"));
  } else if (myTurn() && state.phase === "pass") {
    parts.push(`<button type="button" class="action primary" id="btn-pass" ${selected.size === state.pass_count ? "" : "disabled"}>
      Pass ${selected.size}/${state.pass_count} card${state.pass_count > 1 ? "s" : ""}</button>`);
  } else if (myTurn() && state.phase === "draw") {
    const [first, second] = state.offered.map(cardName);
    const buttons = state.offered.length === 1
      ? actionButton("draw keep", `Keep the ${first}`) + actionButton("draw refuse", "Refuse it")
      : actionButton("draw keep", `Keep the ${first}`) + actionButton("draw refuse", `Keep the ${second}`);
    parts.push(`<div class="draw">${buttons}</div>`);
  } else if (state.phase === "hand_over") {
    parts.push(`<button type="button" class="action primary" id="btn-panel-next">Next hand</button>`);
  } else if (state.phase === "game_over") {
    parts.push(`<button type="button" class="action primary" id="btn-panel-new">New Game</button>`);
  }
  if (state.passed.length || state.received.length) {
    parts.push(`<p class="passinfo">${state.passed.length ? "You passed " + state.passed.map(cardName).join(", ") + ". " : ""}${
      state.received.length ? "You received " + state.received.map(cardName).join(", ") + "." : ""}</p>`);
  }
  panel.innerHTML = parts.join("");
}

function actionButton(move, label, style = "") {
  return `<button type="button" class="action ${style}${hintMove === move ? " hint" : ""}" data-move="${move}">${label}</button>`;
}

// The score sheet, read like a paper score pad: per side the bid, tricks, this hand's points and bags,
// the bags held and the running total; a hand's nils and bag penalties on a line of words under its row.
// As many sides side by side as fit without scrolling sideways, the rest in tables below; a legend last.
const SHEET_COLUMNS = ["Bid", "Tricks", "Points", "Bags", "Bags held", "Total"];

function fillSheet() {
  const body = $("sheet-body");
  for (let perTable = state.sides.length; perTable >= 1; perTable--) {
    body.innerHTML = sheetTable(perTable);
    if ([...body.querySelectorAll(".sheet-wrap")].every((w) => w.scrollWidth <= w.clientWidth)) return;
  }
}

function sheetTable(perTable) {
  if (!state.sheet.length) return "<p>No hand has been scored yet.</p>";
  const groups = [];
  for (let i = 0; i < state.sides.length; i += perTable) groups.push(state.sides.slice(i, i + perTable));
  return groups.map((sides, g) => sheetPart(sides, g === 0)).join("") + sheetLegend();
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

// What happened beyond the contract, in words: nils, and the bags that cost a penalty.
function sheetNotes(r) {
  const notes = r.nil ? [r.nil] : [];
  const { bag_limit: limit, bag_penalty: penalty } = state.rules;
  if (r.penalties) notes.push(`${limit * Math.round(r.penalties / penalty)} bags reached, ${signed(-r.penalties)}`);
  return notes.join("; ");
}

function sheetPart(sides, links) {
  const cols = SHEET_COLUMNS.length;
  const head = sides.map((s) => `<th colspan="${cols}" scope="colgroup">${esc(s.name)}</th>`).join("");
  const sub = sides.map(() => SHEET_COLUMNS.map((c) => `<th scope="col">${c}</th>`).join("")).join("");
  const rows = state.sheet.map((line, i) => {
    const rs = sides.map((s) => line[s.side]);
    const notes = rs.map(sheetNotes);
    const noted = notes.some(Boolean);
    const hand = links ? `<button type="button" class="hand-link" data-hand="${i}" aria-label="Review hand ${i + 1}">${i + 1}</button>` : i + 1;
    const cells = rs.map((r) => `<td class="bid">${esc(r.bid.split(" + ").map(bidLabel).join(" + "))}</td><td>${r.tricks}</td><td>${signed(r.points)}</td>
      <td>${r.bags ? `+${r.bags}` : "0"}</td><td>${r.bags_total}</td><td class="total">${String(r.total).replace("-", "−")}</td>`).join("");
    const noteRow = noted ? `<tr class="note-row">${notes.map((n) => `<td colspan="${cols}">${esc(n)}</td>`).join("")}</tr>` : "";
    return `<tr${noted ? ' class="noted"' : ""}><th scope="row"${noted ? ' rowspan="2"' : ""}>${hand}</th>${cells}</tr>${noteRow}`;
  }).join("");
  return `<div class="sheet-wrap"><table class="sheet"><thead><tr><th rowspan="2" scope="col">Hand</th>${head}</tr><tr>${sub}</tr></thead>
    <tbody>${rows}</tbody></table></div>`;
}

function sheetLegend() {
  const { bag_limit: limit, bag_penalty: penalty } = state.rules;
  const held = penalty ? `Bags held carry over: each time they reach ${limit}, ${penalty} points are taken off.`
    : "Bags held carry over from hand to hand.";
  return `<p class="sheet-legend">Points and Bags are this hand's (bags are tricks won over the bid). ${held}</p>`;
}

function reviewHtml(r) {
  if (!r) return "";
  const n = state.seats.length;
  const inPlayOrder = state.seats.map((_, i) => state.seats[(state.human + i) % n]);  // you, then clockwise
  const hands = inPlayOrder.map((s) => `<div class="review-hand"><h3>${esc(s.name)}</h3>
    <div class="mini-cards">${r.dealt[s.seat].map((c) => `<span class="mini ${suitClass(c)}" role="img" aria-label="${cardName(c)}">${cardFace(c)}</span>`).join("")}</div></div>`).join("");
  const tricks = r.tricks.map((t, i) => `<li>Trick ${i + 1}: ${t.cards.map((p) => `${esc(seatOf(p.seat).name)} <span class="${suitClass(p.card)}" aria-label="${cardName(p.card)}">${shortName(p.card)}</span>`).join(", ")}
    — <strong>${esc(seatOf(t.winner).name)}</strong></li>`).join("");
  const aside = r.set_aside.length ? `<p>Set aside: ${r.set_aside.map((c) => `<span class="${suitClass(c)}" aria-label="${cardName(c)}">${shortName(c)}</span>`).join(" ")}</p>` : "";
  return `<h3>Hand ${r.number + 1}, all hands</h3><div class="review">${hands}</div>${aside}<ol class="trick-list">${tricks}</ol>`;
}

function openSheet() {
  $("review-body").innerHTML = reviewHtml(shownReview);
  $("btn-review").hidden = !state.review;
  $("btn-review").textContent = shownReview ? "Hide all hands" : "Show all hands";
  $("btn-next").hidden = state.phase !== "hand_over";
  const opening = !$("dlg-sheet").open;
  if (opening) $("dlg-sheet").showModal();
  fillSheet();  // once open, so the tables can be measured
  if (opening && state.phase === "hand_over") $("btn-next").focus();  // Enter deals on
}

function openEnd() {
  const won = state.winner === state.human_side;
  $("end-title").textContent = won ? "You win!" : "Game over";
  const n = state.sheet.length;
  const after = `Final scores after ${n} hand${n === 1 ? "" : "s"}:`;
  $("end-text").textContent = won ? after : `${state.message} ${after}`;
  $("end-scores").innerHTML = state.sides.map((s) => `<p class="end-score">${esc(s.name)}: <strong>${s.score}</strong></p>`).join("");
  if (!$("dlg-end").open) {
    $("dlg-end").showModal();
    $("btn-end-new").focus();
  }
}

function afterState() {
  render();
  if (state.phase === "hand_over") openSheet();
  else if (state.phase === "game_over") openEnd();
  else if (myTurn()) {
    sound("turn", settings.sounds);
    if (usingKeys) focusFirst();
  }
}

// Focus follows the turn for keyboard players only: for a mouse or a finger, a focused card or
// bid button would look like a suggestion.
function focusFirst() {
  if (state.phase === "bid") {
    const b = document.querySelector(".bid-btn");
    if (b) b.focus();
  } else if (state.phase === "play") {
    const c = document.querySelector("#hand .card.legal") || document.querySelector("#hand .card");
    if (c) { c.tabIndex = 0; c.focus(); }
  }
}

// -- talking to the server --------------------------------------------------------------------

async function animate(events) {
  const pause = SPEED_MS[settings.speed] ?? 500;
  for (const [i, ev] of events.entries()) {
    render(ev);
    say(ev.text);
    sound(ev.kind === "play" ? (ev.winner !== null ? "trick" : "card") : "card", settings.sounds);
    // A finished trick is held unless it simply stays on the table for the player's own lead.
    const stays = i === events.length - 1 && state.phase === "play" && state.trick.length === 0;
    if (ev.winner !== null && !stays) await holdTrick(ev.text);
    else if (pause) await sleep(pause);
  }
}

// Keep a finished trick in view: for the speed's time, or at "instant" until a tap or a key.
// The tap or key that ends a hold does nothing else, so it cannot play a card unseen.
function holdTrick(text) {
  const ms = settings.speed in TRICK_MS ? TRICK_MS[settings.speed] : TRICK_MS.normal;
  if (ms === null) {
    say(text);
    const label = state.phase === "play" ? "Next trick" : "See the score";
    $("panel").innerHTML = `<button type="button" class="action primary" id="btn-go">${label}</button>`;
    document.body.classList.add("holding");
    if (usingKeys) $("btn-go").focus();
  }
  return new Promise((resolve) => {
    const done = (e) => {
      if (e) { e.preventDefault(); e.stopPropagation(); swallowClick = e.type === "pointerdown"; }
      clearTimeout(timer);
      document.removeEventListener("pointerdown", done, true);
      document.removeEventListener("keydown", done, true);
      document.body.classList.remove("holding");
      resolve();
    };
    const timer = ms === null ? null : setTimeout(done, ms);
    document.addEventListener("pointerdown", done, true);
    document.addEventListener("keydown", done, true);
  });
}

async function run(request) {
  if (busy) return;
  busy = true;
  document.body.classList.add("busy");
  try {
    const out = await request();
    hintCard = hintBid = hintMove = null;
    selected = new Set();
    if (out && out.state) {
      const fresh = !state || state.id !== out.state.id;
      state = out.state;
      if (fresh) syncAddress();
      const events = out.events || [];
      news = "";
      await animate(events);
      news = newsOf(events);
      afterState();
    }
  } catch (e) {
    news = "";
    if (e instanceof ApiError && e.state) {
      state = e.state;
      afterState();
    }
    say(e instanceof ApiError ? e.message : "The server cannot be reached. Try again in a moment.");
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

// A misdeal, then the bids the others made since: the seats show the bids, this says who made them in what order.
function newsOf(events) {
  const cut = events.findLastIndex((ev) => ev.kind === "misdeal");
  const bids = events.slice(cut + 1).filter((ev) => ev.kind === "bid" && ev.seat !== state.human);
  return [...(cut >= 0 ? [events[cut]] : []), ...bids].map((ev) => ev.text).join(" ");
}

function syncAddress() {
  const url = new URL(location.href);
  url.searchParams.set("deal", String(state.deal));
  history.replaceState(null, "", url);
}

function sendMove(move) {
  const version = state.version;
  return run(() => api.post(`/api/games/${state.id}/moves`, { move, version }));
}

function localDate() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function closeDialogs() {
  for (const d of document.querySelectorAll("dialog[open]")) d.close();
}

function newGame(body) {
  closeDialogs();
  shownReview = null;
  return run(() => api.post("/api/games", body));
}

// -- input ------------------------------------------------------------------------------------

function onCard(card) {
  if (busy || !state) return;
  if (state.phase === "pass" && myTurn()) {
    if (selected.has(card)) selected.delete(card);
    else if (selected.size < state.pass_count) selected.add(card);
    render();
    const el = document.querySelector(`#hand .card[data-card="${card}"]`);
    if (el) el.focus();
    return;
  }
  if (state.phase !== "play") { say(state.message || "It is not time to play a card."); return; }
  if (!myTurn()) { say(`Wait: it is ${seatOf(state.turn).name}'s turn.`); return; }
  if (!state.legal.includes(card)) {
    say(state.reasons[card] || "You cannot play that card now.");
    return;
  }
  sendMove(`play ${card}`);
}

function onHandKey(e) {
  const cards = [...document.querySelectorAll("#hand .card")];
  const i = cards.indexOf(document.activeElement);
  if (i < 0) return;
  let j = null;
  if (e.key === "ArrowRight" || e.key === "ArrowDown") j = Math.min(cards.length - 1, i + 1);
  if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = Math.max(0, i - 1);
  if (e.key === "Home") j = 0;
  if (e.key === "End") j = cards.length - 1;
  if (j !== null) {
    e.preventDefault();
    cards[i].tabIndex = -1;
    cards[j].tabIndex = 0;
    cards[j].focus();
  }
}

function onBidKey(e) {
  if (!state || state.phase !== "bid" || !myTurn() || e.target.tagName === "INPUT" || document.querySelector("dialog[open]")) return;
  if (e.key === "n" || e.key === "N") { focusBid("nil"); return; }
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
  if (step) {  // among the bid buttons, or into them; the hand has its own arrows
    const bids = [...document.querySelectorAll(".bid-btn")];
    const i = bids.indexOf(document.activeElement);
    if (i < 0 && document.activeElement.closest("#hand")) return;
    const next = bids[i < 0 ? 0 : Math.min(bids.length - 1, Math.max(0, i + step))];
    if (next) { e.preventDefault(); next.focus(); }
    return;
  }
  if (!/^[0-9]$/.test(e.key)) return;
  bidKeys += e.key;
  clearTimeout(bidKeyTimer);
  bidKeyTimer = setTimeout(() => { bidKeys = ""; }, 900);
  const value = String(Number(bidKeys));
  if (!focusBid(value === "0" ? "nil" : value)) { bidKeys = e.key; focusBid(e.key === "0" ? "nil" : e.key); }
}

function focusBid(bid) {
  const b = document.querySelector(`.bid-btn[data-bid="${bid}"]`);
  if (b) b.focus();
  return Boolean(b);
}

// A hint in the words of the table: the card's name, the bid, or the label of the button to press.
function hintText(h) {
  if (h.card) return cardName(h.card);
  if (h.bid) return "bid " + bidLabel(h.bid);
  if (h.move.startsWith("pass ")) return "pass the " + h.move.slice(5).split(" ").map(cardName).join(" and the ");
  const button = document.querySelector(`#panel [data-move="${h.move}"]`);
  return button ? button.textContent.trim() : h.move;
}

async function showHint() {
  if (!state || busy) return;
  if (!myTurn()) { say("There is nothing for you to do right now."); return; }
  try {
    const h = await api.get(`/api/games/${state.id}/hint`);
    hintCard = h.card;
    hintBid = h.bid;
    hintMove = h.move;
    if (state.phase === "pass" && h.move.startsWith("pass ")) selected = new Set(h.move.slice(5).split(" "));
    render();
    say(`Hint: ${hintText(h)}. ${h.reason}`);
  } catch (e) {
    if (e instanceof ApiError && e.state) { state = e.state; render(); }
    say(e.message);
  }
}

function showLast() {
  const t = state && state.last_trick;
  if (!t) return;
  $("last-body").innerHTML = t.cards.map((p) => `<figure class="last-card${p.seat === t.winner ? " winner" : ""}" role="img"
      aria-label="${esc(seatOf(p.seat).name)}: ${cardName(p.card)}${p.seat === t.winner ? ", won the trick" : ""}">
      ${cardFace(p.card)}<figcaption>${esc(seatOf(p.seat).name)}${p.seat === t.winner ? " — won" : ""}</figcaption></figure>`).join("");
  $("dlg-last").showModal();
}

async function showStats() {
  const s = await api.get("/api/stats");
  const rate = s.played ? `${Math.round(s.win_rate * 100)}%` : "–";
  $("stats-body").innerHTML = `
    <dt>Games played</dt><dd data-stat="played">${s.played}</dd>
    <dt>Games won</dt><dd data-stat="won">${s.won}</dd>
    <dt>Win rate</dt><dd data-stat="win_rate">${rate}</dd>
    <dt>Best final score</dt><dd data-stat="best_score">${s.best_score ?? "–"}</dd>
    <dt>Current win streak</dt><dd data-stat="streak">${s.streak}</dd>
    <dt>Best win streak</dt><dd data-stat="best_streak">${s.best_streak}</dd>`;
  $("dlg-stats").showModal();
}

// -- settings -----------------------------------------------------------------------------------

function applySettings() {
  const body = document.body;
  body.className = body.className.replace(/\b(table|back)-\w+/g, "").trim();
  body.classList.add(`table-${settings.table_color}`, `back-${settings.card_back}`);
  body.classList.toggle("four-color", settings.four_color);
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

function fillRuleOptions(values) {
  const known = new Map(RULE_GROUPS.flatMap(([, names]) => Object.entries(names)));
  const groups = [...RULE_GROUPS, ["Other", Object.fromEntries(rulesMeta.options.filter((o) => !known.has(o.name)).map((o) => [o.name, optionLabel(o.name)]))]];
  const byName = new Map(rulesMeta.options.map((o) => [o.name, o]));
  $("rule-options").innerHTML = groups.map(([group, names]) => {
    const rows = Object.entries(names).filter(([name]) => byName.has(name)).map(([name, label]) => `
      <label class="opt"><span>${esc(label)}</span>${optionInput(byName.get(name), values[name])}</label>`).join("");
    return rows ? `<details class="rule-group" data-group="${group}"><summary>${group}<span class="changed"></span></summary>
      <div class="opts">${rows}</div></details>` : "";
  }).join("");
  markChanged();
}

// Each group's heading says how many of its options differ from the chosen preset.
function markChanged() {
  const changed = Object.keys(readRuleOptions());
  for (const g of document.querySelectorAll(".rule-group")) {
    const n = changed.filter((name) => g.querySelector(`[data-option="${name}"]`)).length;
    g.querySelector(".changed").textContent = n ? ` · ${n} changed` : "";
  }
}

function presetValues(name) {
  return rulesMeta.presets.find((p) => p.name === name).options;
}

async function openSettings() {
  if (!rulesMeta) rulesMeta = await api.get("/api/rules");
  const f = $("settings-form");
  for (const key of ["table_color", "card_back", "speed"]) f.elements[key].value = settings[key];
  for (const key of ["four_color", "sounds", "auto_play", "bots_bid_nil"]) f.elements[key].checked = settings[key];
  $("level-select").innerHTML = rulesMeta.levels.map((l) => `<option ${l === settings.level ? "selected" : ""}>${l}</option>`).join("");
  $("preset-select").innerHTML = rulesMeta.presets.map((p) => `<option ${p.name === settings.rules.preset ? "selected" : ""}>${p.name}</option>`).join("");
  fillRuleOptions({ ...presetValues(settings.rules.preset), ...settings.rules.options });
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

async function saveSettings() {
  try {
    settings = await api.put("/api/settings", readSettings());
    applySettings();
    $("dlg-settings").close();
    say("Settings saved. New rules apply from the next new game.");
    render();
  } catch (e) {
    $("settings-error").textContent = e.message;
  }
}

// -- start --------------------------------------------------------------------------------------

function wire() {
  document.addEventListener("click", (e) => {
    if (swallowClick) { e.preventDefault(); e.stopPropagation(); swallowClick = false; }
  }, true);
  document.addEventListener("keydown", () => { usingKeys = true; }, true);
  document.addEventListener("pointerdown", () => { usingKeys = false; swallowClick = false; }, true);
  $("hand").addEventListener("click", (e) => {
    const b = e.target.closest(".card");
    if (b) onCard(b.dataset.card);
  });
  $("hand").addEventListener("keydown", onHandKey);
  document.addEventListener("keydown", onBidKey);
  $("panel").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b || busy) return;
    if (b.dataset.bid) sendMove(`bid ${b.dataset.bid}`);
    else if (b.dataset.move) sendMove(b.dataset.move);
    else if (b.id === "btn-pass") sendMove(`pass ${[...selected].join(" ")}`);
    else if (b.id === "btn-panel-next") nextHand();
    else if (b.id === "btn-panel-new") newGame({});
  });
  $("btn-hint").addEventListener("click", showHint);
  $("btn-last").addEventListener("click", showLast);
  $("btn-sheet").addEventListener("click", () => { shownReview = null; openSheet(); });
  addEventListener("resize", () => { if ($("dlg-sheet").open) fillSheet(); });  // a phone turned sideways
  $("sheet-body").addEventListener("click", async (e) => {
    const b = e.target.closest("[data-hand]");
    if (!b) return;
    try {
      shownReview = await api.get(`/api/games/${state.id}/hands/${b.dataset.hand}`);
      openSheet();
    } catch (err) {
      $("review-body").textContent = err.message;
    }
  });
  $("btn-restart").addEventListener("click", () => state && confirmLeave("Restart", "start this deal again from the first hand", newGameRestart));
  $("btn-new").addEventListener("click", () => confirmLeave("New Game", "deal a new game", () => newGame({})));
  $("btn-daily").addEventListener("click", () => {
    const daily = localDate();
    const go = () => newGame({ daily, resume: true });
    if (state && state.daily === daily) go();
    else confirmLeave("Daily Deal", "play today's deal", go);
  });
  $("btn-confirm").addEventListener("click", () => {
    $("dlg-confirm").close();
    const action = pendingLeave;
    pendingLeave = null;
    if (action) action();
  });
  $("btn-stats").addEventListener("click", showStats);
  $("btn-settings").addEventListener("click", openSettings);
  $("btn-settings-save").addEventListener("click", saveSettings);
  $("preset-select").addEventListener("change", (e) => fillRuleOptions(presetValues(e.target.value)));
  $("rule-options").addEventListener("input", markChanged);
  $("btn-review").addEventListener("click", () => { shownReview = shownReview ? null : state.review; openSheet(); });
  $("btn-next").addEventListener("click", nextHand);
  $("btn-end-sheet").addEventListener("click", () => { $("dlg-end").close(); openSheet(); });
  $("btn-end-new").addEventListener("click", () => newGame({}));
  for (const b of document.querySelectorAll("[data-close]")) b.addEventListener("click", () => b.closest("dialog").close());
}

// Leaving a game under way throws it away (it does not count in the stats): ask first.
function confirmLeave(button, what, action) {
  if (busy) return;
  if (!state || state.version === 0 || state.phase === "game_over") { action(); return; }
  pendingLeave = action;
  $("confirm-text").textContent = `This game is under way: if you ${what}, it is lost and does not count in your stats.`;
  $("btn-confirm").textContent = button;
  $("dlg-confirm").showModal();
}

function nextHand() {
  closeDialogs();
  shownReview = null;
  const version = state.version;
  return run(() => api.post(`/api/games/${state.id}/next`, { version }));
}

function newGameRestart() {
  closeDialogs();
  return run(() => api.post(`/api/games/${state.id}/restart`));
}

async function boot() {
  wire();
  try {
    await ensureToken();
    settings = await api.get("/api/settings");
  } catch (e) {
    say(e.message);
    return;
  }
  applySettings();
  const wanted = new URLSearchParams(location.search).get("deal");
  if (wanted !== null && !isDealNumber(wanted.trim())) {
    await forgetWanted();
    say(`Deal "${wanted}" cannot be played: a deal number is a whole number from 1 to ${Number.MAX_SAFE_INTEGER}.`);
    return;
  }
  if (wanted !== null) {
    try {
      const out = await api.post("/api/games", { deal: wanted.trim(), resume: true });
      state = out.state;
      await animate(out.events);
      afterState();
      return;
    } catch (e) {
      await forgetWanted();
      say(`Deal "${wanted}" cannot be played: ${e.message}`);
      return;
    }
  }
  await resume();
}

// Deal numbers run from 1 to the largest whole number a page holds exactly, as on the server.
function isDealNumber(text) {
  return /^[0-9]+$/.test(text) && Number(text) >= 1 && Number(text) <= Number.MAX_SAFE_INTEGER;
}

// A deal in the address that cannot be played: drop it and go back to the player's game.
async function forgetWanted() {
  const url = new URL(location.href);
  url.searchParams.delete("deal");
  history.replaceState(null, "", url);
  await resume();
}

async function resume() {
  try {
    state = await api.get("/api/games/current");
    syncAddress();
    afterState();
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) await run(() => api.post("/api/games", {}));
    else say(e.message);
  }
}

document.body.dataset.ready = "loading";
boot().finally(() => { document.body.dataset.ready = "yes"; });
