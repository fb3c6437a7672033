// Motion: a card travels from its seat to the trick, a won trick gathers and goes to its winner, and a
// new hand is dealt into yours. Web Animations on the elements the table has just drawn (their
// `translate`, which adds to where the stylesheet puts them); each speed has its duration, "instant"
// has none, and so does a player whose system asks for reduced motion.

import { $, state } from "./state.js";

const TRAVEL_MS = { slow: 650, normal: 400, fast: 180, instant: 0 };

export function motionMs() {
  if (matchMedia("(prefers-reduced-motion: reduce)").matches) return 0;
  return TRAVEL_MS[state.settings.speed] ?? TRAVEL_MS.normal;
}

function center(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

// Where a seat's cards come from and go to: its name plate, or your hand.
function seatCenter(seat) {
  const s = state.game.seats[seat];
  const el = s.human ? $("hand") : document.querySelector(`#seat-${s.position} .nameplate`);
  return el ? center(el) : null;
}

// Where each card of your hand is now, for the one you play to start from there.
export function handCenters() {
  return new Map([...document.querySelectorAll("#hand .card")].map((el) => [el.dataset.card, center(el)]));
}

const offset = (from, to) => `${from.x - to.x}px ${from.y - to.y}px`;

// The card just drawn in the trick slides in from `from` (a card of your hand) or its seat.
export function playIn(card, seat, from = null) {
  const ms = motionMs();
  const el = document.querySelector(`#trick .played[data-card="${card}"]`);
  const start = from || seatCenter(seat);
  if (!ms || !el || !start) return Promise.resolve();
  const end = center(el);
  return el.animate([{ translate: offset(start, end), scale: "0.75" }, { translate: "0px 0px", scale: "1" }],
    { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" }).finished.catch(() => {});
}

// A won trick: the cards come together in the middle, then go to the winner's seat and fade.
export function gatherTo(winner) {
  const ms = motionMs();
  const cards = [...document.querySelectorAll("#trick .played")];
  const end = seatCenter(winner);
  if (!ms || !cards.length || !end) return Promise.resolve();
  const middle = center($("trick"));
  return Promise.all(cards.map((el) => {
    const c = center(el);
    return el.animate([
      { translate: "0px 0px", scale: "1", opacity: 1 },
      { translate: offset(middle, c), scale: "0.9", opacity: 1, offset: 0.4 },
      { translate: offset(end, c), scale: "0.4", opacity: 0 },
    ], { duration: ms * 1.5, easing: "ease-in-out", fill: "forwards" }).finished.catch(() => {});
  }));
}

// A new hand: your cards fly in from the middle of the table one after another; done when the last has arrived.
export function dealIn() {
  const ms = motionMs();
  if (!ms) return Promise.resolve();
  const from = center($("trick"));
  const cards = [...document.querySelectorAll("#hand .card, #hand .hidden-hand svg")];
  return Promise.all(cards.map((el, i) => el.animate(
    [{ translate: offset(from, center(el)), scale: "0.5", opacity: 0 }, { translate: "0px 0px", scale: "1", opacity: 1 }],
    { duration: ms, delay: i * ms / 6, easing: "ease-out", fill: "backwards" }).finished.catch(() => {})));
}
