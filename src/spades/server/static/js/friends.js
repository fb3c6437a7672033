// Play with friends: open a table or join one by its link or code, sit down or watch, and what the
// people at a table press (the seats' buttons, the reactions, leaving). The lobby and the Table dialog
// are drawn by lobby.js, the live connection is live.js's, the chat chat.js's and the status line
// status.js's. The server sends each seat only its own view.

import { $, state } from "./state.js";
import { api, ApiError } from "./api.js";
import { fillRules, readRuleOptions } from "./settings.js";
import { esc } from "./html.js";
import { sendChat } from "./chat.js";
import { connect } from "./live.js";
import { copyLink, openTableDialog, showProblem, tableLink } from "./lobby.js";
import { NAME_KEY, SEATS_KEY, WATCH_KEY, offeredName, store, stored } from "./saved.js";
import { loadAccount } from "./account.js";

/** The "Play with friends" dialog: join by code, or open a table with the player's own rules. */
async function openFriends() {
  const form = $("open-form");
  await Promise.all([fillRules(form), loadAccount()]);
  form.elements.level.insertAdjacentHTML("beforeend", state.rulesMeta.bots.map((b) => `<option>${esc(b)}</option>`).join(""));
  form.elements.name.value = offeredName();
  $("friends-error").textContent = "";
  $("dlg-friends").showModal();
}

// The dialog's Open the table: a new table with these rules, this person in its first seat, then its page.
async function openTable(e) {
  e.preventDefault();
  const f = $("open-form");
  const name = f.elements.name.value.trim();
  try {
    const out = await api.post("/api/tables", {
      name, preset: f.elements.preset.value, options: readRuleOptions(f), level: f.elements.level.value,
      bots_bid_nil: state.settings.bots_bid_nil, grace: Number(f.elements.grace.value),
      turn_seconds: Number(f.elements.turn_seconds.value), rated: f.elements.rated.checked,
      listed: f.elements.listed.checked,
    });
    localStorage.setItem(NAME_KEY, name);
    store(SEATS_KEY, (s) => { s[out.code] = out.token; });
    location.assign(tableLink(out.code));
  } catch (err) {
    $("friends-error").textContent = err.message;
  }
}

// The dialog's Join: the page of the table by the code typed.
function joinByCode(e) {
  e.preventDefault();
  const code = $("join-form").elements.code.value.trim();
  if (code) location.assign(`/?table=${encodeURIComponent(code)}`);
}

/** The page opened on a table's link: take this browser's seat back, watch on (a reload of a spectator's
 * page), or show the lobby to sit down or watch. */
export async function enterTable(typed) {
  document.body.classList.add("at-table");
  for (const id of ["btn-restart", "btn-new", "btn-daily", "btn-rated"]) $(id).hidden = true;
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
  if (url.searchParams.get("watch") === "1") {  // the lobby's Watch: watch at once, and on after a reload
    store(WATCH_KEY, (s) => { s[lobby.code] = true; });
    url.searchParams.delete("watch");
  }
  history.replaceState(null, "", url);
  await loadAccount().catch(() => null);  // its name, if any, is the one the lobby offers
  connect(lobby.code, stored(SEATS_KEY)[lobby.code] || null, Boolean(stored(WATCH_KEY)[lobby.code]));
}

// A visitor or spectator sits down in `seat` (null: the first free one) with the name typed, and plays
// from the seat's own connection.
async function sitDown(seat) {
  const name = $("lobby-name").value.trim();
  if (!name) { $("lobby-error").textContent = "Type your name first: the others see it at the table."; $("lobby-name").focus(); return; }
  try {
    const code = state.remote.code;
    const out = await api.post(`/api/tables/${code}/seats`, { name, seat });
    localStorage.setItem(NAME_KEY, name);
    store(SEATS_KEY, (s) => { s[code] = out.token; });
    store(WATCH_KEY, (s) => { delete s[code]; });  // seated now: a reload takes the seat, and leaving it, the lobby
    connect(code, out.token, false);
  } catch (e) {
    $("lobby-error").textContent = e.message;
  }
}

// A button of the lobby, the Table dialog, the status line or the chat: what it asks for.
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
  else if (what === "watch") live.startWatching();
  else if (what === "swap") live.send({ do: "move_person", seat, to: state.table.you });
  else if (what === "start") live.send({ do: "start" });
  else if (what === "host" || what === "keep" || what === "open") live.send({ do: what, seat });
  else if (what === "bot") live.send({ do: "bot", seat });
  else if (what === "back") live.send({ do: "back" });
  else if (what === "react") { $("chat-error").textContent = ""; live.send({ do: "react", reaction: b.dataset.reaction }); }
}

/** The friends' tables' dialogs, forms and buttons wired to what they do. */
export function wireFriends() {
  $("btn-friends").addEventListener("click", openFriends);
  $("btn-table").addEventListener("click", openTableDialog);
  $("open-form").addEventListener("submit", openTable);
  $("join-form").addEventListener("submit", joinByCode);
  $("chat-form").addEventListener("submit", sendChat);
  $("lobby-name").addEventListener("keydown", (e) => { if (e.key === "Enter") sitDown(null); });  // the first free seat
  for (const id of ["lobby", "dlg-table", "table-bar", "chat"]) $(id).addEventListener("click", onAct);
}
