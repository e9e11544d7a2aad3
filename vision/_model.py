"""Value objects of the dice reader: a die, the cube, a roll reading and its verdict."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

Box = tuple[int, int, int, int]


class DieJson(TypedDict):
    """A die as ``tabula dice`` prints it (:meth:`Die.to_json`)."""

    value: int
    box: list[int]
    confidence: float
    flags: NotRequired[list[str]]


class CubeJson(TypedDict):
    """The cube as ``tabula dice`` prints it (:meth:`CubeReading.to_json`)."""

    value: int
    box: list[int]
    side: str
    confidence: float


class ReadingJson(TypedDict):
    """A reading as ``tabula dice`` prints it (:meth:`RollReading.to_json`)."""

    dice: list[DieJson]
    verdict: str
    reason: str
    cube: NotRequired[CubeJson]


class Verdict(enum.StrEnum):
    """What the reader says about a roll."""

    OK = "ok"
    #: The roll is irregular (cocked, off the right-hand half, on a checker, die missing).
    REROLL = "reroll"
    #: A die cannot be read with confidence: ask for manual entry, never guess.
    UNREADABLE = "unreadable"


def _check_box(box: Box, what: str) -> None:
    if len(box) != 4 or box[0] > box[2] or box[1] > box[3]:
        raise ValueError(f"invalid {what} box {box!r}: expected (x1, y1, x2, y2), x1<=x2, y1<=y2")


class Thrower(enum.StrEnum):
    """Who throws the dice, by where he sits in the board view.

    Each player throws into the right-hand half of the board *as he sees it*: the near
    player (at the bottom edge of the board view) into the view's right half, the far
    player (at the top edge) into the view's left half.
    """

    NEAR = "near"
    FAR = "far"
    #: The opening roll (or Jacquet's primauté): one die each, each in his own half.
    BOTH = "both"


@dataclass(frozen=True, slots=True)
class Die:
    """One die seen on the board: its top-face value, where it is and how sure the reader is.

    ``flags`` names what makes the die irregular (``"cocked"``, ``"off-half"``,
    ``"on-checker"``); an empty tuple means it lies flat where it should.
    """

    value: int
    box: Box
    confidence: float
    flags: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 6:
            raise ValueError(f"invalid die value {self.value!r}: expected 1..6")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"invalid die confidence {self.confidence!r}: expected 0..1")
        _check_box(self.box, "die")

    @property
    def center(self) -> tuple[float, float]:
        """The centre of the die's box."""
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    def to_json(self) -> DieJson:
        """The die as the ``tabula dice`` JSON object."""
        out: DieJson = {
            "value": self.value,
            "box": list(self.box),
            "confidence": round(self.confidence, 3),
        }
        if self.flags:
            out["flags"] = list(self.flags)
        return out


CUBE_VALUES = (2, 4, 8, 16, 32, 64)


@dataclass(frozen=True, slots=True)
class CubeReading:
    """The doubling cube: the face it shows and on whose side of the board it lies.

    ``side`` is ``"near"`` (the bottom half of the board view, the near player's side),
    ``"far"`` (the top half) or ``"centre"`` (on the bar, not yet turned).
    """

    value: int
    box: Box
    side: str
    confidence: float

    def __post_init__(self) -> None:
        if self.value not in CUBE_VALUES:
            raise ValueError(f"invalid cube value {self.value!r}: expected one of {CUBE_VALUES}")
        if self.side not in ("near", "far", "centre"):
            raise ValueError(f"invalid cube side {self.side!r}")
        _check_box(self.box, "cube")

    def to_json(self) -> CubeJson:
        """The cube as a JSON object."""
        return {
            "value": self.value,
            "box": list(self.box),
            "side": self.side,
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True, slots=True)
class RollReading:
    """What one frame (or a vote over settled frames) shows: the dice and a verdict."""

    dice: tuple[Die, ...]
    verdict: Verdict
    reason: str = ""
    cube: CubeReading | None = field(default=None)

    @property
    def is_empty(self) -> bool:
        """Whether the board was seen without dice (a cluttered frame, ``unreadable``
        with no die read, is not an empty board)."""
        return not self.dice and self.verdict is not Verdict.UNREADABLE

    @property
    def values(self) -> tuple[int, ...]:
        """The dice values, highest first (the order a roll is written in)."""
        return tuple(sorted((d.value for d in self.dice), reverse=True))

    def to_json(self) -> ReadingJson:
        """The reading as the ``tabula dice`` JSON object (without the image name)."""
        out: ReadingJson = {
            "dice": [d.to_json() for d in self.dice],
            "verdict": str(self.verdict),
            "reason": self.reason,
        }
        if self.cube is not None:
            out["cube"] = self.cube.to_json()
        return out
