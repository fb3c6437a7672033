// A friends' table's seats as people see them: the lobby before the start (and for a visitor at any
// time), the Table dialog during the game, the link to share, and the card that says a table cannot
// be shown.

import { $, state } from "./state.js";
import { esc } from "./html.js";
import { offeredName } from "./saved.js";

/** A spectator's view: `you` is the number of seats, for the spectator holds none. */
export function watching(t) {
  return t.you === t.players;
}

/** The link that opens the table's page. */
export function tableLink(code) {
  return `${location.origin}/?table=${code}`;
}

// The table's rules, computer players and clocks in a line.
function rulesLine(t) {
  const clock = t.turn_seconds ? `, ${t.turn_seconds} s a move` : "";
  const rated = t.rated ? ` Rated (${t.rated}): leaving counts as a loss.` : "";
  return `Rules: ${t.rules_name}, to ${t.rules.target} points, ${t.players} seats. Computer players: ${t.level}; `
    + `a computer player takes the seat of someone away for ${t.grace} s${clock}.${rated}`;
}

// The link to share, its Copy button and the code.
function shareHtml(code) {
  return `<label>Link to share <input readonly value="${esc(tableLink(code))}" data-share></label>
    <button type="button" data-act="copy">Copy link</button>
    <span>Code: <strong class="code">${esc(code)}</strong></span><span class="copied" role="status"></span>`;
}

// The seats side by side (partners together), each with what this person may do there (a visitor
// sits down only where there is a name to sit with: the lobby).
function seatsHtml(t, you, canSit = true) {
  const seated = you !== null;
  const host = seated && t.host === you;
  const sides = [...new Set(t.seats.map((s) => s.side))];
  return sides.map((side) => {
    const seats = t.seats.filter((s) => s.side === side);
    const items = seats.map((s) => {
      const mine = s.seat === you;
      const open = !s.person && !s.kept;
      const who = s.person ? esc(s.name) : s.kept ? "A computer player (kept by the host)" : "Free: a computer player";
      const notes = [mine ? "you" : "", s.host ? "host" : "", s.person && s.away && !s.bot ? "away" : "",
        s.person && s.bot && t.started ? "a computer player plays for now" : ""].filter(Boolean);
      const buttons = [];
      if (open && !seated && canSit) buttons.push(act("sit", "Sit here", s));
      if (open && seated && !t.started) buttons.push(act("sit", "Move here", s));
      if (host && !s.person && !t.started) buttons.push(s.kept ? act("open", "Open to a friend", s) : act("keep", "Keep for a computer", s));
      if (host && s.person && !mine && !t.started) buttons.push(act("swap", "Swap seats with me", s));
      if (host && s.person && !mine) buttons.push(act("host", "Make host", s));
      if (host && s.person && !mine && t.started && !s.bot) buttons.push(act("bot", "Let a computer play", s));
      if (mine && s.bot && t.started) buttons.push(act("back", "Take my seat back", s));
      return `<li class="seat-item${mine ? " me" : ""}" data-seat="${s.seat}"><span class="where">${esc(s.where)}</span>
        <span class="who">${who}${notes.length ? ` <span class="state">(${notes.join(", ")})</span>` : ""}</span>${buttons.join("")}</li>`;
    }).join("");
    const title = seats.map((s) => s.where).join(" & ");
    return `<div class="seat-side"><h3>${esc(title)}</h3><ul class="seat-list">${items}</ul></div>`;
  }).join("");
}

// A seat's button: `what` it does (data-act), named with the seat for a screen reader.
function act(what, label, s) {
  return `<button type="button" data-act="${what}" data-seat="${s.seat}" aria-label="${esc(label)}: ${esc(s.where)}">${esc(label)}</button>`;
}

/** The lobby: before the start for the people seated and watching, and for a visitor at any time. */
export function drawLobby(t, you) {
  document.body.classList.add("in-lobby");
  for (const id of ["btn-hint", "btn-last", "btn-sheet"]) $(id).disabled = true;  // no game to use them on
  $("lobby").hidden = false;
  $("lobby-title").textContent = `Table ${t.code}`;
  $("lobby-rules").textContent = rulesLine(t);
  $("lobby-share").innerHTML = shareHtml(t.code);
  $("lobby-seats").innerHTML = seatsHtml(t, you);
  const free = t.seats.filter((s) => !s.person && !s.kept).length;
  $("lobby-name-row").hidden = you !== null || !free;
  if (you === null && !$("lobby-name").value) $("lobby-name").value = offeredName();
  $("btn-start").hidden = you === null || t.host !== you;
  const visiting = Boolean(state.remote && state.remote.visiting);
  $("btn-watch").hidden = !visiting;
  $("btn-leave-lobby").textContent = you === null ? "Back to my game" : "Leave the table";
  const host = t.seats.find((s) => s.host);
  const hostName = host ? host.name : "the host";
  $("lobby-note").textContent = you === null
    ? (visiting ? "" : `You are watching: the game shows here when ${hostName} starts it. `)
      + (free ? (t.started ? "The game is under way: a seat played by a computer player is yours to take over."
        : "Type your name and choose a seat. Partners sit opposite each other.")
        : `This table is full: every seat is taken${t.seats.some((s) => s.kept) ? " or kept for a computer player" : ""}.`)
    : t.host === you ? `Send the link or the code to your friends. Seats nobody takes are played by computer players; keep a seat for one so that no one takes it. Start when everyone is seated.`
      : `Waiting for ${hostName} to start the game. Seats nobody takes are played by computer players.`;
}

/** The lobby put away: the game is shown. */
export function leaveLobby() {
  document.body.classList.remove("in-lobby");
  $("lobby").hidden = true;
}

/** A table that cannot be shown: the lobby card with the reason and a way back. */
export function showProblem(text) {
  document.body.classList.add("in-lobby");
  $("lobby").hidden = false;
  $("lobby-title").textContent = "Play with friends";
  for (const id of ["lobby-rules", "lobby-note"]) $(id).textContent = "";
  for (const id of ["lobby-share", "lobby-seats"]) $(id).innerHTML = "";
  $("lobby-name-row").hidden = true;
  $("btn-start").hidden = true;
  $("btn-watch").hidden = true;
  $("btn-leave-lobby").textContent = "Back to my game";
  $("lobby-error").textContent = text;
}

/** The Table dialog's contents: the link and the seats, as the game goes on. */
export function drawTableDialog() {
  const t = state.table;
  $("table-title").textContent = `Table ${t.code}`;
  $("table-share").innerHTML = shareHtml(t.code);
  $("table-seats").innerHTML = seatsHtml(t, watching(t) ? null : t.you, false);  // a spectator sits down from the lobby
}

/** The Table button: the dialog with the link and the seats. */
export function openTableDialog() {
  if (!state.table) return;
  $("table-error").textContent = "";
  drawTableDialog();
  $("dlg-table").showModal();
}

/** The Copy link button: the link beside it to the clipboard, or selected for the person to copy. */
export async function copyLink(button) {
  const box = button.parentElement.querySelector("[data-share]");
  const said = button.parentElement.querySelector(".copied");
  try {
    await navigator.clipboard.writeText(box.value);
    said.textContent = "Link copied.";
  } catch {
    box.select();
    said.textContent = "Select the link and copy it.";
  }
}
