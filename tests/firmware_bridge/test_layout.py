"""The 28 locations <-> 26 integers, and what makes an observation inconsistent."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.layout import decode_cell, encode_cell, observe
from hardware.board.errors import LayoutError
from hardware.board.geometry import BARS, TRAYS, board_from_cells, cells_from_board, location_name

BAR_0, BAR_1 = BARS
TRAY_0, TRAY_1 = TRAYS

START = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)


@st.composite
def boards(draw: st.DrawFn) -> list[int]:
    """Legal-looking positions: each side's checkers spread over points, bar and tray."""
    board = [0] * 26
    owner = [0] * 26
    for player, sign, bar in ((0, 1, 25), (1, -1, 0)):
        for _ in range(draw(st.integers(0, 15))):
            spot = draw(st.sampled_from([*range(1, 25), bar]))
            if owner[spot] in (0, sign) and (spot != bar or player == (0 if bar == 25 else 1)):
                owner[spot] = sign
                board[spot] += sign
    return board


@given(boards())
def test_board_round_trips_through_cells(board: list[int]) -> None:
    cells = cells_from_board(board)
    assert board_from_cells(cells) == tuple(board)
    observation = observe(cells)
    assert not observation.inconsistent, observation.problems
    assert sum(c[0] for c in cells if c) == 15 and sum(c[1] for c in cells if c) == 15


def test_start_position_cells() -> None:
    cells = cells_from_board(START)
    assert cells[23] == (2, 0) and cells[0] == (0, 2) and cells[5] == (5, 0)
    assert cells[TRAY_0] == (0, 0) and cells[TRAY_1] == (0, 0)


@given(st.integers(0, 254))
def test_cell_bytes_round_trip(byte: int) -> None:
    cell = decode_cell(byte)
    assert cell is not None and encode_cell(cell) == byte
    assert decode_cell(0xFF) is None and encode_cell(None) == 0xFF


def test_inconsistencies_are_named() -> None:
    cells = list(cells_from_board(START))
    cells[5] = (5, 1)  # a hit in progress on point 6: one checker of player 1 too many
    cells[TRAY_1] = None
    observation = observe(cells)
    assert observation.inconsistent
    assert observation.mixed == frozenset({5}) and observation.unknown == frozenset({TRAY_1})
    assert observation.problems == ("tray of player 1 unknown", "both colours on point 6")
    cells[TRAY_1] = (0, 0)
    cells[5] = (5, 0)
    cells[BAR_1] = (0, 1)
    assert observe(cells).problems == ("16 checkers of player 1, expected 15",)


def test_a_checker_on_the_other_bar_half_counts_for_its_colour() -> None:
    cells = list(cells_from_board(START))
    cells[23] = (1, 0)
    cells[BAR_1] = (1, 0)
    assert board_from_cells(cells)[25] == 1
    assert not observe(cells).inconsistent
    assert location_name(BAR_0) == "bar of player 0"


def test_bad_boards_are_refused_by_name() -> None:
    with pytest.raises(LayoutError, match=r"board \[1, 2\]: expected 26 integers"):
        cells_from_board([1, 2])
    with pytest.raises(LayoutError, match=r"16 checkers for player 0 and 0 for player 1"):
        cells_from_board([0, 16] + [0] * 24)
    with pytest.raises(LayoutError, match=r"board\[0\] \(player 1's bar\) must be <= 0"):
        cells_from_board([1] + [0] * 25)
    with pytest.raises(LayoutError, match=r"location 28: expected 0..27"):
        location_name(28)
