"""The host's conversation as a pure state machine: handshake, replay, gaps, duplicates."""

from __future__ import annotations

from collections import Counter

import pytest

from firmware_bridge.errors import IncompatibleProtocolError
from firmware_bridge.messages import (
    CellChange,
    Change,
    Heartbeat,
    Hello,
    HelloRequest,
    ReplayRequest,
    Snapshot,
    SnapshotReason,
    SnapshotRequest,
)
from firmware_bridge.sync import BoardSync
from hardware.board.geometry import cells_from_board

START = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)
CELLS = cells_from_board(START)


def _hello(boot: int = 7, event: int = 0, major: int = 1) -> Hello:
    return Hello(major, 0, 0b1111, boot, event, 500, 64, (5,) * 28, "tabula-fw 1.0")


def _live(counters: Counter[str]) -> BoardSync:
    sync = BoardSync(counters)
    assert sync.start(0.0) == [HelloRequest()]
    assert sync.receive(_hello(), 0.0) == [SnapshotRequest()]
    sync.receive(Snapshot(0, SnapshotReason.REQUESTED, CELLS), 0.0)
    assert sync.synced and sync.event == 0
    return sync


def _change(event: int) -> Change:
    before = CELLS[23]
    return Change(event, 0, (CellChange(23, before, (1, 0)), CellChange(19, (0, 0), (1, 0))))


def test_changes_apply_once_and_gaps_ask_for_a_replay() -> None:
    counters: Counter[str] = Counter()
    sync = _live(counters)
    assert sync.receive(_change(1), 1.0) == []
    assert sync.cells is not None and sync.cells[19] == (1, 0) and sync.event == 1
    assert sync.receive(_change(1), 1.1) == []  # the same event again: ignored
    assert counters["duplicates_ignored"] == 1 and counters["changes_applied"] == 1
    assert sync.receive(Heartbeat(3, 7, 0, 0), 1.2) == [ReplayRequest(1)]
    assert sync.receive(Heartbeat(3, 7, 0, 0), 1.3) == []  # already asked
    assert sync.due(2.0) == [ReplayRequest(1)]  # the answer got lost: ask again
    assert counters["gaps"] == 1 and counters["retries"] == 1


def test_reconnect_to_the_same_boot_replays_and_to_a_new_boot_snapshots() -> None:
    counters: Counter[str] = Counter()
    sync = _live(counters)
    sync.receive(_change(1), 1.0)
    sync.start(2.0)
    assert not sync.synced
    assert sync.receive(Snapshot(0, SnapshotReason.CHANGE, CELLS), 2.0) == []  # before HELLO
    assert counters["ignored_before_hello"] == 1
    assert sync.receive(_hello(event=2), 2.0) == [ReplayRequest(1)]
    sync.start(3.0)
    assert sync.receive(_hello(boot=8), 3.0) == [SnapshotRequest()]
    assert counters["board_reboots"] == 1 and sync.event is None


def test_an_incompatible_board_is_refused_with_both_versions() -> None:
    sync = BoardSync(Counter())
    sync.start(0.0)
    with pytest.raises(
        IncompatibleProtocolError,
        match=r"board 'tabula-fw 1.0' speaks protocol 2.0; this host speaks 1.1",
    ):
        sync.receive(_hello(major=2), 0.0)


def test_a_change_that_does_not_fit_asks_for_a_snapshot() -> None:
    counters: Counter[str] = Counter()
    sync = _live(counters)
    wrong = Change(1, 0, (CellChange(23, (9, 0), (1, 0)),))
    assert sync.receive(wrong, 1.0) == [SnapshotRequest()]
    assert counters["change_mismatches"] == 1 and sync.event == 0


def test_every_counter_the_conversation_keeps_is_a_public_counter() -> None:
    from dataclasses import fields

    from firmware_bridge import Counters
    from firmware_bridge.messages import Ack, ErrorCode, ErrorReport

    counters: Counter[str] = Counter()
    sync = _live(counters)
    sync.receive(_change(1), 1.0)
    sync.receive(_change(1), 1.0)
    sync.receive(Heartbeat(5, 7, 0, 0), 1.0)
    sync.due(9.0)
    sync.receive(ErrorReport(ErrorCode.REPLAY_UNAVAILABLE, None, None, 3), 9.0)
    sync.receive(Ack(0x84, 1), 9.0)
    sync.receive(Snapshot(0, SnapshotReason.CHANGE, CELLS), 9.0)
    sync.receive(Change(9, 0, (CellChange(0, (5, 5), (0, 0)),)), 9.0)
    sync.receive(Heartbeat(1, 8, 0, 0), 9.0)
    sync.receive(Snapshot(1, SnapshotReason.CHANGE, CELLS), 9.0)
    assert len(counters) >= 10
    assert set(counters) <= {field.name for field in fields(Counters)}
