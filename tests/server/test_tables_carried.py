"""The entries an event carries keep each its move's event through the bus's parts and joins."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spades.server.tables.entries import Entry, entry_of
from spades.server.tables.events import Carried
from spades.server.tables.state import Told

_ENTRY = st.builds(lambda i: entry_of({"k": "chat", "seat": i % 4, "text": f"line {i}", "at": float(i)}),
                   st.integers(0, 10**6))
_TOLD = st.one_of(st.none(), st.builds(lambda i: (f"{{{i}", "}", ("a", "b", "c", "d", "e")),
                                       st.integers(0, 10**6)))
_CARRIED = st.lists(st.tuples(_ENTRY, _TOLD), max_size=8)
Pairs = list[tuple[Entry, Told | None]]


def _carried(pairs: Pairs) -> Carried:
    return Carried([e for e, _ in pairs], [t for _, t in pairs])


def _pairs(carried: Carried) -> Pairs:
    return list(zip(carried, carried.told, strict=True))


@given(_CARRIED, _CARRIED, st.integers(-10, 10))
def test_parts_and_joins_keep_each_entry_with_its_event(a: Pairs, b: Pairs, start: int) -> None:
    joined = _carried(a).then(_carried(b))
    assert _pairs(joined) == a + b
    assert _pairs(joined.since(start)) == (a + b)[start:]


def test_entries_without_their_events_have_none_and_a_wrong_count_is_refused() -> None:
    entry = entry_of({"k": "chat", "seat": 0, "text": "hi", "at": 0.0})
    assert Carried([entry, entry]).told == [None, None]
    with pytest.raises(ValueError, match="1 events told for 2 entries"):
        Carried([entry, entry], [None])
