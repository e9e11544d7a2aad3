"""JSON as a type: what the packages send or store as JSON (statuses, events, requests).

Why a type, not ``Any``: a payload crossing from one package to another is checked like
any other value; ``json.loads`` gives ``Any``, which its reader checks where it reads.
Nested arrays and objects are read-only views (``Sequence``, ``Mapping``), so a list of
strings or a tuple is a JSON array as it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TypeAlias, TypeGuard

__all__ = ["JsonObject", "JsonValue", "is_integer", "loads"]

JsonValue: TypeAlias = (
    bool | int | float | str | Sequence["JsonValue"] | Mapping[str, "JsonValue"] | None
)
"""A value ``json.dumps`` writes (and, as lists and dicts, ``json.loads`` reads back)."""
JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object: a status, an event, a request's body."""


def loads(text: str | bytes) -> JsonValue:
    """The value of JSON ``text`` from outside: a batch's line, a board's message, a file.

    Why not ``json.loads`` alone: its decoder recurses, so a line of ``[[[[...`` raises
    ``RecursionError``, which no reader of bad input expects, and one such line stopped a
    whole batch. Here every text that is not JSON raises the same ``ValueError``.

    Raises:
        ValueError: naming what is wrong: the decoder's reason and where
            (``json.JSONDecodeError``), bytes that are not UTF-8, an integer of more than
            4,300 digits, or arrays and objects nested deeper than the decoder follows.
    """
    try:
        value: JsonValue = json.loads(text)
    except RecursionError:
        raise ValueError("arrays or objects nested deeper than the JSON decoder follows") from None
    return value


def is_integer(value: object) -> TypeGuard[int]:
    """Whether ``value`` is an integer, as a count, a pin or a player read from JSON, TOML
    or a caller must be: ``True`` is an ``int`` in Python, and no count."""
    return isinstance(value, int) and not isinstance(value, bool)
