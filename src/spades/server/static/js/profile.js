// A player's profile (/@name): each rated rule set's rating with its uncertainty, the rating's history
// drawn as a chart, a person's play in figures with the coach's points lost a hand, and their latest
// games, each linking to its page. All of it from GET /api/profiles/NAME.

import { esc, plural } from "./html.js";
import { drawPlot } from "./plot.js";

const $ = (id) => document.getElementById(id);

async function load() {
  const name = decodeURIComponent(location.pathname.slice(2));
  const r = await fetch(`/api/profiles/${encodeURIComponent(name)}`);
  const body = await r.json().catch(() => ({ detail: `The server answered ${r.status}.` }));
  $("profile").setAttribute("aria-busy", "false");
  if (!r.ok) {
    $("profile-problem").textContent = body.detail;
    $("profile-problem").hidden = false;
    return;
  }
  $("profile-name").textContent = body.name;
  document.title = `Spades: ${body.name}`;
  $("profile-about").textContent = body.computer
    ? `A computer player: the ${body.name} level, rated as people are by the games it plays with and against them.`
    : body.bot ? "A bot: a program playing through its account, rated as people are." : "";
  showRatings(body);
  if (body.stats) showStats(body.stats);
  showGames(body);
}

function showRatings(p) {
  if (!p.ratings.length) {
    $("ratings").innerHTML = "<p>No rated game yet.</p>";
    return;
  }
  const rows = p.ratings.map((r) => `<tr data-rules="${esc(r.rules)}"><th scope="row">${esc(r.rules)}</th>
    <td class="rating">${r.rating}</td><td>± ${r.uncertainty}</td><td>${plural(r.games, "game")}</td>
    <td>${r.provisional ? '<span class="provisional" title="Too few games yet to trust the rating or list it">provisional</span>' : ""}</td></tr>`).join("");
  $("ratings").innerHTML = `<table class="figures-table"><thead><tr><th scope="col">Rules</th><th scope="col">Rating</th>
    <th scope="col">Uncertainty</th><th scope="col">Rated games</th><th scope="col"><span class="visually-hidden">Provisional</span></th></tr></thead>
    <tbody>${rows}</tbody></table>`;
  $("rating-plots").replaceChildren(...p.ratings.map((r) => {
    const games = p.history.filter((g) => g.rules === r.rules);
    const fig = document.createElement("figure");
    fig.className = "plot";
    fig.dataset.rules = r.rules;
    if (games.length) {
      drawPlot(fig, [`${r.rules} rating`], games.map((g) => [g.after]), [[1500, "zero"]],
        { start: games[0].before, along: "rated games", what: "rating" });
    }
    return fig;
  }));
}

function showStats(s) {
  const share = (part, whole) => (whole ? `${part} of ${whole} (${Math.round((100 * part) / whole)}%)` : "none yet");
  const figures = [
    ["Games counted", `${s.games} (${plural(s.hands, "hand")})`],
    ["Contracts made", share(s.made, s.contracts)],
    ["Sets", String(s.sets)],
    ["Nils made", share(s.nils_made, s.nils)],
    ["Bags a hand", s.bags_per_hand.toFixed(2)],
  ];
  $("stats").innerHTML = figures.map(([k, v]) => `<div><dt>${k}</dt><dd data-figure="${esc(k)}">${esc(v)}</dd></div>`).join("");
  if (s.coach.length) {
    const fig = document.createElement("figure");
    fig.className = "plot";
    drawPlot(fig, ["points lost a hand"], s.coach.map((c) => [c.per_hand]), [[0, "zero"]],
      { start: null, along: "reviewed games", what: "points the coach found lost" });
    $("coach-trend").replaceChildren(fig);
  } else {
    $("coach-trend").innerHTML = "<p>The coach has reviewed none of these games yet.</p>";
  }
  $("stats-section").hidden = false;
}

// A person's latest games (rated or not); a computer level's or a bot's latest rated games.
function showGames(p) {
  const games = p.computer || p.bot
    ? [...p.history].reverse().map((g) => ({ page: g.page, when: g.at, result: g.won ? "won" : "lost", what: `rated, ${g.rules}`, ref: g.page.split("/").pop() }))
    : p.recent.map((g) => ({ page: `/games/${g.ref}`, when: g.finished, result: g.won ? "won" : "lost",
      what: `${g.friends ? "with friends" : "against the computer"}${g.final_score === null ? "" : `, ${g.final_score} points`}`, ref: g.ref }));
  $("games").innerHTML = games.length
    ? `<ul class="game-list">${games.map((g) => `<li data-result="${g.result}"><a href="${esc(g.page)}">Game ${esc(g.ref)}</a>
        <span class="result ${g.result}">${g.result}</span> · ${esc(g.what)} · <time datetime="${esc(g.when)}">${esc(g.when.slice(0, 10))}</time></li>`).join("")}</ul>`
    : "<p>No finished game yet.</p>";
}

load().catch((err) => {
  $("profile-problem").textContent = `The profile could not be loaded: ${err.message}`;
  $("profile-problem").hidden = false;
});
