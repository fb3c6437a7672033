// Playing cards drawn as inline SVG: faces from the card's text ("QH", "10S", "BJ"), and backs.

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

export function cardFace(text) {
  const c = parseCard(text);
  if (c.joker) {
    const star = c.big ? "★" : "☆";
    return `<svg class="face ${suitClass(text)}${c.big ? " big-joker" : ""}" viewBox="0 0 60 84" aria-hidden="true">
      <rect x="0.5" y="0.5" width="59" height="83" rx="5"/>
      <text x="4" y="15" class="corner">${c.big ? "B" : "L"}</text>
      <text x="4" y="27" class="corner-suit">${star}</text>
      <text x="34" y="50" class="pip big">${star}</text>
      <text x="34" y="64" class="joker-label">${c.big ? "BIG" : "LITTLE"}</text>
      <text x="34" y="74" class="joker-label">JOKER</text></svg>`;
  }
  const sym = SUITS[c.suit];
  const center = ["K", "Q", "J"].includes(c.rank)
    ? `<text x="30" y="54" class="court">${c.rank}</text><text x="30" y="72" class="pip small">${sym}</text>`
    : `<text x="30" y="58" class="pip big">${sym}</text>`;
  return `<svg class="face ${suitClass(text)}" viewBox="0 0 60 84" aria-hidden="true">
    <rect x="0.5" y="0.5" width="59" height="83" rx="5"/>
    <text x="4" y="15" class="corner">${c.rank}</text>
    <text x="4" y="27" class="corner-suit">${sym}</text>
    ${center}
    <g transform="rotate(180 30 42)"><text x="4" y="15" class="corner">${c.rank}</text>
    <text x="4" y="27" class="corner-suit">${sym}</text></g></svg>`;
}

export function cardBack() {
  return `<svg class="back" viewBox="0 0 60 84" aria-hidden="true">
    <rect x="0.5" y="0.5" width="59" height="83" rx="5" class="back-edge"/>
    <rect x="4" y="4" width="52" height="76" rx="3" class="back-fill"/>
    <path d="M30 14 L46 42 L30 70 L14 42 Z" class="back-mark"/></svg>`;
}
