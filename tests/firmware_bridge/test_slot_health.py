"""The slot-health classifier on made-up raw sets: each verdict, its reason, its limits."""

from __future__ import annotations

import pytest

from firmware_bridge import (
    Health,
    RawSet,
    RawSetError,
    classify_slots,
    describe_slot,
    parse_slot,
)
from firmware_bridge.messages import HallThresholds, SlotClass
from hardware.board.errors import LayoutError
from hardware.board.geometry import cells_from_board
from hardware.simulator import START

LAYOUT = (5,) * 24 + (4, 4, 15, 15)
HALL = HallThresholds(32768, 4000, 2500, 11500, 10000, 1000, 64535)
QUIET = 32768
A_CHECKER = QUIET + 9000


def _sets(*columns: tuple[int, int, list[int]], base: int = QUIET) -> list[RawSet]:
    """Raw sets where slot (location, slot) reads the given readings, one per set."""
    count = len(columns[0][2])
    offsets = {sum(LAYOUT[:location]) + slot: values for location, slot, values in columns}
    return [
        RawSet(
            number,
            number,
            0,
            LAYOUT,
            tuple(offsets[i][number] if i in offsets else base for i in range(158)),
            (SlotClass.EMPTY,) * 158,
            HALL,
        )
        for number in range(count)
    ]


def _verdicts(sets: list[RawSet], **options: object) -> dict[str, tuple[Health, str]]:
    return {
        v.label: (v.health, v.reason)
        for v in classify_slots(sets, **options)  # type: ignore[arg-type]
        if v.health is not Health.OK
    }


def test_dead_open_and_noisy_slots_are_named_with_what_to_check() -> None:
    sets = _sets(
        (12, 1, [0, 0, 3]),
        (0, 0, [65535] * 3),
        (27, 3, [0, 40000, 65535]),
        (3, 2, [30000, 35000, 31000]),
        (4, 4, [QUIET - 700, QUIET + 700, QUIET]),  # within the hysteresis band: ok
    )
    assert _verdicts(sets) == {
        "13/2": (
            Health.DEAD,
            "slot 13/2 (point 13, second sensor) reads 0..3 counts: no signal, "
            "check its wire and 3V3",
        ),
        "1/1": (
            Health.DEAD,
            "slot 1/1 (point 1, first sensor) reads 65535 counts: at the supply rail, "
            "check its ground wire",
        ),
        "28/4": (
            Health.OPEN,
            "slot 28/4 (tray of player 1, fourth sensor) reads 0..65535 counts: floating "
            "(it jumps across the whole range), check the wire from the sensor's output "
            "to the multiplexer",
        ),
        "4/3": (
            Health.NOISY,
            "slot 4/3 (point 4, third sensor) reads 30000..35000 counts: noisy (jumps of "
            "5000 where the firmware tolerates 1500), check its ground wire and decoupling "
            "capacitor",
        ),
    }


def test_a_wide_drift_inside_the_range_is_open_too() -> None:
    sets = _sets((5, 0, [2000, 40000, 60000]))
    assert _verdicts(sets)["6/1"][0] is Health.OPEN


def test_stuck_slots_need_the_checkers_on_the_board() -> None:
    expected = cells_from_board(START)
    board = [QUIET] * 158
    # Where START has checkers, the slots read them (colour by sign is not judged).
    for location, cell in enumerate(expected):
        assert cell is not None
        for slot in range(min(sum(cell), LAYOUT[location])):
            board[sum(LAYOUT[:location]) + slot] = A_CHECKER
    empty_point = next(i for i, cell in enumerate(expected[:24]) if cell == (0, 0))
    full_point = next(i for i, cell in enumerate(expected[:24]) if cell == (5, 0))
    board[sum(LAYOUT[:empty_point])] = A_CHECKER  # a checker read where none is
    board[sum(LAYOUT[:full_point]) + 4] = QUIET  # none read where the fifth is
    sets = [RawSet(n, n, 0, LAYOUT, tuple(board), (SlotClass.EMPTY,) * 158, HALL) for n in range(3)]
    assert _verdicts(sets) == {}  # without the truth, a steady reading is ok
    found = _verdicts(sets, expected=expected)
    place = f"point {empty_point + 1}"
    assert found[f"{empty_point + 1}/1"] == (
        Health.STUCK,
        f"slot {empty_point + 1}/1 ({place}, first sensor) reads {A_CHECKER} counts: a "
        f"checker, but {place} holds none: stuck, check the sensor",
    )
    full = f"point {full_point + 1}"
    assert found[f"{full_point + 1}/5"][1].endswith(
        f"no checker, but {full} holds 5 checkers: stuck, or the magnet is too far; check "
        "the sensor sits right under the slot"
    )
    assert len(found) == 2


def test_sets_that_cannot_be_judged_are_refused() -> None:
    with pytest.raises(RawSetError, match="no raw set to judge the slots by"):
        classify_slots([])
    other = HallThresholds(30000, 4000, 2500, 11500, 10000, 1000, 64535)
    one = _sets((0, 0, [QUIET]))[0]
    mixed = RawSet(1, 1, 0, LAYOUT, one.readings, one.classes, other)
    with pytest.raises(RawSetError, match="raw sets of different boards"):
        classify_slots([one, mixed])
    with pytest.raises(LayoutError, match="3 expected cells: expected 28"):
        classify_slots([one], expected=[None] * 3)
    with pytest.raises(RawSetError, match="raw set of 157 readings and 158 classes"):
        RawSet(1, 1, 0, LAYOUT, one.readings[1:], one.classes, HALL)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("13", "slot '13': expected LOCATION/SENSOR, e.g. 13/2"),
        ("x/1", "slot 'x/1': expected LOCATION/SENSOR"),
        ("29/1", "slot '29/1': location 29 is not 1..28"),
        ("0/1", "slot '0/1': location 0 is not 1..28"),
        ("13/6", "slot '13/6': point 13 has sensors 1..5"),
        ("27/0", r"slot '27/0': tray of player 0 has sensors 1..15"),
    ],
)
def test_slot_labels_round_trip_and_bad_ones_are_named(text: str, error: str) -> None:
    with pytest.raises(LayoutError, match=error):
        parse_slot(text, LAYOUT)
    places = [(loc, slot) for loc, n in enumerate(LAYOUT) for slot in range(n)]
    for location, slot in places:
        label = describe_slot(location, slot).split()[1]
        assert parse_slot(label, LAYOUT) == (location, slot)
