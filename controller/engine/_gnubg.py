"""Pure translations between GNU Backgammon's answers and the rules engine's values.

GNU Backgammon names a play by its text (``24/18*/13 6/off``) or, in its PyPI bindings,
by a tuple of 1-based (source, destination) pairs. Either is replayed on the board to its
resulting position, and that position is looked up among
:func:`~controller.rules.plays.legal_plays`: a play the rules do not know is an engine
fault, never silently kept.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Final

from controller.engine.errors import EngineProtocolError
from controller.engine.model import Probabilities, RankedPlay
from controller.rules.board import Board, Player, flip
from controller.rules.errors import IllegalActionError
from controller.rules.plays import legal_plays
from controller.rules.xgid import Xgid

Judged = (
    tuple[Board, float, int, str | None]
    | tuple[Board, float, int, str | None, Probabilities | None]
)
"""One play as an engine judged it: result, equity, ply, its text, maybe its probabilities."""

_BAR: Final = 25
_PART: Final = re.compile(r"(bar|\d+)((?:/(?:\d+|off)\*?)+)(?:\((\d)\))?")
_HINT_LINE: Final = re.compile(
    r"^\s*\d+\.\s+(?:Cubeful|Cubeless)\s+(\d+)-ply\s+(.*?)\s+Eq\.:\s*([+-]?\d+\.\d+)"
)
_PROBABILITY_LINE: Final = re.compile(
    r"^\s*(\d\.\d+) (\d\.\d+) (\d\.\d+) - (\d\.\d+) (\d\.\d+) (\d\.\d+)\s*$"
)
_CUBE_LINE: Final = re.compile(
    r"^\s*\d+\.\s+(No double|Double, take|Double, pass)\s+([+-]?\d+\.\d+)"
)
_CUBE_PLY: Final = re.compile(r"^\s*(\d+)-ply cubeless equity")


def view(board: Board, player: Player) -> Board:
    """``board`` seen by ``player`` (the mover becomes player 0)."""
    return board if player == 0 else flip(board)


def _step(board: list[int], source: int, target: int, text: str) -> None:
    """Move one of the mover's checkers (mover's view), hitting a lone opposing checker."""
    if not 1 <= source <= _BAR or not 0 <= target < source or board[source] <= 0:
        raise EngineProtocolError(f"the engine's move {text!r} moves a checker from {source}")
    board[source] -= 1
    if target == 0:
        return
    if board[target] == -1:
        board[target] = 0
        board[0] -= 1
    elif board[target] < -1:
        raise EngineProtocolError(f"the engine's move {text!r} lands on a point held at {target}")
    board[target] += 1


def apply_notation(board: Board, player: Player, text: str) -> Board:
    """The board after ``player`` plays ``text`` written in GNU Backgammon's notation.

    Raises:
        EngineProtocolError: naming the text if it does not read or cannot be played.
    """
    after = list(view(board, player))
    for part in text.split():
        match = _PART.fullmatch(part)
        if match is None:
            raise EngineProtocolError(f"cannot read the engine's move {text!r} at {part!r}")
        points = [match[1], *(p.rstrip("*") for p in match[2].split("/")[1:])]
        numbers = [_BAR if p == "bar" else 0 if p == "off" else int(p) for p in points]
        for _ in range(int(match[3] or 1)):
            for source, target in itertools.pairwise(numbers):
                _step(after, source, target, text)
    return view(tuple(after), player)


def replay_tuple(board: Board, player: Player, move: Sequence[int]) -> Board:
    """The board after ``player`` plays the bindings' move tuple (1-based pairs, 25 = bar).

    Raises:
        EngineProtocolError: for an odd tuple (the bindings cut a tuple at its first
            bear-off) or a move that cannot be played.
    """
    if len(move) % 2:
        raise EngineProtocolError(f"the engine's move tuple {tuple(move)!r} is cut short")
    after = list(view(board, player))
    for index in range(0, len(move), 2):
        _step(after, move[index], move[index + 1], str(tuple(move)))
    return view(tuple(after), player)


def rank(
    board: Board,
    player: Player,
    dice: tuple[int, int],
    judged: Iterable[Judged],
) -> tuple[RankedPlay, ...]:
    """Tabula's legal plays ranked by the engine's (result, equity, ply, text[, probabilities])
    answers.

    Raises:
        EngineProtocolError: if the engine names a result the rules do not allow, or
            leaves a legal play unjudged.
    """
    plays = {play.result: play for play in legal_plays(board, player, dice)}
    ranked: dict[Board, RankedPlay] = {}
    for result, equity, ply, text, *more in judged:
        play = plays.get(result)
        if play is None:
            raise EngineProtocolError(
                f"the engine's play for {dice!r} reaches {list(result)!r}, which no legal "
                f"play of {list(board)!r} reaches"
            )
        probabilities = more[0] if more else None
        ranked.setdefault(result, RankedPlay(play, equity, ply, text, probabilities))
    missing = [play.notation for result, play in plays.items() if result not in ranked]
    if missing:
        raise EngineProtocolError(f"the engine did not judge the legal plays {missing!r}")
    return tuple(sorted(ranked.values(), key=lambda ranked: -ranked.equity))


def parse_probabilities(text: str) -> list[Probabilities | None]:
    """The five probabilities under each play listed by ``hint`` (None where missing).

    GNU Backgammon writes them on the line after the play.
    """
    found: list[Probabilities | None] = []
    for line in text.splitlines():
        if _HINT_LINE.match(line):
            found.append(None)
            continue
        match = _PROBABILITY_LINE.match(line)
        if match and found and found[-1] is None:
            found[-1] = _outputs(match)
    return found


def _outputs(line: re.Match[str]) -> Probabilities:
    """GNU Backgammon's ``win wing winbg - lose loseg losebg`` as the five outputs (the
    lose share is implied by the win share and dropped)."""
    win, wing, winbg, _, loseg, losebg = (float(group) for group in line.groups())
    return (win, wing, winbg, loseg, losebg)


def parse_hint(text: str) -> list[tuple[str, float, int]]:
    """(move text, equity, ply) of each play listed by GNU Backgammon's ``hint``."""
    moves = []
    for line in text.splitlines():
        match = _HINT_LINE.match(line)
        if match:
            moves.append((match[2].strip(), float(match[3]), int(match[1])))
    return moves


def parse_cube(text: str) -> tuple[float, float, float, int, Probabilities | None]:
    """(no double, double take, double pass, ply, the cubeless chances of the player on
    roll) from ``hint`` before the roll.

    Raises:
        EngineProtocolError: if the three equities are not all there.
    """
    equities: dict[str, float] = {}
    ply = -1
    chances: Probabilities | None = None
    for line in text.splitlines():
        ply_match = _CUBE_PLY.match(line)
        if ply_match:
            ply = int(ply_match[1])
        outputs = _PROBABILITY_LINE.match(line)
        if outputs and chances is None:
            chances = _outputs(outputs)
        match = _CUBE_LINE.match(line)
        if match:
            equities[match[1]] = float(match[2])
    try:
        return (
            equities["No double"],
            equities["Double, take"],
            equities["Double, pass"],
            max(ply, 0),
            chances,
        )
    except KeyError:
        raise EngineProtocolError(f"cannot read the engine's cube analysis {text!r}") from None


def check_may_double(position: Xgid) -> None:
    """Refuse a cube question the rules do not allow: a cube the opponent owns, Crawford.

    Raises:
        IllegalActionError: saying why ``position.turn`` cannot double.
    """
    if position.crawford:
        raise IllegalActionError("nobody doubles in the Crawford game: no cube decision to judge")
    if position.cube_owner not in (None, position.turn):
        raise IllegalActionError(
            f"player {position.turn} cannot double: player {position.cube_owner} owns the cube"
        )
