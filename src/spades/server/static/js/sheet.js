// The score sheet, a finished hand's review, and the end of the game.

import { $, seatOf, state } from "./state.js";
import { gameGet } from "./api.js";
import { esc, num, plural } from "./html.js";
import { cardFace, cardName, shortName, suitClass } from "./cards.js";
import { bidLabel } from "./table.js";

// The score sheet, read like a paper score pad: per side the bid, tricks, this hand's points and
// overtricks ("Over"), the bags held ("Bags", as on the score box and the scorekeeper's sheet) and the
// running total; the server's words for a hand (a set, nils, the bag penalty, 10 for 200, Boston) on a
// line under its row.
// As many sides side by side as fit without scrolling sideways, the rest in tables below; a legend last.
const SHEET_COLUMNS = ["Bid", "Tricks", "Points", "Over", "Bags", "Total"];

export function fillSheet() {
  const body = $("sheet-body");
  for (let perTable = state.game.sides.length; perTable >= 1; perTable--) {
    body.innerHTML = sheetTable(perTable);
    if ([...body.querySelectorAll(".sheet-wrap")].every((w) => w.scrollWidth <= w.clientWidth)) return;
  }
}

function sheetTable(perTable) {
  if (!state.game.sheet.length) return "<p>No hand has been scored yet.</p>";
  const groups = [];
  const sides = state.game.side_order.map((i) => state.game.sides[i]);  // in seat order, yours first
  for (let i = 0; i < sides.length; i += perTable) groups.push(sides.slice(i, i + perTable));
  return groups.map((part, g) => sheetPart(part, g === 0)).join("") + `<p class="sheet-legend">${esc(state.game.sheet_legend)}</p>`;
}

function sheetPart(sides, links) {
  const cols = SHEET_COLUMNS.length;
  const head = sides.map((s) => `<th colspan="${cols}" scope="colgroup">${esc(s.name)}</th>`).join("");
  const sub = sides.map(() => SHEET_COLUMNS.map((c) => `<th scope="col">${c}</th>`).join("")).join("");
  const rows = state.game.sheet.map((line, i) => {
    const rs = sides.map((s) => line[s.side]);
    const notes = rs.map((r) => r.notes.join("; "));  // the server's words: a set, nils, the bag penalty...
    const noted = notes.some(Boolean);
    const hand = links ? `<button type="button" class="hand-link" data-hand="${i}" aria-label="Review hand ${i + 1}">${i + 1}</button>` : i + 1;
    const cells = rs.map((r) => `<td class="bid">${esc(r.bid.split(" + ").map(bidLabel).join(" + "))}</td><td>${r.tricks}</td><td>${num(r.points, true)}</td>
      <td>${r.bags ? `+${r.bags}` : "0"}</td><td>${r.bags_total}</td><td class="total">${num(r.total)}</td>`).join("");
    const noteRow = noted ? `<tr class="note-row">${notes.map((n) => `<td colspan="${cols}">${esc(n)}</td>`).join("")}</tr>` : "";
    return `<tr${noted ? ' class="noted"' : ""}><th scope="row"${noted ? ' rowspan="2"' : ""}>${hand}</th>${cells}</tr>${noteRow}`;
  }).join("");
  return `<div class="sheet-wrap"><table class="sheet"><thead><tr><th rowspan="2" scope="col">Hand</th>${head}</tr><tr>${sub}</tr></thead>
    <tbody>${rows}</tbody></table></div>`;
}

function reviewHtml(r) {
  if (!r) return "";
  const n = state.game.seats.length;
  const inPlayOrder = state.game.seats.map((_, i) => state.game.seats[(state.game.human + i) % n]);  // you, then clockwise
  const hands = inPlayOrder.map((s) => `<div class="review-hand"><h3>${esc(s.name)}</h3>
    <div class="mini-cards">${r.dealt[s.seat].map((c) => `<span class="mini ${suitClass(c)}" role="img" aria-label="${cardName(c)}">${cardFace(c)}</span>`).join("")}</div></div>`).join("");
  const tricks = r.tricks.map((t) => `<li>${t.cards.map((p) => `${esc(seatOf(p.seat).name)} <span class="${suitClass(p.card)}" aria-label="${cardName(p.card)}">${shortName(p.card)}</span>`).join(", ")}
    — <strong>${esc(seatOf(t.winner).name)}</strong></li>`).join("");
  const aside = r.set_aside.length ? `<p>Set aside: ${r.set_aside.map((c) => `<span class="${suitClass(c)}" aria-label="${cardName(c)}">${shortName(c)}</span>`).join(" ")}</p>` : "";
  return `<h3>Hand ${r.number + 1}, all hands</h3><div class="review">${hands}</div>${aside}<ol class="trick-list">${tricks}</ol>
    <section id="coach" class="coach" aria-live="polite" aria-label="The coach's review of your decisions"></section>`;
}

// The coach's review of your decisions in the hand shown (at a friends' table, your seat's): the server
// analyses each finished hand in the background, so this asks until it is done (a progress bar
// meanwhile), then lists the flagged decisions with the better move and why. A review is kept on the
// server: a reload shows it at once.
const COACH_POLL_MS = 700;
let coachAsked = 0;  // which request is the latest, so a hand no longer shown stops being asked about

async function showCoach(number) {
  const asked = ++coachAsked;
  for (;;) {
    if (!$("coach") || asked !== coachAsked || !$("dlg-sheet").open) return;
    let out;
    try {
      out = await gameGet(`hands/${number}/coach`);
    } catch (err) {
      if (asked === coachAsked && $("coach")) {
        $("coach").dataset.status = "failed";
        $("coach").setAttribute("aria-busy", "false");
        $("coach").innerHTML = `<h3>Coach</h3><p class="coach-note">${esc(err.message)}</p>`;
      }
      return;
    }
    if (asked !== coachAsked || !$("coach")) return;
    $("coach").dataset.status = out.status;  // waiting, starting, running or done
    $("coach").setAttribute("aria-busy", String(out.status !== "done"));  // read out once done, not each step
    if (out.status === "done") {
      $("coach").innerHTML = coachHtml(out.review);
      return;
    }
    $("coach").innerHTML = `<h3>Coach</h3><p class="coach-note">${coachProgress(out)}</p>
      <progress class="coach-progress" max="${out.total || 1}" ${out.total ? `value="${out.done}"` : ""} aria-label="The coach's progress"></progress>`;
    await new Promise((resolve) => setTimeout(resolve, COACH_POLL_MS));
  }
}

// Where an analysis stands, as the server says it: queued behind other hands, starting, or running.
function coachProgress(out) {
  if (out.status === "waiting") {
    return out.ahead ? `The coach will review this hand after ${plural(out.ahead, "other")}…` : "The coach is about to review this hand…";
  }
  if (out.status === "starting") return "The coach is starting its review of this hand…";
  return `The coach is reviewing your decisions (${out.done} of ${out.total} judged)…`;
}

// The review's lines: the summary, the moves a computer player made for you (at a friends' table, while
// you were away, out of time or given the seat by the host: not judged), then each flagged decision.
function coachHtml(review) {
  const flags = review.decisions.filter((d) => d.flagged);
  const summary = flags.length
    ? `${plural(flags.length, "decision")} of ${review.decisions.length} cost points: about ${Math.round(review.points_lost)} in all.`
    : review.decisions.length ? `No costly mistakes in ${review.decisions.length} decisions.` : "No decisions of yours to judge in this hand.";
  const n = review.computer_moves;
  const computer = n ? `<p class="coach-computer">A computer player made ${n} of your moves in this hand: the coach judges only yours.</p>` : "";
  const items = flags.map((d) => {
    const where = d.phase === "play" ? `Trick ${d.trick}` : d.phase === "bid" ? "Bid" : "Pass";
    const did = d.phase === "play" ? "played" : d.phase === "bid" ? "bid" : "passed";
    return `<li class="coach-flag" data-phase="${esc(d.phase)}" data-trick="${d.trick}"><strong>${where}:</strong>
      you ${did} ${esc(d.made_short)}; ${esc(d.best_short)} was better by about ${Math.round(d.loss)} points.
      <span class="coach-reason">${esc(d.reason)}</span></li>`;
  }).join("");
  return `<h3>Coach</h3><p class="coach-note">${summary}</p>${computer}${items ? `<ul class="coach-flags">${items}</ul>` : ""}`;
}

// The coach's summary of your game so far, under the score sheet: per hand the mistakes and the points
// lost to them, over the game the same and the costliest mistake (what `spades analyze` prints last).
// It asks again while some hands are still being reviewed.
let gameCoachAsked = 0;
const PENDING = ["waiting", "starting", "running"];

async function showGameCoach() {
  const asked = ++gameCoachAsked;
  const box = $("coach-game");
  for (;;) {
    if (asked !== gameCoachAsked || !$("dlg-sheet").open) return;
    let out;
    try {
      out = await gameGet("coach");
    } catch (err) {
      if (asked !== gameCoachAsked) return;
      box.dataset.status = "failed";
      box.innerHTML = `<h3>Coach, this game</h3><p class="coach-note">${esc(err.message)}</p>`;
      return;
    }
    if (asked !== gameCoachAsked) return;
    box.hidden = false;
    const pending = out.hands.filter((h) => PENDING.includes(h.status)).length;
    box.dataset.status = pending ? "running" : "done";
    box.setAttribute("aria-busy", String(pending > 0));
    box.innerHTML = gameCoachHtml(out, pending);
    if (!pending) return;
    await new Promise((resolve) => setTimeout(resolve, COACH_POLL_MS));
  }
}

function gameCoachHtml(out, pending) {
  const rows = out.hands.map((h) => `<tr data-hand="${h.hand}" data-status="${esc(h.status)}"><th scope="row">${h.hand + 1}</th>${h.status === "done"
    ? `<td>${h.mistakes}</td><td>${h.decisions}</td><td>${Math.round(h.points_lost)}</td>`
    : `<td colspan="3">${h.status === "unavailable" ? esc(h.detail) : "being reviewed…"}</td>`}</tr>`).join("");
  const game = out.reviewed
    ? `${plural(out.mistakes, "mistake")} in ${plural(out.decisions, "decision")} over ${plural(out.reviewed, "hand")}: about ${Math.round(out.points_lost)} points lost.`
    : "No hand reviewed yet.";
  const c = out.costliest;
  const worst = c ? `<p class="coach-note coach-costliest">Costliest: hand ${c.hand + 1}, ${c.phase === "play" ? `trick ${c.trick}` : c.phase}: ${esc(c.made_short)} where ${esc(c.best_short)} was better by about ${Math.round(c.loss)} points.</p>` : "";
  return `<h3>Coach, this game</h3><p class="coach-note coach-game-total">${game}${pending ? ` (${plural(pending, "hand")} still being reviewed.)` : ""}</p>${worst}
    <table class="coach-hands"><thead><tr><th scope="col">Hand</th><th scope="col">Mistakes</th><th scope="col">Decisions</th><th scope="col">Points lost</th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function openSheet() {
  $("review-body").innerHTML = reviewHtml(state.shownReview);
  coachAsked++;  // a review no longer shown is no longer asked about
  $("btn-review").hidden = !state.game.review;
  $("btn-review").textContent = state.shownReview ? "Hide all hands" : "Show all hands";
  // a tournament's table deals its next board, and none after the last
  const boardsLeft = state.table ? state.table.boards_left : null;
  $("btn-next").hidden = state.game.phase !== "hand_over" || boardsLeft === 0;
  $("btn-next").textContent = boardsLeft === null || boardsLeft === undefined ? "Next hand" : "Next board";
  $("link-tournament").hidden = !(boardsLeft === 0 && state.game.phase === "hand_over" && state.table.tournament);
  if (!$("link-tournament").hidden) $("link-tournament").href = `/tournaments/${encodeURIComponent(state.table.tournament)}`;
  const opening = !$("dlg-sheet").open;
  if (opening) $("dlg-sheet").showModal();
  fillSheet();  // once open, so the tables can be measured
  // the coach only where the server has one, for your own seat (at a friends' table too, not watching)
  if (state.game.coach && state.shownReview) showCoach(state.shownReview.number);
  if (state.game.coach && state.game.sheet.length) showGameCoach();  // shown once it answers
  else $("coach-game").hidden = true;
  if (opening && !$("btn-next").hidden) $("btn-next").focus();  // Enter deals on
}

export function openEnd() {
  const won = state.game.winner === state.game.human_side;
  $("end-title").textContent = won ? "You win!" : "Game over";
  const n = state.game.sheet.length;
  const after = `Final scores after ${plural(n, "hand")}:`;
  $("end-text").textContent = won ? after : `${state.game.message} ${after}`;
  // its page, where every hand replays face up: a solo game by its number, a table's by code and game number
  const t = state.table;
  $("link-end-replay").href = t ? `/games/${t.code}-${t.past_deals.length + 1}` : `/games/${state.game.id}`;
  $("end-scores").innerHTML = state.game.side_order.map((i) => state.game.sides[i]).map((s) => `<p class="end-score">${esc(s.name)}: <strong>${s.score}</strong></p>`).join("");
  // a tournament's table plays its round and no more: its end leads back to the tournament
  const tournament = t ? t.tournament : undefined;
  $("btn-end-new").hidden = Boolean(tournament);
  $("link-end-tournament").hidden = !tournament;
  if (tournament) $("link-end-tournament").href = `/tournaments/${encodeURIComponent(tournament)}`;
  if (!$("dlg-end").open) {
    $("dlg-end").showModal();
    $(tournament ? "link-end-tournament" : "btn-end-new").focus();
  }
}
