"""Topics and payloads: round trips and the errors a hub gets for what is not Tabula's."""

from __future__ import annotations

import asyncio
import re

import pytest

from controller.mqtt import (
    MAX_PAYLOAD,
    Outbox,
    PayloadError,
    TopicError,
    decode_event,
    decode_online,
    decode_status,
    encode_event,
    encode_status,
    parse_topic,
    subscriptions,
    topic,
)
from controller.simulated.board_service import SelfPlayBoard
from controller.status import BoardEvent


def test_a_played_status_round_trips() -> None:
    async def played() -> SelfPlayBoard:
        board = SelfPlayBoard("hall-3", seed=2)
        for _ in range(25):
            await board.step()
        board.close()
        return board

    status = asyncio.run(played()).status()
    assert decode_status(encode_status(status)) == status
    assert topic("hall-3", "status") == "tabula/hall-3/status"
    assert parse_topic("club/hall-3/online", "club") == ("hall-3", "online")
    assert subscriptions() == (
        "tabula/+/status",
        "tabula/+/events",
        "tabula/+/online",
        "tabula/+/heartbeat",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "tabula/hall-3/log",
            "not a topic tabula/<board-id>/status|events|online|heartbeat: 'tabula/hall-3/log'",
        ),
        ("other/hall-3/status", "not a topic"),
        ("tabula/a/b/status", "not a topic"),
    ],
)
def test_foreign_topics_are_refused(text: str, message: str) -> None:
    with pytest.raises(TopicError, match="^" + message.replace("|", r"\|").replace("+", r"\+")):
        parse_topic(text)


def test_a_board_id_must_be_one_topic_level() -> None:
    with pytest.raises(TopicError, match=r"a board id is 1 to 64 .*got 'a/b'"):
        topic("a/b", "events")


@pytest.mark.parametrize("name", [".", "..", ".hidden", "-x", "_"])
def test_a_board_id_begins_with_a_letter_or_a_digit(name: str) -> None:
    """The hub makes a folder of a board's id: ".." was the archive folder's parent."""
    with pytest.raises(TopicError, match=r"the first a letter or a digit, got '"):
        topic(name, "events")
    with pytest.raises(TopicError, match="not a topic"):
        parse_topic(f"tabula/{name}/events")


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"{", "event payload is not JSON"),
        (b"[1]", "event payload is not a JSON object"),
        (b'{"version": 2}', "event payload version 2: this hub reads 1"),
        (
            b'{"version": 1, "board_id": "b", "seq": 0, "kind": "x", "data": {}, "time": 0}',
            "event payload: bad seq 0",
        ),
        (
            b'{"version": 1, "board_id": "b", "seq": 1, "kind": "", "data": [], "time": 0}',
            "event payload: bad kind '', data []",
        ),
        (
            b'{"version": 1, "board_id": "b", "seq": 1, "kind": "x", "data": {"n": "'
            + b"x" * MAX_PAYLOAD
            + b'"}, "time": 0}',
            "event payload of 262,228 bytes: at most 262,144: "
            + repr(b'{"version": 1, "board_id": "b", "seq": 1'),
        ),
        (
            b'{"version": 1, "board_id": "b", "seq": 1, "kind": "x", "data": {}, "time": 1e20}',
            "event payload: bad time 1e+20 (seconds since 1970, before the year 10000)",
        ),
        (
            b'{"version": 1, "board_id": "b", "seq": 1, "kind": "x", "data": {}, "time": -1}',
            "event payload: bad time -1 (seconds since 1970, before the year 10000)",
        ),
    ],
)
def test_bad_event_payloads_are_refused(payload: bytes, message: str) -> None:
    with pytest.raises(PayloadError, match="^" + re.escape(message)):
        decode_event(payload)


def test_status_and_presence_payloads() -> None:
    with pytest.raises(PayloadError, match=r"status payload: bad status: .*'colour'"):
        decode_status(b'{"version": 1, "board_id": "b", "seq": 1, "colour": 3}')
    assert decode_online(b"offline") is False
    with pytest.raises(PayloadError, match="online payload is 'online' or 'offline', got b'gone'"):
        decode_online(b"gone")
    event = BoardEvent("b", 4, "played", {"v": 1}, 12.5)
    assert decode_event(encode_event(event)) == event


def test_the_outbox_drops_the_oldest_and_counts() -> None:
    box = Outbox(3)
    for seq in range(1, 6):
        box.put(BoardEvent("b", seq, "rolled"))
    batch = box.peek(2)
    assert [e.seq for e in batch] == [3, 4] and box.dropped == 2
    box.put(BoardEvent("b", 6, "rolled"))  # drops 3 while 3 and 4 are in flight
    box.done(batch)
    assert [e.seq for e in box.peek(9)] == [5, 6]
    with pytest.raises(ValueError, match="at least 1 event, got capacity 0"):
        Outbox(0)


def test_a_backlog_goes_before_the_queued_events_and_overlaps_once() -> None:
    box = Outbox(5)
    for seq in (4, 5):
        box.put(BoardEvent("b", seq, "rolled"))
    box.put_before([BoardEvent("b", seq, "rolled") for seq in (1, 2, 3, 4)])
    assert [e.seq for e in box.peek(9)] == [1, 2, 3, 4, 5]
    box.put_before([BoardEvent("b", seq, "rolled") for seq in (-1, 0)])
    assert [e.seq for e in box.peek(9)] == [1, 2, 3, 4, 5] and box.dropped == 2  # the oldest
