// The lobby page (/lobby): Quick game, the friends' tables and the tournaments their hosts listed.
// Pressing Quick game puts this player in the server's queue; the page then asks where it stands every
// second (which also keeps the wait alive), counts down to the computer players by its own steady
// clock, and once seated keeps the seat's token as a friends' table's page does and opens the table.
// The lists of tables and tournaments are asked for every few seconds while the page is in view: cheap
// for the server, and fresh enough to join.

import { api, ApiError, ensureToken } from "./api.js";
import { el, plural } from "./html.js";
import { showListed } from "./listed.js";
import { NAME_KEY, SEATS_KEY, store } from "./saved.js";

const $ = (id) => document.getElementById(id);
const ASK_EVERY = 1000;    // ms between asks while waiting (the server forgets a wait no page asks about for 10 s)
const LIST_EVERY = 5000;   // ms between looks at the open tables
let presets = {};          // name -> the preset's options, from GET /api/rules
let asking = null;         // the timer of the next ask while waiting
let fillAt = null;         // performance.now() when the computer players take the seats left
const WAITING_KEY = "spades.quick";  // set while this browser waits: a reload asks on where it stands

/** The rules' presets in the form, with each one's target as the Game to field's default. */
async function fillPresets() {
  const rules = await api.get("/api/rules");
  presets = Object.fromEntries(rules.presets.map((p) => [p.name, p.options]));
  $("quick-preset").replaceChildren(...rules.presets.map((p) => el("option", { value: p.name }, p.name)));
  $("quick-preset").value = "standard";
  showTarget();
}

function showTarget() {
  $("quick-target").value = presets[$("quick-preset").value].target;
}

async function press(e) {
  e.preventDefault();
  const f = $("quick-form").elements;
  const name = f.name.value.trim();
  $("quick-error").textContent = "";
  try {
    const target = Number(f.target.value);  // sent only if changed: the preset's own rules keep its name
    const options = target === presets[f.preset.value].target ? {} : { target };
    const out = await api.post("/api/quick", { name, preset: f.preset.value, options });
    localStorage.setItem(NAME_KEY, name);
    show(out);
  } catch (err) {
    $("quick-error").textContent = err.message;
  }
}

/** The wait as the server told it: the countdown and the next ask, or the seat and off to the table. */
function show(out) {
  clearTimeout(asking);
  if (out.status === "seated") {
    sessionStorage.removeItem(WAITING_KEY);
    store(SEATS_KEY, (s) => { s[out.code] = out.token; });
    location.assign(`/?table=${encodeURIComponent(out.code)}`);
    return;
  }
  sessionStorage.setItem(WAITING_KEY, "1");
  $("quick-form").hidden = true;
  $("quick-wait").hidden = false;
  $("quick-status").textContent = `Looking for ${plural(out.players - 1, "more player")} for ${out.rules_name} rules, `
    + `game to ${out.rules.target}, `
    + (out.rated ? `rated as ${out.rated}: yours is ${Math.round(out.rating)}; players within ${out.window} of it,`
      : `not rated; players within ${out.window} of your ${Math.round(out.rating)},`)
    + " a range that widens as you wait."
    + (out.others ? ` ${plural(out.others, "other")} waiting for these rules now.` : "");
  fillAt = performance.now() + out.fill_in * 1000;
  tick();
  asking = setTimeout(ask, ASK_EVERY);
}

async function ask() {
  try {
    show(await api.get("/api/quick"));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) stopWaiting("Your wait ended: press Quick game again.");
    else { $("quick-error").textContent = err.message; asking = setTimeout(ask, ASK_EVERY); }
  }
}

/** The countdown to the computer players, by the page's steady clock, each second. */
function tick() {
  if (fillAt === null || $("quick-wait").hidden) return;
  const left = Math.max(0, Math.ceil((fillAt - performance.now()) / 1000));
  const seconds = el("span", { "data-countdown": "" }, String(left));
  $("quick-fill").replaceChildren(left
    ? el("span", {}, "Computer players take the seats left in ", seconds, " s.")
    : el("span", {}, "Seating you now…"));
}

function stopWaiting(message) {
  clearTimeout(asking);
  sessionStorage.removeItem(WAITING_KEY);
  fillAt = null;
  $("quick-wait").hidden = true;
  $("quick-form").hidden = false;
  $("quick-error").textContent = message;
}

async function cancel() {
  clearTimeout(asking);
  try {
    await api.del("/api/quick");
    stopWaiting("");
  } catch (err) {
    $("quick-error").textContent = err.message;  // a table was formed meanwhile: the next ask goes there
    ask();
  }
}

/** The listed tables: those open, each with its rules, seats and a Join link to its page (where one sits
 * down); and those under way, with a Watch link (the page watches at once). */
async function listTables() {
  if (!document.hidden) {
    try {
      const { tables, playing } = await api.get("/api/lobby");
      $("tables").replaceChildren(...tables.map((t) => tableItem(t, "Join")));
      $("tables-none").hidden = tables.length > 0;
      $("playing").replaceChildren(...playing.map((t) => tableItem(t, "Watch")));
      $("playing-none").hidden = playing.length > 0;
      await showListed($("tournaments"), $("tournaments-none"));
    } catch { /* the next look tries again */ }
  }
  setTimeout(listTables, LIST_EVERY);
}

function tableItem(t, act) {
  const seats = t.seats.map((s, i) => el("li", s.person || s.kept ? {} : { class: "free" },
    `${s.where}: ${s.person ? s.name : s.kept ? "a computer player" : "free"}`
    + (t.ratings[i] === null ? "" : ` (${t.ratings[i]})`)));
  return el("li", { class: "listed", "data-code": t.code },
    el("h3", {}, `${t.rules_name}, game to ${t.rules.target}${t.rated ? ", rated" : ""}`),
    el("p", { class: "muted" }, `${t.started ? "Under way" : "Waiting to start"}; computer players: ${t.level}`),
    el("ul", {}, ...seats),
    el("a", { class: "button", href: `/?table=${encodeURIComponent(t.code)}${act === "Watch" ? "&watch=1" : ""}`,
      "aria-label": `${act} table ${t.code}` }, act));
}

async function start() {
  await ensureToken();
  $("quick-name").value = localStorage.getItem(NAME_KEY) || "";
  $("quick-form").addEventListener("submit", press);
  $("quick-preset").addEventListener("change", showTarget);
  $("btn-quick-cancel").addEventListener("click", cancel);
  setInterval(tick, 250);
  await fillPresets();
  listTables();
  if (sessionStorage.getItem(WAITING_KEY)) ask();
  document.body.dataset.ready = "yes";
}

start();
