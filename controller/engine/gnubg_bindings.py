"""GNU Backgammon's evaluator through its PyPI bindings (``gnubg``, x86-64 wheels only).

The bindings run in a child process (:mod:`controller.engine._bindings_worker`): they
crash off the main thread and cannot be interrupted, so a child is what keeps the event
loop free and lets a late answer be killed.

How each answer is made:

* **Plays**: ``findbestmoves`` ranks every play, cubeful, at the asked depth with GNU
  Backgammon's move filters, exactly as its ``hint``. Its move tuples stop at the first
  bear-off, and it merges plays whose cut tuples agree; so when a legal play bears off,
  every legal play's resulting position is evaluated instead (cubeless: the bindings
  evaluate positions without the cube).
* **Probabilities** (win, gammons, backgammons after each play, as GNU Backgammon's
  ``hint`` lists them): each play's resulting position evaluated for the opponent on
  roll, turned round; for every play at 0-ply, for the best :data:`PROBABLE` deeper.
* **Cube**: "no double" and "double, take" are the mean over the 36 rolls of the best
  play's cubeful equity with the cube as it is and as it would be after the take: GNU
  Backgammon's own definition of an evaluation one ply deeper (the bindings have no cube
  analysis of their own). "Double, pass" is 1.0, the cube's value cashed.
"""

from __future__ import annotations

import itertools
import json
import sys
from dataclasses import replace
from typing import Any

from controller.engine import _gnubg
from controller.engine._base import ProcessEngine
from controller.engine._process import LineProcess
from controller.engine.errors import EngineProtocolError, EngineUnavailableError
from controller.engine.model import CubeAdvice, Hint, Probabilities, RankedPlay
from controller.rules.board import Board, borne_off
from controller.rules.gnubg_ids import gnubg_id
from controller.rules.plays import Play, check_dice, legal_plays
from controller.rules.position_id import gnubg_board
from controller.rules.xgid import Xgid

__all__ = ["GnubgBindingsEngine"]

_WORKER = "controller.engine._bindings_worker"

PROBABLE = 5
"""Plays given their probabilities above 0-ply (GNU Backgammon's hint shows five)."""


def _turned(probabilities: list[float]) -> Probabilities:
    """The opponent's outputs (on roll after the play) as the mover's."""
    win, wing, winbg, loseg, losebg = probabilities
    return (max(0.0, 1.0 - win), loseg, losebg, wing, winbg)


def _own(probabilities: list[float]) -> Probabilities:
    """The outputs of the player on roll, as the engine gave them."""
    win, wing, winbg, loseg, losebg = probabilities
    return (win, wing, winbg, loseg, losebg)


def _cube_fields(position: Xgid) -> dict[str, Any]:
    """The cube and match of ``position`` as the worker's cubeinfo wants them."""
    mover = position.turn
    owner = -1 if position.cube_owner is None else (0 if position.cube_owner == mover else 1)
    return {
        "value": position.cube_value,
        "owner": owner,
        "match_length": position.match_length,
        "score": [position.score[mover], position.score[1 - mover]],
        "crawford": position.crawford,
        "jacoby": position.jacoby,
        "beavers": position.beavers,
    }


def _bears_off(board: Board, player: int, plays: tuple[Play, ...]) -> bool:
    """Whether some legal play bears a checker off (even one that first comes home)."""
    return any(borne_off(play.result)[player] > borne_off(board)[player] for play in plays)


class GnubgBindingsEngine(ProcessEngine):
    """:class:`~controller.engine.model.Engine` over the PyPI ``gnubg`` bindings.

    Args:
        python: the interpreter that runs the worker (default: this one).
        ply: default search depth (0 = the neural net alone).
        budget: seconds an answer may take before the worker is killed and restarted.
        start_budget: seconds the worker may take to start and load the networks.
    """

    name = "gnubg-bindings"

    def __init__(
        self,
        python: str | None = None,
        *,
        ply: int = 0,
        budget: float = 5.0,
        start_budget: float = 30.0,
    ) -> None:
        self.python = python or sys.executable
        self._ids = itertools.count()
        process = LineProcess(
            [self.python, "-m", _WORKER],
            name="the GNU Backgammon bindings",
            ready=self._started,
            start_timeout=start_budget,
        )
        super().__init__(process, ply=ply, budget=budget)

    def _started(self, line: str) -> bool:
        if not line.startswith('{"tabula":'):
            return False
        reply = json.loads(line)
        if reply["tabula"] != "ready":
            raise EngineUnavailableError(f"the GNU Backgammon bindings: {reply.get('error')}")
        return True

    async def _ask(self, request: dict[str, Any], what: str) -> dict[str, Any]:
        identifier = next(self._ids)
        prefix = f'{{"tabula": "answer", "id": {identifier},'
        error_prefix = f'{{"tabula": "error", "id": {identifier},'

        def done(line: str) -> bool:
            return line.startswith((prefix, error_prefix))

        lines = await self._process.exchange(
            [json.dumps({"id": identifier, **request})], done, self.budget, what
        )
        reply: dict[str, Any] = json.loads(lines[-1])
        if reply["tabula"] == "error":
            raise EngineProtocolError(
                f"the GNU Backgammon bindings failed {what}: {reply['error']}"
            )
        return reply

    async def hint(self, position: Xgid, dice: tuple[int, int], *, ply: int | None = None) -> Hint:
        """Every legal play of ``dice`` for ``position.turn``, best first."""
        depth = self._depth(ply)
        dice = check_dice(dice)
        state = replace(position, dice=dice, offer=None)
        board, mover = state.board, state.turn
        what = f"for the hint of {dice[0]}{dice[1]} at {gnubg_id(state)}"
        request = {"board": gnubg_board(board, mover), "cube": _cube_fields(state)}
        legal = legal_plays(board, mover, dice)
        judged: list[_gnubg.Judged]
        if not legal[0].moves:  # no legal move: the opponent rolls next on the same board
            after = replace(state, dice=None, turn=1 - mover)
            reply = await self._ask(
                {
                    "op": "cube",
                    "board": gnubg_board(board, 1 - mover),
                    "cube": _cube_fields(after),
                    "ply": depth,
                    "no_double_only": True,
                },
                what,
            )
            judged = [(legal[0].result, -reply["no_double"], depth, None)]
        elif _bears_off(board, mover, legal):
            boards = [gnubg_board(play.result, 1 - mover) for play in legal]
            after = replace(state, dice=None, turn=1 - mover)
            reply = await self._ask(
                {**request, "op": "evaluate", "boards": boards, "cube": _cube_fields(after),
                 "ply": depth},
                what,
            )  # fmt: skip
            judged = [
                (play.result, -equity, depth, None, _turned(probabilities))
                for play, equity, probabilities in zip(
                    legal, reply["equities"], reply["probabilities"], strict=True
                )
            ]
        else:
            reply = await self._ask({**request, "op": "moves", "dice": dice, "ply": depth}, what)
            judged = [
                (_gnubg.replay_tuple(board, mover, move), score, depth, None)
                for move, score in reply["moves"]
            ]
            ranked = _gnubg.rank(board, mover, dice, judged)
            return Hint(
                position, dice, await self._probable(state, ranked, depth, what), self.name, depth
            )
        return Hint(position, dice, _gnubg.rank(board, mover, dice, judged), self.name, depth)

    async def _probable(
        self, state: Xgid, ranked: tuple[RankedPlay, ...], depth: int, what: str
    ) -> tuple[RankedPlay, ...]:
        """``ranked`` with the probabilities of its best plays (all of them at 0-ply)."""
        mover = state.turn
        shown = ranked if depth == 0 else ranked[:PROBABLE]
        after = replace(state, dice=None, turn=1 - mover)
        reply = await self._ask(
            {
                "op": "evaluate",
                "board": gnubg_board(state.board, mover),
                "boards": [gnubg_board(r.play.result, 1 - mover) for r in shown],
                "cube": _cube_fields(after),
                "ply": depth,
            },
            what,
        )
        given = [
            replace(r, probabilities=_turned(p))
            for r, p in zip(shown, reply["probabilities"], strict=True)
        ]
        return (*given, *ranked[len(shown) :])

    async def cube(self, position: Xgid, *, ply: int | None = None) -> CubeAdvice:
        """The cube decision of ``position.turn`` before rolling (at least one ply deep)."""
        depth = self._depth(ply)
        _gnubg.check_may_double(position)
        state = replace(position, dice=None, offer=None)
        what = f"for the cube decision at {gnubg_id(state)}"
        reply = await self._ask(
            {
                "op": "cube",
                "board": gnubg_board(state.board, state.turn),
                "cube": _cube_fields(state),
                "ply": depth,
            },
            what,
        )
        return CubeAdvice(
            position,
            reply["no_double"],
            reply["double_take"],
            1.0,
            self.name,
            reply["ply"],
            _own(reply["probabilities"]),
        )
