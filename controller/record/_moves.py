"""Checker steps shared by the match-file codecs: a play as single-die steps, and back.

Both ``.mat`` and ``.sgf`` write a play one die at a time in playing order (what GNU
Backgammon writes), and read steps back onto a board; the rules engine then says which
legal play, if any, reaches the result.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from controller.match.events import (
    Event,
    GameEnded,
    MatchStarted,
    OpeningRolled,
    Played,
    ResignAccepted,
    Resigned,
    Rolled,
)
from controller.match.replay import Replayer
from controller.rules import Board, MatchState, Player, WinKind, flip, play_reaching


class Step(NamedTuple):
    """One checker moved by one die, in the mover's numbering (25 bar, 0 off)."""

    source: int
    destination: int
    hit: bool = False


def play_steps(before: Board, player: Player, dice: tuple[int, int], after: Board) -> list[Step]:
    """The single-die steps of the legal play from ``before`` to ``after``, in playing order.

    Raises:
        ValueError: if no legal play of ``dice`` reaches ``after``.
    """
    play = play_reaching(before, player, dice, after)
    if play is None:
        raise ValueError(f"no legal play of {dice[0]}{dice[1]} reaches {after!r}")
    view = list(before if player == 0 else flip(before))
    steps = []
    for move in play.moves:
        hit = 1 <= move.destination <= 24 and view[move.destination] == -1
        view[move.source] -= 1
        if move.destination:
            view[move.destination] = 1 if hit else view[move.destination] + 1
        steps.append(Step(move.source, move.destination, hit))
    return steps


def apply_steps(board: Board, player: Player, steps: Iterable[tuple[int, int]]) -> Board:
    """``board`` after ``player`` moves a checker along each (source, destination) step.

    Only what a board allows is checked (a checker to move, a destination not blocked);
    whether the steps make a legal play is the rules engine's question.

    Raises:
        ValueError: naming the step that cannot be made.
    """
    view = list(board if player == 0 else flip(board))
    for source, target in steps:
        if not 1 <= source <= 25 or not 0 <= target <= 24 or view[source] <= 0:
            raise ValueError(f"no checker of player {player} to move from {source} to {target}")
        if target and view[target] < -1:
            raise ValueError(f"point {target} is blocked for player {player}")
        view[source] -= 1
        if target:
            if view[target] == -1:
                view[target] = 1
                view[0] -= 1
            else:
                view[target] += 1
    result = tuple(view)
    return result if player == 0 else flip(result)


class GameBuilder:
    """One game read from a match file, turned into events replayed as they come.

    Both readers (``.mat`` and ``.sgf``) say what the file says, a roll, a play as steps,
    a result; the builder makes the events and the rules check them.

    Args:
        start: the match's first event (names and rules).
        match: the score before this game.
    """

    def __init__(self, start: MatchStarted, match: MatchState) -> None:
        self.replayer = Replayer(start, match)
        self.events: list[Event] = []

    def add(self, event: Event) -> None:
        """Replay ``event`` and keep it.

        Raises:
            InvalidEventError: if the rules forbid it here.
        """
        self.replayer.apply(len(self.events) + 1, event)
        self.events.append(event)

    def roll(self, player: Player, dice: tuple[int, int]) -> None:
        """``player`` rolled ``dice``: the opening roll while no game is under way.

        Raises:
            ValueError: for doubles as an opening roll.
        """
        if self.replayer.snapshot.cube is not None:
            self.add(Rolled(player, dice))
            return
        if dice[0] == dice[1]:
            raise ValueError(f"the opening roll cannot be {dice[0]}{dice[1]}")
        high, low = max(dice), min(dice)
        self.add(OpeningRolled((high, low) if player == 0 else (low, high)))

    def play(self, player: Player, dice: tuple[int, int], steps: list[tuple[int, int]]) -> bool:
        """``player`` rolls ``dice`` and moves along ``steps``; whether that was legal.

        A legal play is recorded with its canonical notation; nothing is recorded otherwise.
        """
        self.roll(player, dice)
        board = self.replayer.snapshot.board
        after = apply_steps(board, player, steps)
        play = play_reaching(board, player, dice, after)
        if play is not None:
            self.add(Played(player, dice, play.notation, after))
        return play is not None

    def end(self, winner: Player, points: int, resigned: bool | None = None) -> None:
        """The file says ``winner`` won ``points``: record the game's result.

        A game not over on the board was resigned (``resigned`` None: whatever fits;
        True or False: what the file says, checked).

        Raises:
            ValueError: if the game is not over with that result.
        """
        snapshot = self.replayer.snapshot
        if snapshot.pending is None and resigned is not False:
            self._resigned(winner, points)
        pending = self.replayer.snapshot.pending
        if pending is None or pending.winner != winner:
            raise ValueError(f"player {winner} has not won the game here")
        if pending.points != points:
            raise ValueError(f"the game is worth {pending.points}, not {points}")
        if resigned is not None and pending.resigned != resigned:
            how = "resigned" if pending.resigned else "won on the board or by a drop"
            raise ValueError(f"the game was {how}")
        self.add(GameEnded(winner, points, pending.kind, pending.dropped, pending.resigned))

    def _resigned(self, winner: Player, points: int) -> None:
        """A game won mid-play: the loser resigned the kind of game ``points`` is worth.

        GNU Backgammon writes a resigned game as its result alone (``Wins 2 points`` after
        the last move, ``RE[W+2R]``): the kind is the least the cube makes worth ``points``.
        """
        cube = self.replayer.snapshot.cube
        loser = 1 - winner
        if cube is None or cube.resign_problem(loser) is not None:
            return  # the caller says the game is not won here
        for kind in WinKind:
            if cube.resign(loser, kind).points == points:
                self.add(Resigned(loser, kind))
                self.add(ResignAccepted(winner))
                return
