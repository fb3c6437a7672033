"""The compiled modules against their own sources: the same games, move by move, the same errors.

``pip install`` compiles the modules pyproject.toml lists with mypyc (see setup.py) and Python
imports the extensions in their place. Here the ``.py`` sources are loaded a second time,
interpreted, as the reference. The engine and its source play the same random games under
random rule mixes: at every step every seat's legal actions, every seat's view and every refusal
(its type and its message) must agree; the bots and their sources choose the same moves. Their
doctests run here too, on the sources (the root conftest.py keeps pytest from collecting them).
"""

import copy
import dataclasses
import doctest
import importlib
import importlib.util
import os
import pickle
import random
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spades.bid
import spades.game
from rule_mixes import option_mixes
from spades.bots.heuristic import HeuristicPlayer
from spades.bots.search import SearchPlayer
from spades.errors import SpadesError
from spades.rules import PRESETS, Rules, find_preset

ROOT = Path(__file__).parents[1]
SETTINGS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["spades"]
SOURCES = [ROOT / p for p in SETTINGS["compiled"]]
"""The compiled modules' sources, as setup.py reads them."""
MODULES = {p.relative_to(ROOT / "src").with_suffix("").as_posix().replace("/", "."): p for p in SOURCES}
"""Module name -> source file."""


def load_source(name: str) -> ModuleType:
    """A compiled module's ``.py`` run by the interpreter, as a module of its own."""
    spec = importlib.util.spec_from_file_location(f"{name}_source", MODULES[name])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the classes are made
    spec.loader.exec_module(module)
    return module


REFERENCE = load_source("spades.game")
COMPILED = not str(spades.game.__file__).endswith(".py")


def test_the_engine_is_compiled_unless_asked_not_to() -> None:
    # The compile is optional so that an install never fails for it: this is where a silent fallback shows.
    if os.environ.get("SPADES_PURE_PYTHON"):
        pytest.skip("SPADES_PURE_PYTHON is set: the pure-Python build is expected")
    for name in MODULES:
        path = str(importlib.import_module(name).__file__)
        assert not path.endswith(".py"), f"{name} was imported from {path}, not from its compiled module"
    assert REFERENCE.Game is not spades.game.Game


@pytest.mark.parametrize("name", sorted(MODULES))
def test_a_compiled_module_is_not_older_than_its_source(name: str) -> None:
    if not COMPILED:
        pytest.skip("pure-Python build")
    src = MODULES[name]
    built = min(p.stat().st_mtime for p in src.parent.glob(f"{src.stem}.*.so"))
    assert src.stat().st_mtime <= built, f"{src.name} changed since it was compiled: run pip install -e ."


@pytest.mark.parametrize("name", sorted(MODULES))
def test_the_sources_doctests_pass_interpreted(name: str) -> None:
    # Compiled functions hide their docstrings' examples from doctest; the sources' run here.
    assert doctest.testmod(load_source(name), optionflags=doctest.ELLIPSIS).failed == 0


def outcome(game: object, seat: int, action: object) -> tuple[str, str] | None:
    """What applying the action does to a copy: None if it is taken, else the error's type and text."""
    try:
        game.copy().apply_action(action, seat)  # type: ignore[attr-defined]
    except SpadesError as e:
        return type(e).__name__, str(e)
    return None


def same_position(ours: spades.game.Game, ref: object, probes: list[object]) -> None:
    """Every seat's actions and view agree, and so do the refusals of a few probing actions."""
    for seat in range(ours.players):
        assert ours.legal_actions(seat) == ref.legal_actions(seat)  # type: ignore[attr-defined]
        assert repr(ours.view(seat)) == repr(ref.view(seat))  # type: ignore[attr-defined]
        for action in probes:
            assert outcome(ours, seat, action) == outcome(ref, seat, action), (seat, action)


def play_both(rules: Rules, deal: int, seed: int, moves: int) -> None:
    """Play random legal actions in the compiled game and the reference, comparing them all the way."""
    ours, ref = spades.game.Game(rules, deal=deal), REFERENCE.Game(rules, deal=deal)
    rng = random.Random(seed)
    for _ in range(moves):
        probes: list[object] = [rng.randrange(-2, 140), rng.choice([None, "3", 2.0, True])]
        same_position(ours, ref, probes)
        if ours.phase is spades.game.Phase.GAME_OVER:
            break
        if ours.phase is spades.game.Phase.HAND_OVER:
            ours.next_hand()
            ref.next_hand()
            continue
        action = rng.choice(ours.legal_actions())
        ours.apply_action(action)
        ref.apply_action(action)
    assert ours.log == ref.log and ours.scores == ref.scores and ours.bags == ref.bags
    assert repr(ours.history) == repr(ref.history)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays_the_same_compiled(name: str) -> None:
    play_both(PRESETS[name], deal=len(name), seed=7, moves=150)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(option_mixes(), st.integers(1, 10**6), st.integers(0, 2**32))
def test_random_rule_mixes_play_the_same_compiled(rules: Rules, deal: int, seed: int) -> None:
    play_both(rules, deal, seed, moves=120)


def test_copies_play_on_alike() -> None:
    # copy() lists every attribute by hand in the compiled class: a forgotten one shows up here.
    game = spades.game.Game(PRESETS["standard"], deal=11)
    rng = random.Random(3)
    for _ in range(30):
        game.apply_action(rng.choice(game.legal_actions()))
    twin = game.copy()
    for _ in range(200):
        if game.turn is None:
            break
        action = rng.choice(game.legal_actions())
        game.apply_action(action)
        twin.apply_action(action)
        assert repr(game.view(0)) == repr(twin.view(0)) and game.log == twin.log


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(option_mixes(), st.integers(1, 10**6), st.integers(0, 2**32), st.integers(0, 150))
def test_a_game_and_its_values_pickle_and_copy_in_either_build(rules: Rules, deal: int, seed: int,
                                                                moves: int) -> None:
    # mypyc's classes cannot be made without __init__, so the default pickling fails compiled:
    # spades.pickling registers how each is rebuilt, so both builds pickle, copy and deep-copy alike.
    game = spades.game.Game(rules, deal=deal)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.phase is spades.game.Phase.HAND_OVER:
            game.next_hand()
        elif game.turn is not None:
            game.apply_action(rng.choice(game.legal_actions()))
    for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game), copy.copy(game)):
        assert type(twin) is type(game) and twin.log == game.log and twin.rules == game.rules
        same_position(twin, game, [])
        for value in (*game.history, *(t for h in game.history for t in h.tricks), game.view(0)):
            assert pickle.loads(pickle.dumps(value)) == value == copy.deepcopy(value)
        if game.turn is not None:  # the twin plays on as the game would
            action = rng.choice(game.legal_actions())
            twin.apply_action(action)
            assert twin.log[:-1] == game.log and twin.view(game.turn) != game.view(game.turn)


def decision_views(rules: Rules, count: int) -> list[spades.game.SeatView]:
    """Views of the seat to move through a few games of random play: bids, passes and cards."""
    views: list[spades.game.SeatView] = []
    game = spades.game.Game(rules, deal=count)
    rng = random.Random(count)
    while len(views) < count and game.phase is not spades.game.Phase.GAME_OVER:
        if game.turn is None:
            game.next_hand()
            continue
        views.append(game.view(game.turn))
        game.apply_action(rng.choice(game.legal_actions()))
    return views


@pytest.mark.parametrize("preset", ["standard", "online", "cutthroat", "three-player", "two-player"])
def test_the_compiled_bots_choose_what_their_sources_choose(preset: str) -> None:
    heuristic, search = load_source("spades.bots.heuristic"), load_source("spades.bots.search")
    pairs: list[tuple[HeuristicPlayer | SearchPlayer, Any]] = [
        (HeuristicPlayer("normal"), heuristic.HeuristicPlayer("normal")),
        (HeuristicPlayer("easy", careful=False), heuristic.HeuristicPlayer("easy", careful=False)),
        (SearchPlayer("hard", samples=8, seconds=None), search.SearchPlayer("hard", samples=8, seconds=None))]
    for i, view in enumerate(decision_views(find_preset(preset), 40)):
        for ours, ref in pairs:
            assert ours.decide(view, random.Random(i)) == ref.decide(view, random.Random(i)), (view, ours)



def test_the_written_out_constructors_are_the_dataclasses_own() -> None:
    # Trick, HandResult and SideScore write their dataclass's __init__ out, to be compiled: the same
    # fields in order, each set, by position or by name, and the values still frozen.
    game = spades.game.Game(PRESETS["standard"], deal=5)
    rng = random.Random(5)
    while game.turn is not None:
        game.apply_action(rng.choice(game.legal_actions()))
    result = game.history[0]
    for value in (result, result.tricks[0], result.score.sides[0]):
        cls = type(value)
        names = [f.name for f in dataclasses.fields(cls)]
        fields = [getattr(value, n) for n in names]
        assert cls(*fields) == value == cls(**dict(zip(names, fields, strict=True)))
        assert hash(cls(*fields)) == hash(value) and repr(cls(*fields)) == repr(value)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, names[0], fields[0])


def test_bid_stays_interpreted_to_keep_its_errors() -> None:
    # spades.scoring is compiled; Bid, built from what people send, lives in a module that is not.
    assert str(spades.bid.__file__).endswith(".py")
    with pytest.raises(SpadesError, match="not 'x'"):
        spades.bid.Bid("x")  # type: ignore[arg-type]
