"""The search player: sample the unseen cards, play each sample out fast, keep the best move.

For a card (or a bid) it deals the cards it cannot see into the other hands, consistently with
what the seat has seen (cards played, voids shown, cards it passed, and the bids as soft
evidence), plays every sample out with a fast bit-mask policy, and picks the move whose
expected outcome is best: the side's score change minus the opponents', with bags, nils,
sets and the game situation (a side about to win or lose) counted. It stops at a sample
budget (a time cap only when asked for). The heuristic's move is the default: another move
replaces it only when it scores better on the same samples by more than 1.5 standard errors,
so sampling noise does not make the search worse than the heuristic it starts from.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import TypeVar

from spades.bots.heuristic import HeuristicPlayer
from spades.bots.knowledge import bag_cost, estimate_tricks, is_nil, nil_danger
from spades.cards import Card, cards_of
from spades.game import Phase, SeatView, legal_play_mask, nil_passes, trick_winner
from spades.moves import MakeBid, Move, Play
from spades.rules import FailedNilTricks, FirstLead, Rules
from spades.scoring import Bid, game_winner, score_hand

__all__ = ["SearchPlayer", "sample_hands"]

SPADE = 3
T = TypeVar("T", int, Bid)
Z_SWITCH = 1.5
"""How many standard errors better a move must score before the search overrides the heuristic."""
NIL_DANGER = 2.0
"""The most ``nil_danger`` a hand may have for the search to weigh a nil the heuristic did not bid."""
WIN_VALUE = 300.0
"""What winning (or losing) the game is worth, in points, when a hand would end it."""
RAISE_HANDICAP = 10.0
"""Points a bid above the heuristic's must give up in the bid search: the playouts' defenders are
weaker than real ones, so the raises they find were contracts set a third of the time against
IS-MCTS (issue 13); a raise that wins the game or clearly pays still clears it."""
QUICK_DRAWS = 12
"""Quick draws ``sample_hands`` tries before it places the cards one by one."""


def sample_hands(view: SeatView, rng: random.Random, quick: int = QUICK_DRAWS) -> list[int]:
    """One deal of the unseen cards into the other seats' hands, consistent with the view.

    Each seat gets as many cards as it still holds (as many as this seat, one fewer if it has
    played to the trick this seat has not, and amid a nil exchange the partner the cards passed
    and not yet returned); nobody gets a suit it has shown out of;
    cards this seat passed to its partner stay with the partner. Cards left over are set aside
    (the 3-player spare card, the 2-player discards). ``quick`` quick draws (seats with the least
    room first) almost always fit; when voids leave too little room the cards are placed one by
    one, each where the rest can still be placed, so a sample never breaks a void. The one
    sampler of the project: the search, the coach and the benchmarks' peers all deal with it.
    """
    r = view.rules
    spec = r.deck_spec
    n = r.players
    in_trick = {s for s, _ in view.trick}
    mine = view.hand.bit_count()
    hands = [0] * n
    hands[view.seat] = view.hand
    partner = r.partner(view.seat)
    fixed = view.passed & view.unseen if partner is not None else 0
    pool_all = view.unseen & ~fixed
    exchanged = view.passed.bit_count() - view.received.bit_count()  # not 0 only amid a nil exchange
    needs = {s: mine + exchanged - (s in in_trick) for s in range(n) if s != view.seat}
    if partner is not None:
        hands[partner] = fixed
        needs[partner] += exchanged - fixed.bit_count()
    allowed = {}
    for s in needs:
        banned = 0
        for suit in range(4):
            if view.voids[s] >> suit & 1:
                banned |= spec.suit_masks[suit]
        allowed[s] = pool_all & ~banned
    order = sorted(needs, key=lambda s: allowed[s].bit_count() - needs[s])
    for _ in range(quick):
        pool = pool_all
        out = dict.fromkeys(needs, 0)
        ok = True
        for s in order:
            choices = list(cards_of(pool & allowed[s]))
            if len(choices) < needs[s]:
                ok = False
                break
            for c in rng.sample(choices, needs[s]):
                out[s] |= 1 << c
            pool &= ~out[s]
        if ok:
            for s, m in out.items():
                hands[s] |= m
            return hands
        rng.shuffle(order)
    return _place_one_by_one(hands, pool_all, needs, allowed, rng)


def _place_one_by_one(hands: list[int], pool: int, needs: dict[int, int], allowed: dict[int, int],
                      rng: random.Random) -> list[int]:
    """``hands`` with the cards of ``pool`` added one by one, each to a seat drawn at random among
    those that may hold it and leave the rest placeable (Hall's condition, ``_placeable``)."""
    left = dict(needs)
    spare = pool.bit_count() - sum(left.values())  # cards no seat holds (a spare card, discards)
    if spare:
        left[-1] = spare
        allowed = {**allowed, -1: pool}
    for c in cards_of(pool):
        rest = pool & ~(1 << c)
        seats = [s for s in left if left[s] and allowed[s] >> c & 1]
        rng.shuffle(seats)
        for s in seats:
            left[s] -= 1
            if _placeable(rest, left, allowed):
                if s >= 0:
                    hands[s] |= 1 << c
                break
            left[s] += 1
        else:
            raise AssertionError(f"no seat can hold {Card(c)}: the view contradicts itself")
        pool = rest
    return hands


def _placeable(pool: int, needs: dict[int, int], allowed: dict[int, int]) -> bool:
    """Whether the cards of ``pool`` can go to the seats, each taking exactly its ``needs`` and only
    cards it is ``allowed``: Hall's condition over every group of seats."""
    seats = list(needs)
    if pool.bit_count() != sum(needs.values()):
        return False
    for group in range(1, 1 << len(seats)):
        outside = 0
        room = 0
        for i, s in enumerate(seats):
            if group >> i & 1:
                room += needs[s]
            else:
                outside |= allowed[s]
        if (pool & ~outside).bit_count() > room:
            return False
    return True


def _bid_weight(rules: Rules, bids: Sequence[Bid | None], original: Sequence[int], seat: int) -> float:
    """How well sampled hands fit the bids made: the soft evidence the bids give."""
    logw = 0.0
    for s, bid in enumerate(bids):
        if s == seat or bid is None:
            continue
        if is_nil(rules, bid):
            if not bid.blind:
                logw -= nil_danger(rules, original[s]) ** 2 / 2.0
        elif not bid.ten_for_two_hundred:
            logw -= (estimate_tricks(rules, original[s]) - bid.tricks) ** 2 / 4.5
    return math.exp(logw)


def _significant_best(values: dict[T, list[float]], base: T) -> tuple[T, float]:
    """The candidate with the best mean, if it beats ``base`` clearly (paired over the same
    samples, by more than 1.5 standard errors); else ``base``. Returns it and its mean gain."""
    ref = values[base]
    n = len(ref)
    best, best_gain = base, 0.0
    for cand, vals in values.items():
        if cand == base or n < 2:
            continue
        diffs = [a - b for a, b in zip(vals, ref, strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > best_gain and mean > Z_SWITCH * math.sqrt(var / n):
            best, best_gain = cand, mean
    return best, best_gain


def _not_over_partner(view: SeatView) -> list[int]:
    """Last to play with the partner winning: the cards that leave the trick to the partner.

    Taking a partner's trick as the last player wins nothing for the side and spends a card
    (often a trump) that could win a trick of its own; strong players do not, so the search
    does not weigh it. Empty when this is not the case, when the partner bid nil (overtaking it
    is how a nil is covered), or every card would overtake.
    """
    rules = view.rules
    partner = rules.partner(view.seat)
    if partner is None or len(view.trick) != rules.players - 1:
        return []
    bid = view.bids[partner]
    if bid is not None and is_nil(rules, bid):
        return []
    spec = rules.deck_spec
    if trick_winner(spec, view.trick) != partner:
        return []
    return [c for c in cards_of(view.legal_plays)
            if trick_winner(spec, [*view.trick, (view.seat, c)]) == partner]


class _Sim:
    """A fast playout of the rest of a hand, with bit masks, under a fixed policy for all."""

    def __init__(self, rules: Rules) -> None:
        spec = rules.deck_spec
        self.rules = rules
        self.suit_of = spec.suit_of
        self.power = spec.power
        self.strength = spec.strength
        self.beaten_by = spec.beaten_by
        self.trumps = spec.trumps
        self.n = rules.players
        self.partner = [rules.partner(s) for s in range(self.n)]
        self.side = [rules.side_of(s) for s in range(self.n)]
        self.seats = [rules.seats_of(t) for t in range(rules.sides)]
        cards = list(cards_of(spec.cards))
        self.order = sorted(cards, key=lambda c: spec.power[c] * 4 + spec.suit_of[c])
        self.higher = [0] * 54
        for c in cards:
            for d in cards:
                if spec.suit_of[d] == spec.suit_of[c] and spec.power[d] > spec.power[c]:
                    self.higher[c] |= 1 << d
        self.contract_nil = rules.failed_nil_tricks is FailedNilTricks.CONTRACT
        self.bags_free = bag_cost(rules) >= 0

    def lowest(self, mask: int) -> int:
        """The lowest-powered card of a mask."""
        for c in self.order:
            if mask >> c & 1:
                return c
        raise ValueError("empty mask")

    def highest(self, mask: int) -> int:
        """The highest-powered card of a mask."""
        for c in reversed(self.order):
            if mask >> c & 1:
                return c
        raise ValueError("empty mask")

    def needs(self, bids: Sequence[Bid | None], won: Sequence[int]) -> list[int]:
        """Tricks each side still needs (a side with no bids always wants tricks)."""
        out = []
        for seats in self.seats:
            contract = counted = 0
            for s in seats:
                bid = bids[s]
                if bid is None:
                    contract = 99
                elif is_nil(self.rules, bid):
                    counted += won[s] if self.contract_nil else 0
                else:
                    contract = 10 if bid.ten_for_two_hundred else contract + bid.tricks
                    counted += won[s]
            out.append(contract - counted)
        return out

    def wants(self, bids: Sequence[Bid | None], won: Sequence[int], side: int, tricks_left: int) -> bool:
        """Whether a side wants tricks: short of its contract, able to set a side that can still make
        its contract (with fewer than 3 tricks to spare), or bags are free."""
        needs = self.needs(bids, won)
        if needs[side] > 0 or self.bags_free:
            return True
        return any(0 < x <= tricks_left and tricks_left - x < 3 for i, x in enumerate(needs) if i != side)

    def choose(self, seat: int, hand: int, legal: int, trick: list[tuple[int, int]], best_seat: int,
               best: int, others: int, nils: list[bool], won: list[int], want: bool) -> int:
        """The fast policy's card for a seat; ``want`` says whether its side wants tricks."""
        trumps = self.trumps
        p = self.partner[seat]
        nil_me = nils[seat] and won[seat] == 0
        p_nil = p is not None and nils[p] and won[p] == 0
        mine = self.side[seat]
        their_nils = [s for s in range(self.n) if nils[s] and won[s] == 0 and self.side[s] != mine]
        if not trick:
            side = legal & ~trumps or legal
            if nil_me or (their_nils and not p_nil):  # a nil ducks; against one, low leads set it
                return self.lowest(side)
            if p_nil:
                return self.highest(side)
            if want:
                for c in reversed(self.order):
                    if side >> c & 1 and not self.higher[c] & others and self.suit_of[c] != SPADE:
                        return c
                spades = legal & trumps
                if spades and others & trumps:
                    top = self.highest(spades)
                    if not self.higher[top] & others:
                        return top
            return self.lowest(side)
        winners = legal & self.beaten_by[best]
        losers = legal & ~winners
        last = len(trick) == self.n - 1
        if nil_me:
            if losers:
                return self.highest(losers)
            return self.highest(winners) if last else self.lowest(winners)
        if p_nil and winners:
            if all(s != p for s, _ in trick):
                return self.highest(winners)
            if best_seat == p:
                return self.lowest(winners)
        if losers and best_seat in their_nils:  # an opposing nil is taking the trick: let it
            return self.lowest(losers)
        if not p_nil and losers and any(  # keep the trick low for a nil still to play
                all(t != s for t, _ in trick) for s in their_nils):
            return self.lowest(losers)
        if want:
            if best_seat == p and (last or not self.higher[best] & others):
                return self.lowest(losers & ~trumps or losers or legal)
            if winners:
                if last:
                    return self.lowest(winners)
                for c in self.order:
                    if winners >> c & 1 and not self.higher[c] & others:
                        return c
                return self.highest(winners)
            return self.lowest(legal & ~trumps or legal)
        if losers:
            return self.highest(losers)
        return self.highest(winners) if last else self.lowest(winners)

    def play(self, hands: list[int], bids: Sequence[Bid | None], won: list[int], seat: int,
             trick: list[tuple[int, int]], broken: bool, first: bool, opening: int | None) -> list[int]:
        """Play the hand out from this position, ``seat`` to move; return the tricks each seat won."""
        n = self.n
        rules = self.rules
        suit_of = self.suit_of
        nils = [is_nil(rules, b) for b in bids]
        tricks_left = hands[seat].bit_count()
        all_cards = 0
        for h in hands:
            all_cards |= h
        best_seat, best = -1, -1
        strength = self.strength[0]
        if trick:
            strength = self.strength[suit_of[trick[0][1]]]
            best_seat, best = trick[0]
            for s, c in trick[1:]:
                if strength[c] > strength[best]:
                    best_seat, best = s, c
        wants = [self.wants(bids, won, t, tricks_left) for t in range(rules.sides)]
        while True:
            hand = hands[seat]
            legal = legal_play_mask(rules, hand, [c for _, c in trick], broken, first, opening)
            card = self.choose(seat, hand, legal, trick, best_seat, best, all_cards & ~hand, nils, won,
                               wants[self.side[seat]])
            hands[seat] = hand & ~(1 << card)
            all_cards &= ~(1 << card)
            if suit_of[card] == SPADE:
                broken = True
            if not trick:
                strength = self.strength[suit_of[card]]
                best_seat, best = seat, card
            elif strength[card] > strength[best]:
                best_seat, best = seat, card
            trick.append((seat, card))
            if len(trick) < n:
                seat = (seat + 1) % n
                continue
            won[best_seat] += 1
            tricks_left -= 1
            if not tricks_left:
                return won
            seat = best_seat
            trick = []
            first = False
            wants = [self.wants(bids, won, t, tricks_left) for t in range(rules.sides)]


class SearchPlayer:
    """Flat Monte Carlo search over sampled deals; ``samples`` bounds each decision.

    The sample count alone decides by default, so the same seed and view always give the same
    move; ``seconds``, an explicit option, adds a time cap that cuts a search short on a slow
    or busy machine (and so makes the move depend on the clock).
    """

    def __init__(self, name: str = "expert", *, samples: int = 200, seconds: float | None = None,
                 bid_nil: bool = True, hand_alone: bool = False) -> None:
        self.name = name
        self.samples = samples
        self.seconds = seconds
        self.bid_nil = bid_nil
        self.hand_alone = hand_alone
        """Value each hand on its own, as duplicate matches score it: bags at their face value and
        no game to win, since no later hand follows."""
        self.heuristic = HeuristicPlayer(name, bid_nil=bid_nil)
        self._sims: dict[Rules, _Sim] = {}

    def _sim(self, rules: Rules) -> _Sim:
        sim = self._sims.get(rules)
        if sim is None:
            sim = self._sims[rules] = _Sim(rules)
        return sim

    def _more(self, done: int, start: float) -> bool:
        """Whether the budget allows another sample (at least 8 are always taken)."""
        if done >= self.samples:
            return False
        return self.seconds is None or done < 8 or time.perf_counter() - start < self.seconds

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """The searched move for the seat."""
        return self.decide(view, rng)[0]

    def decide(self, view: SeatView, rng: random.Random) -> tuple[Move, str]:
        """The move and one short sentence saying why."""
        base, why = self.heuristic.decide(view, rng)
        if view.phase is Phase.PLAY and view.legal_plays & (view.legal_plays - 1):
            return self._search_play(view, rng, base, why)
        if view.phase is Phase.BID and isinstance(base, MakeBid) and len(view.legal_bids) > 1:
            return self._search_bid(view, rng, base, why)
        return base, why

    def value(self, view: SeatView, bids: Sequence[Bid | None], won: Sequence[int]) -> float:
        """The outcome of a hand for the seat's side: its score change minus the others', in points,
        with bags costed for the future and a game won or lost counted."""
        r = view.rules
        no_bids = all(b is None for b in bids)
        full = [b if b is not None else Bid(1) for b in bids]
        hs = score_hand(r, full, won, view.bags, no_bids=no_bids)
        mine = r.side_of(view.seat)
        near_end = max(view.scores) >= r.target - 150
        per_bag = r.bag_penalty / r.bag_limit
        vals: list[float] = []
        for s in hs.sides:
            if self.hand_alone:  # the hand's points are all there is
                vals.append(s.points)
            elif near_end:  # the penalties of this hand are real, later ones may never come
                vals.append(s.points - 0.5 * per_bag * s.bags_added)
            else:  # every bag costs its share of the penalty
                vals.append(s.points + s.penalty_points - per_bag * s.bags_added)
        value = vals[mine] - sum(v for i, v in enumerate(vals) if i != mine) / (len(vals) - 1)
        winner = None if self.hand_alone else game_winner(
            r, [a + s.points for a, s in zip(view.scores, hs.sides, strict=True)])
        if winner is not None:
            value += WIN_VALUE if winner == mine else -WIN_VALUE
        return value

    def sample_deal(self, view: SeatView, rng: random.Random) -> list[int]:
        """A sample of the other hands: of four draws, the one with the largest product of how well it
        fits the bids made and a uniform random number (the bids as soft evidence: a better fit is
        picked more often than in proportion to its weight)."""
        n = view.rules.players
        if not any(b is not None for s, b in enumerate(view.bids) if s != view.seat):
            return sample_hands(view, rng)
        played = [0] * n
        for t in view.tricks:
            for s, c in t.cards:
                played[s] |= 1 << c
        for s, c in view.trick:
            played[s] |= 1 << c
        best, best_w = [], -1.0
        for _ in range(4):
            hands = sample_hands(view, rng)
            w = _bid_weight(view.rules, view.bids, [h | p for h, p in zip(hands, played, strict=True)],
                            view.seat) * rng.random()
            if w > best_w:
                best, best_w = hands, w
        return best

    def card_outcome(self, view: SeatView, hands: Sequence[int], card: int) -> list[int]:
        """The tricks each seat ends the hand with when this seat plays ``card`` now and every seat
        then follows the fast playout policy, in one sampled deal (``hands``: each seat's cards)."""
        sim = self._sim(view.rules)
        n = view.rules.players
        h = list(hands)
        h[view.seat] &= ~(1 << card)
        trick = [(s, int(c)) for s, c in view.trick] + [(view.seat, card)]
        broken = view.broken or sim.suit_of[card] == SPADE
        won = list(view.tricks_won)
        first = not view.tricks
        if len(trick) < n:
            nxt = (view.seat + 1) % n
        else:
            nxt, first = trick_winner(view.rules.deck_spec, trick), False
            won[nxt] += 1
            trick = []
        if h[nxt]:
            won = sim.play(h, view.bids, won, nxt, trick, broken, first, view.opening_card)
        return won

    def _search_play(self, view: SeatView, rng: random.Random, base: Move, why: str) -> tuple[Move, str]:
        assert isinstance(base, Play)
        candidates = _not_over_partner(view) or list(cards_of(view.legal_plays))
        if base.card not in candidates:
            candidates.append(base.card)
        if len(candidates) == 1:
            return base, why
        values: dict[int, list[float]] = {c: [] for c in candidates}
        start = time.perf_counter()
        done = 0
        while self._more(done, start):
            hands = self.sample_deal(view, rng)
            for card in candidates:
                values[card].append(self.value(view, view.bids, self.card_outcome(view, hands, card)))
            done += 1
        best, gain = _significant_best(values, base.card)
        if best == base.card:
            return base, why
        return Play(Card(best)), (f"In {done} simulated deals the {Card(best).name} scores best, "
                                  f"{gain:.0f} points more than the {base.card.name}.")

    def _search_bid(self, view: SeatView, rng: random.Random, base: MakeBid, why: str) -> tuple[Move, str]:
        r = view.rules
        legal = view.legal_bids
        mid = base.bid.tricks
        candidates = [b for b in legal if not b.blind and not b.ten_for_two_hundred and (
            abs(b.tricks - mid) <= 1 and (not is_nil(r, b) or is_nil(r, base.bid)))]
        if self.bid_nil and not is_nil(r, base.bid):
            nil = next((b for b in legal if is_nil(r, b) and not b.blind), None)
            passing = r.nil_pass if r.has_partners else 0
            if nil is not None and nil_danger(r, view.hand, passing) <= NIL_DANGER:
                candidates.append(nil)
        if base.bid not in candidates:
            candidates.append(base.bid)
        if len(candidates) == 1:
            return base, why
        values: dict[Bid, list[float]] = {b: [] for b in candidates}
        start = time.perf_counter()
        done = 0
        while self._more(done, start):
            hands = self.sample_deal(view, rng)
            for bid in candidates:
                values[bid].append(self.value(view, *self.bid_outcome(view, hands, bid)))
            done += 1
        for bid, vals in values.items():
            if bid.tricks > mid:
                values[bid] = [v - RAISE_HANDICAP for v in vals]
        best, gain = _significant_best(values, base.bid)
        if best == base.bid:
            return base, why
        return MakeBid(best), (f"In {done} simulated deals bidding {best} scores best, "
                               f"{gain:.0f} points more than {base.bid}.")

    def bid_outcome(self, view: SeatView, hands: Sequence[int], bid: Bid
                    ) -> tuple[list[Bid | None], list[int]]:
        """The bids (guessed for the seats yet to bid) and the tricks each seat ends with when this
        seat bids ``bid`` now, in one sampled deal played out by the fast policy."""
        r = view.rules
        bids = list(view.bids)
        bids[view.seat] = bid
        for s in [(view.dealer + 1 + i) % r.players for i in range(r.players)]:
            if bids[s] is None:
                bids[s] = self._guess_bid(r, hands[s], bids, s)
        h = list(hands)
        self._exchange(self._sim(r), h, bids, view.dealer)
        return bids, self._play_hand(view, h, bids)

    def pass_outcome(self, view: SeatView, hands: Sequence[int], cards: int
                     ) -> tuple[list[Bid | None], list[int]]:
        """The tricks each seat ends with when this seat passes ``cards`` to its partner now (the
        partner passing back as the heuristic does), in one sampled deal played out by the fast policy."""
        r = view.rules
        sim = self._sim(r)
        partner = r.partner(view.seat)
        assert partner is not None
        h = list(hands)
        h[view.seat] &= ~cards
        h[partner] |= cards
        if not view.received:  # the partner's pass back: low cards to a nil, its worst to the partner
            pick = sim.lowest if is_nil(r, view.bids[view.seat]) else sim.highest
            back = 0
            for _ in range(view.pass_count):
                back |= 1 << pick(h[partner] & ~back)
            h[partner] &= ~back
            h[view.seat] |= back
        bids = list(view.bids)
        self._exchange(sim, h, bids, view.dealer, skip=r.side_of(view.seat))
        return bids, self._play_hand(view, h, bids)

    def _play_hand(self, view: SeatView, hands: list[int], bids: Sequence[Bid | None]) -> list[int]:
        """The tricks each seat wins when the whole hand is played out by the fast policy."""
        r = view.rules
        order = [(view.dealer + 1 + i) % r.players for i in range(r.players)]
        opening = self._opening(r, hands)
        leader = order[0] if opening is None else next(s for s in order if hands[s] >> opening & 1)
        if r.first_lead is FirstLead.DEALER:
            leader = view.dealer
        return self._sim(r).play(hands, bids, [0] * r.players, leader, [], False, True, opening)

    def _guess_bid(self, rules: Rules, hand: int, bids: list[Bid | None], seat: int) -> Bid:
        """A quick bid for a sampled hand that has not bid yet."""
        partner = rules.partner(seat)
        if (self.bid_nil and rules.nil_value and partner is not None and not is_nil(rules, bids[partner])
                and is_nil(rules, Bid(0)) and nil_danger(rules, hand, rules.nil_pass) <= 1.0):
            return Bid(0)
        return Bid(max(1, min(rules.max_bid, int(estimate_tricks(rules, hand) + 0.5))))

    def _exchange(self, sim: _Sim, hands: list[int], bids: Sequence[Bid | None], dealer: int,
                  skip: int = -1) -> None:
        """The nil passes the engine calls for, as the heuristic makes them: the nil's worst cards to
        its partner, the partner's lowest back (none for the side ``skip``)."""
        r = sim.rules
        for s, p, k in nil_passes(r, bids, dealer)[::2]:  # (nil, partner, k), then its pass back
            if r.side_of(s) == skip:
                continue
            give = take = 0
            for _ in range(k):
                give |= 1 << sim.highest(hands[s] & ~give)
                take |= 1 << sim.lowest(hands[p] & ~take)
            hands[s] = hands[s] & ~give | take
            hands[p] = hands[p] & ~take | give

    def _opening(self, rules: Rules, hands: list[int]) -> int | None:
        """The card that must open the hand under the two-of-clubs rule, else None."""
        if rules.first_lead is not FirstLead.TWO_OF_CLUBS:
            return None
        held = 0
        for h in hands:
            held |= h & rules.deck_spec.suit_masks[0]
        return (held & -held).bit_length() - 1 if held else None
