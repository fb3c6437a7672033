// The leaderboard (/leaderboard?rules=NAME): each rated rule set's players and computer levels past their
// provisional games, from GET /api/leaderboard. Choosing other rules redraws it and keeps them in the address.

import { esc, plural } from "./html.js";

const $ = (id) => document.getElementById(id);

async function show(rules) {
  $("leaderboard").setAttribute("aria-busy", "true");
  const r = await fetch(`/api/leaderboard?rules=${encodeURIComponent(rules)}`);
  const body = await r.json().catch(() => ({ detail: `The server answered ${r.status}.` }));
  $("leaderboard").setAttribute("aria-busy", "false");
  $("board-problem").hidden = r.ok;
  if (!r.ok) {
    $("board-problem").textContent = body.detail;
    $("board").innerHTML = "";
    return;
  }
  const select = $("board-rules");
  if (!select.options.length) select.innerHTML = body.rated_rules.map((n) => `<option>${esc(n)}</option>`).join("");
  select.value = body.rules;
  const rows = body.leaders.map((l) => `<tr data-name="${esc(l.name)}"><td>${l.rank}</td>
    <th scope="row"><a href="/@${encodeURIComponent(l.name)}">${esc(l.name)}</a>${l.computer ? ' <span class="computer-mark">(computer)</span>' : ""}</th>
    <td class="rating">${l.rating}</td><td>± ${l.uncertainty}</td><td>${plural(l.games, "game")}</td></tr>`).join("");
  $("board").innerHTML = body.leaders.length
    ? `<table class="figures-table"><caption>The ${esc(body.rules)} rules</caption><thead><tr><th scope="col">Place</th><th scope="col">Player</th>
      <th scope="col">Rating</th><th scope="col">Uncertainty</th><th scope="col">Rated games</th></tr></thead><tbody>${rows}</tbody></table>`
    : `<p>No one is past their provisional games under the ${esc(body.rules)} rules yet.</p>`;
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
