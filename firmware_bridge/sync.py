"""The host's side of the conversation with the board, as a pure state machine.

Why pure: handshake, replay after a reconnect, gap detection and "nothing read twice" are
the subtle part of the link; here they take messages and a time and return the messages
to send, so tests can drive them without a port. Section 4 of ``hardware/PROTOCOL.md``.
"""

from __future__ import annotations

import logging
from collections import Counter

from firmware_bridge.errors import IncompatibleProtocolError
from firmware_bridge.messages import (
    PROTOCOL_VERSION,
    Ack,
    Change,
    ErrorCode,
    ErrorReport,
    Heartbeat,
    Hello,
    HelloRequest,
    Message,
    ReplayRequest,
    Snapshot,
    SnapshotRequest,
)
from hardware.board.geometry import Cell

__all__ = ["BoardSync"]

_log = logging.getLogger(__name__)


class BoardSync:
    """Tracks the board's state (cells at an event number) across frames and reconnects.

    Call :meth:`start` on each new connection, :meth:`receive` with each message and
    :meth:`due` periodically; send what they return. :attr:`cells` is the board as last
    known, :attr:`synced` whether it is current.

    Args:
        counters: where to count what happens (shared with the link's other counters).
        retry_s: how long to wait for an answer before asking again.
    """

    def __init__(self, counters: Counter[str], *, retry_s: float = 0.5) -> None:
        self._counters = counters
        self._retry_s = retry_s
        self.hello: Hello | None = None
        self.boot_id: int | None = None
        self.event: int | None = None
        self.cells: tuple[Cell, ...] | None = None
        self.synced = False
        self._asked: Message | None = None
        self._asked_at = 0.0

    def start(self, now: float) -> list[Message]:
        """A new connection: forget the handshake (keep the state, to replay from it)."""
        self.hello = None
        self.synced = False
        return self._ask(HelloRequest(), now)

    def _ask(self, request: Message, now: float) -> list[Message]:
        self._asked = request
        self._asked_at = now
        return [request]

    def due(self, now: float) -> list[Message]:
        """The request to repeat if its answer has not come within the retry time."""
        if self._asked is not None and now - self._asked_at >= self._retry_s:
            self._counters["retries"] += 1
            return self._ask(self._asked, now)
        return []

    def receive(self, message: Message, now: float) -> list[Message]:
        """Apply one message from the board; return the messages to send back.

        Raises:
            IncompatibleProtocolError: if HELLO names a major version this host lacks.
        """
        if isinstance(message, Hello):
            return self._on_hello(message, now)
        if self.hello is None:
            # Bytes buffered before this connection's HELLO describe an older state.
            self._counters["ignored_before_hello"] += 1
            return []
        match message:
            case Snapshot():
                return self._on_snapshot(message)
            case Change():
                return self._on_change(message, now)
            case Heartbeat():
                return self._on_heartbeat(message, now)
            case ErrorReport():
                self._counters["board_errors"] += 1
                if message.code == ErrorCode.REPLAY_UNAVAILABLE:
                    self._counters["replay_unavailable"] += 1
                _log.warning("board reports %r", message)
            case Ack():
                self._counters["acks"] += 1
            case _:
                self._counters["unexpected_messages"] += 1
        return []

    def _on_hello(self, hello: Hello, now: float) -> list[Message]:
        if hello.major != PROTOCOL_VERSION[0]:
            raise IncompatibleProtocolError(
                f"board {hello.name!r} speaks protocol {hello.major}.{hello.minor}; this host "
                f"speaks {PROTOCOL_VERSION[0]}.{PROTOCOL_VERSION[1]}: update the firmware "
                "or the host so that the major versions match"
            )
        self.hello = hello
        self.synced = False
        if hello.boot_id == self.boot_id and self.event is not None and hello.has("replay"):
            self._counters["replays"] += 1
            return self._ask(ReplayRequest(self.event), now)
        if self.boot_id is not None and hello.boot_id != self.boot_id:
            self._counters["board_reboots"] += 1
        self.boot_id = hello.boot_id
        self.event = None
        return self._ask(SnapshotRequest(), now)

    def _on_snapshot(self, snapshot: Snapshot) -> list[Message]:
        if self.event is not None and snapshot.event < self.event:
            self._counters["duplicates_ignored"] += 1
            return []
        self._counters["snapshots"] += 1
        if self.cells != snapshot.cells and self.synced and snapshot.event == self.event:
            # Same event, other cells: a CHANGE was applied wrongly or a cell misread.
            self._counters["snapshot_mismatches"] += 1
        self.cells = snapshot.cells
        self.event = snapshot.event
        self.synced = True
        self._asked = None
        return []

    def _on_change(self, change: Change, now: float) -> list[Message]:
        if self.event is None or self.cells is None:
            return []
        if change.event <= self.event:
            self._counters["duplicates_ignored"] += 1
            return []
        if change.event > self.event + 1:
            return self._gap(now)
        cells = list(self.cells)
        for item in change.changes:
            if cells[item.location] != item.before:
                self._counters["change_mismatches"] += 1
                return self._ask(SnapshotRequest(), now)
            cells[item.location] = item.after
        self.cells = tuple(cells)
        self.event = change.event
        self._counters["changes_applied"] += 1
        if not self.synced:
            self._counters["events_replayed"] += 1
        return []

    def _on_heartbeat(self, beat: Heartbeat, now: float) -> list[Message]:
        if beat.boot_id != self.boot_id:
            self._counters["board_reboots"] += 1
            return self.start(now)
        if self.event is None or not self.synced:
            return []
        if beat.event > self.event:
            return self._gap(now)
        if beat.event < self.event:
            return self._ask(SnapshotRequest(), now)
        return []

    def _gap(self, now: float) -> list[Message]:
        if self._asked is not None:
            return []  # already asking; due() repeats the request if it gets lost
        self._counters["gaps"] += 1
        assert self.event is not None
        return self._ask(ReplayRequest(self.event), now)
