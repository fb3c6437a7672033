// The leaderboard (/leaderboard?rules=NAME): each rated rule set's players and computer levels past their
// provisional games, from GET /api/leaderboard, and the viewer's own standing (with their credential, if
// this browser has one). Choosing other rules redraws it and keeps them in the address.

import { ApiError, api } from "./api.js";
import { esc, plural } from "./html.js";

const $ = (id) => document.getElementById(id);
const PLACES = 100;  // the board lists at most the first PLACES

async function show(rules) {
  $("leaderboard").setAttribute("aria-busy", "true");
  let body;
  try {
    body = await api.get(`/api/leaderboard?rules=${encodeURIComponent(rules)}&limit=${PLACES}`);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    $("board-problem").textContent = err.message;
    $("board-problem").hidden = false;
    $("board").innerHTML = "";
    $("board-you").hidden = true;
    return;
  } finally {
    $("leaderboard").setAttribute("aria-busy", "false");
  }
  $("board-problem").hidden = true;
  const select = $("board-rules");
  if (!select.options.length) select.innerHTML = body.rated_rules.map((n) => `<option>${esc(n)}</option>`).join("");
  select.value = body.rules;
  const rows = body.leaders.map((l) => `<tr data-name="${esc(l.name)}"><td>${l.rank}</td>
    <th scope="row"><a href="/@${encodeURIComponent(l.name)}">${esc(l.name)}</a>${l.computer ? ' <span class="computer-mark">(computer)</span>' : l.bot ? ' <span class="computer-mark bot-mark">(bot)</span>' : ""}</th>
    <td class="rating">${l.rating}</td><td>± ${l.uncertainty}</td><td>${plural(l.games, "game")}</td></tr>`).join("");
  $("board").innerHTML = body.leaders.length
    ? `<table class="figures-table"><caption>The ${esc(body.rules)} rules</caption><thead><tr><th scope="col">Place</th><th scope="col">Player</th>
      <th scope="col">Rating</th><th scope="col">Uncertainty</th><th scope="col">Rated games</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>No one is past their provisional games under the ${esc(body.rules)} rules yet.</p>`;
  showYou(body.you);
}

// The viewer's own standing under these rules, listed or not yet (and why not), linking to their profile.
function showYou(you) {
  $("board-you").hidden = !you;
  if (!you) return;
  const who = you.name ? `<a href="/@${encodeURIComponent(you.name)}">You (${esc(you.name)})</a>` : "You";
  const where = you.rank ? `place ${you.rank}`
    : you.provisional ? `provisional: ${plural(you.to_list, "more rated game")} to be listed`
      : you.name ? `past the first ${plural(PLACES, "place")}` : "make an account to be listed";
  $("board-you").innerHTML = `${who}: <span class="rating">${you.rating}</span> ± ${you.uncertainty}, ${where}`;
}

function start() {
  const rules = new URLSearchParams(location.search).get("rules") || "standard";
  $("board-rules").addEventListener("change", (e) => {
    history.replaceState(null, "", `?rules=${encodeURIComponent(e.target.value)}`);
    show(e.target.value);
  });
  show(rules).catch((err) => {
    $("board-problem").textContent = `The leaderboard could not be loaded: ${err.message}`;
    $("board-problem").hidden = false;
  });
}

start();
