// Talking to the server: send a move, show the others' moves one by one, then the new state.

import { $, myTurn, say, seatOf, state, tableKey } from "./state.js";
import { api, ApiError, gameGet, soloPost } from "./api.js";
import { cardName } from "./cards.js";
import { play as sound } from "./sound.js";
import { bidLabel, focusFirst, render } from "./table.js";
import { openEnd, openSheet } from "./sheet.js";
import { dealIn, gatherTo, handCenters, motionMs, playIn } from "./motion.js";

const SPEED_MS = { slow: 1000, normal: 550, fast: 160, instant: 0 };

// How long a finished trick stays on the table before it goes to its winner (a tap on the table or a
// key there cuts it short); at "instant" it goes at once: that speed never waits for the player.
const TRICK_MS = { slow: 2000, normal: 1200, fast: 600, instant: 0 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function afterState() {
  render();
  state.dealt = handKey();
  if (state.game.phase === "hand_over") openSheet();
  else if (state.game.phase === "game_over") openEnd();
  else if (myTurn()) {
    sound("turn", state.settings.sounds);
    if (state.usingKeys) focusFirst();
  }
}

const handKey = () => `${state.game.id}/${state.game.hand_number}`;

// How many of these events come before the cards of a new hand are dealt, or null if none are: a
// hand this page has not shown and no bid of which it has seen, or the deal again after a misdeal.
function dealPoint(events) {
  const g = state.game;
  if (g.phase !== "bid") return null;
  const misdeal = events.findLastIndex((ev) => ev.kind === "misdeal");
  const bidsHere = events.slice(misdeal + 1).filter((ev) => ev.kind === "bid").length;
  if (g.seats.filter((s) => s.bid !== null).length > bidsHere) return null;  // the deal was seen before them
  if (misdeal >= 0) return misdeal + 1;
  return state.dealt === handKey() ? null : 0;
}

// The table of a new hand before anyone bids, which the deal is shown on.
function undealt() {
  const g = state.game;
  return { kind: "deal", seat: g.dealer, card: null, trick: [], winner: null, bids: g.seats.map(() => null),
    tricks: g.seats.map(() => 0), progress: g.sides.map(() => null), nil_broken: [] };
}

// Show the cards dealt into your hand, and wait until they have arrived.
async function deal() {
  const dealer = seatOf(state.game.dealer);
  say(dealer.human ? "You deal." : `${dealer.name} deals.`);
  await dealIn();
}

// The events one after another as the table stood after each, a new hand's deal in its place among them.
export async function animate(events) {
  const pause = SPEED_MS[state.settings.speed] ?? SPEED_MS.normal;
  const hand = handCenters();  // before the first event redraws it: your card starts where it was
  const dealAt = dealPoint(events);
  state.dealt = handKey();
  if (dealAt === 0) {
    render(undealt());
    await deal();
  }
  for (const [i, ev] of events.entries()) {
    render(ev);
    say(ev.text);
    sound(ev.kind === "play" ? (ev.winner !== null ? "trick" : "card") : "card", state.settings.sounds);
    const travel = ev.kind === "play" ? playIn(ev.card, ev.seat, hand.get(ev.card)) : Promise.resolve();
    // A finished trick is held in view, then goes to its winner, you included. Without motion (Instant,
    // reduced motion) the one you won stays on the table for your lead: nothing waits, nothing vanishes unseen.
    const moving = motionMs() > 0;
    const stays = !moving && i === events.length - 1 && state.game.phase === "play" && state.game.trick.length === 0;
    if (ev.winner !== null && !stays) {
      await travel;
      await holdTrick();
      await gatherTo(ev.winner);
      if (moving) state.gathered = tableKey();
    } else {
      await Promise.all([travel, pause ? sleep(pause) : null]);
    }
    if (i + 1 === dealAt) await deal();
  }
}

// Keep a finished trick in view for the speed's time. A tap on the table, or a key there, cuts it
// short and does nothing else, so it cannot play a card unseen; what is meant for anything else (the
// chat, the tools, a dialog) goes where it was meant, and the trick stays.
function holdTrick() {
  const ms = TRICK_MS[state.settings.speed] ?? TRICK_MS.normal;
  if (!ms) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      document.removeEventListener("pointerdown", cut, true);
      document.removeEventListener("keydown", cut, true);
      resolve();
    };
    const cut = (e) => {
      if (!forTheTable(e)) return;
      e.preventDefault();
      e.stopPropagation();
      state.swallowClick = e.type === "pointerdown";
      done();
    };
    const timer = setTimeout(done, ms);
    document.addEventListener("pointerdown", cut, true);
    document.addEventListener("keydown", cut, true);
  });
}

// Whether input is the table's: a tap on it (the felt or your hand), or a key with the focus there or
// on nothing at all (but Tab, which only moves the focus on).
function forTheTable(e) {
  const onTable = Boolean(e.target.closest(".table-area"));
  return e.type === "pointerdown" ? onTable : e.key !== "Tab" && (onTable || e.target === document.body);
}

// The page is busy while a request, an animation or a table's move waiting for its answer runs: cards
// and bids wait for it. Each holds the page busy until it lets go; the last to let go frees it.
let holds = 0;
export function holdBusy() {
  holds += 1;
  state.busy = true;
  document.body.classList.add("busy");
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    holds -= 1;
    state.busy = holds > 0;
    document.body.classList.toggle("busy", state.busy);
  };
}

export async function busyWhile(work) {
  const release = holdBusy();
  try {
    await work();
  } finally {
    release();
  }
}

export async function run(request) {
  if (state.busy) return;
  await busyWhile(async () => {
    try {
      const out = await request();
      state.notice = "";
      state.hint.card = state.hint.bid = state.hint.move = null;
      state.selected = new Set();
      if (out && out.state) {
        const fresh = !state.game || state.game.id !== out.state.id;
        if (fresh) { state.game = out.state; syncAddress(); }
        await show(out.state, out.events || []);
      }
    } catch (e) {
      state.news = "";
      if (e instanceof ApiError && e.state) {
        state.game = e.state;
        afterState();
      }
      say(e instanceof ApiError ? e.message : "The server cannot be reached. Try again in a moment.");
    }
  });
}

// A new state and the events that led to it (a move's answer, or a friends' table's update): the
// events shown one by one, then the table as it is now.
export async function show(next, events) {
  state.game = next;
  state.news = "";
  await animate(events);
  state.news = newsOf(events);
  afterState();
}

// A misdeal, then the bids the others made since: the seats show the bids, this says who made them in what order.
// The trick won before the one on the table (the table shows only the last), named by its winner.
function newsOf(events) {
  const cut = events.findLastIndex((ev) => ev.kind === "misdeal");
  const bids = events.slice(cut + 1).filter((ev) => ev.kind === "bid" && ev.seat !== state.game.human);
  const won = state.game.trick.length ? events.findLast((ev) => ev.winner !== null) : null;
  return [...(cut >= 0 ? [events[cut]] : []), ...bids].map((ev) => ev.text)
    .concat(won ? [`${seatOf(won.winner).name} took the last trick.`] : []).join(" ");
}

export function syncAddress() {
  const url = new URL(location.href);
  if (state.game.deal) url.searchParams.set("deal", String(state.game.deal));
  else url.searchParams.delete("deal"); // a rated game's deal is secret until it is over
  url.searchParams.delete("board"); // asked for once: a reload resumes the game, however it was dealt
  history.replaceState(null, "", url);
}

// At a friends' table (state.remote) moves, the next hand and a new game go over its connection.
export function sendMove(move) {
  const version = state.game.version;
  if (state.remote) return state.remote.send({ do: "move", move, version });
  return run(() => soloPost(state.game.id, "moves", { move, version }));
}

function closeDialogs() {
  for (const d of document.querySelectorAll("dialog[open]")) d.close();
}

export function newGame(body) {
  closeDialogs();
  state.shownReview = null;
  if (state.remote) return state.remote.send({ do: "rematch" });
  return run(() => api.post("/api/games", body));
}

export function nextHand() {
  closeDialogs();
  state.shownReview = null;
  const version = state.game.version;
  if (state.remote) return state.remote.send({ do: "next", version });
  return run(() => soloPost(state.game.id, "next", { version }));
}

export function newGameRestart() {
  closeDialogs();
  return run(() => api.post(`/api/games/${state.game.id}/restart`));
}

// Leaving a game under way throws it away (it does not count in the stats): ask first.
export function confirmLeave(button, what, action) {
  if (state.busy) return;
  if (!state.game || state.game.version === 0 || state.game.phase === "game_over") { action(); return; }
  state.pendingLeave = action;
  const counts = state.game.deal ? "does not count in your stats" : "counts as a loss in your rating";
  $("confirm-text").textContent = `This game is under way: if you ${what}, it is lost and ${counts}.`;
  $("btn-confirm").textContent = button;
  $("dlg-confirm").showModal();
}

// A hint in the words of the table: the card's name, the bid, or the label of the button to press.
function hintText(h) {
  if (h.card) return cardName(h.card);
  if (h.bid) return "bid " + bidLabel(h.bid);
  if (h.move.startsWith("pass ")) return "pass the " + h.move.slice(5).split(" ").map(cardName).join(" and the ");
  const button = document.querySelector(`#panel [data-move="${h.move}"]`);
  return button ? button.textContent.trim() : h.move;
}

export async function showHint() {
  if (!state.game || state.busy) return;
  if (!myTurn()) { say("There is nothing for you to do right now."); return; }
  try {
    const h = await gameGet("hint");
    state.hint.card = h.card;
    state.hint.bid = h.bid;
    state.hint.move = h.move;
    if (state.game.phase === "pass" && h.move.startsWith("pass ")) state.selected = new Set(h.move.slice(5).split(" "));
    render();
    say(`Hint: ${hintText(h)}. ${h.reason}`);
  } catch (e) {
    if (e instanceof ApiError && e.state) { state.game = e.state; render(); }
    say(e.message);
  }
}
