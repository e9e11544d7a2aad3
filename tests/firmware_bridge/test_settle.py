"""Settling with an injected clock: a sliding hand is not a move, nothing is read twice."""

from __future__ import annotations

import pytest

from firmware_bridge.settle import Settler
from hardware.board.errors import LayoutError
from hardware.board.geometry import cells_from_board

START = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)


def _moved(source: int, destination: int) -> tuple[int, ...]:
    board = list(START)
    board[source] -= 1
    board[destination] += 1
    return tuple(board)


def test_a_slide_over_several_points_is_one_observation() -> None:
    settler = Settler(0.3)
    now = 0.0
    settler.update(cells_from_board(START), 1, now)
    first = settler.poll(0.3)
    assert first is not None and first.board == START
    # The hand slides a checker from 13 over 12..10 to 9, resting 0.1 s on each point.
    for event, destination in enumerate((12, 11, 10), 2):
        now += 0.1
        settler.update(cells_from_board(_moved(13, destination)), event, now)
        assert settler.poll(now + 0.29) is None
    now += 0.1
    settler.update(cells_from_board(_moved(13, 9)), 5, now)
    assert settler.poll(now + 0.299) is None
    assert settler.deadline() == pytest.approx(now + 0.3)
    observed = settler.poll(now + 0.3)
    assert observed is not None and observed.board == _moved(13, 9) and observed.event == 5
    assert settler.poll(now + 5) is None  # emitted once


def test_a_state_that_comes_back_is_not_read_twice() -> None:
    settler = Settler(0.1)
    settler.update(cells_from_board(START), 1, 0.0)
    assert settler.poll(0.1) is not None
    settler.update(cells_from_board(_moved(24, 20)), 2, 1.0)  # lifted, put back quickly
    settler.update(cells_from_board(START), 3, 1.05)
    assert settler.poll(2.0) is None
    settler.interrupt()  # reconnect: the same position arrives again
    settler.update(cells_from_board(START), 3, 3.0)
    assert settler.deadline() is None and settler.poll(4.0) is None


def test_negative_settle_time_is_refused() -> None:
    with pytest.raises(LayoutError, match=r"settle time -1: must be >= 0 seconds"):
        Settler(-1)
