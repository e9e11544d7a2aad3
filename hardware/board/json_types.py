"""JSON as a type: what the packages send or store as JSON (statuses, events, requests).

Why a type, not ``Any``: a payload crossing from one package to another is checked like
any other value; ``json.loads`` gives ``Any``, which its reader checks where it reads.
Nested arrays and objects are read-only views (``Sequence``, ``Mapping``), so a list of
strings or a tuple is a JSON array as it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

__all__ = ["JsonObject", "JsonValue"]

JsonValue: TypeAlias = (
    bool | int | float | str | Sequence["JsonValue"] | Mapping[str, "JsonValue"] | None
)
"""A value ``json.dumps`` writes (and, as lists and dicts, ``json.loads`` reads back)."""
JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object: a status, an event, a request's body."""
