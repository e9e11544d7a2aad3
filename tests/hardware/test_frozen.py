"""Frozen slotted dataclasses made and copied without their checks (hardware.board.frozen)."""

from __future__ import annotations

import dataclasses

import pytest

from hardware.board.frozen import Unchecked


@dataclasses.dataclass(frozen=True, slots=True)
class _Base:
    player: int
    dice: tuple[int, int] = (1, 1)

    def __post_init__(self) -> None:
        if self.player not in (0, 1):
            raise ValueError(f"a player is 0 or 1, got {self.player!r}")


@dataclasses.dataclass(frozen=True, slots=True)
class _Derived(_Base):
    """Its fields' slots are its base's and its own."""

    board: tuple[int, ...] = ()
    reason: str = ""


@dataclasses.dataclass(frozen=True, slots=True)
class _Single:
    value: int


def test_a_copy_is_replace_for_every_field_inherited_or_not() -> None:
    derived = _Derived(1, (6, 5), (0, 1), "seen")
    unchecked = Unchecked(_Derived)
    for name, value in {"player": 0, "dice": (2, 2), "board": (3,), "reason": ""}.items():
        copy = unchecked.copy(derived, {name: value})
        assert copy == dataclasses.replace(derived, **{name: value}) and type(copy) is _Derived
    assert unchecked.copy(derived, {}) == derived and unchecked.copy(derived, {}) is not derived
    assert Unchecked(_Single).copy(_Single(3), {"value": 4}) == _Single(4)


def test_made_fills_the_defaults_and_runs_no_check() -> None:
    unchecked = Unchecked(_Derived)
    assert unchecked.make({"player": 1, "board": (2,)}) == _Derived(1, board=(2,))
    assert unchecked.make({"player": 7}).player == 7  # the caller vouches: nothing is checked
    assert unchecked.copy(_Derived(0), {"player": 7}).player == 7


def test_a_name_that_is_no_field_is_refused() -> None:
    with pytest.raises(AttributeError):
        Unchecked(_Single).copy(_Single(3), {"score": 1})
    with pytest.raises(AttributeError):
        Unchecked(_Single).make({"value": 1, "score": 1})
