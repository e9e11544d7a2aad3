"""The doubling cube, the end of a game and its score, as immutable values.

The seed ("Doubler", "Gammons et Backgammons", "Règles facultatives") and tournament
practice, in one place:

- A player may offer a double only at the start of their own turn, before rolling, and
  only while the cube is centred or their own. The opponent takes (and then owns the
  cube at twice its value) or drops (and loses the game for the value before the double).
  Redoubles have no limit.
- Beaver (money play with the option only, never in match play, as tournaments rule):
  the doubled player takes and at once redoubles, keeping the cube; the original
  doubler then takes or drops as for a normal double. Raccoons are not offered.
- No doubling in the Crawford game.
- A game won on the board scores the cube value times 1 (single), 2 (gammon: the loser
  bore off no checker) or 3 (backgammon: moreover a loser's checker is on the bar or in
  the winner's home board).
- Jacoby rule (money play only): gammons and backgammons count single while the cube is
  centred, i.e. if neither player doubled. An automatic double leaves the cube centred
  and so does not count as a double here: GNU Backgammon scores it this way (gammons
  "do not count on a centred cube during money sessions under the Jacoby rule").
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Final

from controller.rules.board import CHECKERS, Board, Player, borne_off, check_board
from controller.rules.errors import IllegalActionError, InvalidPositionError, InvalidRulesError
from hardware.board.frozen import Unchecked
from hardware.board.json_types import is_integer

__all__ = [
    "MAX_MATCH_LENGTH",
    "CubePhase",
    "CubeState",
    "GameResult",
    "Outcome",
    "Rules",
    "WinKind",
    "crawford_problem",
    "outcome",
]

MAX_MATCH_LENGTH: Final = 64
"""The longest match a new match may have: GNU Backgammon is built for matches of at most
64 points (``new match 65``: "compiled with support only for matches of length 64 and
below"), so a longer one would give a ``.mat`` and an ``.sgf`` that no program reads."""


def _check_player(player: object, what: str = "player") -> Player:
    if not is_integer(player) or player not in (0, 1):
        raise IllegalActionError(f"a {what} is 0 or 1, got {player!r}")
    return player


@dataclass(frozen=True, slots=True)
class Rules:
    """The settings of a match or a money session, validated on construction.

    Raises:
        InvalidRulesError: for a setting that is not a number where one is needed, or an
            option that only money play has (Jacoby, beavers, automatic doubles) in a match.
    """

    match_length: int = 0
    """Points to win the match; 0 is money play (no match length)."""
    jacoby: bool = False
    """Money play: gammons and backgammons count single until a player doubles."""
    beavers: bool = False
    """Money play: a doubled player may beaver (take and redouble at once, keeping the cube)."""
    automatic_doubles: bool = False
    """Money play: equal dice on the opening roll double the cube, which stays centred."""
    max_automatic_doubles: int = 1
    """How many automatic doubles a game may have (players usually agree on one)."""
    crawford: bool = True
    """Match play: no doubling in the game after a player first reaches match point."""

    def __post_init__(self) -> None:
        if not is_integer(self.match_length) or self.match_length < 0:
            raise InvalidRulesError(
                f"the match length is a number of points (0 for money play), "
                f"got {self.match_length!r}"
            )
        if not is_integer(self.max_automatic_doubles) or self.max_automatic_doubles < 1:
            raise InvalidRulesError(
                f"the limit of automatic doubles is at least 1, got {self.max_automatic_doubles!r}"
            )
        for name in ("jacoby", "beavers", "automatic_doubles", "crawford"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidRulesError(f"{name} is True or False, got {getattr(self, name)!r}")
        if self.match_length:
            for name, label in (
                ("jacoby", "the Jacoby rule belongs"),
                ("beavers", "beavers belong"),
                ("automatic_doubles", "automatic doubles belong"),
            ):
                if getattr(self, name):
                    raise InvalidRulesError(
                        f"{label} to money play, not to a {self.match_length}-point match"
                    )

    @property
    def is_money(self) -> bool:
        """Whether this is money play (no match length)."""
        return self.match_length == 0


def crawford_problem(match_length: int) -> str | None:
    """Why no game of a ``match_length``-point match (0: money play) can be the Crawford
    game, or ``None`` if one can.

    The Crawford game follows the first time a player reaches match point, which never
    happens in a 1-point match (GNU Backgammon clears such a flag when it reads one).

    >>> crawford_problem(1)
    'a 1-point match has no Crawford game'
    """
    if match_length == 0:
        return "money play has no Crawford game"
    if match_length == 1:
        return "a 1-point match has no Crawford game"
    return None


class WinKind(enum.IntEnum):
    """How a game was won on the board; the value is the multiplier of the cube."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game on the board: who bore off all 15 checkers and how."""

    winner: Player
    kind: WinKind


def outcome(board: Board, *, checked: bool = False) -> Outcome | None:
    """The game's outcome if a player has borne off every checker, else ``None``.

    The loser is gammoned if they bore off no checker, and backgammoned if moreover one of
    their checkers is on the bar or in the winner's home board (points 1..6 for player 0,
    19..24 for player 1 in the layout). ``checked``: ``board`` is known to be a possible
    board (:func:`check_board`), as a play event's is, so it is not checked again (a
    journal's replay asks this of every play).

    Raises:
        InvalidPositionError: for an impossible board, or one where both players bore off
            all their checkers.

    >>> from controller.rules.board import START
    >>> outcome(START) is None
    True
    """
    if not checked:
        board = check_board(board)
    off = borne_off(board)
    if off == (CHECKERS, CHECKERS):
        raise InvalidPositionError("both players have borne off all 15 checkers")
    if CHECKERS not in off:
        return None
    winner: Player = 0 if off[0] == CHECKERS else 1
    loser = 1 - winner
    if off[loser]:
        return Outcome(winner, WinKind.SINGLE)
    if winner == 0:
        stranded = board[0] < 0 or any(n < 0 for n in board[1:7])
    else:
        stranded = board[25] > 0 or any(n > 0 for n in board[19:25])
    return Outcome(winner, WinKind.BACKGAMMON if stranded else WinKind.GAMMON)


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended and what it scored."""

    winner: Player
    points: int
    """Points won: the cube value times the counted multiplier."""
    cube_value: int
    kind: WinKind = WinKind.SINGLE
    """The kind of win on the board (``SINGLE`` for a dropped double)."""
    dropped: bool = False
    """Whether the game ended by a dropped double (or a dropped beaver)."""
    jacoby: bool = False
    """Whether the Jacoby rule made a gammon or backgammon count single."""
    resigned: bool = False
    """Whether the loser resigned ``kind`` and the winner accepted (no play ended it)."""


class CubePhase(enum.Enum):
    """Where the turn stands, as far as the cube is concerned."""

    # By identity, as members compare, at C speed: Enum's own hash is Python code, and
    # resuming a journal looks a member up in a dict for every event it folds.
    __hash__ = object.__hash__

    TO_ROLL = "to roll"
    """The player on turn has not rolled: they may double, if allowed, or roll."""
    ROLLED = "rolled"
    """The player on turn rolled: no cube action until the next turn."""
    DOUBLED = "doubled"
    """The player on turn doubled: the opponent takes, drops or (money) beavers."""
    BEAVERED = "beavered"
    """The doubled player beavered: the doubler takes or drops the redouble."""


@dataclass(frozen=True, slots=True)
class CubeState:
    """The doubling cube of one game and the turn it follows, immutable.

    Every action takes the acting player and returns the next state, or raises
    :class:`IllegalActionError` saying why the rules forbid it now; the ``*_problem``
    queries give that reason without raising. With a double pending, ``value`` is the cube
    before the double (as an XGID writes it) and :attr:`offered_value` what it would become.
    """

    rules: Rules = field(default_factory=Rules)
    value: int = 1
    owner: Player | None = None
    """The player who owns the cube, or ``None`` while it is centred."""
    turn: Player = 0
    """The player whose turn it is: the one who rolls, or who doubled."""
    phase: CubePhase = CubePhase.TO_ROLL
    crawford: bool = False
    """Whether this game is the Crawford game (no doubling)."""

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):
            raise InvalidRulesError(f"rules must be a Rules, got {self.rules!r}")
        if not is_integer(self.value) or self.value < 1 or self.value & (self.value - 1):
            raise IllegalActionError(f"a cube value is a power of two, got {self.value!r}")
        _check_player(self.turn, "turn")
        if self.owner is not None:
            _check_player(self.owner, "cube owner")
        if not isinstance(self.phase, CubePhase):
            raise IllegalActionError(f"a cube phase is a CubePhase, got {self.phase!r}")
        if self.crawford and (problem := crawford_problem(self.rules.match_length)):
            raise IllegalActionError(problem)
        if self.crawford and (self.value != 1 or self.phase is CubePhase.DOUBLED):
            raise IllegalActionError("nobody doubles in the Crawford game: the cube stays at 1")
        if self.phase is CubePhase.DOUBLED and self.owner not in (None, self.turn):
            raise IllegalActionError(
                f"player {self.turn} cannot have doubled a cube owned by player {self.owner}"
            )
        if self.phase is CubePhase.BEAVERED and self.owner != 1 - self.turn:
            raise IllegalActionError("after a beaver the beaverer owns the cube")

    @property
    def offered_value(self) -> int | None:
        """What the cube becomes if the pending double is taken, or ``None``."""
        if self.phase in (CubePhase.DOUBLED, CubePhase.BEAVERED):
            return self.value * 2
        return None

    @property
    def is_centred(self) -> bool:
        """Whether the cube is in the middle (nobody has doubled this game)."""
        return self.owner is None

    @property
    def to_act(self) -> Player:
        """The player who must act next: the one on turn, or the one answering a double."""
        return 1 - self.turn if self.phase is CubePhase.DOUBLED else self.turn

    # Doubling.

    def double_problem(self, player: Player) -> str | None:
        """Why ``player`` may not double now, or ``None`` if they may."""
        _check_player(player)
        if self.phase is CubePhase.DOUBLED:
            return f"a double is pending: player {1 - self.turn} must take or drop"
        if self.phase is CubePhase.BEAVERED:
            return f"a beaver is pending: player {self.turn} must take or drop"
        if player != self.turn:
            return f"it is player {self.turn}'s turn: a double is offered only on one's own turn"
        if self.phase is CubePhase.ROLLED:
            return f"player {player} has rolled: a double is offered only before rolling"
        if self.crawford:
            return "doubling is not allowed in the Crawford game"
        if self.owner is not None and self.owner != player:
            return f"the cube is owned by player {self.owner}"
        return None

    def can_double(self, player: Player) -> bool:
        """Whether ``player`` may offer a double now."""
        return self.double_problem(player) is None

    def double(self, player: Player) -> CubeState:
        """``player`` offers to double the stakes.

        Raises:
            IllegalActionError: if the rules forbid it now, saying why.
        """
        problem = self.double_problem(player)
        if problem:
            raise IllegalActionError(f"player {player} cannot double: {problem}")
        return replace(self, phase=CubePhase.DOUBLED)

    # Answering a double.

    def _answer_problem(self, player: Player, action: str) -> str | None:
        _check_player(player)
        if self.phase is CubePhase.DOUBLED:
            if player == self.turn:
                return f"player {player} doubled: player {1 - player} must answer"
            return None
        if self.phase is CubePhase.BEAVERED:
            if player != self.turn:
                return f"player {player} beavered: player {1 - player} must answer"
            if action == "beaver":
                return "a beaver cannot be beavered again (raccoons are not offered)"
            return None
        return "no double is pending"

    def take_problem(self, player: Player) -> str | None:
        """Why ``player`` may not take now, or ``None`` if they may."""
        return self._answer_problem(player, "take")

    def can_take(self, player: Player) -> bool:
        """Whether ``player`` may take a pending double or beaver."""
        return self.take_problem(player) is None

    def take(self, player: Player) -> CubeState:
        """``player`` accepts the pending double (and owns the cube) or beaver.

        The game goes on at the doubled value; the doubler now rolls. After a beaver the
        beaverer keeps the cube.

        Raises:
            IllegalActionError: if no double is pending or ``player`` is not the one to answer.
        """
        problem = self.take_problem(player)
        if problem:
            raise IllegalActionError(f"player {player} cannot take: {problem}")
        owner = player if self.phase is CubePhase.DOUBLED else self.owner
        return replace(self, value=self.value * 2, owner=owner, phase=CubePhase.TO_ROLL)

    def drop_problem(self, player: Player) -> str | None:
        """Why ``player`` may not drop now, or ``None`` if they may."""
        return self._answer_problem(player, "drop")

    def can_drop(self, player: Player) -> bool:
        """Whether ``player`` may drop (refuse) a pending double or beaver."""
        return self.drop_problem(player) is None

    def drop(self, player: Player) -> GameResult:
        """``player`` refuses the pending double or beaver and concedes the game.

        The other player wins the cube's value before that double (a beaver's refusal
        thus costs the doubled value the beaverer accepted).

        Raises:
            IllegalActionError: if no double is pending or ``player`` is not the one to answer.
        """
        problem = self.drop_problem(player)
        if problem:
            raise IllegalActionError(f"player {player} cannot drop: {problem}")
        return GameResult(winner=1 - player, points=self.value, cube_value=self.value, dropped=True)

    def beaver_problem(self, player: Player) -> str | None:
        """Why ``player`` may not beaver now, or ``None`` if they may."""
        problem = self._answer_problem(player, "beaver")
        if problem:
            return problem
        if not self.rules.is_money:
            return "beavers are not allowed in match play"
        if not self.rules.beavers:
            return "beavers are not allowed by the rules of this session"
        return None

    def can_beaver(self, player: Player) -> bool:
        """Whether ``player`` may beaver the pending double."""
        return self.beaver_problem(player) is None

    def beaver(self, player: Player) -> CubeState:
        """The doubled ``player`` takes and at once redoubles, keeping the cube.

        Raises:
            IllegalActionError: in match play, without the beaver option, or out of turn.
        """
        problem = self.beaver_problem(player)
        if problem:
            raise IllegalActionError(f"player {player} cannot beaver: {problem}")
        return replace(self, value=self.value * 2, owner=player, phase=CubePhase.BEAVERED)

    # Resignation.

    def resign_problem(self, player: Player) -> str | None:
        """Why ``player`` may not resign now, or ``None`` if they may (a double answers first)."""
        if self.phase in (CubePhase.DOUBLED, CubePhase.BEAVERED):
            return f"player {player} cannot resign now: {self._phase_text()}"
        return None

    def resign(self, player: Player, kind: WinKind) -> GameResult:
        """``player`` resigned a ``kind`` of game and the opponent accepted: what it scores.

        Scored as the same win on the board (cube value times 1, 2 or 3, the Jacoby rule
        included), so a resignation never costs more than playing on could.

        Raises:
            IllegalActionError: while a double or beaver awaits its answer.
        """
        problem = self.resign_problem(player)
        if problem:
            raise IllegalActionError(problem)
        ended = self.result(Outcome(1 - player, kind))
        return replace(ended, resigned=True)

    # The turn.

    def roll(self, player: Player) -> CubeState:
        """``player`` rolls the dice: the chance to double is gone until their next turn.

        Raises:
            IllegalActionError: if it is not ``player``'s turn to roll.
        """
        _check_player(player)
        if self.phase is not CubePhase.TO_ROLL:
            raise IllegalActionError(f"player {player} cannot roll: {self._phase_text()}")
        if player != self.turn:
            raise IllegalActionError(
                f"player {player} cannot roll: it is player {self.turn}'s turn"
            )
        return self._next(self.turn, CubePhase.ROLLED)

    def end_turn(self, player: Player) -> CubeState:
        """``player`` finished moving: the opponent's turn starts, before their roll.

        Raises:
            IllegalActionError: if ``player`` is not on turn or has not rolled.
        """
        _check_player(player)
        if player != self.turn:
            raise IllegalActionError(
                f"player {player} cannot end the turn: it is player {self.turn}'s turn"
            )
        if self.phase is not CubePhase.ROLLED:
            raise IllegalActionError(f"player {player} cannot end the turn: {self._phase_text()}")
        return self._next(1 - player, CubePhase.TO_ROLL)

    def _next(self, turn: Player, phase: CubePhase) -> CubeState:
        """The same cube with ``turn`` and ``phase``, copied through its slots, unchecked.

        Why: a resume folds a roll and an end of turn for every play of the match, and
        ``replace()`` reads the fields at each call and runs the checks again. None is
        needed: the cube was checked, the turn is one of its players (the roller's, or the
        other one after ``player`` was checked), and no cube forbids rolling or its next
        turn.
        """
        return _UNCHECKED.copy(self, {"turn": turn, "phase": phase})

    def _phase_text(self) -> str:
        if self.phase is CubePhase.DOUBLED:
            return f"a double is pending: player {1 - self.turn} must take or drop"
        if self.phase is CubePhase.BEAVERED:
            return f"a beaver is pending: player {self.turn} must take or drop"
        if self.phase is CubePhase.ROLLED:
            return f"player {self.turn} has already rolled"
        return f"player {self.turn} has not rolled yet"

    # Scoring.

    def result(self, ended: Outcome) -> GameResult:
        """What a game won on the board scores: cube value times 1, 2 or 3.

        Under the Jacoby rule (money play) a gammon or backgammon counts single while the
        cube is centred. In match play the points are recorded in full even beyond what
        the winner needed.

        Raises:
            IllegalActionError: if a double is pending (the game cannot end on the board).
        """
        if self.phase in (CubePhase.DOUBLED, CubePhase.BEAVERED):
            raise IllegalActionError(f"the game cannot end on the board: {self._phase_text()}")
        jacoby = (
            self.rules.is_money
            and self.rules.jacoby
            and self.is_centred
            and ended.kind > WinKind.SINGLE
        )
        multiplier = 1 if jacoby else int(ended.kind)
        return GameResult(
            winner=ended.winner,
            points=self.value * multiplier,
            cube_value=self.value,
            kind=ended.kind,
            jacoby=jacoby,
        )


_UNCHECKED: Final = Unchecked(CubeState)
