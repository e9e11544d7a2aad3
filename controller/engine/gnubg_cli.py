"""GNU Backgammon's own program, driven headless through its text interface.

This is the engine of a Raspberry Pi, where the PyPI bindings do not install: Debian's
and Raspberry Pi OS's ``gnubg`` package runs as ``gnubg -t -q -r`` (text, quiet, no rc
files) in one long-lived child process. Each request sets the position with
``set gnubgid PositionID:MatchID`` (dice included), asks ``hint``, and reads the answer up
to a marker: an unknown command whose error line ends the reply.
"""

from __future__ import annotations

import itertools
import re
import shutil
from dataclasses import replace
from typing import Final

from controller.engine import _gnubg
from controller.engine._base import ProcessEngine
from controller.engine._process import LineProcess
from controller.engine.errors import EngineProtocolError
from controller.engine.model import CubeAdvice, Hint
from controller.rules.gnubg_ids import gnubg_id
from controller.rules.plays import check_dice, legal_plays
from controller.rules.xgid import Xgid

__all__ = ["DEFAULT_PROGRAM", "GnubgCliEngine", "find_program"]

DEFAULT_PROGRAM: Final = "/usr/games/gnubg"
"""Where Debian installs the program (``/usr/games`` is often not on a service's PATH)."""

_MAX_MOVES: Final = 10_000
"""``hint N`` lists at most N plays: enough for every play of any roll."""

_SETUP: Final = (
    "set player 0 human",  # else GNU Backgammon plays its own side of the game
    "set player 1 human",
    "new session",
    "set output mwc off",  # match equities as money equivalents, as the bindings give
    "set output digits 5",
    "set output rawboard off",
)
_IDS: Final = re.compile(r"(Position|Match) ID\s*:\s*(\S+)")
_EVAL_ROW: Final = re.compile(r"^\s*(?:static|\d+ ply):\s+(.*)$")


def find_program() -> str:
    """``gnubg`` from the PATH, else Debian's :data:`DEFAULT_PROGRAM`."""
    return shutil.which("gnubg") or DEFAULT_PROGRAM


class GnubgCliEngine(ProcessEngine):
    """:class:`~controller.engine.model.Engine` over the ``gnubg`` program.

    Args:
        program: the ``gnubg`` executable (default: :func:`find_program`).
        ply: default search depth (0 = the neural net alone; GNU Backgammon's own
            default, "world class", is 2).
        budget: seconds an answer may take before the program is killed and restarted.
        start_budget: seconds the program may take to start.
    """

    name = "gnubg-cli"

    def __init__(
        self,
        program: str | None = None,
        *,
        ply: int = 0,
        budget: float = 5.0,
        start_budget: float = 30.0,
    ) -> None:
        self.program = program or find_program()
        self._markers = itertools.count()
        self._plies: int | None = None  # the depth the running program is set to
        process = LineProcess(
            [self.program, "-t", "-q", "-r"],
            name="GNU Backgammon",
            start_lines=[*_SETUP, "tabula-ready"],
            ready=lambda line: "tabula-ready" in line,
            start_timeout=start_budget,
        )
        super().__init__(process, ply=ply, budget=budget)

    async def _section(self, commands: list[str], what: str) -> list[str]:
        """Run ``commands`` and return their output lines (before the end marker)."""
        marker = f"tabula-end-{next(self._markers)}"
        lines = await self._process.exchange(
            [*commands, marker], lambda line: f"`{marker}'" in line, self.budget, what
        )
        return lines[:-1]

    async def _set(self, position: Xgid, ply: int, what: str) -> None:
        """Set the depth (if it changed) and the position, and check the program took it."""
        if not self._process.running:
            self._plies = None  # a new program starts at its own defaults
        commands = []
        if self._plies != ply:
            commands += [
                f"set evaluation chequerplay evaluation plies {ply}",
                f"set evaluation cubedecision evaluation plies {ply}",
            ]
        ident = gnubg_id(position)
        if position.dice is not None:
            # GNU Backgammon keeps the last hint of a roll, whatever the depth asked since;
            # passing through the position before the roll forgets it.
            commands.append(f"set gnubgid {gnubg_id(replace(position, dice=None))}")
        lines = await self._section([*commands, f"set gnubgid {ident}"], what)
        self._plies = ply
        shown = {match[1]: match[2] for line in lines for match in _IDS.finditer(line)}
        if f"{shown.get('Position')}:{shown.get('Match')}" != ident:
            raise EngineProtocolError(
                f"GNU Backgammon did not take the position {ident!r} {what}: "
                f"{' / '.join(line.strip() for line in lines if line.strip())[-300:]!r}"
            )

    async def hint(self, position: Xgid, dice: tuple[int, int], *, ply: int | None = None) -> Hint:
        """Every legal play of ``dice`` for ``position.turn``, best first (``hint``)."""
        depth = self._depth(ply)
        dice = check_dice(dice)
        state = replace(position, dice=dice, offer=None)
        what = f"for the hint of {dice[0]}{dice[1]} at {gnubg_id(state)}"
        legal = legal_plays(state.board, state.turn, dice)
        judged: list[_gnubg.Judged]
        if not legal[0].moves:  # no legal move: the turn passes, judge the opponent's roll
            equity = await self._evaluate(replace(state, dice=None, turn=1 - state.turn), depth)
            judged = [(legal[0].result, -equity, depth, None)]
        else:
            await self._set(state, depth, what)
            lines = await self._section([f"hint {_MAX_MOVES}"], what)
            moves = _gnubg.parse_hint("\n".join(lines))
            if not moves:
                raise EngineProtocolError(
                    f"GNU Backgammon listed no play {what}: {' / '.join(lines)[-300:]!r}"
                )
            probabilities = _gnubg.parse_probabilities("\n".join(lines))
            judged = [
                (_gnubg.apply_notation(state.board, state.turn, text), equity, move_ply, text, p)
                for (text, equity, move_ply), p in zip(moves, probabilities, strict=True)
            ]
        plays = _gnubg.rank(state.board, state.turn, dice, judged)
        return Hint(position, dice, plays, self.name, depth)

    async def _evaluate(self, position: Xgid, ply: int) -> float:
        """The cubeful equity of ``position`` for ``position.turn`` before rolling (``eval``)."""
        what = f"for the evaluation of {gnubg_id(position)}"
        await self._set(position, ply, what)
        lines = await self._section(["eval"], what)
        rows = [match[1].split() for line in lines if (match := _EVAL_ROW.match(line))]
        try:
            return float(rows[-1][-1])
        except (IndexError, ValueError):
            raise EngineProtocolError(
                f"cannot read GNU Backgammon's evaluation {what}: {' / '.join(lines)[-300:]!r}"
            ) from None

    async def cube(self, position: Xgid, *, ply: int | None = None) -> CubeAdvice:
        """The cube decision of ``position.turn`` before rolling (``hint`` with no dice)."""
        depth = self._depth(ply)
        _gnubg.check_may_double(position)
        state = replace(position, dice=None, offer=None)
        what = f"for the cube decision at {gnubg_id(state)}"
        await self._set(state, depth, what)
        lines = await self._section(["hint"], what)
        no_double, take, drop, used, chances = _gnubg.parse_cube("\n".join(lines))
        return CubeAdvice(position, no_double, take, drop, self.name, used, chances)
