"""Random rule mixes for property tests: every option, with mixes that Rules refuses pared down."""

from typing import Any

from hypothesis import strategies as st

from spades.errors import RulesError
from spades.rules import (
    BidFormat,
    ClubsFirstTrick,
    DeckKind,
    FailedBid,
    FailedNilTricks,
    FirstDealer,
    FirstLead,
    NilRule,
    Rules,
    TwoPlayerDraw,
)

OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "players": st.sampled_from([2, 3, 4, 4]),
    "partnerships": st.booleans(),
    "deck": st.sampled_from(list(DeckKind)),
    "first_dealer": st.sampled_from(list(FirstDealer)),
    "two_player_draw": st.sampled_from(list(TwoPlayerDraw)),
    "nil": st.sampled_from(list(NilRule)),
    "nil_value": st.sampled_from([50, 100]),
    "blind_nil": st.booleans(),
    "blind_nil_value": st.sampled_from([100, 200]),
    "blind_nil_deficit": st.sampled_from([0, 0, 100]),
    "blind_nil_pass": st.sampled_from([0, 2]),
    "nil_pass": st.sampled_from([0, 2, 4]),
    "min_team_bid": st.sampled_from([0, 4]),
    "bid_format": st.sampled_from(list(BidFormat)),
    "ten_for_two_hundred": st.booleans(),
    "ten_for_two_hundred_or_more": st.booleans(),
    "first_hand_no_bids": st.booleans(),
    "misdeal_no_spades": st.booleans(),
    "first_lead": st.sampled_from(list(FirstLead)),
    "spades_led_any_time": st.booleans(),
    "clubs_first_trick": st.sampled_from(list(ClubsFirstTrick)),
    "must_beat": st.booleans(),
    "failed_bid": st.sampled_from(list(FailedBid)),
    "bag_value": st.sampled_from([1, -1, -10]),
    "bag_limit": st.sampled_from([5, 10]),
    "bag_penalty": st.sampled_from([0, 100]),
    "failed_nil_tricks": st.sampled_from(list(FailedNilTricks)),
    "boston_bonus": st.sampled_from([0, 200]),
    "target": st.sampled_from([200, 500]),
    "low_mark": st.sampled_from([None, -200]),
}


@st.composite
def option_mixes(draw: st.DrawFn) -> Rules:
    """Random options; where Rules refuses the mix, drop options until it accepts."""
    chosen = {k: draw(v) for k, v in OPTIONS.items() if draw(st.booleans())}
    order = draw(st.permutations(sorted(chosen)))
    for key in order:
        try:
            return Rules(**chosen)
        except RulesError:
            del chosen[key]
    return Rules(**chosen)
