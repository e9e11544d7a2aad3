"""The virtual board: gestures, positions reached one checker at a time, the pty link."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hardware.board.errors import LayoutError
from hardware.board.geometry import board_from_cells, cells_from_board
from hardware.pinmap import load_pinmap, slots_per_location
from hardware.simulator import FIELD, START, BoardSimulator, VirtualBoard

PINS = load_pinmap()
SLOTS = slots_per_location(PINS)
MID = PINS["hall"]["mid"]


def _board() -> tuple[VirtualBoard, list[list[int]]]:
    published: list[list[int]] = []
    board = VirtualBoard(SLOTS, MID, published.append, sleep=lambda _: None)
    board.set_cells(cells_from_board(START))
    return board, published


def test_readings_follow_the_checkers() -> None:
    board, published = _board()
    readings = published[-1]
    point_24 = sum(SLOTS[:23])
    assert readings[point_24 : point_24 + 3] == [MID + FIELD, MID + FIELD, MID]
    assert readings[0:3] == [MID - FIELD, MID - FIELD, MID]  # player 1 on point 1
    board.stack(5, 0, 2)  # seven on point 6: the fifth slot holds three
    last_slot = published[-1][5 * 5 + 4]
    assert last_slot == round(MID + FIELD * (1 + 0.6 + 0.36))


def test_a_position_is_reached_one_checker_at_a_time() -> None:
    board, published = _board()
    target = list(START)
    target[24], target[20], target[13], target[9] = 1, 1, 4, 1
    before = len(published)
    assert board.set_board(target) == 2
    assert board_from_cells(board.cells()) == tuple(target)
    assert len(published) - before == 4  # lift, place, lift, place
    bear_off = [0] * 26
    bear_off[1], bear_off[24] = -15, 15
    board.set_board(bear_off)
    board.set_board([0, -15] + [0] * 24)  # player 0 bore off everything: the tray holds 15
    assert board.cells()[26] == (15, 0)


def test_hit_and_slide() -> None:
    board, _ = _board()
    board.move(23, 19)  # a blot of player 0 on point 20
    board.hit(0, 19)  # player 1 hits it from point 1
    assert board.cells()[19] == (0, 1) and board.cells()[24] == (1, 0)
    board.slide(12, 8)
    assert board.cells()[8] == (1, 0) and board.cells()[12] == (4, 0)  # 13/9
    with pytest.raises(LayoutError, match=r"no blot to hit on location 5 from 0"):
        board.hit(0, 5)
    with pytest.raises(LayoutError, match=r"no checker of player 1 on location 2"):
        board.lift(2, 1)


def test_the_link_path_follows_replugs(tmp_path: Path) -> None:
    link = tmp_path / "tabula-board"
    with BoardSimulator(link=link) as sim:
        first = os.readlink(link)
        sim.disconnect()
        assert not link.exists()
        sim.reconnect()
        assert os.readlink(link) != first or os.path.exists(first)
        assert sim.path == str(link)
        with pytest.raises(LayoutError, match=r"slot 9 of location 0: expected 0..4"):
            sim.noise(0, 9, 100)
        with pytest.raises(LayoutError, match=r"slot 9 of location 0: expected 0..4"):
            sim.fault(0, 9, "dead")
        with pytest.raises(LayoutError, match=r"slot fault 'loose': expected one of dead, noisy"):
            sim.fault(0, 1, "loose")
    assert not link.exists()


def test_bill_of_materials_and_udev_rule_match_the_pin_map() -> None:
    import csv

    folder = Path(__file__).parents[2] / "hardware"
    with (folder / "bom.csv").open() as handle:
        rows = {row["part"]: int(row["qty"]) for row in csv.DictReader(handle)}
    assert rows["DRV5055A3QDBZR"] == sum(SLOTS) == 158
    assert rows["CD74HC4067M96"] == len(PINS["rp2040"]["mux_enable"])
    assert rows["WS2812B-2020"] == PINS["rp2040"]["led_count"] == 29
    rule = (folder / "99-tabula-board.rules").read_text()
    assert 'SYMLINK+="tabula-board"' in rule and 'ATTRS{serial}=="BOARD_SERIAL"' in rule
    assert 'ENV{ID_MM_DEVICE_IGNORE}="1"' in rule
    assert PINS["pi"]["serial_device"] == "/dev/tabula-board"
