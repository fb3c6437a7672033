"""What the settings form needs: presets, rule options, levels; and the daily deal number."""

from __future__ import annotations

import dataclasses
from datetime import date
from enum import Enum
from typing import Any

from fastapi import APIRouter, Query

from spades.bots import LEVELS
from spades.deal import daily_deal
from spades.errors import SpadesError
from spades.rules import PRESETS, Rules
from spades.server.schemas import OptionOut, PresetOut, RulesOut

router = APIRouter(prefix="/api", tags=["meta"])


def _option(f: dataclasses.Field[Any], default: Any) -> OptionOut:
    if isinstance(default, Enum):
        return OptionOut(name=f.name, kind="choice", choices=[e.value for e in type(default)],
                         default=default.value)
    if f.name == "low_mark":
        return OptionOut(name=f.name, kind="int_or_null", choices=[], default=default)
    kind = "bool" if isinstance(default, bool) else "int"
    return OptionOut(name=f.name, kind=kind, choices=[], default=default)  # type: ignore[arg-type]


@router.get("/rules")
def rules() -> RulesOut:
    """Every preset with its options, every option with its kind, and the player levels."""
    base = Rules()
    options = [_option(f, getattr(base, f.name)) for f in dataclasses.fields(Rules) if f.name != "name"]
    return RulesOut(
        presets=[PresetOut(name=name, options=r.to_dict()) for name, r in PRESETS.items()],
        options=options, levels=list(LEVELS),
    )


@router.get("/daily")
def daily(day: str = Query(pattern=r"^\d{4}-\d{2}-\d{2}$", description="YYYY-MM-DD")) -> int:
    """The daily deal number of a date: the same on every install."""
    try:
        return daily_deal(date.fromisoformat(day))
    except ValueError:
        raise SpadesError(f"{day!r} is not a date.") from None
