"""The heuristic player: the nine strategy tips of the game we measure against, as code.

It bids by counting sure tricks, bids nil with a hand made for it (and blind nil when far
behind), ducks with its highest losing card on nil, covers a partner's nil, leads side aces
early, never trumps a partner's sure winner, wins with the lowest spade that does when it
plays last, treats bags as a cost once its contract is made and tries to set the opponents.
Every decision comes with one short sentence saying why, for hints.
"""

from __future__ import annotations

import random
from typing import Final

from spades.bots.knowledge import Knowledge, bag_cost, estimate_tricks, is_nil, nil_danger
from spades.cards import Card, cards_of
from spades.game import Phase, SeatView, card_numbers, trick_winner
from spades.moves import Draw, Look, MakeBid, Misdeal, Move, PassCards, Play
from spades.rules import DeckSpec, NilRule
from spades.scoring import Bid

__all__ = ["HeuristicPlayer"]

SPADE = 3
NIL_LIMIT = 1.6
"""The most ``nil_danger`` a hand may have for the heuristic to bid nil (before the table's adjustments).
At 1.0 its nils were made 88% of the time against itself: too safe to pay. Over 300 duplicate games
against defenders who play low into a nil, 1.0 and 1.3 score as 1.6 and 2.0 loses 2 a hand; against
defenders who did so only once their contract was made, 1.6 won 55-62% of games; against the hard
level's nil attack (150 single hands, half the nils set) it scores as 1.0."""
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


_NAMES: Final = tuple(Card(c).name for c in range(54))
"""Each card's name by number (a reason names its cards: read here, not worked out per decision)."""


def _name(card: int) -> str:
    return _NAMES[card]


def _lowest(spec: DeckSpec, mask: int) -> int:
    """The lowest-ranked card of a mask."""
    return min(card_numbers(mask), key=lambda c: int(spec.power[c]))


class HeuristicPlayer:
    """A rule-based player; ``careful=False`` is the easy level (no card counting, no bag
    or score sense, rougher bids), ``bid_nil=False`` never bids nil (as the seed's game)."""

    def __init__(self, name: str = "normal", *, bid_nil: bool = True, careful: bool = True,
                 hand_alone: bool = False) -> None:
        self.name = name
        self.bid_nil = bid_nil
        self.careful = careful
        self.hand_alone = hand_alone
        """Each hand is scored on its own (a duplicate match of single hands): a bag is worth its point."""

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """The heuristic's move for the seat."""
        return self.decide(view, rng)[0]

    def decide(self, view: SeatView, rng: random.Random) -> tuple[Move, str]:
        """The move and one short sentence saying why."""
        if view.phase is Phase.PLAY:
            card, why = self.play(view)
            return Play(Card(card)), why
        if view.phase is Phase.BID:
            return self._bid_phase(view, rng)
        if view.phase is Phase.PASS:
            return self._pass(view)
        return self._draw(view)

    # -- drawing (two players) -------------------------------------------------------------

    def _draw(self, view: SeatView) -> tuple[Move, str]:
        spec = view.rules.deck_spec

        def value(c: int) -> int:
            return spec.power[c] + (10 if spec.suit_of[c] == SPADE else 0)

        shown = view.offered
        if len(shown) == 2:
            keep = shown[0] if value(shown[0]) >= value(shown[1]) else shown[1]
            return Draw(keep == shown[0]), f"Keep the {_name(keep)}, the stronger card."
        if value(shown[0]) >= 11:
            return Draw(True), f"Keep the {_name(shown[0])}: it should take a trick."
        return Draw(False), f"The {_name(shown[0])} is weak: take your chance on the next card."

    # -- bidding ---------------------------------------------------------------------------

    def _bid_phase(self, view: SeatView, rng: random.Random) -> tuple[Move, str]:
        if view.can_look:
            if self.bid_nil and Bid.blind_nil() in view.legal_bids and self._wants_blind_nil(view):
                return MakeBid(Bid.blind_nil()), "Your team is far behind: bid blind nil for 200 points."
            return Look(), "Look at your cards: your team is not far enough behind for blind nil."
        if view.can_misdeal and not self._nil_fit(view):
            return Misdeal(), "You hold no spades: call a misdeal."
        return self._bid(view, rng) if view.legal_bids else (Look(), "Look at your cards.")

    def _wants_blind_nil(self, view: SeatView) -> bool:
        r = view.rules
        side = r.side_of(view.seat)
        partner = r.partner(view.seat)
        if partner is not None and is_nil(r, view.bids[partner]):
            return False
        others = max(s for i, s in enumerate(view.scores) if i != side)
        deficit = others - view.scores[side]
        return deficit >= max(200, r.blind_nil_deficit) or (  # a gamble only for a side well behind
            deficit >= max(100, r.blind_nil_deficit) and others >= r.target - 150)

    def _nil_fit(self, view: SeatView) -> bool:
        """Whether the hand (and the table) call for nil (tip 4)."""
        r = view.rules
        if r.nil is not NilRule.NIL or not self.bid_nil:
            return False
        partner = r.partner(view.seat)
        limit = NIL_LIMIT if self.careful else 0.5
        if partner is not None:
            pbid = view.bids[partner]
            if is_nil(r, pbid):
                return False
            if pbid is not None:
                limit += 0.3 if pbid.tricks >= 4 else -0.4 if pbid.tricks <= 2 else 0.0
        else:
            limit -= 0.4  # nobody covers a lone nil
        if self.careful:
            side = r.side_of(view.seat)
            behind = max(s for i, s in enumerate(view.scores) if i != side) - view.scores[side]
            limit += 0.3 if behind >= 150 else 0.0
        passing = r.nil_pass if partner is not None else 0
        danger = nil_danger(r, view.hand, passing)
        return danger <= limit and estimate_tricks(r, view.hand) <= 2.0

    def _bid(self, view: SeatView, rng: random.Random) -> tuple[Move, str]:
        r = view.rules
        legal = view.legal_bids
        nil_bid = next((b for b in legal if is_nil(r, b) and not b.blind), None)
        numbers = [b for b in legal if not is_nil(r, b) and not b.ten_for_two_hundred]
        if nil_bid is not None and (not numbers or self._nil_fit(view)):
            why = "Bid nil: no aces or kings, no high spades, and plenty of low cards."
            return MakeBid(nil_bid), why if numbers else "Nil is the only bid these rules leave you."
        if not numbers:
            return MakeBid(legal[0]), f"{legal[0]} is the only bid these rules leave you."
        est = estimate_tricks(r, view.hand)
        why = f"You count about {est:.1f} sure tricks."
        if not self.careful and rng.random() < 0.3:
            est += rng.choice((-1.0, 1.0))
        want = int(est + 0.5)
        placed = [b for b in view.bids if b is not None]
        others = sum(b.tricks for b in placed)
        if self.careful and len(placed) == r.players - 1:
            if others + est < r.hand_size - 2:
                want = int(est + 0.99)
                why = f"You count about {est:.1f} tricks, and the other bids leave tricks to spare."
            elif others + want > r.hand_size:
                why = f"You count about {est:.1f} tricks; with {others} bid already, someone will be set."
        if self.careful:
            side = r.side_of(view.seat)
            mine = view.scores[side]
            theirs = max(s for i, s in enumerate(view.scores) if i != side)
            if mine + 10 * (want + self._partner_tricks(view)) >= r.target and mine >= theirs:
                want = int(est)
                why = f"You count about {est:.1f} tricks; near the target, bid only what you can make."
            elif theirs >= r.target - 100 and theirs > mine:
                want = int(est + 0.99)
                why = f"You count about {est:.1f} tricks; they are close to winning, so bid it up."
        partner = r.partner(view.seat)
        ten = next((b for b in legal if b.ten_for_two_hundred), None)
        pbid = view.bids[partner] if partner is not None else None
        if ten is not None and pbid is not None and pbid.tricks + want >= 10:
            return MakeBid(ten), "Together you count ten tricks: bid 10 for 200."
        best = min(numbers, key=lambda b: (abs(b.tricks - max(want, 1 if nil_bid else 0)), b.tricks))
        if best.tricks != want:
            why = f"You count about {est:.1f} tricks; {best} is the nearest bid the rules allow."
        return MakeBid(best), why

    def _partner_tricks(self, view: SeatView) -> int:
        partner = view.rules.partner(view.seat)
        bid = view.bids[partner] if partner is not None else None
        return bid.tricks if bid is not None else 0

    # -- passing (nil and blind nil) -------------------------------------------------------

    def _pass(self, view: SeatView) -> tuple[Move, str]:
        spec = view.rules.deck_spec
        k = view.pass_count
        trump = spec.trumps

        def danger(c: int) -> int:
            return spec.power[c] + (20 if trump >> c & 1 else 0)

        cards = sorted(cards_of(view.hand), key=danger)
        if is_nil(view.rules, view.bids[view.seat]):
            chosen = cards[-k:]
            why = "Pass your most dangerous cards, the highest spades and honours, to your partner."
        else:
            chosen = cards[:k]
            why = "Pass your lowest cards so your nil partner can play under everything."
        return PassCards.of(*chosen), why

    # -- the play --------------------------------------------------------------------------

    def play(self, view: SeatView) -> tuple[int, str]:
        """The card to play and why."""
        legal = view.legal_plays
        if legal & (legal - 1) == 0:
            card = legal.bit_length() - 1
            return card, f"The {_name(card)} is your only legal card."
        k = Knowledge.of(view)
        if not view.trick:
            return self._lead(k, legal)
        return self._follow(k, legal)

    def _boss(self, k: Knowledge, card: int) -> bool:
        """Whether the card is the top one left in its suit (easy: only the top card of the deck)."""
        if self.careful:
            return k.is_boss(card)
        spec = k.spec
        suit = spec.suit_of[card]
        return all(spec.power[c] <= spec.power[card] for c in card_numbers(spec.suit_masks[suit]))

    def _low(self, k: Knowledge, cards: int) -> int:
        """The card to throw away: low, not a spade or an honour, from a short suit (tip 8)."""
        spec = k.spec
        hand = k.view.hand

        def key(c: int) -> tuple[bool, bool, int, int]:
            suit = spec.suit_of[c]
            return (suit == SPADE, self._boss(k, c), (hand & spec.suit_masks[suit]).bit_count(),
                    spec.power[c])

        return min(card_numbers(cards), key=key)

    def _high(self, spec: DeckSpec, cards: int) -> int:
        """The most dangerous card to keep: the highest, spades above all."""
        return max(card_numbers(cards), key=lambda c: spec.power[c] + (20 if spec.suit_of[c] == SPADE else 0))

    def _wants_tricks(self, k: Knowledge) -> tuple[bool, bool]:
        """(whether to win tricks, whether that is to set the opponents)."""
        if k.contract < 0 or k.need > 0 or not self.careful:
            return True, False
        for need in k.opp_needs:  # worth a bag to set a side that can still make it, not one already set
            if 0 < need <= k.tricks_left and k.tricks_left - need < 3:
                return True, True
        return bag_cost(k.rules, self.hand_alone) >= 0, False

    def _lead(self, k: Knowledge, legal: int) -> tuple[int, str]:
        v = k.view
        spec = k.spec
        trumps = spec.trumps
        side_cards = legal & ~trumps
        card: int
        if k.nil_seat(v.seat):
            card = min(card_numbers(legal), key=lambda c: (spec.suit_of[c] == SPADE, spec.power[c]))
            return card, f"You bid nil: lead the {_name(card)}, your safest low card."
        partner = k.partner
        if k.nil_seat(partner):
            assert partner is not None
            for suit in range(3):
                if v.voids[partner] >> suit & 1 and legal & spec.suit_masks[suit]:
                    card = self._low(k, legal & spec.suit_masks[suit])
                    return card, (f"Lead {_SUIT_NAMES[suit]}: your partner is out of them and can "
                                  "throw away a risky card.")
            card = max(card_numbers(side_cards or legal), key=lambda c: spec.power[c])
            return card, f"Cover your partner's nil: lead the {_name(card)} high so they can play under it."
        opp_nils = [s for s in k.opponents() if k.nil_seat(s)]
        if opp_nils and self.careful:
            target = opp_nils[0]
            open_suits = [s for s in range(4) if not v.voids[target] >> s & 1 and legal & spec.suit_masks[s]]
            pool = legal & sum(spec.suit_masks[s] for s in open_suits) if open_suits else legal
            card = min(card_numbers(pool), key=lambda c: (spec.suit_of[c] == SPADE, spec.power[c]))
            return card, (f"Lead the low {_name(card)} to pressure the nil bidder: a broken nil costs them "
                          f"{k.rules.nil_value}.")
        want, setting = self._wants_tricks(k)
        if not want:
            card = min(card_numbers(legal), key=lambda c: (spec.suit_of[c] == SPADE, spec.power[c]))
            return card, f"Your contract is made: lead the {_name(card)} and let them take the bags."
        opp_voids = 0
        for s in k.opponents():
            opp_voids |= v.voids[s]
        trumps_out = k.unseen & trumps
        for card in sorted(card_numbers(side_cards), key=lambda c: -spec.power[c]):
            suit = spec.suit_of[card]
            if self._boss(k, card) and (not opp_voids >> suit & 1 or not trumps_out):
                if spec.power[card] == 14:
                    return card, f"Lead the {_name(card)} early, before someone can trump it."
                return card, f"The {_name(card)} is the top {Card(card).suit.singular} left: cash it."
        my_trumps = legal & trumps
        if my_trumps and (v.broken or not side_cards):
            top = max(card_numbers(my_trumps), key=lambda c: spec.power[c])
            if self._boss(k, top) and trumps_out:
                return top, f"Lead the {_name(top)}, the top spade left, to pull the others' trumps."
        if partner is not None and not setting:
            for suit in range(3):
                if (v.voids[partner] >> suit & 1 and not opp_voids >> suit & 1
                        and legal & spec.suit_masks[suit]):
                    card = self._low(k, legal & spec.suit_masks[suit])
                    return card, f"Lead {_SUIT_NAMES[suit]}: your partner is out of them and can trump."
        card = self._low(k, side_cards or legal)
        return card, f"Lead the {_name(card)}: a low card keeps your high cards for later."

    def _follow(self, k: Knowledge, legal: int) -> tuple[int, str]:
        v = k.view
        spec = k.spec
        trick = v.trick
        led = spec.suit_of[trick[0][1]]
        best_seat = trick_winner(spec, trick)
        best = next(c for s, c in trick if s == best_seat)
        winners = legal & spec.beaten_by[best]
        losers = legal & ~winners
        n = k.rules.players
        after = [(v.seat + i) % n for i in range(1, n - len(trick))]
        partner = k.partner
        opps = k.opponents()
        opps_after = [s for s in after if s in opps]
        card: int
        if k.nil_seat(v.seat):
            if losers:
                card = self._high(spec, losers)
                return card, (f"You bid nil: the {_name(card)} is the highest card that still loses "
                              f"to the {_name(best)}.")
            card = _lowest(spec, winners) if after else self._high(spec, winners)
            return card, f"You bid nil but must win this trick: the {_name(card)} is the best you can do."
        if k.nil_seat(partner):
            if partner in after:
                if winners:
                    led_winners = winners & spec.suit_masks[led]
                    card = max(card_numbers(led_winners), key=lambda c: spec.power[c]) if led_winners else (
                        _lowest(spec, winners))
                    return card, f"Cover your partner's nil: play the {_name(card)} high ahead of them."
            elif best_seat == partner:
                if winners:
                    card = _lowest(spec, winners)
                    return card, f"Cover your partner's nil: the {_name(best)} is winning the trick."
                return self._low(k, legal), f"You cannot overtake your partner's {_name(best)}."
        opp_nils = [s for s in opps if k.nil_seat(s)]
        if opp_nils and self.careful:
            if best_seat in opp_nils and losers:
                card = self._low(k, losers)
                return card, f"Let the nil bidder take this trick with the {_name(best)}."
            if any(s in after for s in opp_nils):
                card = self._low(k, losers) if losers else _lowest(spec, winners)
                return card, f"Play low with the {_name(card)} so the nil bidder may have to win."
        want, setting = self._wants_tricks(k)
        if not want:
            if losers:
                card = self._high(spec, losers)
                return card, f"Your contract is made: the {_name(card)} loses this trick and saves a bag."
            card = self._high(spec, winners) if not after else _lowest(spec, winners)
            return card, f"Every card you can play wins: give up the {_name(card)}."
        partner_safe = best_seat == partner and (
            not opps_after or (self._boss(k, best) and (
                spec.suit_of[best] == SPADE or not any(v.voids[s] >> led & 1 for s in opps_after))))
        if partner_safe and (losers or not winners):
            card = self._low(k, losers or legal)
            if spec.suit_of[card] != led and led != SPADE:
                return card, (f"Don't trump your partner's winning {_name(best)}: throw the "
                              f"{_name(card)}.")
            return card, f"Your partner's {_name(best)} is winning: play low with the {_name(card)}."
        if not winners:
            card = self._low(k, legal)
            return card, f"You cannot win this trick: throw the {_name(card)}."
        trumping = led != SPADE and not winners & spec.suit_masks[led]
        if not opps_after:
            card = _lowest(spec, winners)
            if trumping:
                return card, f"The {_name(card)} is the lowest spade that wins the trick."
            return card, f"The {_name(card)} is the lowest card that wins the trick."
        safe = [c for c in card_numbers(winners) if self._boss(k, c) and (
            trumping or spec.suit_of[c] == SPADE or not any(v.voids[s] >> led & 1 for s in opps_after))]
        if safe:
            card = min(safe, key=lambda c: spec.power[c])
            return card, f"The {_name(card)} is the lowest card that should hold the trick."
        if partner in after and not trumping and not setting and k.need < k.tricks_left:
            card = self._low(k, losers or winners)
            return card, f"Your partner plays after you: play low with the {_name(card)}."
        card = max(card_numbers(winners), key=lambda c: spec.power[c])
        if trumping:
            return card, f"Trump high with the {_name(card)}: a low spade could be overtrumped."
        return card, f"Play the {_name(card)} high to win the trick."
