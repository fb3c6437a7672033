// The Account dialog: make an account of this browser's player, sign in (a name and password, or a
// passkey), add or remove passkeys, set the password, sign out (here or everywhere), delete the account.
// Signing in or out changes who this browser plays as, so the page loads again as that player.

import { $, state } from "./state.js";
import { esc } from "./html.js";
import { api, lostAccount, rememberAccount, useToken } from "./api.js";

/** The account of this browser's player (`name` null: none), as the server last said. */
export async function loadAccount() {
  state.account = await api.get("/api/account");
  if (state.account.name) rememberAccount(state.account.name);
  return state.account;
}

function tell(notice, error = "") {
  $("account-notice").textContent = notice;
  $("account-error").textContent = error;
}

// Run what a button or form asks, showing the server's refusal (or the browser's, for a passkey) in the dialog.
async function attempt(work) {
  tell("");
  try {
    await work();
  } catch (err) {
    const cancelled = err && err.name === "NotAllowedError";
    tell("", cancelled ? "The passkey was not used (cancelled, or none of this site's is here)." : err.message);
  }
}

function draw() {
  const a = state.account;
  $("account-none").hidden = Boolean(a.name);
  $("account-some").hidden = !a.name;
  if (!a.name) return;
  $("account-name").textContent = a.name;
  $("account-passkeys").innerHTML = a.passkeys.length
    ? a.passkeys.map((p, i) => `<li><span>Passkey ${i + 1}, added ${esc(p.created.slice(0, 10))}${p.used ? `, last used ${esc(p.used.slice(0, 10))}` : ""}</span>
        <button type="button" data-passkey="${esc(p.id)}" aria-label="Remove passkey ${i + 1}">Remove</button></li>`).join("")
    : "<li>None yet.</li>";
  $("account-old-row").hidden = !a.password;
  $("account-password-title").textContent = a.password ? "Change the password" : "Add a password";
}

export async function openAccount() {
  tell("");
  await loadAccount();
  draw();
  $("dlg-account").showModal();
  await drawSessions();
}

// Where the account is signed in: this device said, each other with the day it was last used (a
// forgotten device stands out) and a button that signs it out.
async function drawSessions() {
  if (!state.account.name) return;
  const sessions = await api.get("/api/account/sessions");
  $("account-sessions").innerHTML = sessions.map((s) => `<li><span>${esc(s.device)}, since ${esc(s.created.slice(0, 10))}`
    + `${s.current ? " (this device)" : s.used ? `, last used ${esc(s.used)}` : ""}</span>${s.current ? ""
      : `<button type="button" data-session="${esc(s.id)}" aria-label="Sign out ${esc(s.device)}">Sign out</button>`}</li>`).join("");
}

async function endSession(e) {
  const b = e.target.closest("[data-session]");
  if (!b) return;
  await api.del(`/api/account/sessions/${encodeURIComponent(b.dataset.session)}`);
  await drawSessions();
  tell("That device is signed out: it becomes a guest at its next step.");
}

/** If the server refused this browser's account credential (it is now a new guest), open the Account
 * dialog saying so, once: otherwise the games and rating would seem lost for no reason. */
export async function tellIfSignedOut() {
  const name = lostAccount();
  if (!name) return;
  rememberAccount(null);
  await openAccount();
  tell(`This device was signed out of "${name}" (signed out on every device, or the account was deleted): `
    + `you play as a new guest now. Sign in to play as ${name} again.`);
}

// This browser plays as another player from now on (or, with null, as a new anonymous one): load the
// page again, without the deal in its address (that was the other player's), so that it resumes this
// player's game.
function becomePlayer(token, name = null) {
  useToken(token);
  rememberAccount(name);
  const url = new URL(location.href);
  url.searchParams.delete("deal");
  location.assign(url);
}

async function makeAccount(e) {
  e.preventDefault();
  const f = $("account-make");
  const body = { name: f.elements.name.value };
  if (f.elements.password.value) body.password = f.elements.password.value;
  state.account = await api.post("/api/account", body);
  rememberAccount(state.account.name);
  f.reset();
  draw();
  await drawSessions();
  tell(`Your account "${state.account.name}" is made: add a passkey or a password to sign in elsewhere.`);
}

async function signIn(e) {
  e.preventDefault();
  const f = $("account-sign-in");
  const out = await api.signIn("/api/sessions", { name: f.elements.name.value, password: f.elements.password.value });
  becomePlayer(out.token, out.name);
}

async function signInWithPasskey() {
  const { options } = await api.signIn("/api/passkey-sign-ins", {});
  const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
  const out = await api.signIn("/api/sessions/passkey", { credential: credential.toJSON() });
  becomePlayer(out.token, out.name);
}

async function addPasskey() {
  const { options } = await api.post("/api/passkey-registrations");
  const credential = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) });
  state.account = await api.post("/api/passkeys", { credential: credential.toJSON() });
  draw();
  tell("The passkey is added: use it to sign in on this or another device.");
}

async function removePasskey(e) {
  const b = e.target.closest("[data-passkey]");
  if (!b) return;
  state.account = await api.del(`/api/passkeys/${encodeURIComponent(b.dataset.passkey)}`);
  draw();
  tell("The passkey is removed.");
}

async function setPassword(e) {
  e.preventDefault();
  const f = $("account-password");
  const body = { new: f.elements.new.value };
  if (state.account.password) body.old = f.elements.old.value;
  state.account = await api.put("/api/account/password", body);
  f.reset();
  draw();
  tell("The password is saved.");
}

// A second press confirms what cannot be undone: the button says so first.
function confirmed(button, question) {
  if (button.dataset.confirm) return true;
  button.dataset.confirm = "1";
  button.dataset.label = button.textContent;
  button.textContent = question;
  return false;
}

export function wireAccount() {
  $("dlg-account").addEventListener("close", () => {
    for (const b of $("dlg-account").querySelectorAll("[data-confirm]")) { b.textContent = b.dataset.label; delete b.dataset.confirm; }
    $("account-delete-row").hidden = true;
    $("account-delete-password").value = "";
  });
  $("account-make").addEventListener("submit", (e) => attempt(() => makeAccount(e)));
  $("account-sign-in").addEventListener("submit", (e) => attempt(() => signIn(e)));
  $("btn-passkey-sign-in").addEventListener("click", () => attempt(signInWithPasskey));
  $("btn-passkey-add").addEventListener("click", () => attempt(addPasskey));
  $("account-passkeys").addEventListener("click", (e) => attempt(() => removePasskey(e)));
  $("account-sessions").addEventListener("click", (e) => attempt(() => endSession(e)));
  $("account-password").addEventListener("submit", (e) => attempt(() => setPassword(e)));
  $("btn-sign-out").addEventListener("click", () => attempt(async () => {
    await api.del("/api/sessions/current");
    becomePlayer(null);
  }));
  $("btn-sign-out-everywhere").addEventListener("click", () => attempt(async () => {
    if (!confirmed($("btn-sign-out-everywhere"), "Sign out on every device, this one too?")) return;
    await api.del("/api/sessions");
    becomePlayer(null);
  }));
  // the password is asked for again (when the account has one) with the second press
  $("btn-account-delete").addEventListener("click", () => attempt(async () => {
    if (!confirmed($("btn-account-delete"), "Delete the account for good? (Its finished games stay, unnamed.)")) {
      $("account-delete-row").hidden = !state.account.password;
      if (state.account.password) $("account-delete-password").focus();
      return;
    }
    const password = state.account.password ? $("account-delete-password").value : null;
    await api.del("/api/account", undefined, { password });
    becomePlayer(null);
  }));
}
