#!/usr/bin/env node
// A Spades bot speaking the Spades bot protocol (version 1): JSON lines on stdin and stdout.
//
// Run it in a match:  spades arena "exec:node examples/bots/bot.js" normal --deals 2
// It needs nothing but Node. It bids its high cards and spades, and plays the lowest card that
// wins the trick, or its lowest card when none does.
"use strict";
const readline = require("readline");

const RANKS = { J: 11, Q: 12, K: 13, A: 14, LJ: 15, BJ: 16 };

// 2-14 for 2 to ace, 15 and 16 for the jokers.
const rank = (card) => RANKS[card] || RANKS[card.slice(0, -1)] || Number(card.slice(0, -1));
// C, D, H or S (jokers are spades).
const suit = (card) => (card === "LJ" || card === "BJ" ? "S" : card.slice(-1));
// How strongly a card stands in a trick led in the suit `led` (0: it cannot win).
const power = (card, led) => (suit(card) === "S" ? 100 + rank(card) : suit(card) === led ? rank(card) : 0);
const lowest = (cards, key) => cards.reduce((a, b) => (key(b) < key(a) ? b : a));

// The legal bid nearest to a count of aces, kings and spades above the ten.
function bid(view, legal) {
  if (legal.includes("look")) return "look";
  const hand = view.hand;
  const spades = hand.filter((c) => suit(c) === "S");
  const tricks = hand.filter((c) => rank(c) >= 13 && suit(c) !== "S").length
    + spades.filter((c) => rank(c) >= 11).length + Math.floor(spades.length / 4);
  const bids = legal.filter((m) => /^bid \d+$/.test(m));
  if (bids.length === 0) return legal[0];
  return lowest(bids, (m) => Math.abs(Number(m.split(" ")[1]) - Math.max(1, tricks)));
}

// The lowest card that beats the trick so far; the lowest card when none does.
function play(view, legal) {
  const cards = legal.map((m) => m.split(" ")[1]);
  const trick = view.trick.map((p) => p.card);
  if (trick.length === 0) {
    const plain = cards.filter((c) => suit(c) !== "S");
    return "play " + lowest(plain.length ? plain : cards, (c) => -rank(c));
  }
  const led = suit(trick[0]);
  const best = Math.max(...trick.map((c) => power(c, led)));
  const winners = cards.filter((c) => power(c, led) > best);
  if (winners.length) return "play " + lowest(winners, (c) => power(c, led));
  return "play " + lowest(cards, rank);
}

// The move for a decision.
function decide(view, legal) {
  if (view.phase === "bid") return bid(view, legal);
  if (view.phase === "play") return play(view, legal);
  if (view.phase === "draw") {
    const card = view.offered[0];
    return rank(card) >= 11 || suit(card) === "S" ? "draw keep" : "draw refuse";
  }
  return legal[0]; // a pass: the lowest cards
}

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "hello") send({ type: "ready", name: "example-node" });
  else if (message.type === "decide") {
    send({ type: "move", id: message.id, move: decide(message.view, message.legal) });
  } else if (message.type === "refused") console.error("refused: " + message.reason);
  else if (message.type === "bye") process.exit(0);
});
input.on("close", () => process.exit(0));
