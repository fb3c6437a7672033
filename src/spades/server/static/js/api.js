// The page's only way to the server: JSON over fetch, with the player's credential (the anonymous token,
// or a session's after signing in to an account).

import { state } from "./state.js";

const TOKEN_KEY = "spades.token";
const COOKIE = "spades_token";
const ACCOUNT_KEY = "spades.account";  // the name of the account this browser's credential signs in as

// The token lives in localStorage, with a cookie copy: cookies ignore the port, so a server
// restarted on another local port still finds the same player.
function readToken() {
  const stored = localStorage.getItem(TOKEN_KEY);
  if (stored) return stored;
  const m = document.cookie.match(new RegExp(`(?:^|; )${COOKIE}=([A-Za-z0-9_-]+)`));
  return m ? m[1] : null;
}

function keepToken(token) {
  localStorage.setItem(TOKEN_KEY, token);
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${COOKIE}=${token}; max-age=315360000; path=/; SameSite=Lax${secure}`;
}

/** This browser's credential from now on: a session's after signing in, or (null) none after signing out,
 * so that the next page load starts a new anonymous player. */
export function useToken(token) {
  if (token) { keepToken(token); return; }
  localStorage.removeItem(TOKEN_KEY);
  document.cookie = `${COOKIE}=; max-age=0; path=/; SameSite=Lax`;
}

/** Keep (or, with null, forget) the name of the account this browser is signed in as: should the server
 * refuse the credential later (signed out everywhere, the account deleted), the page can say so. */
export function rememberAccount(name) {
  if (name) localStorage.setItem(ACCOUNT_KEY, name);
  else localStorage.removeItem(ACCOUNT_KEY);
}

/** The account this browser was signed in as if the server has refused its credential since, else null. */
export function lostAccount() {
  return state.credentialRefused ? localStorage.getItem(ACCOUNT_KEY) : null;
}

export class ApiError extends Error {
  constructor(status, detail, state) {
    super(detail);
    this.status = status;
    this.state = state || null;
  }
}

// A request (with this browser's credential unless `bare`); a refusal becomes an ApiError with the
// server's reason (and its state, if it sent one).
async function request(method, path, body, retried = false, extra = {}, bare = false) {
  const headers = { "Content-Type": "application/json", ...extra };
  const token = bare ? null : readToken();
  if (token) headers["X-Player-Token"] = token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status === 401 && token && !retried) {
    // a credential this server no longer takes (signed out elsewhere, or its database was replaced):
    // become a new player, once
    state.credentialRefused = true;
    keepToken((await (await request("POST", "/api/players", {}, true)).json()).token);
    return request(method, path, body, true, extra);
  }
  if (!res.ok) {
    let data = null;
    try { data = await res.json(); } catch { data = null; }
    const detail = data && typeof data.detail === "string" ? data.detail : `The server answered ${res.status}.`;
    throw new ApiError(res.status, detail, data && data.state);
  }
  return res;
}

async function call(method, path, body, extra) {
  const res = await request(method, path, body, false, extra);
  try { return await res.json(); } catch { return null; }
}

export async function ensureToken() {
  const token = readToken();
  if (token) keepToken(token);
  else keepToken((await call("POST", "/api/players")).token);
}

// `extra`: more headers, e.g. a friends' table's X-Seat-Token.
export const api = {
  get: (path, extra) => call("GET", path, undefined, extra),
  post: (path, body, extra) => call("POST", path, body === undefined ? {} : body, extra),
  put: (path, body) => call("PUT", path, body),
  del: (path, extra, body) => call("DELETE", path, body, extra),
  // a sign-in, sent without this browser's credential: its 401 is the sign-in's refusal, not the token's
  signIn: async (path, body) => (await request("POST", path, body, false, {}, true)).json(),
  blob: async (path, body) => (await request("POST", path, body)).blob(),  // a file the server makes, e.g. a PDF
};

// The solo game's moves and next hands over one WebSocket (/api/games/live), each answered as its HTTP
// route answers it, without a request's cost around it. Whenever the socket cannot be used (not open, closed
// while a move waited, this browser's credential refused or changed) the move goes over HTTP instead: a
// move sent twice carries the same version, so the second is refused with the game as it is, never made.
// The socket answers a move with what changed since the last state it answered: merged onto that one here.
let socket = null;
let sent = 0;
let socketFailedAt = -Infinity;  // when a socket last failed to open: a minute over HTTP only after that
const SOCKET_PAUSE_MS = 60000;

function openSocket(token) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const s = { ws: new WebSocket(`${scheme}://${location.host}/api/games/live`), token, waiting: new Map(), last: null };
  let fail = null;
  s.ready = new Promise((resolve, reject) => {
    s.ws.onopen = () => { s.ws.send(JSON.stringify({ token, partial: true })); resolve(); };
    fail = reject;
  });
  s.ready.catch(() => {});  // a failed socket is told by the move that waits for it
  s.ws.onerror = () => {
    socketFailedAt = performance.now();
    fail(new Error("The game's connection failed."));
  };
  s.ws.onmessage = (m) => {
    const answer = JSON.parse(m.data);
    if (answer.partial) answer.body.state = { ...s.last, ...answer.body.state };
    if (answer.status === 200) s.last = answer.body.state;
    const waiting = s.waiting.get(answer.id);
    if (answer.type === "answer" && waiting) {
      s.waiting.delete(answer.id);
      waiting.resolve(answer);
    }
  };
  s.ws.onclose = () => {
    fail(new Error("The game's connection closed."));  // if it closed before it opened
    if (socket === s) socket = null;
    for (const waiting of s.waiting.values()) waiting.reject(new Error("The game's connection closed."));
    s.waiting.clear();
  };
  return s;
}

async function overSocket(message) {
  const token = readToken();
  if (!token) throw new Error("No credential yet.");
  if (performance.now() - socketFailedAt < SOCKET_PAUSE_MS) throw new Error("The game's connection is down.");
  if (socket && socket.token !== token) socket.ws.close();  // signed in or out since: a new one
  if (!socket || socket.token !== token) socket = openSocket(token);
  const s = socket;
  await s.ready;
  const id = ++sent;
  return new Promise((resolve, reject) => {
    s.waiting.set(id, { resolve, reject });
    s.ws.send(JSON.stringify({ id, ...message }));
  });
}

/** A move (`what`: "moves", with `{move, version}`) or the next hand ("next", `{version}`) in the solo
 * game `gameId`: its answer, the events and the new state; a refusal is an ApiError, as over HTTP. */
export async function soloPost(gameId, what, body) {
  let answer = null;
  try {
    answer = await overSocket({ do: what === "next" ? "next" : "move", game: gameId, ...body });
  } catch {
    answer = null;
  }
  if (!answer || answer.status === 401) return api.post(`/api/games/${gameId}/${what}`, body);
  if (answer.status === 200) return answer.body;
  const data = answer.body || {};
  throw new ApiError(answer.status, data.detail || `The server answered ${answer.status}.`, data.state);
}

/** Something about the game being played, over HTTP: its `hint`, `hands/N` (a finished hand, face up),
 * or the coach's `hands/N/coach` and `coach` (at a friends' table, through its connection's seat). */
export function gameGet(what) {
  return state.remote ? state.remote.get(what) : api.get(`/api/games/${state.game.id}/${what}`);
}
