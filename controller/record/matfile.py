"""Jellyfish ``.mat`` match files, written as GNU Backgammon writes them and read tolerantly.

The layout is GNU Backgammon's own export (``export match mat``), which every analysis
program reads: a `` N point match`` header, then per game `` Game k``, the players' names
and scores, and numbered lines of two columns (player 0 left, player 1 right) whose cells
are a roll and its moves (``31: 8/5 6/5``), `` Doubles => 2``, `` Takes``, `` Drops``, and
`` Wins 1 point`` in the winner's column. Moves are written one per die in playing order,
``25`` for the bar and ``0`` for off, a ``*`` where a blot is hit, as GNU Backgammon does.
The left column is padded to 28 characters, so that no line after a two-column line is
short enough to make GNU Backgammon re-read that line's right column (see FORMATS.md).

A ``.mat`` file holds match play only, and only legal plays: a match with an illegal play
accepted or a position edit goes to ``.sgf`` instead.

The reader is tolerant (as python-chess's ``read_game``): a game that does not parse or
replay gets its errors, named by game and line, and the reader goes on with the next game.
It reads the canonical notation (``13/3(2)``, ``bar/22*``) as well as GNU Backgammon's.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Final

from controller.match.events import (
    Doubled,
    Dropped,
    Event,
    MatchStarted,
    Played,
    Taken,
)
from controller.match.replay import GameRecord, MatchRecord, replay
from controller.record._moves import GameBuilder, play_steps
from controller.record.errors import InvalidEventError, MatFileError
from controller.record.plain import gnubg_refusal
from controller.rules import START, Board, MatchState, Player, Rules

__all__ = ["MatFile", "MatGame", "read_mat", "write_mat"]

_LEFT_WIDTH: Final = 28
_NAME_WIDTH: Final = 31
_RIGHT_COLUMN: Final = 20
"""A cell starting at or after this column of its line is in the right column."""


# Writing.


def _play_text(before: Board, player: Player, dice: tuple[int, int], after: Board) -> str:
    """The moves of the play from ``before`` to ``after``, one per die, as GNU Backgammon."""
    try:
        steps = play_steps(before, player, dice, after)
    except ValueError as error:  # replay() refuses such a record before it gets here
        raise MatFileError(str(error)) from None
    moves = " ".join(f"{s.source}/{s.destination}{'*' if s.hit else ''}" for s in steps)
    return f"{max(dice)}{min(dice)}: {moves}"


def _game_cells(game: GameRecord) -> list[tuple[Player, str]]:
    """The cells of a game in order, each with its column (the player)."""
    board = START
    cells: list[tuple[Player, str]] = []
    cube = 1
    for action in game.actions:
        if isinstance(action, Played):
            cells.append((action.player, _play_text(board, action.player, action.dice,
                                                    action.board)))  # fmt: skip
            board = action.board
        elif isinstance(action, Doubled):
            cube = action.value
            cells.append((action.player, f" Doubles => {cube}"))
        elif isinstance(action, Taken):
            cells.append((action.player, " Takes"))
        elif isinstance(action, Dropped):
            cells.append((action.player, " Drops"))
    if game.result is not None:
        points = game.result.points
        cells.append((game.result.winner, f" Wins {points} point{'s' if points > 1 else ''}"))
    return cells


def _game_lines(cells: list[tuple[Player, str]]) -> list[str]:
    """Cells laid out in two columns: each goes to its player's next free slot."""
    rows: list[list[str | None]] = []
    slot = 0  # 2 * row + column of the next free slot
    for player, text in cells:
        if slot % 2 != player:
            slot += 1
        while len(rows) <= slot // 2:
            rows.append([None, None])
        rows[slot // 2][player] = text
        slot += 1
    lines = []
    number = 0
    for left, right in rows:
        only_wins = all(cell is None or cell.startswith(" Wins") for cell in (left, right))
        if only_wins:
            prefix = " " * 5
        else:
            number += 1
            prefix = f"{number:3d}) "
        # GNU Backgammon cuts the left cell one character before the right one's dice:
        # a long left cell (four moves with hits) still needs a blank after it.
        left_text = (left or "").ljust(_LEFT_WIDTH)
        if right is not None and not left_text.endswith(" "):
            left_text += " "
        text = prefix + left_text + (right or "")
        lines.append(text)
    return lines


def write_mat(record: MatchRecord) -> str:
    """The ``.mat`` text of a match (the games started so far).

    Raises:
        MatFileError: for a variant that is not backgammon, for money play, or a game
            with an illegal play or a position edit, which a ``.mat`` file cannot hold.
    """
    refusal = gnubg_refusal(record, ".mat")
    if refusal is not None:
        raise MatFileError(refusal)
    if record.rules.is_money:
        raise MatFileError("a .mat file holds match play, not money play: export .sgf instead")
    lines = [f" {record.rules.match_length} point match", ""]
    for game in record.games:
        if not game.is_regular:
            raise MatFileError(
                f"game {game.number} has an illegal play accepted or a position edit, "
                f"which a .mat file cannot hold: export .sgf instead"
            )
        if game.first_player is None:
            continue  # only tied opening rolls so far: nothing to write
        heads = [f"{name} : {score}" for name, score in zip(record.names, game.score, strict=True)]
        lines += [f" Game {game.number}", f" {heads[0]:<{_NAME_WIDTH}}{heads[1]}"]
        lines += _game_lines(_game_cells(game))
        lines.append("")
    return "\n".join(lines) + "\n"


# Reading.


@dataclass(frozen=True, slots=True)
class MatGame:
    """One game as read: its header, its events (opening to result), and its errors."""

    number: int
    score: tuple[int, int]
    events: tuple[Event, ...]
    errors: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MatFile:
    """A ``.mat`` file as read: every game, each with its errors."""

    length: int
    names: tuple[str, str]
    games: tuple[MatGame, ...]
    errors: tuple[str, ...]
    """Every error of the file, those of the games included."""

    def events(self) -> list[Event]:
        """The match's events, from its start to the last game read."""
        events: list[Event] = [MatchStarted(self.names, Rules(match_length=self.length))]
        for game in self.games:
            events += game.events
        return events

    def record(self) -> MatchRecord:
        """The match replayed against the rules.

        Raises:
            MatFileError: if the file had errors, listing them, or its games do not follow
                each other (a score that does not add up).
        """
        if self.errors:
            raise MatFileError("; ".join(self.errors))
        try:
            return replay(self.events())
        except InvalidEventError as error:
            raise MatFileError(f"the games do not add up: {error}") from None


_LENGTH_LINE: Final = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
_GAME_LINE: Final = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_HEADER_LINE: Final = re.compile(r"^\s*(.+?)\s*:\s*(\d+)\s+(.+?)\s*:\s*(\d+)\s*$")
_NUMBERED: Final = re.compile(r"^\s*\d+\)")
_CELL: Final = re.compile(r"\d\d:|Doubles\s*=>|Takes|Drops|Wins|Beavers|Raccoons", re.IGNORECASE)
_ROLL: Final = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_DOUBLE: Final = re.compile(r"^Doubles\s*=>\s*(\d+)$", re.IGNORECASE)
_WINS: Final = re.compile(r"^Wins\s+(\d+)\s+points?(\s+and the match)?$", re.IGNORECASE)
_STEP: Final = re.compile(r"^(bar|\d+)((?:/(?:off|\d+)\*?)+)(?:\((\d)\))?$", re.IGNORECASE)


def _cells(line: str) -> list[tuple[Player, str]]:
    """The cells of one line with their column; a lone cell's column comes from where it is."""
    body_start = 0
    numbered = _NUMBERED.match(line)
    if numbered:
        body_start = numbered.end()
    starts = [match.start() for match in _CELL.finditer(line, body_start)]
    ends = [*starts[1:], None]
    texts = [line[start:end].strip() for start, end in zip(starts, ends, strict=True)]
    if len(starts) == 2:
        return [(0, texts[0]), (1, texts[1])]
    if len(starts) == 1:
        return [(0 if starts[0] < _RIGHT_COLUMN else 1, texts[0])]
    if not starts:
        return []
    raise ValueError(f"more than two cells in {line.strip()!r}")


def _steps(text: str) -> list[tuple[int, int]]:
    """The single steps of moves written as GNU Backgammon or Jellyfish write them."""
    steps: list[tuple[int, int]] = []
    for token in text.split():
        step = _STEP.match(token)
        if not step:
            raise ValueError(f"{token!r} is not a move")
        points = [step.group(1)] + [p.rstrip("*") for p in step.group(2).split("/")[1:]]
        path = [25 if p.lower() == "bar" else 0 if p.lower() == "off" else int(p) for p in points]
        steps += list(itertools.pairwise(path)) * int(step.group(3) or 1)
    return steps


class _GameReader(GameBuilder):
    """Reads one game's cells into events, replaying them as it goes."""

    def cell(self, player: Player, text: str) -> None:
        roll = _ROLL.match(text)
        double = _DOUBLE.match(text)
        wins = _WINS.match(text)
        if roll:
            dice = (int(roll.group(1)), int(roll.group(2)))
            if not self.play(player, dice, _steps(roll.group(3))):
                name = self.replayer.snapshot.names[player]
                raise ValueError(f"{text!r} is not a legal play for {name}")
        elif double:
            self.add(Doubled(player, int(double.group(1))))
        elif text.lower() == "takes":
            self.add(Taken(player))
        elif text.lower() == "drops":
            self.add(Dropped(player))
        elif wins:
            self.end(player, int(wins.group(1)))
        else:
            raise ValueError(f"{text!r} is not a move or a cube action this reader knows")


def _match_state(
    rules: Rules, number: int, score: tuple[int, int], crawford_seen: bool
) -> MatchState:
    """The match before a game, from its header (and whether match point was reached before)."""
    length = rules.match_length
    at_match_point = length > 1 and length - 1 in score
    return MatchState(
        rules=rules,
        score=score,
        game_number=number,
        crawford=at_match_point and not crawford_seen,
        post_crawford=at_match_point and crawford_seen,
    )


def read_mat(text: str) -> MatFile:
    """Every game of a ``.mat`` text, collecting errors per game (never raising for a game).

    Raises:
        MatFileError: only if the text has no `` N point match`` line or no game header.
    """
    lines = text.splitlines()
    length = 0
    blocks: list[tuple[int, int, list[tuple[int, str]]]] = []  # (number, line, lines)
    for index, line in enumerate(lines, 1):
        if line.lstrip().startswith(";"):
            continue
        if not length and (found := _LENGTH_LINE.match(line)):
            length = int(found.group(1))
        elif found := _GAME_LINE.match(line):
            blocks.append((int(found.group(1)), index, []))
        elif blocks and line.strip():
            blocks[-1][2].append((index, line))
    if not length:
        raise MatFileError("not a .mat match: no ' N point match' line")
    if not blocks:
        raise MatFileError(f"no game in this {length}-point match")
    names: tuple[str, str] | None = None
    rules = Rules(match_length=length)
    games: list[MatGame] = []
    errors: list[str] = []
    crawford_seen = False
    for number, line_number, body in blocks:
        game_errors: list[str] = []
        events: tuple[Event, ...] = ()
        score = (0, 0)
        header = _HEADER_LINE.match(body[0][1]) if body else None
        if header is None:
            game_errors.append(f"game {number} (line {line_number}): no 'name : score' line")
        else:
            score = (int(header.group(2)), int(header.group(4)))
            names = names or (header.group(1), header.group(3))
            try:
                start = MatchStarted(names, rules)
                reader = _GameReader(start, _match_state(rules, number, score, crawford_seen))
            except (InvalidEventError, ValueError) as error:
                game_errors.append(f"game {number} (line {line_number}): {error}")
            else:
                for index, line in body[1:]:
                    try:
                        for player, cell in _cells(line):
                            reader.cell(player, cell)
                    except (InvalidEventError, ValueError) as error:
                        game_errors.append(f"game {number}, line {index}: {error}")
                        break
                events = tuple(reader.events)
            crawford_seen = crawford_seen or (length > 1 and length - 1 in score)
        games.append(MatGame(number, score, events, tuple(game_errors)))
        errors += game_errors
    return MatFile(length, names or ("", ""), tuple(games), tuple(errors))
