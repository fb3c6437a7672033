"""What the settings form needs: presets, rule options, levels; and the daily deal number."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Query, Request

from spades.bots import LEVELS
from spades.deal import daily_deal
from spades.errors import SpadesError
from spades.paper.scorekeeper import table_text
from spades.rules import OPTIONS, PRESETS, RULE_GROUPS, RuleOption, Rules
from spades.server.schemas import DateText, GroupOut, OptionOut, PresetOut, RulesOut, TableOut, errors

router = APIRouter(prefix="/api", tags=["meta"], responses=errors(429))


def _option(o: RuleOption) -> OptionOut:
    """One option's description as the forms read it."""
    return OptionOut(name=o.name, label=o.label, help=o.help, group=o.group, kind=o.kind,
                     choices=[value for value, _ in o.choices], choice_labels=dict(o.choices),
                     default=o.default, min=o.low, max=o.high)


def _table(r: Rules) -> TableOut:
    """A rule set's table, worked out by the rules (the forms show it and guess nothing)."""
    return TableOut(seats=r.players, partners=r.has_partners, sides=r.sides, cards_each=r.hand_size,
                    text=table_text(r))


@router.get("/rules")
def rules(request: Request) -> RulesOut:
    """The presets (each with its table), the option groups, every option described (label, help, choices,
    bounds), the levels and the outside bots offered at friends' tables."""
    return RulesOut(
        presets=[PresetOut(name=name, options=r.to_dict(), table=_table(r)) for name, r in PRESETS.items()],
        groups=[GroupOut(name=key, label=label) for key, label in RULE_GROUPS],
        options=[_option(o) for o in OPTIONS], levels=list(LEVELS), bots=request.app.state.roster.bots(),
    )


@router.get("/daily", responses=errors(400, 422))
def daily(day: Annotated[DateText, Query(description="the day, YYYY-MM-DD")]) -> int:
    """The daily deal number of a date: the same on every install."""
    try:
        return daily_deal(date.fromisoformat(day))
    except ValueError:
        raise SpadesError(f"{day!r} is not a date.") from None
