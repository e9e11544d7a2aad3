"""What an engine answers, as immutable values, and the :class:`Engine` interface.

Equities are GNU Backgammon's: cubeful, for the player to move, normalised to the cube
in play (+1.0 = winning the cube's value for sure); in a match they are its "money
equivalent" equities (EMG), as its ``hint`` shows them with ``set output mwc off``.
"""

from __future__ import annotations

import enum
import itertools
import math
from dataclasses import dataclass
from typing import Protocol

from controller.rules.plays import Play
from controller.rules.xgid import Xgid

__all__ = [
    "CubeAction",
    "CubeAdvice",
    "Engine",
    "Hint",
    "Probabilities",
    "RankedPlay",
]


Probabilities = tuple[float, float, float, float, float]
"""Win, win a gammon, win a backgammon, lose a gammon, lose a backgammon."""


def _check_probabilities(probabilities: Probabilities | None) -> None:
    if probabilities is not None and (
        len(probabilities) != 5 or not all(0.0 <= p <= 1.0 for p in probabilities)
    ):
        raise ValueError(f"five probabilities from 0 to 1, got {probabilities!r}")


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """One legal play with the engine's equity for it and the depth it was judged at.

    ``play`` is the rules engine's own :class:`~controller.rules.plays.Play` (the engine's
    move is matched to it by resulting board), so ``play.notation`` is Tabula's notation,
    which is also GNU Backgammon's.
    """

    play: Play
    equity: float
    ply: int
    engine_text: str | None = None
    """The play as the engine wrote it, when it writes text (equal to ``play.notation``)."""
    probabilities: Probabilities | None = None
    """After the play, for the mover: win, win a gammon, win a backgammon, lose a gammon,
    lose a backgammon (cubeless, GNU Backgammon's five outputs); ``None`` if not given."""

    def __post_init__(self) -> None:
        if not math.isfinite(self.equity):
            raise ValueError(f"an equity is a finite number, got {self.equity!r}")
        _check_probabilities(self.probabilities)
        if self.ply < 0:
            raise ValueError(f"a ply is 0 or more, got {self.ply!r}")


@dataclass(frozen=True, slots=True)
class Hint:
    """Every legal play of ``dice`` from ``position``, best first.

    Raises:
        ValueError: for an empty ranking or one that is not sorted best first.
    """

    position: Xgid
    dice: tuple[int, int]
    plays: tuple[RankedPlay, ...]
    engine: str
    ply: int
    """The depth asked for (moves filtered out early are judged shallower: see each play)."""

    def __post_init__(self) -> None:
        if not self.plays:
            raise ValueError("a hint ranks at least one play")
        equities = [ranked.equity for ranked in self.plays]
        if any(a < b for a, b in itertools.pairwise(equities)):
            raise ValueError(f"a hint's plays are sorted best first, got equities {equities!r}")

    @property
    def best(self) -> RankedPlay:
        """The engine's choice."""
        return self.plays[0]

    def ranked(self, play: Play) -> RankedPlay:
        """The ranking of ``play`` (matched by resulting board).

        Raises:
            ValueError: if ``play`` is not one of this roll's legal plays.
        """
        for ranked in self.plays:
            if ranked.play.result == play.result:
                return ranked
        raise ValueError(
            f"{play.notation or '(no move)'!r} is not a legal play of {self.dice!r} here"
        )

    def loss(self, play: Play) -> float:
        """Equity ``play`` gives up against the best play (0.0 for the best one)."""
        return max(0.0, self.best.equity - self.ranked(play).equity)


class CubeAction(enum.Enum):
    """GNU Backgammon's "proper cube action" for the player who may double."""

    NO_DOUBLE_TAKE = "no double, take"
    DOUBLE_TAKE = "double, take"
    DOUBLE_PASS = "double, pass"
    TOO_GOOD_TAKE = "too good to double, take"
    TOO_GOOD_PASS = "too good to double, pass"

    @property
    def should_double(self) -> bool:
        """Whether the player on roll should turn the cube now."""
        return self in (CubeAction.DOUBLE_TAKE, CubeAction.DOUBLE_PASS)

    @property
    def should_take(self) -> bool:
        """Whether the opponent should take if doubled."""
        return self in (CubeAction.NO_DOUBLE_TAKE, CubeAction.DOUBLE_TAKE, CubeAction.TOO_GOOD_TAKE)


@dataclass(frozen=True, slots=True)
class CubeAdvice:
    """The cubeful equities of the three cube actions, for the player who may double.

    All three are in units of the cube in play before the double (so ``double_pass`` is
    1.0): the player on roll wants the largest of ``no_double`` and
    ``min(double_take, double_pass)``; the opponent takes when ``double_take`` is at most
    ``double_pass``.
    """

    position: Xgid
    no_double: float
    double_take: float
    double_pass: float
    engine: str
    ply: int
    probabilities: Probabilities | None = None
    """The cubeless chances of the player who may double, before rolling (GNU
    Backgammon's five outputs, as :attr:`RankedPlay.probabilities`); ``None`` if not given."""

    def __post_init__(self) -> None:
        for name in ("no_double", "double_take", "double_pass"):
            if not math.isfinite(getattr(self, name)):
                raise ValueError(f"{name} is a finite equity, got {getattr(self, name)!r}")
        _check_probabilities(self.probabilities)

    @property
    def action(self) -> CubeAction:
        """The proper cube action, decided as GNU Backgammon decides it."""
        take = self.double_take <= self.double_pass
        if take:
            if self.no_double > self.double_pass:
                return CubeAction.TOO_GOOD_TAKE
            return (
                CubeAction.NO_DOUBLE_TAKE
                if self.no_double >= self.double_take
                else CubeAction.DOUBLE_TAKE
            )
        # A pass: doubling cashes the cube, unless playing on for a gammon is worth more.
        if self.no_double > self.double_pass:
            return CubeAction.TOO_GOOD_PASS
        return CubeAction.DOUBLE_PASS

    @property
    def best_equity(self) -> float:
        """The equity of the proper action, for the player who may double."""
        return max(self.no_double, min(self.double_take, self.double_pass))


class Engine(Protocol):
    """A backgammon engine that ranks plays and judges cube decisions, off the event loop.

    Every call has a time budget: past it the engine is stopped, the call raises
    :class:`~controller.engine.errors.EngineTimeoutError` and the next call starts it again.
    ``ply`` ``None`` means the engine's configured default.
    """

    @property
    def name(self) -> str:
        """A short name for messages and records (``gnubg-cli``, ``gnubg-bindings``)."""
        ...

    async def hint(self, position: Xgid, dice: tuple[int, int], *, ply: int | None = None) -> Hint:
        """Every legal play of ``dice`` for ``position.turn``, best first."""
        ...

    async def cube(self, position: Xgid, *, ply: int | None = None) -> CubeAdvice:
        """The cube decision of ``position.turn`` before rolling (and the opponent's answer)."""
        ...

    async def close(self) -> None:
        """Stop the engine; idempotent."""
        ...
