// The page's start: wires the menu and the dialogs, then resumes the player's game or starts the one in the address.

import { $, say, state } from "./state.js";
import { api, ensureToken, gameGet } from "./api.js";
import { showLast } from "./table.js";
import { fillSheet, openSheet } from "./sheet.js";
import { afterState, animate, confirmLeave, newGame, newGameRestart, nextHand, run, showHint, syncAddress } from "./actions.js";
import { wireInput } from "./input.js";
import { esc } from "./html.js";
import { enterTable, wireFriends } from "./friends.js";
import { applySettings, openSettings, saveSettings, wireRuleForm } from "./settings.js";
import { loadAccount, openAccount, tellIfSignedOut, wireAccount } from "./account.js";
import { addSiteLinks } from "./site.js";

// Stats: every game played to its end, solo or with friends (the server counts both), and the two apart.
async function showStats() {
  const [all, mine, account] = await Promise.all([api.get("/api/stats"), api.get("/api/ratings"), loadAccount()]);
  const rate = (s) => s.played ? `${Math.round(s.won / s.played * 100)}%` : "–";
  $("stats-body").innerHTML = `
    <dt>Games played</dt><dd data-stat="played">${all.played}</dd>
    <dt>Games won</dt><dd data-stat="won">${all.won}</dd>
    <dt>Win rate</dt><dd data-stat="win_rate">${rate(all)}</dd>
    <dt>Best final score</dt><dd data-stat="best_score">${all.best_score ?? "–"}</dd>`;
  const row = (label, key, f) => `<tr><th scope="row">${label}</th><td data-stat="solo-${key}">${f(all.alone)}</td><td data-stat="friends-${key}">${f(all.friends)}</td></tr>`;
  $("stats-split").innerHTML = `<thead><tr><td></td><th scope="col">Alone</th><th scope="col">With friends</th></tr></thead><tbody>
    ${row("Played", "played", (s) => s.played)}${row("Won", "won", (s) => s.won)}${row("Win rate", "win_rate", rate)}
    ${row("Best final score", "best_score", (s) => s.best_score ?? "–")}
    ${row("Current win streak", "streak", (s) => s.streak)}${row("Best win streak", "best_streak", (s) => s.best_streak)}</tbody>`;
  // each finished game links to its page, where every hand replays face up
  $("stats-games").innerHTML = mine.recent.length ? mine.recent.map((g) => `<li><a href="/games/${esc(g.ref)}">Game ${esc(g.ref)}</a>
    ${g.won ? "won" : "lost"}${g.friends ? " with friends" : ""} · <time datetime="${esc(g.finished)}">${esc(g.finished.slice(0, 10))}</time></li>`).join("")
    : "<li>None finished yet.</li>";
  $("btn-download-games").disabled = !mine.recent.length;
  $("stats-profile").hidden = !account.name;  // a named player's profile page shows all this to anyone
  if (account.name) $("stats-profile").firstElementChild.href = `/@${encodeURIComponent(account.name)}`;
  $("dlg-stats").showModal();
}

// Every finished game's record as one file (a JSON array, which `spades replay` reads): the server needs
// the player's token, so the page fetches it and hands the browser the file.
async function downloadGames() {
  const records = await api.get("/api/records");
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([JSON.stringify(records)], { type: "application/json" }));
  link.download = "spades-games.json";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function localDate() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

// The tools that do not fit on one row beside the title go into a menu, last first: the Menu button
// opens it; a tool chosen, a tap elsewhere or Escape closes it.
function wireMenu() {
  const bar = document.querySelector(".bar");
  const tools = $("tools");
  const menu = $("btn-menu");
  const more = $("more");
  addSiteLinks(tools, { before: menu, here: "/" }); // the game's page is Play, whatever its address
  const all = [...tools.children].filter((el) => el !== menu && el !== more);
  const set = (open) => { bar.classList.toggle("menu-open", open); menu.setAttribute("aria-expanded", String(open)); };
  const middle = (el) => { const r = el.getBoundingClientRect(); return (r.top + r.bottom) / 2; };
  const fits = () => {
    const row = middle($("deal-label"));
    return [...tools.children].every((el) => el === more || !el.offsetParent || Math.abs(middle(el) - row) <= 8);
  };
  const fold = () => {
    set(false);
    for (const el of all) tools.insertBefore(el, menu);
    bar.classList.remove("folded");
    if (fits()) return;
    bar.classList.add("folded");
    for (const el of all.toReversed()) {
      if (fits()) break;
      more.prepend(el);
    }
  };
  fold();
  addEventListener("resize", fold);
  new ResizeObserver(fold).observe($("deal-label"));
  new MutationObserver(fold).observe(tools, { attributes: true, attributeFilter: ["hidden"], subtree: true });
  menu.addEventListener("click", () => set(!bar.classList.contains("menu-open")));
  tools.addEventListener("click", (e) => { const hit = e.target.closest("button, a"); if (hit && hit !== menu) set(false); });
  document.addEventListener("pointerdown", (e) => { if (!bar.contains(e.target)) set(false); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && bar.classList.contains("menu-open")) { set(false); menu.focus(); } });
}

function wire() {
  wireInput();
  wireFriends();
  wireMenu();
  $("btn-hint").addEventListener("click", showHint);
  $("btn-last").addEventListener("click", showLast);
  $("btn-sheet").addEventListener("click", () => { state.shownReview = null; openSheet(); });
  addEventListener("resize", () => { if ($("dlg-sheet").open) fillSheet(); });  // a phone turned sideways
  $("sheet-body").addEventListener("click", async (e) => {
    const b = e.target.closest("[data-hand]");
    if (!b) return;
    try {
      state.shownReview = await gameGet(`hands/${b.dataset.hand}`);
      openSheet();
    } catch (err) {
      $("review-body").textContent = err.message;
    }
  });
  $("btn-restart").addEventListener("click", () => state.game && confirmLeave("Restart", "start this deal again from the first hand", newGameRestart));
  $("btn-new").addEventListener("click", () => confirmLeave("New Game", "deal a new game", () => newGame({})));
  $("btn-rated").addEventListener("click", () => confirmLeave("Rated Game", "deal a rated game", () => newGame({ rated: true })));
  $("btn-daily").addEventListener("click", () => {
    const daily = localDate();
    const go = () => newGame({ daily, resume: true });
    if (state.game && state.game.daily === daily) go();
    else confirmLeave("Daily Deal", "play today's deal", go);
  });
  $("btn-confirm").addEventListener("click", () => {
    $("dlg-confirm").close();
    const action = state.pendingLeave;
    state.pendingLeave = null;
    if (action) action();
  });
  $("btn-stats").addEventListener("click", showStats);
  $("btn-download-games").addEventListener("click", downloadGames);
  $("btn-settings").addEventListener("click", openSettings);
  $("btn-account").addEventListener("click", openAccount);
  wireAccount();
  $("btn-settings-save").addEventListener("click", saveSettings);
  wireRuleForm($("settings-form"));
  $("btn-review").addEventListener("click", () => { state.shownReview = state.shownReview ? null : state.game.review; openSheet(); });
  $("btn-next").addEventListener("click", nextHand);
  $("btn-end-sheet").addEventListener("click", () => { $("dlg-end").close(); openSheet(); });
  $("btn-end-new").addEventListener("click", () => newGame({}));
  for (const b of document.querySelectorAll("[data-close]")) b.addEventListener("click", () => b.closest("dialog").close());
}

async function boot() {
  wire();
  try {
    await ensureToken();
    state.settings = await api.get("/api/settings");
  } catch (e) {
    say(e.message);
    return;
  }
  tellIfSignedOut().catch(() => null);  // a courtesy: the game goes on without it
  applySettings();
  const table = new URLSearchParams(location.search).get("table");
  if (table !== null) { await enterTable(table); return; }
  const wanted = new URLSearchParams(location.search).get("deal");
  if (wanted !== null && !isDealNumber(wanted.trim())) {
    await forgetWanted();
    say(`Deal "${wanted}" cannot be played: a deal number is a whole number from 1 to ${Number.MAX_SAFE_INTEGER}.`);
    return;
  }
  if (wanted !== null) {
    // "&board=CODE": tournament CODE's board, dealt as its tables dealt it, under its rules ("&board=1": a
    // board under the player's own rules); the address forgets it once started
    const code = new URLSearchParams(location.search).get("board");
    const board = code !== null;
    const asked = { deal: Number(wanted.trim()), resume: true, board, ...(board && code !== "1" ? { tournament: code } : {}) };
    // A link to another deal does not throw away a game under way without asking.
    const current = await api.get("/api/games/current").catch(() => null);
    if (current && String(current.deal) !== wanted.trim()) {
      state.game = current;
      syncAddress();
      afterState();
      const deal = wanted.trim();
      confirmLeave(`Play deal ${deal}`, `play deal #${deal}`, () => newGame(asked));
      return;
    }
    try {
      const out = await api.post("/api/games", asked);
      state.game = out.state;
      await animate(out.events);
      afterState();
      return;
    } catch (e) {
      await forgetWanted();
      say(`Deal "${wanted}" cannot be played: ${e.message}`);
      return;
    }
  }
  await resume();
}

// Deal numbers run from 1 to the largest whole number a page holds exactly, as on the server.
function isDealNumber(text) {
  return /^[0-9]+$/.test(text) && Number(text) >= 1 && Number(text) <= Number.MAX_SAFE_INTEGER;
}

// A deal in the address that cannot be played: drop it and go back to the player's game.
async function forgetWanted() {
  const url = new URL(location.href);
  url.searchParams.delete("deal");
  history.replaceState(null, "", url);
  await resume();
}

// The player's game where they left it, or a first game for a player who has none yet.
async function resume() {
  await run(async () => {
    const game = await api.get("/api/games/current");
    return game ? { state: game, events: [] } : api.post("/api/games", {});
  });
}

document.body.dataset.ready = "loading";

boot().finally(() => { document.body.dataset.ready = "yes"; });
