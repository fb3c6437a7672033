// The bar under the header at a friends' table: the status line (the connection, who is away counting
// down to the computer player taking over, a computer player in your own seat, the turn timer) and
// the news of who sat down, left or came back.

import { $, state } from "./state.js";
import { esc } from "./html.js";

let connectionText = "";
let statusHtml = null;  // the status line as last drawn, its countdowns' numbers aside

/** Say how the connection to the table is (or nothing, with ""), in the status line. */
export function connectionNote(text) {
  connectionText = text;
  drawStatus();
}

/** An update came: the connection is fine, and the countdowns count from now. */
export function updateArrived() {
  tableReceived = performance.now();
  connectionText = "";
}

/** The status line, for everyone at the table and for a spectator. */
export function drawStatus() {
  const t = state.table;
  clocks = [];
  const parts = connectionText ? [esc(connectionText)] : [];
  if (t && t.started && !(state.remote && state.remote.visiting)) {  // a visitor sees the lobby
    for (const s of t.seats) {
      if (!s.person || s.seat === t.you) continue;
      if (s.bot) parts.push(`A computer player plays for ${esc(s.name)}.`);
      else if (s.away) {
        parts.push(`${esc(s.name)} is away — a computer player takes over in ${countdownHtml(s.away_left)} s.`);
      }
    }
    const me = t.seats[t.you];
    if (!me) parts.push("You are watching: you see what is face up, as everyone at the table does.");
    else if (me.bot) parts.push(`A computer player has your seat. <button type="button" data-act="back">Take my seat back</button>`);
    const clock = turnClock(t);
    if (clock) parts.push(clock);
  }
  const html = parts.join(" ");
  const line = $("table-status");
  if (html !== statusHtml) line.innerHTML = statusHtml = html;  // the same words are not put in, nor read out, again
  line.querySelectorAll("[data-countdown]").forEach((span, i) => { span.dataset.countdown = clocks[i]; });
  $("table-bar").hidden = !parts.length && !$("table-news").textContent;
  countDown();
}

// Who sat down, left or came back, and who became the host (the server logs the role passing on as
// it logs it being handed), from an update's events (never a resync's), said once in the bar's own
// polite live region as text, until newer news or NEWS_MS pass. A page that merely connects again is
// no news, nor is someone away or a computer player taking over: the status line says those, with
// countdowns.
const NEWS = new Set(["join", "leave", "back", "host"]);
const NEWS_MS = 15000;
let newsTimer = 0;

/** Tell the news in an update's events (`tableBefore`: the table as this page had it before them). */
export function tellNews(tableBefore, t, events) {
  const before = tableBefore && tableBefore.code === t.code ? tableBefore : null;  // this table, as it was
  const gone = (seat) => before && before.seats[seat].person && (before.seats[seat].away || before.seats[seat].bot);
  const lines = events.filter((e) => NEWS.has(e.kind) && (e.kind !== "back" || gone(e.seat))).map((e) => e.text);
  if (!lines.length) return;
  clearNews();
  $("table-news").textContent = lines.join(" ");
  newsTimer = setTimeout(() => {
    clearNews();
    drawStatus();
  }, NEWS_MS);
}

/** No news in the bar (a new connection's table comes whole, with none). */
export function clearNews() {
  clearTimeout(newsTimer);
  $("table-news").textContent = "";
}

// The turn timer as every seat and spectator sees it: who is to move and the seconds they have, or
// after a hand when the next one is dealt; "" when no timer runs (the server's turn_left is null).
function turnClock(t) {
  const g = t.game;
  if (t.turn_left === null || !g) return "";
  const left = countdownHtml(t.turn_left);
  if (g.phase === "hand_over") return `The next hand is dealt in ${left} s.`;
  if (g.turn === t.you) return `You have ${left} s for this move, then the computer moves for you.`;
  const mover = t.seats[g.turn];
  return mover ? `${esc(mover.name)} has ${left} s for this move, then the computer moves for them.` : "";
}

// The countdowns (the grace period of someone away, the turn timer) count from the seconds the
// server said were left when it made the table's latest update, less the time since the page received
// it by the page's own steady clock (performance.now): never by the date, which may be off.
let tableReceived = 0;  // performance.now() when the update in state.table arrived

// The whole seconds of a countdown left now, of `left` when the update came.
function secondsLeft(left) {
  return Math.max(0, Math.ceil(left - (performance.now() - tableReceived) / 1000));
}

// A countdown in the line being drawn: its seconds go to `clocks`, in order, its number in by countDown.
let clocks = [];

function countdownHtml(left) {
  clocks.push(left);
  return `<span data-countdown aria-live="off"></span>`;
}

// Each second the countdowns' numbers change in place (not read out each time: the line is).
let countdown = null;

function countDown() {
  clearTimeout(countdown);
  const spans = document.querySelectorAll("#table-status [data-countdown]");
  if (!spans.length) return;
  for (const span of spans) span.textContent = secondsLeft(Number(span.dataset.countdown));
  countdown = setTimeout(countDown, 250);  // each number within a quarter second of the true one
}
