// The tournament page. At /tournaments a host creates one (and this browser keeps the host token); at
// /tournaments/CODE people register (this browser keeps their registration token), the host starts it and
// ends rounds, and everyone sees the people, the round's tables, the standings and each board's traveller.
// The page follows the tournament through a WebSocket, which sends it at once and each time it changes
// (connecting again after a while if the connection drops); when the person has a seat at a round's table
// they have not been taken to yet, it keeps the seat's token as a friends' table's page does and opens the
// table.

import { api } from "./api.js";
import { el, num } from "./html.js";
import { kind, showListed } from "./listed.js";
import { NAME_KEY, SEATS_KEY, store, stored } from "./saved.js";

const $ = (id) => document.getElementById(id);
const KEY = "spades.tournaments";  // {code: {host, entry, went}}: this browser's tokens, the last table opened
const AGAIN_AFTER = 2000;          // ms before connecting again once the connection dropped
const code = decodeURIComponent(location.pathname.split("/")[2] || "");
let presets = {};

// Each format in words: how the people make its entrants and how each round is seated and scored.
const FORMATS = {
  "duplicate-pairs": "Duplicate pairs: every table of a round plays the same deals, and each pair is compared with "
    + "the pairs who held the same cards (2 matchpoints for each pair beaten, 1 for a tie). People are paired in "
    + "the order they register; an odd number of pairs is filled by a computer pair.",
  swiss: "Swiss, fixed pairs: each round pairs the tables by the standings so far, a pair meeting the highest-placed "
    + "pair it has not met. People are paired in the order they register.",
  "swiss-individual": "Swiss, individual: each round seats tables of four by the standings so far, partners "
    + "changing every round; nobody partners the same person twice while another seating avoids it.",
  teams: "Team of four: each round a team plays a match at two tables, the same deals at both with the seats "
    + "swapped; the margin per deal is added up over both tables. Four people in a row make a team.",
};
const RANKING = {
  "duplicate-pairs": "Ranked by percentage, then matchpoints, then the results added up.",
  match: "A match won is 2 points, tied 1, lost 0; a bye (when the field does not divide, the lowest-placed "
    + "among those with the fewest byes sit out) counts as a tie. Ranked by points, then the margin (the "
    + "results added up), then Buchholz (the points of every opponent met), then the order of registration.",
};

/** What this browser keeps about this tournament. */
const mine = () => stored(KEY)[code] || {};
const keep = (change) => store(KEY, (all) => { all[code] = { ...(all[code] || {}), ...change }; });

/** The headers that prove the host and the person this browser registered. */
function proof() {
  const m = mine();
  return { ...(m.host ? { "X-Host-Token": m.host } : {}), ...(m.entry ? { "X-Entry-Token": m.entry } : {}) };
}

async function setUpCreate() {
  $("create").hidden = false;
  const rules = await api.get("/api/rules");
  presets = Object.fromEntries(rules.presets.map((p) => [p.name, p.options]));
  $("preset").replaceChildren(...rules.presets.filter((p) => p.options.players === 4 && p.options.partnerships)
    .map((p) => el("option", { value: p.name }, p.name)));
  $("preset").value = "standard";
  $("level").replaceChildren(...rules.levels.map((l) => el("option", { value: l }, l)));
  $("level").value = "normal";
  const showTarget = () => { $("target").value = presets[$("preset").value].target; };
  $("preset").addEventListener("change", showTarget);
  showTarget();
  // a Swiss round may be a game to the target instead of its boards
  const showFormat = () => {
    const swiss = $("format").value.startsWith("swiss");
    $("format-about").textContent = FORMATS[$("format").value];
    $("ends-label").hidden = !swiss;
    $("boards-label").hidden = swiss && $("ends").value === "target";
  };
  $("format").addEventListener("change", showFormat);
  $("ends").addEventListener("change", showFormat);
  showFormat();
  $("create-form").addEventListener("submit", create);
}

async function create(e) {
  e.preventDefault();
  const f = $("create-form").elements;
  $("create-error").textContent = "";
  try {
    const out = await api.post("/api/tournaments", {
      name: f.name.value.trim(), format: f.format.value.replace("-individual", ""),
      individual: f.format.value === "swiss-individual", to_target: !$("ends-label").hidden && f.ends.value === "target",
      rounds: Number(f.rounds.value), boards: Number(f.boards.value),
      preset: f.preset.value, options: { target: Number(f.target.value) }, level: f.level.value,
      turn_seconds: Number(f.turn_seconds.value), listed: f.listed.checked,
    });
    store(KEY, (all) => { all[out.code] = { host: out.host_token }; });
    location.assign(`/tournaments/${out.code}`);
  } catch (err) {
    $("create-error").textContent = err.message;
  }
}

/** Run an action; its refusal is said under the buttons (its effect comes through the connection). */
async function act(action) {
  $("error").textContent = "";
  try { await action(); } catch (err) { $("error").textContent = err.message; }
}

async function register(e) {
  e.preventDefault();
  const name = $("register-name").value.trim();
  await act(async () => {
    const out = await api.post(`/api/tournaments/${code}/entries`, { name });
    localStorage.setItem(NAME_KEY, name);
    keep({ entry: out.token });
    follow();  // again, as the person now registered: the connection tells their part
  });
}

let live = null;

/** Follow the tournament: a connection that says who this browser is, and shows what it is sent. */
function follow() {
  if (live) live.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = live = new WebSocket(`${scheme}://${location.host}/api/tournaments/${code}/live`);
  const m = mine();
  ws.addEventListener("open", () => ws.send(JSON.stringify({
    ...(m.host ? { host: m.host } : {}), ...(m.entry ? { entry: m.entry } : {}) })));
  ws.addEventListener("message", (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "error") {
      $("error").textContent = msg.detail;
      if (msg.status < 500) live = null;  // refused for good (no such tournament, a token it never gave)
      return;
    }
    show({ ...msg.tournament, host: msg.host, you: msg.you });
  });
  ws.addEventListener("close", () => {
    if (live === ws) setTimeout(() => { if (live === ws) follow(); }, AGAIN_AFTER);
  });
}

function show(t) {
  document.title = `${t.name}: Spades tournament`;
  $("title").textContent = t.name;
  $("about").hidden = false;
  const words = { open: "Registration is open", playing: `Round ${t.round} of ${t.rounds} is being played`,
    over: "The tournament is over" };
  const paired = t.status === "playing" && t.repeats ? " No pairing avoids meeting someone again this round." : "";
  const byes = t.status === "playing" && t.byes.length ? ` Sitting this round out (a bye): ${t.byes.join(", ")}.` : "";
  const each = t.to_target ? `a game to ${t.results.rules.target} a round` : `${t.boards} boards a round`;
  $("status").textContent = `${words[t.status]}. ${FORMATS[kind(t)].split(":")[0]}, ${each}, `
    + `${t.rules_name} rules, ${t.turn_seconds} seconds a move.${byes}${paired}`;
  $("register-form").hidden = t.status !== "open" || Boolean(t.you);
  $("host-buttons").hidden = !t.host || t.status === "over";
  $("btn-start").hidden = t.status !== "open";
  $("btn-end-round").hidden = t.status !== "playing";
  $("btn-end-round").dataset.round = t.round;  // a second click on this round does not end the next
  showSeat(t);
  $("people").replaceChildren(...t.people.map((p) => person(t, p)));
  $("tables").replaceChildren(...t.tables.map((x) => el("li", {},
    `Table ${x.table}: ${x.ns} (North-South) against ${x.ew} (East-West), `
    + (t.to_target ? `${x.played} hands played` : `${x.played} of ${t.boards} boards played`))));
  showResults(t);
}

/** The person's seat at the round's table: taken there once, and a link to go back. */
function showSeat(t) {
  const you = t.you;
  if (!you || !you.code) {
    $("your-table").textContent = you ? "You have no seat at a table now." : "";
    return;
  }
  store(SEATS_KEY, (s) => { s[you.code] = you.token; });
  const href = `/?table=${encodeURIComponent(you.code)}`;
  $("your-table").replaceChildren("Your seat this round: ", el("a", { href, id: "go-table" }, `table ${you.code}`));
  if (mine().went !== you.code) {
    keep({ went: you.code });
    location.assign(href);
  }
}

function person(t, p) {
  const side = t.individual ? "" : ` (${t.format === "teams" ? "team" : "pair"} ${p.entrant})`;
  const label = `${p.name}${side}${p.computer ? ": a computer player plays for them" : ""}`;
  const item = el("li", {}, label);
  const self = t.you && t.you.number === p.number;
  if ((t.host || self) && t.status !== "over" && !p.computer) {
    const button = el("button", { type: "button", class: "small" }, t.status === "open" ? "Withdraw" : "Computer plays");
    button.addEventListener("click", () => act(async () => {
      await api.del(`/api/tournaments/${code}/entries/${p.number}`, proof());
      if (self && t.status === "open") { keep({ entry: null }); follow(); }  // no longer registered
    }));
    item.append(" ", button);
  }
  return item;
}

function showResults(t) {
  const r = t.results;
  $("results").hidden = t.status === "open";
  for (const [id, file] of [["dl-json", "results.json"], ["dl-standings", "standings.csv"],
    ["dl-travellers", "travellers.csv"], ["dl-pdf", "results.pdf"]]) {
    $(id).href = `/api/tournaments/${code}/${file}`;
  }
  const dup = t.format === "duplicate-pairs";
  const teams = t.format === "teams";
  $("ranking").textContent = RANKING[dup ? t.format : "match"];
  const who = t.individual ? "Player" : t.format === "teams" ? "Team" : "Pair";
  const cols = dup ? [who, "Matchpoints", "Top", "%", "Boards"] : [who, "Points", "Margin", "Buchholz", "Boards"];
  const head = el("tr", {}, ...["Place", ...cols].map((h) => el("th", {}, h)));
  $("standings").replaceChildren(head, ...r.standings.map((s) => el("tr", {}, ...(dup
    ? [s.place, s.name, s.score, s.top, s.percent.toFixed(1), s.boards]
    : [s.place, s.name, s.score, num(s.margin, true), s.buchholz, s.boards]).map((v) => el("td", {}, String(v))))));
  $("travellers").replaceChildren(...r.travellers.map((b) => {
    const rows = b.lines.map((l) => el("tr", {}, ...[l.table, l.ns, l.ew, l.bids.join(" "),
      `${l.tricks[0] + l.tricks[2]}-${l.tricks[1] + l.tricks[3]}`, num(l.ns_result, true),
      ...(dup ? [`${l.matchpoints[0]}-${l.matchpoints[1]}`] : []),
      ...(teams ? [num(l.margin, true)] : [])].map((v) => el("td", {}, String(v)))));
    const cols = ["Table", "North-South", "East-West", "Bids N E S W", "Tricks", "N-S result",
      ...(dup ? ["Matchpoints"] : []), ...(teams ? ["N-S margin (both tables)"] : [])];
    // once the tournament is over its deals are public: each board opens as a solo game
    const what = t.to_target ? `Game ${b.board}, at table ${b.lines[0].table}` : `Board ${b.board}`;
    const title = el("h3", {}, `${what} (round ${b.lines[0].round})`);
    if (r.seed) title.append(" ", el("a", { href: `/?deal=${b.deal}&board=${encodeURIComponent(code)}` }, `play deal ${b.deal}`));
    return el("section", { class: "traveller" }, title,
      el("table", {}, el("tr", {}, ...cols.map((h) => el("th", {}, h))), ...rows));
  }));
  if (!r.travellers.length) {
    $("travellers").append(el("p", { class: "muted" }, "None yet: a board's traveller shows here once every "
      + "table of its round has played it."));
  }
}

if (!code) {
  $("listed").hidden = false;
  showListed($("listed-list"), $("listed-none")).catch((err) => { $("listed-none").textContent = err.message; });
  setUpCreate();
} else {
  $("link").href = location.href;
  $("link").textContent = location.href;
  $("register-name").value = localStorage.getItem(NAME_KEY) || "";
  $("register-form").addEventListener("submit", register);
  const hostAct = (path) => act(() => api.post(`/api/tournaments/${code}/${path}`, {}, proof()));
  $("btn-start").addEventListener("click", () => hostAct("start"));
  $("btn-end-round").addEventListener("click",
    (e) => hostAct(`end-round?round=${e.currentTarget.dataset.round}`));
  follow();
}
