"""The events of a match record: what happened at the board, in order.

An event is what happened at the board, in order: the match started, an opening roll, a
roll, a play (legal, or illegal and accepted by the opponent), a cube action, a board seen
mid-turn, a correction, a game's end. Each is an immutable value checked on construction
for what it can say on its own (a die is 1..6, a board is possible); whether the rules
allow it at its place in the match is checked when a match is replayed
(:mod:`controller.match.replay`). Their JSON form for the journal is
:mod:`controller.match.event_json`'s.

>>> from controller.rules import START
>>> Played(0, (3, 1), "8/5 6/5", START).notation
'8/5 6/5'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from controller.match.errors import InvalidEventError
from controller.rules import VARIANTS, Board, Player, Rules, WinKind, check_board
from controller.rules.errors import RulesError
from hardware.board.errors import clipped_repr

__all__ = [
    "Beavered",
    "Declined",
    "DiceCorrected",
    "Doubled",
    "Dropped",
    "Event",
    "Flagged",
    "GameAbandoned",
    "GameEnded",
    "IllegalPlayAccepted",
    "MatchStarted",
    "Observed",
    "OpeningRolled",
    "OrientationConfirmed",
    "Played",
    "PositionEdited",
    "ResignAccepted",
    "ResignRefused",
    "Resigned",
    "Rolled",
    "Taken",
    "names_clash",
]

_MAX_NAME: Final = 31
"""GNU Backgammon reads at most 31 characters of a name in a ``.mat`` file."""


def _fail(event: object, reason: str) -> InvalidEventError:
    return InvalidEventError(f"invalid {type(event).__name__}: {reason}")


def _check_player(event: object, player: object, what: str = "player") -> None:
    if type(player) is not int or player not in (0, 1):
        raise _fail(event, f"a {what} is 0 or 1, got {player!r}")


def _check_dice(event: object, dice: object) -> None:
    if (
        not isinstance(dice, tuple)
        or len(dice) != 2
        or not all(type(die) is int and 1 <= die <= 6 for die in dice)
    ):
        raise _fail(event, f"dice are two numbers from 1 to 6, got {dice!r}")


def _check_board(event: object, board: object, what: str = "board") -> None:
    if not isinstance(board, tuple):
        raise _fail(event, f"the {what} is a tuple of 26 integers, got {board!r}")
    try:
        check_board(board)
    except RulesError as error:
        raise _fail(event, f"the {what}: {error}") from None


def _check_cube_value(event: object, value: object) -> None:
    if type(value) is not int or value < 2 or value & (value - 1):
        raise _fail(event, f"a doubled cube is a power of two from 2, got {value!r}")


def name_problem(name: object) -> str | None:
    """Why ``name`` cannot name a player (None if it can), as the records need it.

    Why one rule: the configuration, a new match and the journal must agree, or a
    configuration that passes ``check-config`` is refused when its match starts.

    >>> name_problem("Ann") is None, name_problem("A:B")
    (True, "a name is 1 to 31 printable characters without ':' or surrounding blanks, got 'A:B'")
    """
    if (
        isinstance(name, str)
        and name.strip()
        and len(name) <= _MAX_NAME
        and name.isprintable()
        and ":" not in name
        and name == name.strip()
    ):
        return None
    return (
        f"a name is 1 to {_MAX_NAME} printable characters without ':' or "
        f"surrounding blanks, got {clipped_repr(name)}"
    )


def names_clash(names: tuple[str, str]) -> str | None:
    """Why two players cannot be named ``names`` (None if they can): the same name twice.

    Why: the page, the hub and the records tell the players apart by their names. The
    configuration and a new match refuse the clash; :class:`MatchStarted` does not, so that
    a journal written before this rule still opens.

    >>> names_clash(("Ann", "Ann"))
    "both players are named 'Ann'"
    >>> names_clash(("Ann", "Bob")) is None
    True
    """
    if names[0] == names[1]:
        return f"both players are named {names[0]!r}"
    return None


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """A match (or money session) began between two named players under ``rules``.

    Player 0 is the left column of a ``.mat`` file and White in an ``.sgf``. ``variant``
    names the game (``controller.rules.VARIANTS``); a record written before variants has
    none and is backgammon. In Jacquet de Versailles the rules give the match length only
    (there is no cube).
    """

    names: tuple[str, str]
    rules: Rules
    variant: str = "backgammon"

    def __post_init__(self) -> None:
        if not isinstance(self.names, tuple) or len(self.names) != 2:
            raise _fail(self, f"names are two strings, got {self.names!r}")
        for name in self.names:
            problem = name_problem(name)
            if problem is not None:
                raise _fail(self, problem)
        if not isinstance(self.rules, Rules):
            raise _fail(self, f"rules are a Rules, got {self.rules!r}")
        if self.variant not in VARIANTS:
            raise _fail(self, f"unknown variant {self.variant!r}; known: {', '.join(VARIANTS)}")


@dataclass(frozen=True, slots=True)
class OpeningRolled:
    """One opening roll: ``dice`` is (player 0's die, player 1's die); equal dice roll again."""

    dice: tuple[int, int]

    def __post_init__(self) -> None:
        _check_dice(self, self.dice)


@dataclass(frozen=True, slots=True)
class _PlayerDice:
    """The fields of an event that gives a player's dice, checked (a base, not an event)."""

    player: Player
    dice: tuple[int, int]

    def __post_init__(self) -> None:
        _check_player(self, self.player)
        _check_dice(self, self.dice)


@dataclass(frozen=True, slots=True)
class Rolled(_PlayerDice):
    """``player`` rolled ``dice`` (in the order read) at the start of a turn."""


@dataclass(frozen=True, slots=True)
class Played:
    """``player`` played ``dice`` legally: canonical GNU Backgammon ``notation``, ``board`` after.

    An empty notation is a roll that could not be played.
    """

    player: Player
    dice: tuple[int, int]
    notation: str
    board: Board

    def __post_init__(self) -> None:
        _check_player(self, self.player)
        _check_dice(self, self.dice)
        if not isinstance(self.notation, str):
            raise _fail(self, f"the notation is a string, got {self.notation!r}")
        _check_board(self, self.board)


@dataclass(frozen=True, slots=True)
class IllegalPlayAccepted:
    """``player`` made a play no legal play reaches, and the opponent accepted it.

    No notation can name it: the record keeps the boards before and after.
    """

    player: Player
    dice: tuple[int, int]
    before: Board
    after: Board

    def __post_init__(self) -> None:
        _check_player(self, self.player)
        _check_dice(self, self.dice)
        _check_board(self, self.before, "board before")
        _check_board(self, self.after, "board after")


@dataclass(frozen=True, slots=True)
class Observed:
    """A board the sensors showed mid-turn and the referee accepted (a partial play)."""

    board: Board

    def __post_init__(self) -> None:
        _check_board(self, self.board)


@dataclass(frozen=True, slots=True)
class Flagged:
    """The referee flagged ``player``'s board as illegal, saying ``reason`` (a verdict)."""

    player: Player
    board: Board
    reason: str

    def __post_init__(self) -> None:
        _check_player(self, self.player)
        _check_board(self, self.board)
        if not isinstance(self.reason, str):
            raise _fail(self, f"the reason is a string, got {self.reason!r}")


@dataclass(frozen=True, slots=True)
class PositionEdited:
    """The position was corrected to ``board`` (a misplaced checker, a sensor fault)."""

    board: Board
    reason: str = ""

    def __post_init__(self) -> None:
        _check_board(self, self.board)
        if not isinstance(self.reason, str):
            raise _fail(self, f"the reason is a string, got {self.reason!r}")


@dataclass(frozen=True, slots=True)
class Declined:
    """Jacquet's rule 11: ``player`` declined the numbers handed over; the hand went back."""

    player: Player

    def __post_init__(self) -> None:
        _check_player(self, self.player)


@dataclass(frozen=True, slots=True)
class Doubled:
    """``player`` offered to double the cube to ``value``."""

    player: Player
    value: int

    def __post_init__(self) -> None:
        _check_player(self, self.player)
        _check_cube_value(self, self.value)


@dataclass(frozen=True, slots=True)
class Taken:
    """``player`` took the pending double (or, after a beaver, the redouble)."""

    player: Player

    def __post_init__(self) -> None:
        _check_player(self, self.player)


@dataclass(frozen=True, slots=True)
class Dropped:
    """``player`` dropped the pending double (or beaver) and so lost the game."""

    player: Player

    def __post_init__(self) -> None:
        _check_player(self, self.player)


@dataclass(frozen=True, slots=True)
class Beavered:
    """The doubled ``player`` took and at once redoubled to ``value`` (money play)."""

    player: Player
    value: int

    def __post_init__(self) -> None:
        _check_player(self, self.player)
        _check_cube_value(self, self.value)


@dataclass(frozen=True, slots=True)
class GameEnded:
    """A game ended: ``winner`` scored ``points`` (``kind`` on the board, or by a drop)."""

    winner: Player
    points: int
    kind: WinKind = WinKind.SINGLE
    dropped: bool = False
    resigned: bool = False
    """Whether the loser resigned ``kind`` and the winner accepted (``Resigned``)."""

    def __post_init__(self) -> None:
        _check_player(self, self.winner, "winner")
        if not isinstance(self.resigned, bool):
            raise _fail(self, f"resigned is True or False, got {self.resigned!r}")
        if self.resigned and self.dropped:
            raise _fail(self, "a game ends by a drop or by a resignation, not both")
        if type(self.points) is not int or self.points < 1:
            raise _fail(self, f"a game is worth at least 1 point, got {self.points!r}")
        if not isinstance(self.kind, WinKind):
            raise _fail(self, f"the kind of win is a WinKind, got {self.kind!r}")
        if not isinstance(self.dropped, bool):
            raise _fail(self, f"dropped is True or False, got {self.dropped!r}")
        if self.dropped and self.kind is not WinKind.SINGLE:
            raise _fail(self, "a dropped double wins a single game")


@dataclass(frozen=True, slots=True)
class Resigned:
    """``player`` offered to resign the game as a ``kind`` (single game, gammon, backgammon).

    Why a kind: backgammon's rules let a player concede a gammon or a backgammon too; the
    opponent accepts (:class:`ResignAccepted`, the game ends with those points times the
    cube) or refuses (:class:`ResignRefused`, play goes on).
    """

    player: Player
    kind: WinKind = WinKind.SINGLE

    def __post_init__(self) -> None:
        _check_player(self, self.player)
        if not isinstance(self.kind, WinKind):
            raise _fail(self, f"the kind resigned is a WinKind, got {self.kind!r}")


@dataclass(frozen=True, slots=True)
class _Answer:
    """The field of an answer to a resignation, checked (a base, not an event)."""

    player: Player

    def __post_init__(self) -> None:
        _check_player(self, self.player)


@dataclass(frozen=True, slots=True)
class ResignAccepted(_Answer):
    """``player`` accepted the opponent's resignation: a :class:`GameEnded` follows."""


@dataclass(frozen=True, slots=True)
class ResignRefused(_Answer):
    """``player`` refused the opponent's resignation: the game goes on where it stood."""


@dataclass(frozen=True, slots=True)
class DiceCorrected(_PlayerDice):
    """The dice of ``player``'s turn were not those rolled on record: they were ``dice``.

    Why: the camera may misread a roll (5-3 read, 6-2 on the board) and the players then
    confirm the other dice by hand; the roll stays journalled as read, this corrects it,
    and the play, the resumption and the exports use the corrected dice.
    """


@dataclass(frozen=True, slots=True)
class GameAbandoned:
    """The game in progress was abandoned (a knocked board): its plays do not count.

    The score stays as it was and the next event is a new opening roll for the same game
    number; ``reason`` says why, for people.
    """

    reason: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.reason, str):
            raise _fail(self, f"the reason is a string, got {self.reason!r}")


@dataclass(frozen=True, slots=True)
class OrientationConfirmed:
    """The players confirmed which side of the board is player 0's, before the opening roll.

    ``far``: player 0 sits at the far side of the sensor board (its locations mirrored);
    ``colour_b``: player 0 plays the checkers of colour B (magnets south up).
    """

    far: bool
    colour_b: bool

    def __post_init__(self) -> None:
        for name in ("far", "colour_b"):
            if not isinstance(getattr(self, name), bool):
                raise _fail(self, f"{name} is True or False, got {getattr(self, name)!r}")


Event = (
    MatchStarted
    | OpeningRolled
    | Rolled
    | Played
    | IllegalPlayAccepted
    | Observed
    | Flagged
    | PositionEdited
    | Declined
    | Doubled
    | Taken
    | Dropped
    | Beavered
    | GameEnded
    | DiceCorrected
    | GameAbandoned
    | OrientationConfirmed
    | Resigned
    | ResignAccepted
    | ResignRefused
)
"""Any event of a match record."""
