"""Learner mode's hint on the board: the best play shown one checker move at a time.

Why pure: the service asks the engine off the event loop; once the best play is known,
what to light is a function of that play, the position before the turn and the latest
observation only, so it is tested without a board and recomputed on every observation.

:func:`hint_step` finds how far the learner has followed the best play (its moves may be
made in any order) and names the next checker to move: its source location blinks amber,
its destination green (one lift: ``24/18/13`` shows 24 and 13, unless it hits on 18). A
checker lifted from that source keeps the same move lit. Any other board (the learner
went another way, or the play is complete) gives ``None``: the service then shows the
normal learner display, and drops the hint once the referee sees a settled board off the
hinted path.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Final

from controller.referee import Cells, Location, cells_from_board, location_of
from controller.rules import Board, Player, flip
from controller.rules.plays import Move, Play
from controller.rules.steps import OFF, apply_step
from hardware.board.scene import Colour, Lamp, Pattern, Scene

__all__ = ["SOURCE_LAMP", "TARGET_LAMP", "HintStep", "hint_scene", "hint_step"]

SOURCE_LAMP: Final = Lamp(Colour.AMBER, Pattern.SLOW)
"""The checker to move next."""
TARGET_LAMP: Final = Lamp(Colour.GREEN, Pattern.SLOW)
"""Where it goes."""


@dataclass(frozen=True, slots=True)
class HintStep:
    """The next checker move of the hinted play: from ``source`` to ``destination``.

    ``done`` moves of ``total`` are already on the board.
    """

    move: Move
    source: Location
    destination: Location
    done: int
    total: int

    @property
    def scene(self) -> Scene:
        """The lamps of this step (the status lamp off)."""
        return Scene.of({self.source: SOURCE_LAMP, self.destination: TARGET_LAMP})


def _apply(view: Board, move: Move) -> Board | None:
    """The mover's view after ``move`` (hitting a blot), or None if it cannot be made."""
    source, target = move
    if view[source] <= 0 or (target != OFF and view[target] < -1):
        return None
    return apply_step(view, source, target)


def _reached(play: Play, player: Player, before: Board) -> dict[Board, tuple[int, ...]]:
    """Every board on the way of ``play`` (its moves in any order that can be made),
    with the indices of the moves still to make (fewest first)."""
    moves = play.moves
    start = before if player == 0 else flip(before)
    reached: dict[Board, tuple[int, ...]] = {}
    for order in itertools.permutations(range(len(moves))):
        view = start
        for count in range(len(order) + 1):
            remaining = tuple(sorted(order[count:]))
            board = view if player == 0 else flip(view)
            if board not in reached or len(remaining) < len(reached[board]):
                reached[board] = remaining
            if count == len(order):
                break
            following = _apply(view, moves[order[count]])
            if following is None:
                break
            view = following
    return reached


def _matches(seen: Cells, expected: Cells) -> bool:
    """Whether the observation shows ``expected`` (an unread cell matches anything)."""
    return all(s is None or s == e for s, e in zip(seen, expected, strict=True))


def _next(
    play: Play, player: Player, board: Board, remaining: tuple[int, ...]
) -> tuple[int, Move] | None:
    """The first remaining move (in the play's order) that can be made on ``board``."""
    view = board if player == 0 else flip(board)
    for index in remaining:
        if _apply(view, play.moves[index]) is not None:
            return index, play.moves[index]
    return None


def hint_step(play: Play, player: Player, before: Board, cells: Cells) -> HintStep | None:
    """The next move of ``play`` to show, given the observation ``cells``.

    Args:
        play: the hinted play (the engine's best), from ``before``.
        player: the mover.
        before: the position before the turn.
        cells: the latest observation (28 logical cells).

    Returns:
        The next move, or ``None`` when the board is not on the hinted path or the play
        is complete.
    """
    total = len(play.moves)
    for board, remaining in _reached(play, player, before).items():
        if not remaining:
            continue
        expected = cells_from_board(board)
        following = _next(play, player, board, remaining)
        if following is None:
            continue
        index, move = following
        source = location_of(player, move.source)
        if _matches(cells, expected) or _lifted_from(cells, expected, source, player):
            move = _chain(play, player, board, index, remaining)
            return HintStep(
                move,
                source,
                location_of(player, move.destination),
                total - len(remaining),
                total,
            )
    return None


def _chain(
    play: Play, player: Player, board: Board, index: int, remaining: tuple[int, ...]
) -> Move:
    """The move of one checker: ``play.moves[index]`` and the remaining moves that carry
    the same checker on (``24/18/13`` is one lift), unless it hits on the way."""
    view = board if player == 0 else flip(board)
    move = play.moves[index]
    left = [i for i in remaining if i != index]
    while True:
        if move.destination == 0 or view[move.destination] == -1:
            return move  # borne off, or a hit: the hit checker goes to the bar first
        onward = next((i for i in left if play.moves[i].source == move.destination), None)
        if onward is None:
            return move
        left.remove(onward)
        move = Move(move.source, play.moves[onward].destination)


def _lifted_from(seen: Cells, expected: Cells, source: Location, player: Player) -> bool:
    """Whether ``seen`` is ``expected`` with one of ``player``'s checkers lifted at ``source``."""
    for location, (s, e) in enumerate(zip(seen, expected, strict=True)):
        if s is None or e is None:
            continue
        if location == source:
            lifted = list(e)
            lifted[player] -= 1
            if lifted[player] < 0 or tuple(lifted) != s:
                return False
        elif s != e:
            return False
    return True


def hint_scene(play: Play, player: Player, before: Board, cells: Cells) -> Scene | None:
    """The lamps of :func:`hint_step` (``None`` off the hinted path)."""
    step = hint_step(play, player, before, cells)
    return None if step is None else step.scene
