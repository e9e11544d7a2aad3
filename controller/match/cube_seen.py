"""The cube the camera sees against the cube the referee keeps: a disagreement is shown to
the players, never corrected (a mis-set cube is a common dispute at a real board).

Pure: the service keeps the last :class:`CubeSeen` and asks :func:`cube_disagreement` when
it builds its status.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from controller.match.orientation import Orientation
from controller.rules import CubeState
from controller.rules.cube import CubePhase

__all__ = ["CubeSeen", "cube_disagreement", "cube_shown"]


class Pictured(Protocol):
    """The cube as the camera read it (``vision.CubeReading``)."""

    @property
    def value(self) -> int: ...

    @property
    def side(self) -> str: ...


@dataclass(frozen=True, slots=True)
class CubeSeen:
    """The cube in a roll's picture, and the referee's cube (value, owner) at that moment.

    ``side`` is the camera's: ``near``, ``far`` or ``centre`` (``vision.CubeReading``).
    """

    value: int
    side: str
    held: tuple[int, int | None]

    @classmethod
    def of(cls, seen: Pictured | None, cube: CubeState | None) -> CubeSeen | None:
        """What a roll's picture showed of the cube (None: no cube in it)."""
        if seen is None:
            return None
        held = (cube.value, cube.owner) if cube is not None else (1, None)
        return cls(seen.value, seen.side, held)


def cube_shown(cube: CubeState, orientation: Orientation) -> tuple[int, str]:
    """The face and the side (``near``, ``far`` or ``centre``) the referee's cube should
    show on the table: a cube not yet turned shows 64 in the centre."""
    face = cube.value if cube.value > 1 else 64
    return face, "centre" if cube.owner is None else orientation.side_of(cube.owner)


def cube_disagreement(
    seen: CubeSeen | None,
    cube: CubeState | None,
    orientation: Orientation,
    names: tuple[str, str],
) -> str | None:
    """What the camera's cube and the referee's disagree on, in words, or None.

    Nothing is said while the cube is in the players' hands (a double offered), before a
    game has a cube, or of a picture taken before the referee's cube last changed (the
    cube is then being moved: the next roll's picture tells).

    >>> seen = CubeSeen(4, "far", (2, None))
    >>> cube_disagreement(seen, CubeState(value=2), Orientation(), ("Ann", "Bob"))
    "the cube shows 4 on Bob's side; the referee has 2 in the centre"
    """
    if seen is None or cube is None or cube.phase in (CubePhase.DOUBLED, CubePhase.BEAVERED):
        return None
    if (cube.value, cube.owner) != seen.held:
        return None
    shown = cube_shown(cube, orientation)
    if (seen.value, seen.side) == shown:
        return None
    side = shown[1]

    def where(side: str) -> str:
        if side == "centre":
            return "in the centre"
        return f"on {names[orientation.player_at(side)]}'s side"

    held = f"{cube.value} {where(side)}" if cube.value > 1 else f"it {where(side)}, not turned"
    return f"the cube shows {seen.value} {where(seen.side)}; the referee has {held}"
