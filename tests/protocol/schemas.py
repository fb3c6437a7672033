"""The protocol's JSON Schemas as validators, and one check of any message against its type's schema."""

import json
from typing import Any

import jsonschema

from spades.protocol.messages import MESSAGE_TYPES, schema_of

VALIDATORS = {t: jsonschema.Draft202012Validator(schema_of(t)) for t in MESSAGE_TYPES}
FINISHED = jsonschema.Draft202012Validator({"$defs": schema_of("decide")["$defs"],
                                            "$ref": "#/$defs/finished"})
"""A finished hand of a view's history."""
_CHECKED: set[str] = set()


def check(message: dict[str, Any]) -> None:
    """The message is valid under its type's schema. A view's finished hands are checked once each (every
    later view of the game repeats them, and the validator is slow on long histories)."""
    if message.get("type") == "decide" and isinstance(message.get("view"), dict):
        for finished in message["view"].get("history", []):
            key = json.dumps(finished, sort_keys=True)
            if key not in _CHECKED:
                FINISHED.validate(finished)
                _CHECKED.add(key)
        message = message | {"view": message["view"] | {"history": []}}
    VALIDATORS[str(message["type"])].validate(message)
