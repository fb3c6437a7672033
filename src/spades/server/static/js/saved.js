// What this browser keeps about friends' tables in its localStorage: the seats it holds (their tokens
// are the keys to them), the tables it watches, and the name last used.

import { state } from "./state.js";

export const SEATS_KEY = "spades.tables";   // {code: seat token}
export const WATCH_KEY = "spades.watching"; // {code: true}: until this browser leaves the table
export const NAME_KEY = "spades.name";

/** The display name a friends' table's forms offer: the account's name when this browser is signed in to
 * one (once asked for: account.js's loadAccount), else the name it last used there. */
export function offeredName() {
  return (state.account && state.account.name) || localStorage.getItem(NAME_KEY) || "";
}

/** The object kept under `key` ({} if none, or if it cannot be read). */
export function stored(key) {
  try { return JSON.parse(localStorage.getItem(key)) || {}; } catch { return {}; }
}

/** Change the object kept under `key` in place, and keep it. */
export function store(key, change) {
  const value = stored(key);
  change(value);
  localStorage.setItem(key, JSON.stringify(value));
}

/** Forget this browser's seat at the table and its watching it. */
export function forget(code) {
  for (const key of [SEATS_KEY, WATCH_KEY]) store(key, (s) => { delete s[code]; });
}
