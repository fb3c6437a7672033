// Input by pointer and keys: choosing cards, moving among cards and bids, and whether the player uses keys.

import { $, myTurn, say, seatOf, state } from "./state.js";
import { render } from "./table.js";
import { newGame, nextHand, sendMove } from "./actions.js";

function onCard(card) {
  if (state.busy || !state.game) return;
  if (state.game.phase === "pass" && myTurn()) {
    if (state.selected.has(card)) state.selected.delete(card);
    else if (state.selected.size < state.game.pass_count) state.selected.add(card);
    render();
    const el = document.querySelector(`#hand .card[data-card="${card}"]`);
    if (el) el.focus();
    return;
  }
  if (state.game.phase !== "play") { say(state.game.message || "It is not time to play a card."); return; }
  if (!myTurn()) { say(`Wait: it is ${seatOf(state.game.turn).name}'s turn.`); return; }
  if (!state.game.legal.includes(card)) {
    say(state.game.reasons[card] || "You cannot play that card now.");
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
  if (!state.game || state.game.phase !== "bid" || !myTurn() || e.target.tagName === "INPUT" || document.querySelector("dialog[open]")) return;
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
  state.bidKeys += e.key;
  clearTimeout(state.bidKeyTimer);
  state.bidKeyTimer = setTimeout(() => { state.bidKeys = ""; }, 900);
  const value = String(Number(state.bidKeys));
  if (!focusBid(value === "0" ? "nil" : value)) { state.bidKeys = e.key; focusBid(e.key === "0" ? "nil" : e.key); }
}

function focusBid(bid) {
  const b = document.querySelector(`.bid-btn[data-bid="${bid}"]`);
  if (b) b.focus();
  return Boolean(b);
}

// The table's own input: cards and bids by pointer and keys, the panel's buttons, and whether the
// player is using keys (focus follows the turn only for them).
export function wireInput() {
  document.addEventListener("click", (e) => {
    if (state.swallowClick) { e.preventDefault(); e.stopPropagation(); state.swallowClick = false; }
  }, true);
  document.addEventListener("keydown", () => { state.usingKeys = true; }, true);
  document.addEventListener("pointerdown", () => { state.usingKeys = false; state.swallowClick = false; }, true);
  $("hand").addEventListener("click", (e) => {
    const b = e.target.closest(".card");
    if (b) onCard(b.dataset.card);
  });
  $("hand").addEventListener("keydown", onHandKey);
  document.addEventListener("keydown", onBidKey);
  $("panel").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b || state.busy) return;
    if (b.dataset.bid) sendMove(`bid ${b.dataset.bid}`);
    else if (b.dataset.move) sendMove(b.dataset.move);
    else if (b.id === "btn-pass") sendMove(`pass ${[...state.selected].join(" ")}`);
    else if (b.id === "btn-panel-next") nextHand();
    else if (b.id === "btn-panel-new") newGame({});
  });
}
