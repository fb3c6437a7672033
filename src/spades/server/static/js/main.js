// The page's start: wires the menu and the dialogs, then resumes the player's game or starts the one in the address.

import { $, say, state } from "./state.js";
import { api, ensureToken } from "./api.js";
import { showLast } from "./table.js";
import { fillSheet, openSheet } from "./sheet.js";
import { afterState, animate, confirmLeave, newGame, newGameRestart, nextHand, run, showHint, syncAddress } from "./actions.js";
import { wireInput } from "./input.js";
import { applySettings, fillRuleOptions, markChanged, openSettings, presetValues, saveSettings } from "./settings.js";

async function showStats() {
  const s = await api.get("/api/stats");
  const rate = s.played ? `${Math.round(s.win_rate * 100)}%` : "–";
  $("stats-body").innerHTML = `
    <dt>Games played</dt><dd data-stat="played">${s.played}</dd>
    <dt>Games won</dt><dd data-stat="won">${s.won}</dd>
    <dt>Win rate</dt><dd data-stat="win_rate">${rate}</dd>
    <dt>Best final score</dt><dd data-stat="best_score">${s.best_score ?? "–"}</dd>
    <dt>Current win streak</dt><dd data-stat="streak">${s.streak}</dd>
    <dt>Best win streak</dt><dd data-stat="best_streak">${s.best_streak}</dd>`;
  $("dlg-stats").showModal();
}

function localDate() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

// On a narrow screen the tools are a menu: the Menu button opens it; a tool chosen, a tap elsewhere or Escape closes it.
function wireMenu() {
  const bar = document.querySelector(".bar");
  const set = (open) => { bar.classList.toggle("menu-open", open); $("btn-menu").setAttribute("aria-expanded", String(open)); };
  $("btn-menu").addEventListener("click", () => set(!bar.classList.contains("menu-open")));
  $("tools").addEventListener("click", (e) => { if (e.target.closest("button, a")) set(false); });
  document.addEventListener("pointerdown", (e) => { if (!bar.contains(e.target)) set(false); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && bar.classList.contains("menu-open")) { set(false); $("btn-menu").focus(); } });
}

function wire() {
  wireInput();
  wireMenu();
  $("btn-hint").addEventListener("click", showHint);
  $("btn-last").addEventListener("click", showLast);
  $("btn-sheet").addEventListener("click", () => { state.shownReview = null; openSheet(); });
  addEventListener("resize", () => { if ($("dlg-sheet").open) fillSheet(); });  // a phone turned sideways
  $("sheet-body").addEventListener("click", async (e) => {
    const b = e.target.closest("[data-hand]");
    if (!b) return;
    try {
      state.shownReview = await api.get(`/api/games/${state.game.id}/hands/${b.dataset.hand}`);
      openSheet();
    } catch (err) {
      $("review-body").textContent = err.message;
    }
  });
  $("btn-restart").addEventListener("click", () => state.game && confirmLeave("Restart", "start this deal again from the first hand", newGameRestart));
  $("btn-new").addEventListener("click", () => confirmLeave("New Game", "deal a new game", () => newGame({})));
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
  $("btn-settings").addEventListener("click", openSettings);
  $("btn-settings-save").addEventListener("click", saveSettings);
  $("preset-select").addEventListener("change", (e) => fillRuleOptions(presetValues(e.target.value)));
  $("rule-options").addEventListener("input", markChanged);
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
  applySettings();
  const wanted = new URLSearchParams(location.search).get("deal");
  if (wanted !== null && !isDealNumber(wanted.trim())) {
    await forgetWanted();
    say(`Deal "${wanted}" cannot be played: a deal number is a whole number from 1 to ${Number.MAX_SAFE_INTEGER}.`);
    return;
  }
  if (wanted !== null) {
    // A link to another deal does not throw away a game under way without asking.
    const current = await api.get("/api/games/current").catch(() => null);
    if (current && String(current.deal) !== wanted.trim()) {
      state.game = current;
      syncAddress();
      afterState();
      const deal = wanted.trim();
      confirmLeave(`Play deal ${deal}`, `play deal #${deal}`, () => newGame({ deal, resume: true }));
      return;
    }
    try {
      const out = await api.post("/api/games", { deal: wanted.trim(), resume: true });
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
  try {
    const game = await api.get("/api/games/current");
    if (!game) { await run(() => api.post("/api/games", {})); return; }
    state.game = game;
    syncAddress();
    afterState();
  } catch (e) {
    say(e.message);
  }
}

document.body.dataset.ready = "loading";

boot().finally(() => { document.body.dataset.ready = "yes"; });
