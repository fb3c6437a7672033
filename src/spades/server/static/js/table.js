// The table: the scores, the seats, the trick, your hand and the panel of moves, drawn from the
// state the server sent.

import { $, myTurn, say, seatOf, state, tableKey } from "./state.js";
import { esc, plural } from "./html.js";
import { cardBack, cardFace, cardName, suitClass } from "./cards.js";

export function render(overlay = null) {
  if (!state.game) return;
  const bids = overlay ? overlay.bids : state.game.seats.map((s) => s.bid);
  const tricks = overlay ? overlay.tricks : state.game.seats.map((s) => s.tricks);
  // Between tricks the one just won stays on the table, its winner marked, until the next card is
  // played, unless it was seen going to its winner.
  const done = !overlay && state.game.trick.length === 0 && state.game.last_trick && state.game.phase !== "draw"
    && state.gathered !== tableKey();
  const trick = overlay ? overlay.trick : done ? state.game.last_trick.cards : state.game.trick;
  const winner = overlay ? overlay.winner : done ? state.game.last_trick.winner : null;
  const turn = overlay ? null : state.game.turn;

  $("deal-label").textContent = dealLabel();
  $("btn-restart").disabled = !state.game.deal && !state.table; // a rated game is played once
  $("scores").innerHTML = state.game.side_order.map((i) => scoreBox(state.game.sides[i], overlay)).join("")
    + `<div class="target">to ${state.game.target}</div>`;

  for (const pos of ["top", "left", "right", "bottom"]) $(`seat-${pos}`).innerHTML = "";
  for (const s of state.game.seats) {
    const el = $(`seat-${s.position}`);
    const bid = bids[s.seat];
    // A partner's 10 for 200 is the team's bid: a number bid before it says so.
    const team = state.game.sides[s.side];
    const shown = bid !== null && team.ten_for_two_hundred && bid !== "10 for 200" && !overlay ? `${bid} (10 for 200)` : bid;
    const backs = s.human ? "" : `<div class="backs" aria-hidden="true">${cardBack().repeat(Math.min(s.cards, 13))}</div>`;
    const nilBroken = overlay ? overlay.nil_broken.includes(s.seat) : s.nil_broken;
    el.className = `seat pos-${s.position}${turn === s.seat ? " turn" : ""}${winner === s.seat ? " won" : ""}${nilBroken ? " nil-broken" : ""}`;
    el.setAttribute("role", "group");
    el.setAttribute("aria-label", `${s.name}: ${shown === null ? "no bid yet" : "bid " + shown}, ${plural(tricks[s.seat], "trick")} won${turn === s.seat ? ", to play" : ""}`);
    el.innerHTML = `
      <div class="nameplate">
        <span class="name">${esc(s.name)}${remoteBot(s.seat) ? ' <span class="bot-badge" title="A bot account\'s program plays this seat">bot</span>' : ""}${state.game.dealer === s.seat ? ' <span class="dealer" title="Dealer">D</span>' : ""}</span>
        <span class="bidline"><span class="bid">Bid ${shown === null ? "–" : esc(shown)}</span>
        <span class="won-count">Won ${tricks[s.seat]}</span></span>
      </div>${backs}`;
  }

  $("felt").className = `felt players-${state.game.players}${state.game.phase === "bid" ? " bidding" : ""}`;
  const byPos = {};
  for (const p of trick) byPos[seatOf(p.seat).position] = p;
  const drawing = overlay ? overlay.kind === "draw" && state.game.phase === "draw" : state.game.phase === "draw";
  $("trick").innerHTML = drawing ? drawPileHtml(!overlay) : Object.entries(byPos).map(([pos, p]) => `
    <div class="played at-${pos}${winner === p.seat ? " winner" : ""}${done ? " done" : ""}" data-card="${p.card}" role="img"
         aria-label="${esc(seatOf(p.seat).name)}: ${cardName(p.card)}${winner === p.seat ? ", takes the trick" : ""}">${cardFace(p.card)}</div>`).join("");

  renderHand(overlay !== null);
  renderPanel(overlay !== null);
  // The game's tools, disabled in the page until there is a game to use them on (a friends' table's lobby).
  $("btn-hint").disabled = false;
  $("btn-last").disabled = !state.game.last_trick;
  $("btn-sheet").disabled = state.game.sheet.length === 0;
}

// A friends' table by its code (its deal is secret until the game is over), else the deal's number.
// Whether a remote bot (a bot account's program: the table's level "bot-NAME") plays the seat.
function remoteBot(seat) {
  const t = state.table;
  return Boolean(t && t.level.startsWith("bot-") && t.seats[seat] && t.seats[seat].bot);
}

function dealLabel() {
  const { daily, deal } = state.game;
  if (state.table) return `Table ${state.table.code}${deal ? ` · deal #${deal}` : ""}`;
  if (!deal) return "Rated game"; // its deal is secret until it is over
  return daily ? `Daily Deal ${daily} · #${deal}` : `Deal #${deal}`;
}

// The two-player draw, in the middle of the table: the stock, and the card(s) offered to you
// (not while the draws just made are being shown).
function drawPileHtml(showOffered) {
  const offered = (showOffered && myTurn() ? state.game.offered : []).map((c) => `
    <div class="offered" data-card="${c}" role="img" aria-label="Offered to you: ${cardName(c)}">${cardFace(c)}</div>`).join("");
  return `<div class="draw-pile"><div class="stock" role="img" aria-label="Stock: ${state.game.stock} cards left">${cardBack()}
    <span class="stock-count" aria-hidden="true">${state.game.stock} left</span></div>${offered}</div>`;
}

// A side's score box: points, bags held and how many more it may take before the penalty, and its
// tricks won of its contract while the hand is played (the server's words: the page computes no rule).
function scoreBox(side, overlay) {
  const c = overlay ? overlay.progress[side.side] : side.progress;  // "3 of 7"
  const left = side.bags_to_penalty === null ? "" : `, ${side.bags_to_penalty} to the penalty`;
  return `
    <div class="score ${side.side === state.game.human_side ? "mine" : ""}" data-side="${side.side}" role="group"
         aria-label="${esc(side.name)}: ${side.score} points, ${side.bags} bags${left}${c ? `, ${c} tricks bid won` : ""}">
      <span class="team">${esc(side.name)}</span>
      <span class="points">${side.score}</span>
      <span class="bags">bags ${side.bags}${side.bags_to_penalty === null ? "" : `<span class="bags-left"> · ${side.bags_to_penalty} left</span>`}</span>${
        c ? `<span class="contract">won ${c}</span>` : ""}
    </div>`;
}

// When the bidding is over, until the first trick is won: every bid, each side's contract, the spare tricks.
function bidSummary() {
  const g = state.game;
  if (g.phase !== "play" || g.spare_tricks === null || g.last_trick) return "";
  const n = g.seats.length;
  const bids = g.seats.map((_, i) => g.seats[(g.human + i) % n]).map((s) => `${esc(s.name)} ${esc(bidLabel(s.bid))}`);
  const contracts = g.side_order.map((i) => g.sides[i]).map((side) =>
    `${esc(side.name)} ${side.ten_for_two_hundred ? "10 for 200" : `need ${side.contract}`}`);
  const spare = g.spare_tricks >= 0 ? plural(g.spare_tricks, "spare trick")
    : `${-g.spare_tricks} more bid than there are tricks`;
  return `<p class="bid-summary" id="bid-summary"><span>Bids: ${bids.join(", ")}.</span>
    <span>${contracts.join("; ")}; ${spare}.</span></p>`;
}

// While the computer players' moves are shown no card is playable, so none is dimmed either.
function renderHand(animating) {
  const hand = $("hand");
  const playing = !animating && state.game.phase === "play" && myTurn();
  const passing = !animating && state.game.phase === "pass" && myTurn();
  const legal = new Set(state.game.legal);
  let cards = state.game.hand;
  if (cards.length === 0 && state.game.phase === "bid" && state.game.can_look) {
    hand.innerHTML = `<div class="hidden-hand">${cardBack().repeat(state.game.seats[state.game.human].cards)}</div>`;
    return;
  }
  hand.innerHTML = cards.map((c, i) => {
    const dim = playing && !legal.has(c);
    const cls = ["card", suitClass(c)];
    if (dim) cls.push("dim");
    if (playing && legal.has(c)) cls.push("legal");
    if (passing && state.selected.has(c)) cls.push("selected");
    if (state.hint.card === c) cls.push("hint");
    if (state.game.received.includes(c)) cls.push("received");
    const label = `${cardName(c)}${dim ? ", cannot be played now" : ""}${state.hint.card === c ? ", suggested" : ""}`;
    return `<button type="button" class="${cls.join(" ")}" data-card="${c}" data-index="${i}"
      aria-label="${label}" tabindex="${i === 0 ? 0 : -1}">${cardFace(c)}</button>`;
  }).join("");
  hand.style.setProperty("--count", cards.length);
  hand.style.setProperty("--first-row", Math.ceil(cards.length / 2));  // a narrow upright screen holds two rows
}

export function bidLabel(b) {
  if (b === "nil") return "Nil";
  if (b === "blind nil") return "Blind Nil";
  return b;
}

function renderPanel(animating) {
  const panel = $("panel");
  if (animating) { panel.innerHTML = ""; return; }
  const t = state.game.last_trick;
  const justWon = state.game.phase === "play" && !state.game.trick.length && t;
  $("notice").textContent = state.notice;
  say([state.news, justWon ? `${seatOf(t.winner).name} took the trick.` : "", state.game.message].filter(Boolean).join(" "));
  const parts = [];
  if (myTurn() && state.game.phase === "bid") {
    const bids = state.game.legal_bids.map((b) => `<button type="button" class="bid-btn${state.hint.bid === b ? " hint" : ""}"
        data-bid="${esc(b)}" aria-label="Bid ${esc(bidLabel(b))}">${esc(bidLabel(b))}</button>`).join("");
    parts.push(`<div class="bids" role="group" aria-label="Your bid">${bids}</div>`);
    if (state.game.can_look) parts.push(actionButton("look", "Look at my cards", "primary"));
    if (state.game.can_misdeal) parts.push(actionButton("misdeal", "Call a misdeal (no spades)"));
  } else if (myTurn() && state.game.phase === "pass") {
    parts.push(`<button type="button" class="action primary" id="btn-pass" ${state.selected.size === state.game.pass_count ? "" : "disabled"}>
      Pass ${state.selected.size}/${plural(state.game.pass_count, "card")}</button>`);
  } else if (myTurn() && state.game.phase === "draw") {
    const [first, second] = state.game.offered.map(cardName);
    const buttons = state.game.offered.length === 1
      ? actionButton("draw keep", `Keep the ${first}`) + actionButton("draw refuse", "Refuse it")
      : actionButton("draw keep", `Keep the ${first}`) + actionButton("draw refuse", `Keep the ${second}`);
    parts.push(`<div class="draw">${buttons}</div>`);
  } else if (state.game.phase === "hand_over") {
    parts.push(`<button type="button" class="action primary" id="btn-panel-next">Next hand</button>`);
  } else if (state.game.phase === "game_over" && state.table && state.table.tournament) {
    parts.push(`<a class="button action primary" href="/tournaments/${encodeURIComponent(state.table.tournament)}">Back to the tournament</a>`);
  } else if (state.game.phase === "game_over") {
    parts.push(`<button type="button" class="action primary" id="btn-panel-new">${state.remote ? "Rematch" : "New Game"}</button>`);
  }
  parts.push(bidSummary());
  if (state.game.passed.length || state.game.received.length) {
    parts.push(`<p class="passinfo">${state.game.passed.length ? "You passed " + state.game.passed.map(cardName).join(", ") + ". " : ""}${
      state.game.received.length ? "You received " + state.game.received.map(cardName).join(", ") + "." : ""}</p>`);
  }
  panel.innerHTML = parts.join("");
}

function actionButton(move, label, style = "") {
  return `<button type="button" class="action ${style}${state.hint.move === move ? " hint" : ""}" data-move="${move}">${label}</button>`;
}

// Focus follows the turn for keyboard players only: for a mouse or a finger, a focused card or
// bid button would look like a suggestion.
export function focusFirst() {
  if (state.game.phase === "bid") {
    const b = document.querySelector(".bid-btn");
    if (b) b.focus();
  } else if (state.game.phase === "play") {
    const c = document.querySelector("#hand .card.legal") || document.querySelector("#hand .card");
    if (c) { c.tabIndex = 0; c.focus(); }
  }
}

export function showLast() {
  const t = state.game && state.game.last_trick;
  if (!t) return;
  $("last-body").innerHTML = t.cards.map((p) => `<figure class="last-card${p.seat === t.winner ? " winner" : ""}" role="img"
      aria-label="${esc(seatOf(p.seat).name)}: ${cardName(p.card)}${p.seat === t.winner ? ", won the trick" : ""}">
      ${cardFace(p.card)}<figcaption>${esc(seatOf(p.seat).name)}${p.seat === t.winner ? " — won" : ""}</figcaption></figure>`).join("");
  $("dlg-last").showModal();
}
