// A finished game's page (/games/REF): every hand face up, stepped through trick by trick, with the
// score sheet. The server sends the game only once it is over (GET /api/replays/REF); before that, or
// for no such game, the page says what the server said.

import { $, state } from "./state.js";
import { esc } from "./html.js";
import { cardFace, cardName } from "./cards.js";
import { fillSheet } from "./sheet.js";
import { bidLabel } from "./table.js";

const view = { replay: null, hand: 0, step: 0 };  // the game, the hand shown, how many of its tricks are played

async function load() {
  const ref = decodeURIComponent(location.pathname.split("/").pop());
  const r = await fetch(`/api/replays/${encodeURIComponent(ref)}`);
  const body = await r.json().catch(() => ({ detail: `The server answered ${r.status}.` }));
  $("replay").setAttribute("aria-busy", "false");
  if (!r.ok) {
    $("game-problem").textContent = body.detail;
    $("game-problem").hidden = false;
    return;
  }
  view.replay = body;
  state.game = body.game;  // the score sheet reads the game from the page's state
  const g = body.game;
  const where = `${body.table ? `at the friends' table ${body.table}` : "against the computer"}, its computer players at the ${g.level} level`;
  $("game-title").textContent = `Game ${body.ref}`;
  document.title = `Spades: game ${body.ref}`;
  $("game-summary").textContent = `${g.message} Final scores ${g.side_order.map((i) => `${g.sides[i].name} ${g.sides[i].score}`).join(", ")}; `
    + `${g.rules_name} rules, played ${where}, deal ${g.deal}.`;
  $("game-record").href = body.record;
  $("game-record").setAttribute("download", `spades-game-${body.ref}.json`);
  $("game-body").hidden = false;
  fillSheet();
  showHand(0, 0);
}

// What each seat holds once `step` tricks are played: the cards it plays later (as dealt, before any
// pass, at the start), in the order the hand was dealt.
function holding(hand, seat, step) {
  if (step === 0) return hand.dealt[seat];
  const later = hand.tricks.slice(step).flatMap((t) => t.cards.filter((p) => p.seat === seat).map((p) => p.card));
  const order = hand.dealt.flat();
  return later.sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

// A card drawn small, named for a screen reader.
function mini(card, label = cardName(card)) {
  return `<span class="mini" role="img" aria-label="${label}" data-card="${card}">${cardFace(card)}</span>`;
}

function showHand(number, step) {
  const hands = view.replay.hands;
  view.hand = Math.max(0, Math.min(hands.length - 1, number));
  const hand = hands[view.hand];
  view.step = Math.max(0, Math.min(hand.tricks.length, step));
  const seats = state.game.seats;
  const name = (s) => seats[s].name;
  $("hand-title").textContent = `Hand ${view.hand + 1} of ${hands.length}`;
  $("hand-prev").disabled = view.hand === 0;
  $("hand-next").disabled = view.hand === hands.length - 1;
  const trick = view.step ? hand.tricks[view.step - 1] : null;
  $("step-title").textContent = trick
    ? `Trick ${view.step} of ${hand.tricks.length}: ${name(trick.winner)} takes it.`
    : `As dealt; ${name(hand.dealer)} deals.`;
  $("step-back").disabled = $("step-first").disabled = view.step === 0;
  $("step-forward").disabled = $("step-last").disabled = view.step === hand.tricks.length;
  const won = seats.map((s) => hand.tricks.slice(0, view.step).filter((t) => t.winner === s.seat).length);
  $("seats").innerHTML = seats.map((s) => {
    const played = trick && trick.cards.find((p) => p.seat === s.seat);
    const cards = holding(hand, s.seat, view.step);
    return `<div class="replay-seat${trick && trick.winner === s.seat ? " took" : ""}" data-seat="${s.seat}">
      <h4>${esc(s.name)}${hand.dealer === s.seat ? " (dealer)" : ""}</h4>
      <p class="replay-line">Bid ${esc(hand.bids[s.seat] === null ? "none" : bidLabel(hand.bids[s.seat]))} · took ${won[s.seat]}</p>
      <div class="played-card">${played ? mini(played.card, `played ${cardName(played.card)}`) : ""}</div>
      <div class="mini-cards" aria-label="${cards.length} cards held">${cards.map((c) => mini(c)).join("")}</div>
    </div>`;
  }).join("") + (hand.set_aside.length ? `<div class="replay-seat set-aside"><h4>Out of play</h4>
      <div class="mini-cards" aria-label="${hand.set_aside.length} cards out of play">${hand.set_aside.map((c) => mini(c)).join("")}</div></div>` : "");
  for (const row of document.querySelectorAll("#sheet-body tbody th[scope=row]")) {
    const link = row.querySelector(".hand-link");
    row.closest("tr").classList.toggle("shown", Boolean(link) && Number(link.dataset.hand) === view.hand);
  }
}

function wire() {
  $("hand-prev").addEventListener("click", () => showHand(view.hand - 1, 0));
  $("hand-next").addEventListener("click", () => showHand(view.hand + 1, 0));
  $("step-first").addEventListener("click", () => showHand(view.hand, 0));
  $("step-back").addEventListener("click", () => showHand(view.hand, view.step - 1));
  $("step-forward").addEventListener("click", () => showHand(view.hand, view.step + 1));
  $("step-last").addEventListener("click", () => showHand(view.hand, Infinity));
  $("sheet-body").addEventListener("click", (e) => {
    const link = e.target.closest(".hand-link");
    if (link) showHand(Number(link.dataset.hand), 0);
  });
  document.addEventListener("keydown", (e) => {
    if (!view.replay || e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowRight") showHand(view.hand, view.step + 1);
    else if (e.key === "ArrowLeft") showHand(view.hand, view.step - 1);
  });
}

wire();
load().catch((err) => {
  $("game-problem").textContent = `The game could not be loaded: ${err.message}`;
  $("game-problem").hidden = false;
});
