"""The events' versioned JSON form: the journal's rows and the saved match's lines.

The JSON form is one object per event, ``{"v": 1, "type": "played", ...}``: the journal
stores it, and a saved match is these objects one per line. ``v`` is
:data:`FORMAT_VERSION`; a reader refuses a version it does not know rather than guess.

>>> from controller.match.events import Played
>>> from controller.rules import START
>>> event = Played(0, (3, 1), "8/5 6/5", START)
>>> event_from_json(event_to_json(event)) == event
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import fields
from typing import Any, Final

from controller.match.errors import InvalidEventError
from controller.match.events import (
    Beavered,
    Declined,
    DiceCorrected,
    Doubled,
    Dropped,
    Event,
    Flagged,
    GameAbandoned,
    GameEnded,
    IllegalPlayAccepted,
    MatchStarted,
    Observed,
    OpeningRolled,
    OrientationConfirmed,
    Played,
    PositionEdited,
    ResignAccepted,
    Resigned,
    ResignRefused,
    Rolled,
    Taken,
)
from controller.rules import Rules, WinKind
from controller.rules.errors import RulesError
from hardware.board import json_types
from hardware.board.errors import clipped_repr
from hardware.board.frozen import Unchecked
from hardware.board.json_types import JsonObject

__all__ = [
    "FORMAT_VERSION",
    "event_from_dict",
    "event_from_json",
    "event_kind",
    "event_to_dict",
    "event_to_json",
    "events_from_json",
]

FORMAT_VERSION: Final = 1
"""Version of the events' JSON form."""

_TYPES: Final[dict[str, type[Event]]] = {
    "match_started": MatchStarted,
    "opening_rolled": OpeningRolled,
    "rolled": Rolled,
    "played": Played,
    "illegal_play_accepted": IllegalPlayAccepted,
    "observed": Observed,
    "flagged": Flagged,
    "position_edited": PositionEdited,
    "declined": Declined,
    "doubled": Doubled,
    "taken": Taken,
    "dropped": Dropped,
    "beavered": Beavered,
    "game_ended": GameEnded,
    "dice_corrected": DiceCorrected,
    "game_abandoned": GameAbandoned,
    "orientation_confirmed": OrientationConfirmed,
    "resigned": Resigned,
    "resign_accepted": ResignAccepted,
    "resign_refused": ResignRefused,
}
_NAMES: Final = {cls: name for name, cls in _TYPES.items()}
_FIELDS: Final = {cls: tuple(field.name for field in fields(cls)) for cls in _TYPES.values()}
"""Each event type's field names, read once: resuming parses every event of the journal."""
_KEYS: Final = {cls: frozenset({"v", "type", *names}) for cls, names in _FIELDS.items()}
"""The keys each event type's JSON object may have."""
_RULES_FIELDS: Final = tuple(field.name for field in fields(Rules))
_UNCHECKED: Final[dict[type[Event], Unchecked[Event]]] = {
    cls: Unchecked(cls) for cls in _TYPES.values()
}
"""Each event type made without its checks, for a vouched row."""


def event_kind(event: Event) -> str:
    """The journal's name of ``event``'s type (``played``): its JSON ``type``."""
    return _NAMES[type(event)]


def event_to_dict(event: Event) -> JsonObject:
    """The JSON object of ``event``: ``v``, ``type``, then its fields as JSON values."""
    data: JsonObject = {"v": FORMAT_VERSION, "type": event_kind(event)}
    for field in fields(event):
        value = getattr(event, field.name)
        if isinstance(value, Rules):
            value = {name: getattr(value, name) for name in _RULES_FIELDS}
        elif isinstance(value, WinKind):
            value = value.name.lower()
        elif isinstance(value, tuple):
            value = list(value)
        elif field.name == "variant" and value == "backgammon":
            continue  # as records were written before variants: they read the same
        elif field.name == "resigned" and value is False:
            continue  # as games ended before resignations: they read the same
        data[field.name] = value
    return data


def event_from_dict(data: object, *, vouched: bool = False) -> Event:
    """The event a JSON object describes.

    ``vouched``: ``data`` is as :func:`event_to_dict` wrote it from an event, checked when
    it was made (a journal row whose checksum holds), so the event is built without
    checking its fields again; its version, type and fields are still read as ever.

    Raises:
        InvalidEventError: naming the object and what is wrong with it (an unknown version
            or type, a missing or extra field, a value out of range).
    """

    def fail(reason: str) -> InvalidEventError:
        return InvalidEventError(f"invalid event {data!r}: {reason}")

    if not isinstance(data, dict):
        raise fail("an event is a JSON object")
    if data.get("v") != FORMAT_VERSION:
        raise fail(f"unknown format version {data.get('v')!r}, this reader knows {FORMAT_VERSION}")
    kind = data.get("type")
    cls = _TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise fail(f"unknown type {kind!r}; known: {', '.join(_TYPES)}")
    names = _FIELDS[cls]
    unexpected = data.keys() - _KEYS[cls]
    if unexpected:
        raise fail(f"unexpected fields {sorted(unexpected)}")
    values: dict[str, Any] = {}
    for name in names:
        if name not in data:
            if name in ("reason", "kind", "dropped", "variant", "resigned"):
                continue  # fields with a default may be left out
            raise fail(f"missing field {name!r}")
        value = data[name]
        if name == "rules":
            if not isinstance(value, dict) or set(value) - set(_RULES_FIELDS):
                raise fail(f"rules are an object with fields {list(_RULES_FIELDS)}")
            try:
                value = Rules(**value)
            except (RulesError, TypeError) as error:
                raise fail(str(error)) from None
        elif name == "kind":
            if not isinstance(value, str) or value.upper() not in WinKind.__members__:
                raise fail(f"kind is single, gammon or backgammon, got {value!r}")
            value = WinKind[value.upper()]
        elif isinstance(value, list):
            value = tuple(value)
        values[name] = value
    if vouched:
        return _UNCHECKED[cls].make(values)
    try:
        return cls(**values)
    except InvalidEventError as error:
        raise fail(str(error)) from None


def events_from_json(texts: Sequence[str], *, vouched: bool = False) -> Iterator[Event]:
    """The events of ``texts``, each one line of JSON, in order.

    Vouched texts are each one JSON object as :func:`event_to_json` wrote it, so they are
    read as one JSON array, in one call (one call a text was a sixth of a long journal's
    resume); should that fail, each is read alone, which says what is wrong with it.

    Raises:
        InvalidEventError: as :func:`event_from_json` for the first text that is no event
            (the events before it were given).
    """
    if vouched:
        try:
            array = json_types.loads(f"[{','.join(texts)}]")
        except ValueError:
            array = None
        if isinstance(array, list) and len(array) == len(texts):
            for data in array:
                yield event_from_dict(data, vouched=True)
            return
    for text in texts:
        yield event_from_json(text, vouched=vouched)


def event_to_json(event: Event) -> str:
    """``event`` as one line of compact JSON."""
    return json.dumps(event_to_dict(event), separators=(",", ":"), ensure_ascii=False)


def event_from_json(text: str, *, vouched: bool = False) -> Event:
    """The event of one line of JSON (``vouched``: :func:`event_from_dict`'s).

    Raises:
        InvalidEventError: for text that is not JSON or not an event, naming it.
    """
    try:
        data = json_types.loads(text)
    except (ValueError, TypeError) as error:
        raise InvalidEventError(f"invalid event {clipped_repr(text)}: not JSON ({error})") from None
    return event_from_dict(data, vouched=vouched)
