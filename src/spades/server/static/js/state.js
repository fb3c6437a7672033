// The page's one state object (what the server last sent and what the player is doing), and the
// small helpers every part reads it with.

export const $ = (id) => document.getElementById(id);

export const state = {
  game: null,          // the last GameState the server sent
  table: null,         // at a friends' table: the table as this seat sees it (its game is `game`), else null
  remote: null,        // at a friends' table: its live connection, which takes the moves (live.js)
  settings: null,      // the player's settings
  account: null,       // the player's account (its `name` null: none), once asked for
  credentialRefused: false,  // the server refused this browser's credential at this load: a new player now
  rulesMeta: null,     // presets, options and levels, for the settings form
  busy: false,         // true while a request or an animation runs
  selected: new Set(), // cards chosen for a pass
  hint: { card: null, bid: null, move: null },  // the hint shown, if any
  notice: "",          // a word about the player's own doing (settings saved) shown until their next move
  news: "",            // what the others did since your last move that the table no longer shows: bids, a misdeal
  shownReview: null,   // the finished hand the score sheet shows face up, or null
  bidKeys: "",         // the digits typed so far to choose a bid
  bidKeyTimer: null,
  pendingLeave: null,  // what the "leave this game?" question will do if confirmed
  usingKeys: false,    // whether the player's last input was a key rather than a pointer
  dealt: null,         // the hand whose deal was last shown ("game/hand"), so a redraw does not deal it again
  gathered: null,      // the table (tableKey) whose finished trick went to its winner, so a redraw does not bring it back
  swallowClick: false, // the pointer gesture under way ended a finished trick's hold, so its click does nothing
};

export function say(text) {
  $("message").textContent = text;
}

export function seatOf(seat) {
  return state.game.seats[seat];
}

// Which table this is: a game at one version.
export function tableKey() {
  return `${state.game.id}/${state.game.version}`;
}

export function myTurn() {
  return state.game && state.game.turn === state.game.human && !["hand_over", "game_over"].includes(state.game.phase);
}
