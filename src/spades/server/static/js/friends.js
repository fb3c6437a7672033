// Play with friends: open a table or join one by its link or code, the lobby (who sits where, seat
// choice, the host starts), then live play over the table's WebSocket with the solo game's table,
// score sheet, hints and keys; chat and reactions. The server sends each seat only its own view.

import { $, myTurn, say, state } from "./state.js";
import { api, ApiError } from "./api.js";
import { el, esc } from "./html.js";
import { busyWhile, show } from "./actions.js";
import { render } from "./table.js";
import { fillRules, readRuleOptions } from "./settings.js";

const SEATS_KEY = "spades.tables";   // {code: seat token}: the seats this browser holds, the keys to them
const WATCH_KEY = "spades.watching"; // {code: true}: the tables this browser watches, until it leaves them
const NAME_KEY = "spades.name";      // the display name last used
const RETRY_MS = [500, 1000, 2000, 4000, 8000];  // waits before reconnecting, then the last one again

function stored(key) {
  try { return JSON.parse(localStorage.getItem(key)) || {}; } catch { return {}; }
}

function store(key, change) {
  const value = stored(key);
  change(value);
  localStorage.setItem(key, JSON.stringify(value));
}

// A spectator's view: `you` is the number of seats, for the spectator holds none.
function watching(t) {
  return t.you === t.players;
}

export function tableLink(code) {
  return `${location.origin}/?table=${code}`;
}

// -- opening and joining --------------------------------------------------------------------------

/** The "Play with friends" dialog: join by code, or open a table with the player's own rules. */
export async function openFriends() {
  const form = $("open-form");
  await fillRules(form);
  form.elements.name.value = localStorage.getItem(NAME_KEY) || "";
  $("friends-error").textContent = "";
  $("dlg-friends").showModal();
}

async function openTable(e) {
  e.preventDefault();
  const f = $("open-form");
  const name = f.elements.name.value.trim();
  try {
    const out = await api.post("/api/tables", {
      name, preset: f.elements.preset.value, options: readRuleOptions(f), level: f.elements.level.value,
      bots_bid_nil: state.settings.bots_bid_nil, grace: Number(f.elements.grace.value),
      turn_seconds: Number(f.elements.turn_seconds.value),
    });
    localStorage.setItem(NAME_KEY, name);
    store(SEATS_KEY, (s) => { s[out.code] = out.token; });
    location.assign(tableLink(out.code));
  } catch (err) {
    $("friends-error").textContent = err.message;
  }
}

function joinByCode(e) {
  e.preventDefault();
  const code = $("join-form").elements.code.value.trim();
  if (code) location.assign(`/?table=${encodeURIComponent(code)}`);
}

/** The page opened on a table's link: take this browser's seat back, watch on (a reload of a spectator's
 * page), or show the lobby to sit down or watch. */
export async function enterTable(typed) {
  document.body.classList.add("at-table");
  for (const id of ["btn-restart", "btn-new", "btn-daily"]) $(id).hidden = true;
  $("btn-table").hidden = false;
  $("btn-end-new").textContent = "Rematch";
  let lobby;
  try {
    lobby = await api.get(`/api/tables/${encodeURIComponent(typed.trim())}`);
  } catch (e) {
    showProblem(e instanceof ApiError && e.status === 404
      ? `There is no table with the code "${typed}". Check the code, or ask for a new link: a table closes after a day unused.`
      : e.message);
    return;
  }
  const url = new URL(location.href);
  url.searchParams.set("table", lobby.code);
  history.replaceState(null, "", url);
  const token = stored(SEATS_KEY)[lobby.code];
  if (token) connect(lobby.code, token);
  else if (stored(WATCH_KEY)[lobby.code]) connect(lobby.code, null);
  else visit(lobby);
}

// A table that cannot be shown: the lobby card with the reason and a way back.
function showProblem(text) {
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

// A visitor (no seat yet) sees the lobby and may sit down; it looks again every few seconds.
let visiting = null;
let visited = null;  // the lobby the visitor sees

function visit(lobby) {
  visited = lobby;
  drawLobby(lobby, null);
  clearTimeout(visiting);
  visiting = setTimeout(async () => {
    try {
      const again = await api.get(`/api/tables/${lobby.code}`);
      if (!state.remote) visit(again);
    } catch (e) {
      $("lobby-error").textContent = e.message;
    }
  }, 3000);
}

async function sitDown(seat) {
  const name = $("lobby-name").value.trim();
  if (!name) { $("lobby-error").textContent = "Type your name first: the others see it at the table."; $("lobby-name").focus(); return; }
  try {
    const code = visited.code;
    const out = await api.post(`/api/tables/${code}/seats`, { name, seat });
    localStorage.setItem(NAME_KEY, name);
    store(SEATS_KEY, (s) => { s[code] = out.token; });
    clearTimeout(visiting);
    connect(code, out.token);
  } catch (e) {
    $("lobby-error").textContent = e.message;
  }
}

// -- the lobby and the seats -----------------------------------------------------------------------

function rulesLine(t) {
  const clock = t.turn_seconds ? `, ${t.turn_seconds} s a move` : "";
  return `Rules: ${t.rules_name}, to ${t.rules.target} points, ${t.players} seats. Computer players: ${t.level}; `
    + `a computer player takes the seat of someone away for ${t.grace} s${clock}.`;
}

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

function act(what, label, s) {
  return `<button type="button" data-act="${what}" data-seat="${s.seat}" aria-label="${esc(label)}: ${esc(s.where)}">${esc(label)}</button>`;
}

// The lobby: before the start for the people seated, and for a visitor at any time.
function drawLobby(t, you) {
  document.body.classList.add("in-lobby");
  $("lobby").hidden = false;
  $("lobby-title").textContent = `Table ${t.code}`;
  $("lobby-rules").textContent = rulesLine(t);
  $("lobby-share").innerHTML = shareHtml(t.code);
  $("lobby-seats").innerHTML = seatsHtml(t, you);
  const free = t.seats.filter((s) => !s.person && !s.kept).length;
  $("lobby-name-row").hidden = you !== null || !free;
  if (you === null && !$("lobby-name").value) $("lobby-name").value = localStorage.getItem(NAME_KEY) || "";
  $("btn-start").hidden = you === null || t.host !== you;
  $("btn-watch").hidden = you !== null || state.remote !== null || (free && !t.started);  // a full or started table
  $("btn-leave-lobby").textContent = you === null ? "Back to my game" : "Leave the table";
  const host = t.seats.find((s) => s.host);
  $("lobby-note").textContent = you === null
    ? (free ? (t.started ? "The game is under way: a seat played by a computer player is yours to take over."
      : "Type your name and choose a seat. Partners sit opposite each other.")
      : `This table is full: every seat is taken${t.seats.some((s) => s.kept) ? " or kept for a computer player" : ""}.`)
    : t.host === you ? `Send the link or the code to your friends. Seats nobody takes are played by computer players; keep a seat for one so that no one takes it. Start when everyone is seated.`
      : `Waiting for ${host ? host.name : "the host"} to start the game. Seats nobody takes are played by computer players.`;
}

function leaveLobby() {
  document.body.classList.remove("in-lobby");
  $("lobby").hidden = true;
}

// -- the live connection ---------------------------------------------------------------------------

class Connection {
  constructor(code, token) {
    this.code = code;
    this.token = token;
    this.ws = null;
    this.tries = 0;
    this.ended = false;
    this.asked = new Map();  // id -> the command sent until answered, so a refusal is told where it belongs
    this.nextId = 1;
    this.queue = Promise.resolve();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = this.ws = new WebSocket(`${scheme}://${location.host}/api/tables/${this.code}/live`);
    ws.addEventListener("open", () => {
      const hello = this.token ? { token: this.token } : { watch: true };  // no token: a spectator
      ws.send(JSON.stringify({ ...hello, since: state.table ? state.table.seq : -1, keep: true }));
    });
    ws.addEventListener("message", (e) => this.heard(JSON.parse(e.data)));
    ws.addEventListener("close", (e) => this.closed(e));
  }

  heard(msg) {
    if (msg.type === "update") {
      msg.receivedAt = performance.now();  // its countdowns run from now, however long it waits to be shown
      this.tries = 0;
      this.queue = this.queue.then(() => applyUpdate(msg)).catch((err) => say(String(err)));
      return;
    }
    const command = this.asked.get(msg.id) || {};
    this.asked.delete(msg.id);
    if (msg.type === "ok") return;  // accepted: its update tells the rest
    const asked = ["chat", "react"].includes(command.do) ? "chat"
      : ["sit", "move_person", "host", "bot", "back", "start", "keep", "open"].includes(command.do) ? "table" : "game";
    if (asked === "chat") {
      $("chat-error").textContent = msg.detail;
      if (command.text && !$("chat-text").value) $("chat-text").value = command.text;  // refused: back in the box, to send again
    } else if (asked === "table") $("lobby").hidden ? $("table-error").textContent = msg.detail : $("lobby-error").textContent = msg.detail;
    else say(msg.detail);
  }

  closed(e) {
    this.asked.clear();  // no answer comes on a closed connection
    if (this.ended) return;
    if (e.code === 4403 || e.code === 4404) {  // the seat or the table is gone: no use trying again
      this.ended = true;
      for (const key of [SEATS_KEY, WATCH_KEY]) store(key, (s) => { delete s[this.code]; });
      state.remote = null;
      const why = e.code === 4404 ? "This table has closed." : "This browser's seat at the table was given up.";
      api.get(`/api/tables/${this.code}`).then((lobby) => {
        visit(lobby);
        $("lobby-error").textContent = `${why} Sit down again to play.`;
      }).catch(() => showProblem(`${why} Ask for a new link to play.`));
      return;
    }
    const wait = RETRY_MS[Math.min(this.tries, RETRY_MS.length - 1)];
    this.tries += 1;
    connectionNote(`The connection to the table was lost: trying again in ${Math.ceil(wait / 1000)} s…`);
    setTimeout(() => this.open(), wait);
  }

  /** A command for the table (a move, chat, start...), answered by `ok` or a refusal with its id. */
  send(command) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      say("Not connected to the table right now: wait for the connection to come back.");
      return;
    }
    const id = this.nextId++;
    this.asked.set(id, command);
    this.ws.send(JSON.stringify({ ...command, id }));
  }

  /** Something about this seat's game over HTTP (`hint`, `hands/N`, the coach's `hands/N/coach` and `coach`). */
  get(what) {
    return api.get(`/api/tables/${this.code}/${what}`, { "X-Seat-Token": this.token });
  }

  // Before the start leaving frees the seat, so its token is worth nothing; after it the seat stays
  // the person's (a computer player keeps it), and opening the link again takes it back.
  leave() {
    if (this.token) this.send({ do: "leave" });
    else store(WATCH_KEY, (s) => { delete s[this.code]; });  // a spectator just goes, and no longer watches
    this.ended = true;
    if (!state.table || !state.table.started) store(SEATS_KEY, (s) => { delete s[this.code]; });
  }

  /** No more of this connection (a spectator who sits down opens their seat's own). */
  close() {
    this.ended = true;
    if (this.ws) this.ws.close();
  }
}

function connect(code, token) {
  if (state.remote) state.remote.close();
  state.remote = new Connection(code, token);
  connectionNote("Connecting to the table…");
  state.remote.open();
}

let connectionText = "";

function connectionNote(text) {
  connectionText = text;
  drawStatus();
}

// A table's update: the table bits (lobby, seats, chat), then the game's new moves shown one by one.
async function applyUpdate(msg) {
  const t = msg.table;
  const before = state.game;
  const tableBefore = state.table;
  // A connection's updates after its first leave out what never changes at the table, and the seats,
  // the chat and the score sheet while they stay as they were: kept from before.
  for (const key of ["rules", "reactions", "seats", "chat"]) if (!(key in t)) t[key] = tableBefore[key];
  if (t.game && !("rules" in t.game)) t.game.rules = t.rules;
  if (t.game) for (const key of ["sheet", "sheet_legend"]) if (!(key in t.game)) t.game[key] = before[key];
  state.table = t;
  tableReceived = msg.receivedAt;
  connectionText = "";
  drawChat(t);
  if ($("dlg-table").open) drawTableDialog();
  document.body.classList.toggle("watching", watching(t));
  if (!t.game) {
    state.game = null;
    drawLobby(t, watching(t) ? null : t.you);
    drawStatus();
    return;
  }
  leaveLobby();
  if (!msg.resync) tellNews(tableBefore, t, msg.events);
  $("chat").hidden = false;
  $("table-bar").hidden = false;
  const newGame = !before || before.id !== t.game.id;
  if (newGame) for (const d of document.querySelectorAll("dialog[open]")) d.close();
  else if (before.phase === "hand_over" && t.game.phase !== "hand_over") $("dlg-sheet").close();
  if (before && !newGame && before.version === t.game.version) {
    state.game = t.game;
    render();
  } else {
    // Only this game's moves of this hand are shown: a new deal or game starts from its own table.
    const cut = msg.events.findLastIndex((e) => e.kind === "start" || e.kind === "next");
    const events = msg.events.slice(cut + 1).filter((e) => e.game).map((e) => e.game);
    state.hint.card = state.hint.bid = state.hint.move = null;
    state.game = t.game;
    if (!(t.game.phase === "pass" && myTurn())) state.selected = new Set();
    await busyWhile(() => show(t.game, newGame ? [] : events));
  }
  drawStatus();
}

// The line under the header: the connection, who is away (counting down to the computer player
// taking over), a computer player in your own seat, and the turn timer for everyone at the table.
function drawStatus() {
  const t = state.table;
  clocks = [];
  const parts = connectionText ? [esc(connectionText)] : [];
  if (t && t.started) {
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

let statusHtml = null;  // the status line as last drawn, its countdowns' numbers aside

// Who sat down, left or came back, and who became the host (the server logs the role passing on as
// it logs it being handed), from an update's events (never a resync's), said once in the bar's own
// polite live region as text, until newer news or NEWS_MS pass. A page that merely connects again is
// no news, nor is someone away or a computer player taking over: the status line says those, with
// countdowns.
const NEWS = new Set(["join", "leave", "back", "host"]);
const NEWS_MS = 15000;
let newsTimer = 0;

function tellNews(tableBefore, t, events) {
  const before = tableBefore && tableBefore.code === t.code ? tableBefore : null;  // this table, as it was
  const gone = (seat) => before && before.seats[seat].person && (before.seats[seat].away || before.seats[seat].bot);
  const lines = events.filter((e) => NEWS.has(e.kind) && (e.kind !== "back" || gone(e.seat))).map((e) => e.text);
  if (!lines.length) return;
  $("table-news").textContent = lines.join(" ");
  clearTimeout(newsTimer);
  newsTimer = setTimeout(() => {
    $("table-news").textContent = "";
    drawStatus();
  }, NEWS_MS);
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

// The chat as last drawn, and for which seat ("You"): an update that did not change it draws nothing.
let drawnChat = { lines: [], you: null };

// Only the lines not shown yet are added (the log is a live region: what is added is read out), the
// oldest dropped as the server drops them; the log follows the newest line unless the person has
// scrolled up to read.
function drawChat(t) {
  $("chat").hidden = false;
  const log = $("chat-log");
  const same = (a, b) => a.seat === b.seat && a.name === b.name && a.text === b.text && a.reaction === b.reaction;
  if (t.chat !== drawnChat.lines || t.you !== drawnChat.you) {
    const old = t.you === drawnChat.you ? drawnChat.lines : [];
    let kept = Math.min(old.length, t.chat.length);  // the longest end of the old log that starts the new
    while (kept && !t.chat.slice(0, kept).every((c, i) => same(c, old[old.length - kept + i]))) kept -= 1;
    const following = log.scrollHeight - log.scrollTop - log.clientHeight < 8;
    while (log.children.length > kept) log.firstElementChild.remove();
    log.append(...t.chat.slice(kept).map((c) => el("p", c.reaction ? { class: "reaction" } : {},
      el("strong", {}, c.seat === t.you ? "You" : c.name), `: ${c.text}`)));
    if (following) log.scrollTop = log.scrollHeight;
    drawnChat = { lines: t.chat, you: t.you };
  }
  if (!$("reactions").children.length) {
    $("reactions").replaceChildren(...Object.entries(t.reactions).map(([name, text]) =>
      el("button", { type: "button", "data-act": "react", "data-reaction": name }, text)));
  }
}

function drawTableDialog() {
  const t = state.table;
  $("table-title").textContent = `Table ${t.code}`;
  $("table-share").innerHTML = shareHtml(t.code);
  $("table-seats").innerHTML = seatsHtml(t, watching(t) ? null : t.you, false);  // a spectator sits down from the lobby
}

function openTableDialog() {
  if (!state.table) return;
  $("table-error").textContent = "";
  drawTableDialog();
  $("dlg-table").showModal();
}

// -- wiring ----------------------------------------------------------------------------------------

async function copyLink(button) {
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

function onAct(e) {
  const b = e.target.closest("[data-act]");
  if (!b) return;
  const what = b.dataset.act;
  const seat = b.dataset.seat === undefined ? null : Number(b.dataset.seat);
  const live = state.remote;
  if (what === "copy") copyLink(b);
  else if (what === "leave") {
    if (live) live.leave();
    setTimeout(() => location.assign("/"), live ? 300 : 0);  // the goodbye leaves first
  } else if (what === "sit") live && live.token ? live.send({ do: "sit", to: seat }) : sitDown(seat);
  else if (what === "watch") {
    clearTimeout(visiting);
    store(WATCH_KEY, (s) => { s[visited.code] = true; });  // a reload watches on
    connect(visited.code, null);
  }
  else if (what === "swap") live.send({ do: "move_person", seat, to: state.table.you });
  else if (what === "start") live.send({ do: "start" });
  else if (what === "host" || what === "keep" || what === "open") live.send({ do: what, seat });
  else if (what === "bot") live.send({ do: "bot", seat });
  else if (what === "back") live.send({ do: "back" });
  else if (what === "react") { $("chat-error").textContent = ""; live.send({ do: "react", reaction: b.dataset.reaction }); }
}

function sendChat(e) {
  e.preventDefault();
  const text = $("chat-text").value.trim();
  if (!text || !state.remote) return;
  $("chat-error").textContent = "";
  state.remote.send({ do: "chat", text });
  $("chat-text").value = "";
}

export function wireFriends() {
  $("btn-friends").addEventListener("click", openFriends);
  $("btn-table").addEventListener("click", openTableDialog);
  $("open-form").addEventListener("submit", openTable);
  $("join-form").addEventListener("submit", joinByCode);
  $("chat-form").addEventListener("submit", sendChat);
  $("lobby-name").addEventListener("keydown", (e) => { if (e.key === "Enter") sitDown(null); });  // the first free seat
  for (const id of ["lobby", "dlg-table", "table-bar", "chat"]) $(id).addEventListener("click", onAct);
}
