// Playing cards drawn as inline SVG: faces from the card's text ("QH", "10S", "BJ"), and backs.
// Everything is a path (no text, no font): a card looks the same on every machine, and a screen
// reader reads the card's name from the element that holds it, never letters out of the drawing.

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack" };

export function parseCard(text) {
  if (text === "BJ" || text === "LJ") return { joker: true, big: text === "BJ", rank: "", suit: "S" };
  return { joker: false, rank: text.slice(0, -1), suit: text.slice(-1) };
}

export function cardName(text) {
  const c = parseCard(text);
  if (c.joker) return c.big ? "big joker" : "little joker";
  return `${RANK_NAMES[c.rank] || c.rank} of ${SUIT_NAMES[c.suit]}`;
}

export function shortName(text) {
  const c = parseCard(text);
  if (c.joker) return c.big ? "big joker" : "little joker";
  return `${c.rank}${SUITS[c.suit]}`;
}

export function suitClass(text) {
  const c = parseCard(text);
  return c.joker ? "suit-J" : `suit-${c.suit}`;
}

// -- drawing parts -------------------------------------------------------------------------------

// The suit marks, filled with the card's colour, in a box from -5 to 5 around 0,0.
const SUIT_PATHS = {
  S: "M0-5.6C-2.2-3-5.4-1.4-5.4 1.2-5.4 3.1-3.9 4-2.6 4-1.6 4-.8 3.6-.4 2.9L-1.6 5.6H1.6L.4 2.9C.8 3.6 1.6 4 2.6 4 3.9 4 5.4 3.1 5.4 1.2 5.4-1.4 2.2-3 0-5.6Z",
  H: "M0 5.2C-2.4 2.6-5.4.6-5.4-2.2-5.4-4.1-4.1-5.2-2.7-5.2-1.5-5.2-.5-4.5 0-3.4.5-4.5 1.5-5.2 2.7-5.2 4.1-5.2 5.4-4.1 5.4-2.2 5.4.6 2.4 2.6 0 5.2Z",
  D: "M0-5.6 4.2 0 0 5.6-4.2 0Z",
  C: "M0-5.4A2.5 2.5 0 0 0-1.6-.9 2.5 2.5 0 1 0-.5 3.1L-1.6 5.6H1.6L.5 3.1A2.5 2.5 0 1 0 1.6-.9 2.5 2.5 0 0 0 0-5.4Z",
};

// The letters and figures of the corners as strokes in a 6-wide, 10-high box (10 is 8 wide).
const GLYPHS = {
  A: "M0 10 3 0 6 10M1.1 6.6H4.9",
  2: "M.3 2.5C.5.7 1.8 0 3 0 4.7 0 5.8 1.1 5.8 2.8 5.8 5.2 0 7.8 0 10H6",
  3: "M.3 1C1 .3 2 0 3 0 4.7 0 5.6 1 5.6 2.5S4.3 4.8 2.5 4.8C4.5 4.8 6 5.6 6 7.3S4.7 10 3 10C1.8 10 .7 9.6 0 8.8",
  4: "M4.5 10V0L0 7H6",
  5: "M5.6 0H.8L.3 4.6C1 4 2 3.8 3 3.8 4.8 3.8 6 5 6 6.9S4.7 10 2.9 10C1.7 10 .7 9.5 0 8.8",
  6: "M5.2.8C4.6.2 3.8 0 3 0 1 0 0 2 0 5.5 0 8.5 1.2 10 3 10S6 8.7 6 6.8 4.8 3.8 3.1 3.8C1.6 3.8.5 4.6 0 5.8",
  7: "M0 0H6L2.2 10",
  8: "M3 4.6C1.5 4.6.5 3.7.5 2.3S1.5 0 3 0 5.5.9 5.5 2.3 4.5 4.6 3 4.6C1.2 4.6 0 5.6 0 7.3S1.3 10 3 10 6 9 6 7.3 4.8 4.6 3 4.6Z",
  9: "M.8 9.2C1.4 9.8 2.2 10 3 10 5 10 6 8 6 4.5 6 1.5 4.8 0 3 0S0 1.3 0 3.2 1.2 6.2 2.9 6.2C4.4 6.2 5.5 5.4 6 4.2",
  10: "M0 1.8 1.5 0V10M5.5 0C3.9 0 3 2 3 5S3.9 10 5.5 10 8 8 8 5 7.1 0 5.5 0Z",
  J: "M5 0V7C5 9 4 10 2.5 10S0 9 0 7.5",
  Q: "M3 0C1 0 0 2.2 0 5S1 10 3 10 6 7.8 6 5 5 0 3 0ZM3.6 7.2 6 10.5",
  K: "M.5 0V10M5.8 0 .5 6.2M2.3 4.2 6 10",
  O: "M3 0C1 0 0 2.2 0 5S1 10 3 10 6 7.8 6 5 5 0 3 0Z",
  E: "M5.6 0H.5V10H5.6M.5 5H4.5",
  R: "M.5 10V0H3.5C5 0 5.8 1 5.8 2.6S5 5.2 3.5 5.2H.5M3.2 5.2 6 10",
  B: "M.5 5V0H3.2C4.6 0 5.5.8 5.5 2.4S4.5 5 3.2 5H.5V10H3.6C5.1 10 6 9.1 6 7.5S5 5 3.4 5",
  I: "M1 0H5M3 0V10M1 10H5",
  G: "M5.6 1.3C5 .4 4.1 0 3 0 1 0 0 2.2 0 5S1 10 3 10C4.6 10 5.6 8.9 5.8 7V5.5H3.3",
  L: "M.5 0V10H5.6",
  T: "M0 0H6M3 0V10",
};
const STAR = "M0-5.5 1.3-1.7H5.3L2.1.7 3.3 4.6 0 2.2-3.3 4.6-2.1.7-5.3-1.7-1.3-1.7Z";

const suitMark = (suit, x, y, scale = 1, turned = false) =>
  `<path class="pip" d="${SUIT_PATHS[suit]}" transform="translate(${x} ${y}) scale(${scale})${turned ? " rotate(180)" : ""}"/>`;

const glyph = (ch, x, y, scale = 1) => {
  const squeeze = ch === "10" ? 0.78 : 1;  // two figures in the room of one
  return `<path class="glyph" d="${GLYPHS[ch]}" transform="translate(${x} ${y}) scale(${scale * squeeze} ${scale})"/>`;
};

// A word stacked or set in a line of glyphs, from its top-left corner.
const word = (text, x, y, scale, vertical) => [...text].map((ch, i) =>
  glyph(ch, vertical ? x : x + i * 7.6 * scale, vertical ? y + i * 13 * scale : y, scale)).join("");

// The rank and suit in the top-left corner, turned round in the bottom-right one.
function corners(rank, suit) {
  const index = `${glyph(rank, 3.2, 4, 1.1)}${suitMark(suit, 7, 22, 0.82)}`;
  return `${index}<g transform="rotate(180 30 42)">${index}</g>`;
}

// Where the pips of 2 to 10 go (standard layouts); those in the lower half stand on their heads.
const PIP_LAYOUTS = {
  2: [[30, 17], [30, 67]],
  3: [[30, 17], [30, 42], [30, 67]],
  4: [[19, 17], [41, 17], [19, 67], [41, 67]],
  5: [[19, 17], [41, 17], [30, 42], [19, 67], [41, 67]],
  6: [[19, 17], [41, 17], [19, 42], [41, 42], [19, 67], [41, 67]],
  7: [[19, 17], [41, 17], [30, 29.5], [19, 42], [41, 42], [19, 67], [41, 67]],
  8: [[19, 17], [41, 17], [30, 29.5], [19, 42], [41, 42], [30, 54.5], [19, 67], [41, 67]],
  9: [[19, 17], [41, 17], [19, 33.7], [41, 33.7], [30, 42], [19, 50.3], [41, 50.3], [19, 67], [41, 67]],
  10: [[19, 17], [41, 17], [30, 25.3], [19, 33.7], [41, 33.7], [19, 50.3], [41, 50.3], [30, 58.7], [19, 67], [41, 67]],
};

function pips(rank, suit) {
  if (rank === "A") return suitMark(suit, 30, 42, suit === "S" ? 3.4 : 2.5);
  return PIP_LAYOUTS[rank].map(([x, y]) => suitMark(suit, x, y, rank === "10" || rank === "9" ? 0.95 : 1.05, y > 44)).join("");
}

// The half figure of a king, queen or jack, drawn in the top half of its frame (the card shows it twice,
// head to head, as court cards are printed). Robe in the suit's colour, gold trim, a face, and what
// marks the rank: a crown and beard and a sword, a tiara and long hair and a flower, a cap and feather and a staff.
const FIGURE_COMMON = `
  <path class="robe" d="M16.5 42C16.5 34.6 21.5 31.2 30 31.2S43.5 34.6 43.5 42Z"/>
  <path class="trim" d="M23.2 31.8 30 38 36.8 31.8M30 38V42"/>`;
const FACE = `
  <circle class="skin" cx="30" cy="24.5" r="5.4"/>
  <circle class="eye" cx="28" cy="24" r=".6"/><circle class="eye" cx="32" cy="24" r=".6"/>
  <path class="mouth" d="M28.6 27.3Q30 28.2 31.4 27.3"/>`;
const COURT_PARTS = {
  K: `<path class="steel" d="M40.5 12V38M38 33.5H43"/>
      ${FIGURE_COMMON}${FACE}
      <path class="beard" d="M25 26.2C25.4 31.6 34.6 31.6 35 26.2 33.4 28.8 26.6 28.8 25 26.2Z"/>
      <path class="gold" d="M23.8 20V12.8L26.8 16.2 30 11.2 33.2 16.2 36.2 12.8V20Z"/>`,
  Q: `<path class="stem" d="M41 19V38"/><circle class="bloom" cx="41" cy="17.5" r="2.6"/>
      <path class="hair" d="M23.6 32C22.6 26 23 18.6 30 18.4S37.4 26 36.4 32L34.6 30.6V22.2H25.4V30.6Z"/>
      ${FIGURE_COMMON}${FACE}
      <path class="gold" d="M25 19.8 25.8 15.2 28 17.4 30 13.8 32 17.4 34.2 15.2 35 19.8Z"/>`,
  J: `<path class="staff" d="M19.5 11V39"/><path class="gold" d="M17.2 12.5 19.5 9.2 21.8 12.5 19.5 15.5Z"/>
      ${FIGURE_COMMON}${FACE}
      <path class="hair" d="M24.8 26.5C24 20.6 26 19.2 30 19.2S36 20.6 35.2 26.5L34.4 22.6H25.6Z"/>
      <path class="cap" d="M24 21C24 14.8 36 14.8 36 21Z"/>
      <path class="feather" d="M35 17.5C38.6 13 41.8 11.4 44 11"/>`,
};

function court(rank, suit) {
  const half = `${COURT_PARTS[rank]}${suitMark(suit, 16.2, 13.2, 0.55)}`;
  return `<rect class="frame" x="12.5" y="8.5" width="35" height="67" rx="1.5"/>
    <svg x="12.5" y="8.5" width="35" height="67" viewBox="12.5 8.5 35 67">
      <g>${half}</g><g transform="rotate(180 30 42)">${half}</g></svg>
    <path class="frame-line" d="M12.5 42H47.5"/>`;
}

// A jester: the big joker in colour, the little one in black and grey; "JOKER" down both corners so the
// strip a fanned hand leaves showing reads, and BIG or LITTLE under the figure.
function joker(big) {
  const index = `${suitMarkStar(7, 8.5)}${word("JOKER", 4.2, 15.5, 0.72, true)}`;
  return `${index}<g transform="rotate(180 30 42)">${index}</g>
    <g class="jester">
      <path class="hat-a" d="M24 33 15 20 20.5 33Z M24 33C24 24 28 17 33 14 32 22 33 28 36 33Z"/>
      <path class="hat-b" d="M36 33C38 26 43 21 49 20L44 33Z"/>
      <circle class="bell" cx="15" cy="20" r="1.8"/><circle class="bell" cx="33" cy="14" r="1.8"/>
      <circle class="bell" cx="49" cy="20" r="1.8"/>
      <circle class="skin" cx="31" cy="39" r="6.4"/>
      <circle class="eye" cx="28.7" cy="38" r=".7"/><circle class="eye" cx="33.3" cy="38" r=".7"/>
      <path class="mouth" d="M27.8 41.4Q31 44.2 34.2 41.4"/>
      <path class="hat-a" d="M20 48 23.5 45.5 26.5 48.5 29 46 31 48.8 33 46 35.5 48.5 38.5 45.5 42 48 38 54H24Z"/>
    </g>
    ${word(big ? "BIG" : "LITTLE", big ? 22 : 14.2, 60, 0.78, false)}`;
}

const suitMarkStar = (x, y) => `<path class="pip star" d="${STAR}" transform="translate(${x} ${y}) scale(0.8)"/>`;

export function cardFace(text) {
  const c = parseCard(text);
  const inner = c.joker ? joker(c.big)
    : corners(c.rank, c.suit) + (["K", "Q", "J"].includes(c.rank) ? court(c.rank, c.suit) : pips(c.rank, c.suit));
  const kind = c.joker ? (c.big ? " big-joker" : " little-joker") : "";
  return `<svg class="face ${suitClass(text)}${kind}" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
    <rect class="card-edge" x="0.5" y="0.5" width="59" height="83" rx="5"/>${inner}</svg>`;
}

// A card's back: its pattern and colours come from the "card backs" setting (the class on the page's body),
// through the patterns the page defines once (index.html), so a back drawn before a change follows it.
export function cardBack() {
  return `<svg class="back" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
    <rect x="0.5" y="0.5" width="59" height="83" rx="5" class="back-edge"/>
    <rect x="4" y="4" width="52" height="76" rx="3" class="back-fill"/>
    <rect x="4" y="4" width="52" height="76" rx="3" class="back-pattern"/>
    <g class="back-medallion"><circle cx="30" cy="42" r="13"/>${suitMark("S", 30, 42, 1.5)}</g>
    <rect x="6.5" y="6.5" width="47" height="71" rx="2" class="back-line"/></svg>`;
}
