// A friends' table's live connection (its WebSocket): the hello, the updates shown (the table's bits,
// then the game's new moves one by one), the commands sent and their refusals told where they belong,
// and trying again when the connection drops.

import { $, myTurn, say, state } from "./state.js";
import { api } from "./api.js";
import { busyWhile, holdBusy, show } from "./actions.js";
import { render } from "./table.js";
import { drawChat } from "./chat.js";
import { drawLobby, drawTableDialog, leaveLobby, showProblem, watching } from "./lobby.js";
import { clearNews, connectionNote, drawStatus, tellNews, updateArrived } from "./status.js";
import { SEATS_KEY, WATCH_KEY, forget, store } from "./saved.js";

const RETRY_MS = [500, 1000, 2000, 4000, 8000];  // waits before reconnecting, then the last one again

// What each command is about ("game", "table" or "chat"), as the server lists its commands: where a
// refusal is told. Asked once, when the first connection opens (again after a failed ask).
let about = new Map();
let asking = null;
function learnCommands() {
  asking ??= api.get("/api/tables/commands")
    .then((commands) => { about = new Map(commands.map((c) => [c.do, c.about])); })
    .catch(() => { asking = null; });
}

// A seat's connection (its token), a spectator's (no token, `watch`), or a visitor's: no token and not
// watching, who sees the lobby live, to sit down or to choose to watch.
class Connection {
  constructor(code, token, watch) {
    this.code = code;
    this.token = token;
    this.watch = watch;
    this.seq = -1;  // the table's version in the last update: a connection made again asks for what came after
    this.ws = null;
    this.tries = 0;
    this.ended = false;
    this.asked = new Map();  // id -> the command sent until answered, so a refusal is told where it belongs
    this.held = new Map();  // id -> [game, version, let go]: a move or the next hand keeps the page busy until shown
    this.nextId = 1;
    this.queue = Promise.resolve();
  }

  /** Open the WebSocket and say hello: the seat's token or a spectator's watch, and the version it has. */
  open() {
    learnCommands();
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = this.ws = new WebSocket(`${scheme}://${location.host}/api/tables/${this.code}/live`);
    ws.addEventListener("open", () => {
      const hello = this.token ? { token: this.token } : { watch: true };  // no token: a spectator
      ws.send(JSON.stringify({ ...hello, since: this.seq, keep: true }));
    });
    ws.addEventListener("message", (e) => this.heard(JSON.parse(e.data)));
    ws.addEventListener("close", (e) => this.closed(e));
  }

  // A message from the table: an update, or the answer to a command (a refusal told where it belongs).
  heard(msg) {
    if (msg.type === "update") {
      this.tries = 0;
      this.seq = msg.seq;
      this.took(msg);
      this.shownOn(msg.table.game);
      return;
    }
    const command = this.asked.get(msg.id) || {};
    this.asked.delete(msg.id);
    if (msg.type === "ok") return;  // accepted: its update tells the rest
    this.letGo(msg.id);
    const asked = about.get(command.do) || "game";
    if (asked === "chat") {
      $("chat-error").textContent = msg.detail;
      if (command.text && !$("chat-text").value) $("chat-text").value = command.text;  // refused: back in the box, to send again
    } else if (asked === "table") $("lobby").hidden ? $("table-error").textContent = msg.detail : $("lobby-error").textContent = msg.detail;
    else say(msg.detail);
  }

  /** Not a seat's, and not watching (yet). */
  get visiting() {
    return !this.token && !this.watch;
  }

  // An update (or the last one again): its table bits drawn at once, its game once the moves before
  // it have been shown (a visitor's lobby has none).
  took(msg) {
    const t = tableNow(msg, this.visiting);
    if (t.game && !this.visiting) this.queue = this.queue.then(() => showGame(t, msg)).catch((err) => say(String(err)));
  }

  /** The visitor chose to watch: the game from now on (the lobby until it starts), after a reload too. */
  startWatching() {
    this.watch = true;
    store(WATCH_KEY, (s) => { s[this.code] = true; });
    this.took({ table: state.table, events: [], resync: true });
  }

  // The connection closed: try again after a wait, unless the seat or the table is gone.
  closed(e) {
    this.asked.clear();  // no answer comes on a closed connection
    for (const id of [...this.held.keys()]) this.letGo(id);
    if (this.ended) return;
    if (e.code === 4403 || e.code === 4404) {  // the seat or the table is gone: no use trying again
      this.ended = true;
      forget(this.code);
      if (e.code === 4404) {
        state.remote = null;
        showProblem("This table has closed. Ask for a new link to play.");
      } else {
        connect(this.code, null, false);  // the lobby, to sit down again
        $("lobby-error").textContent = "This browser's seat at the table was given up. Sit down again to play.";
      }
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
    // As a solo game's request does, a move keeps the page busy until the table has moved on and shown
    // it: a second tap meanwhile would be sent as another move, and refused. (The answer may come before
    // or after the update: the update is what counts.)
    if (command.version !== undefined) this.held.set(id, [state.game.id, command.version, holdBusy()]);
    this.ws.send(JSON.stringify({ ...command, id }));
  }

  // An update came with this game (or none): the page is busy no longer for the moves it passed (a new
  // game, such as a tournament's next board, passes them all), once it has been shown.
  shownOn(game) {
    for (const [id, [was, version]] of this.held) {
      if (!game || game.id !== was || game.version > version) this.queue = this.queue.then(() => this.letGo(id));
    }
  }

  // Command `id` was refused, shown or will never be answered: the page is no longer busy for it.
  letGo(id) {
    const held = this.held.get(id);
    this.held.delete(id);
    if (held) held[2]();
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

/** Connect to the table's live channel with a seat's token, or with none to `watch` the game or visit
 * the lobby. */
export function connect(code, token, watch) {
  if (state.remote) state.remote.close();
  state.remote = new Connection(code, token, watch);
  clearNews();  // what the visitor's lobby told, say, is not news to the seat sat down in
  connectionNote("Connecting to the table…");
  state.remote.open();
}

// An update's table bits, drawn as soon as it comes, never waiting behind the moves still being shown:
// the seats (the lobby before the start, and a visitor's at any time), the chat (not a visitor's), the
// status line and the news. The table as it is now.
function tableNow(msg, visiting) {
  const t = msg.table;
  const tableBefore = state.table;
  // A connection's updates after its first leave out what never changes at the table, and the seats,
  // the chat and the score sheet while they stay as they were: kept from before.
  for (const key of ["rules", "reactions", "seats", "chat"]) if (!(key in t)) t[key] = tableBefore[key];
  if (t.game && !("rules" in t.game)) t.game.rules = t.rules;
  if (t.game) for (const key of ["sheet", "sheet_legend"]) if (!(key in t.game)) t.game[key] = tableBefore.game[key];
  state.table = t;
  updateArrived();
  if (visiting) $("chat").hidden = true;
  else drawChat(t);
  if ($("dlg-table").open) drawTableDialog();
  document.body.classList.toggle("watching", watching(t) && !visiting);
  if (!msg.resync) tellNews(tableBefore, t, msg.events);
  if (!t.game || visiting) {
    state.game = null;
    drawLobby(t, watching(t) ? null : t.you);
  }
  drawStatus();
  return t;
}

// An update's game, once the moves of the updates before it have been shown: its own new moves one by
// one, then the table as it is.
async function showGame(t, msg) {
  const before = state.game;
  leaveLobby();
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
}
