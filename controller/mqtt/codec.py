"""Tabula's MQTT topics and payloads, as pure functions (documented in ``TOPICS.md``).

Why pure: the publisher on each board and the hub must agree byte for byte, and the
agreement is tested without a broker. A board ``<id>`` under the prefix ``tabula`` has:

* ``tabula/<id>/status`` — the latest :class:`~controller.status.BoardStatus`, retained;
* ``tabula/<id>/events`` — every :class:`~controller.status.BoardEvent`, QoS 1, in order;
* ``tabula/<id>/online`` — ``online`` or ``offline`` (the last will), retained;
* ``tabula/<id>/heartbeat`` — ``{"version", "board_id", "keepalive", "time"}`` every half
  keep-alive (QoS 0, not retained): a hub that hears nothing from a board for its
  keep-alive shows it offline, without waiting for the broker's last will.

>>> from controller.status import BoardEvent
>>> event = BoardEvent("hall-7", 3, "rolled", {"player": 0, "dice": [5, 2]})
>>> decode_event(encode_event(event)) == event
True
>>> parse_topic("tabula/hall-7/events")
('hall-7', 'events')
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any, Final, Literal

from controller.mqtt.errors import PayloadError, TopicError
from controller.record import event_kind, event_to_dict
from controller.record.journal import JournalEntry
from controller.status import STATUS_VERSION, ActionError, BoardEvent, BoardStatus
from hardware.board import json_types
from hardware.board.ids import ID_RULE, is_id

__all__ = [
    "KINDS",
    "OFFLINE",
    "ONLINE",
    "Kind",
    "decode_event",
    "decode_heartbeat",
    "decode_online",
    "decode_status",
    "encode_event",
    "encode_heartbeat",
    "encode_status",
    "journal_events",
    "parse_topic",
    "subscriptions",
    "topic",
]

Kind = Literal["status", "events", "online", "heartbeat"]
KINDS: Final[tuple[Kind, ...]] = ("status", "events", "online", "heartbeat")
ONLINE: Final = b"online"
OFFLINE: Final = b"offline"


_YEAR_10000: Final = 253_402_300_800
"""The first second of the year 10000: an event's time is a date in a file's name (the hub's
archive), which a time past it (1e20, as any client of the broker may send) made raise."""


def _check_word(value: str, what: str) -> str:
    if not is_id(value):
        raise TopicError(f"a {what} is {ID_RULE}, got {value!r}")
    return value


def topic(board_id: str, kind: Kind, prefix: str = "tabula") -> str:
    """The topic of ``board_id``'s ``kind`` of message: ``tabula/<board-id>/<kind>``.

    Raises:
        TopicError: for a board id or prefix that cannot be one topic level, or an
            unknown kind.
    """
    if kind not in KINDS:
        raise TopicError(f"unknown kind {kind!r}: {', '.join(KINDS)}")
    return f"{_check_word(prefix, 'topic prefix')}/{_check_word(board_id, 'board id')}/{kind}"


def subscriptions(prefix: str = "tabula") -> tuple[str, ...]:
    """The topic filters of a subscriber to every board under ``prefix``."""
    _check_word(prefix, "topic prefix")
    return tuple(f"{prefix}/+/{kind}" for kind in KINDS)


def parse_topic(text: str, prefix: str = "tabula") -> tuple[str, Kind]:
    """The board id and kind of a topic.

    Raises:
        TopicError: for a topic outside ``prefix`` or of an unknown shape.
    """
    parts = text.split("/")
    if len(parts) != 3 or parts[0] != prefix or not is_id(parts[1]) or parts[2] not in KINDS:
        raise TopicError(f"not a topic {prefix}/<board-id>/{'|'.join(KINDS)}: {text!r}")
    kind: Kind = parts[2]
    return parts[1], kind


def _dumps(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), allow_nan=False).encode()


MAX_PAYLOAD: Final = 256 * 1024
"""The largest payload read: a status is some 4 KB, an event under 300 bytes. A client of a
hall's broker may publish 256 MB; decoding it held the hub's loop for seconds."""


def _loads(payload: bytes, what: str) -> dict[str, Any]:
    if len(payload) > MAX_PAYLOAD:
        raise PayloadError(
            f"{what} payload of {len(payload):,} bytes: at most {MAX_PAYLOAD:,}: {payload[:40]!r}"
        )
    try:
        data = json_types.loads(payload)  # any board may publish [[[[...
    except ValueError as error:
        raise PayloadError(f"{what} payload is not JSON ({error}): {payload[:80]!r}") from None
    if not isinstance(data, dict):
        raise PayloadError(f"{what} payload is not a JSON object: {payload[:80]!r}")
    if data.get("version") != STATUS_VERSION:
        raise PayloadError(
            f"{what} payload version {data.get('version')!r}: this hub reads {STATUS_VERSION}"
        )
    return data


def encode_status(status: BoardStatus) -> bytes:
    """The payload of a status message (compact JSON with ``version``)."""
    return _dumps(status.to_json())


def decode_status(payload: bytes) -> BoardStatus:
    """The status a payload carries.

    Raises:
        PayloadError: for a payload that is not a status of this version.
    """
    try:
        return BoardStatus.from_json(_loads(payload, "status"))
    except ActionError as error:
        raise PayloadError(f"status payload: {error}") from None


def encode_event(event: BoardEvent) -> bytes:
    """The payload of an event message (compact JSON with ``version``)."""
    return _dumps(event.to_json())


def decode_event(payload: bytes) -> BoardEvent:
    """The event a payload carries.

    Raises:
        PayloadError: for a payload that is not an event of this version.
    """
    data = _loads(payload, "event")
    board_id: Any = data.get("board_id")
    seq: Any = data.get("seq")
    kind: Any = data.get("kind")
    body: Any = data.get("data", {})
    when: Any = data.get("time", 0.0)
    problems = []
    if not is_id(board_id):
        problems.append(f"board_id {board_id!r}")
    if type(seq) is not int or seq < 1:
        problems.append(f"seq {seq!r} (an integer >= 1)")
    if not isinstance(kind, str) or not kind:
        problems.append(f"kind {kind!r}")
    if not isinstance(body, dict):
        problems.append(f"data {body!r} (an object)")
    if not isinstance(when, int | float) or isinstance(when, bool) or not 0 <= when < _YEAR_10000:
        problems.append(f"time {when!r} (seconds since 1970, before the year 10000)")
    if problems:
        raise PayloadError(f"event payload: bad {', '.join(problems)}: {payload[:120]!r}")
    return BoardEvent(board_id, seq, kind, body, float(when))


def journal_events(board_id: str, entries: Iterable[JournalEntry]) -> list[BoardEvent]:
    """The board events of journal entries, numbered as the service numbers them.

    Why: the service publishes only what happens while it runs; a publisher starting on a
    journal publishes the journal first (the hub takes once what it already has), so that
    the hub can rebuild the whole match from its ``match_started`` on.
    """
    events = []
    for entry in entries:
        kind, data = event_kind(entry.event), event_to_dict(entry.event)
        events.append(BoardEvent(board_id, entry.seq, kind, data, entry.at))
    return events


def encode_heartbeat(board_id: str, keepalive: float, when: float) -> bytes:
    """The payload of a heartbeat: the board is alive, and says within what it will speak."""
    return _dumps(
        {"version": STATUS_VERSION, "board_id": board_id, "keepalive": keepalive, "time": when}
    )


def decode_heartbeat(payload: bytes) -> tuple[str, float]:
    """The board id and keep-alive (seconds) of a heartbeat.

    Raises:
        PayloadError: for a payload that is not a heartbeat of this version.
    """
    data = _loads(payload, "heartbeat")
    board_id: Any = data.get("board_id")
    keepalive: Any = data.get("keepalive")
    if (
        not is_id(board_id)
        or not isinstance(keepalive, int | float)
        or isinstance(keepalive, bool)
        or not math.isfinite(keepalive)
        or keepalive <= 0
    ):
        raise PayloadError(f"heartbeat payload: bad board_id or keepalive: {payload[:120]!r}")
    return board_id, float(keepalive)


def decode_online(payload: bytes) -> bool:
    """Whether an ``online`` message says the board is online.

    Raises:
        PayloadError: for anything but ``online`` or ``offline``.
    """
    if payload == ONLINE:
        return True
    if payload == OFFLINE:
        return False
    raise PayloadError(f"online payload is 'online' or 'offline', got {payload[:40]!r}")
