"""A board's presence at the hub: its last will, and its silence beyond its keep-alive."""

from __future__ import annotations

import pytest

from controller.hub import HubState
from controller.mqtt import (
    OFFLINE,
    ONLINE,
    PayloadError,
    decode_heartbeat,
    encode_event,
    encode_heartbeat,
    topic,
)
from controller.status import BoardEvent


def heartbeat(state: HubState, board: str, now: float, keepalive: float = 2.0) -> None:
    state.receive(topic(board, "heartbeat"), encode_heartbeat(board, keepalive, 0.0), now=now)


def test_a_silent_board_goes_offline_after_its_keepalive_and_comes_back() -> None:
    state = HubState()
    state.receive(topic("b1", "online"), ONLINE, now=0.0)
    heartbeat(state, "b1", 0.5)
    heartbeat(state, "b2", 0.5, keepalive=10.0)
    state.receive(topic("b2", "online"), ONLINE, now=0.5)
    assert state.expire(2.4) == []  # within 2 s of the last word
    event = BoardEvent("b1", 1, "rolled", {}, 0.0)
    state.receive(topic("b1", "events"), encode_event(event), now=1.0)
    assert state.expire(2.9) == [] and state.boards["b1"].online is True
    assert state.expire(3.1) == ["b1"]  # 2.1 s silent: gone; b2 allows 10 s
    view = state.boards["b1"]
    assert (view.online, view.silent, view.alerts()) == (False, True, ["board offline"])
    assert view.to_json()["silent"] is True and state.summary()["online"] == 1
    assert state.expire(3.5) == []  # said once
    heartbeat(state, "b1", 4.0)
    assert (view.online, view.silent) == (True, False)


def test_retained_messages_are_no_sign_of_life_and_the_will_stands() -> None:
    state = HubState()
    heartbeat(state, "b1", 0.0)
    state.receive(topic("b1", "online"), ONLINE, now=0.0)
    assert state.expire(5.0) == ["b1"]
    # On a new subscription the broker sends what it kept: old news, the board stays silent.
    state.receive(topic("b1", "online"), ONLINE, now=5.1, retained=True)
    assert state.boards["b1"].online is True  # its presence message says so...
    state.receive(topic("b1", "online"), OFFLINE, now=6.0)  # ...until its last will
    heartbeat(state, "b1", 6.5)  # a heartbeat does not undo the will: the board reconnects
    assert state.boards["b1"].online is False
    state.receive(topic("b1", "online"), ONLINE, now=7.0)
    assert state.boards["b1"].online is True


def test_heartbeat_payloads_are_checked() -> None:
    assert decode_heartbeat(encode_heartbeat("b1", 10, 1.0)) == ("b1", 10.0)
    for payload in (
        b'{"version": 1, "board_id": "b1", "keepalive": 0}',
        b'{"version": 1, "board_id": "b 1", "keepalive": 5}',
        b'{"version": 1, "board_id": "b1", "keepalive": true}',
    ):
        with pytest.raises(PayloadError, match="heartbeat payload: bad board_id or keepalive"):
            decode_heartbeat(payload)
    state = HubState()
    state.receive(topic("b2", "heartbeat"), encode_heartbeat("b1", 5, 0.0))
    assert state.rejected == 1 and "published on the topic of 'b2'" in state.last_problem
