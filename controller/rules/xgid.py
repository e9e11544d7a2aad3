"""XGID, eXtreme Gammon's position string, read and written.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10`` has ten fields separated by
colons; we read them as GNU Backgammon's importer does (``SetXGID``), which is also what
eXtreme Gammon writes:

1. **position**: 26 characters, the 26-integer board layout character for character:
   first the top player's bar, then points 1..24 numbered from the bottom player's side,
   last the bottom player's bar; ``-`` empty, ``A``..``O`` 1..15 checkers of the bottom
   player (our player 0), ``a``..``o`` of the top player (our player 1).
2. **cube**: log2 of the cube value as it stands (a pending double not counted).
3. **cube position**: 1 the bottom player owns the cube, -1 the top player, 0 centred.
4. **turn**: 1 bottom, -1 top: the player on roll, or who doubled while a double is
   pending (the other one answers).
5. **dice**: two digits for a roll to play (kept in the order written), ``00`` not rolled
   yet, ``D`` a double offered, ``B`` beavered, ``R`` raccooned. GNU Backgammon reads
   only ``D``, and no documentation fixes the cube fields for ``B`` and ``R``; we read
   all three alike: the cube as it stands, with one redouble pending on top. So with
   ``B`` the doubled player has taken (the cube, doubled once, is theirs) and redoubles,
   and the doubler answers; with ``R`` the doubler has taken the beaver (the cube is
   theirs) and redoubles again, and the beaverer answers. This is also how
   :class:`~controller.rules.cube.CubeState` holds a beaver.
6. **score** of the bottom player, 7. **score** of the top player (points won).
8. **rules**: in a match 1 is the Crawford game and 0 is not; in money play 1 is the
   Jacoby rule, 2 beavers, 3 both.
9. **match length**, 0 for money play.
10. **max cube**: log2 of the cube limit (eXtreme Gammon writes 10; GNU Backgammon
    ignores it).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Final

from controller.rules.board import START, Board, Player, check_board
from controller.rules.cube import CubePhase, CubeState, Rules, crawford_problem
from controller.rules.errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidPositionError,
    InvalidRulesError,
)
from controller.rules.match import MatchState, is_at_match_point
from hardware.board.json_types import is_integer

__all__ = ["XGID_PREFIX", "CubeOffer", "Xgid", "parse_xgid", "xgid"]

XGID_PREFIX: Final = "XGID="
"""What begins an XGID's text (optional when read)."""
_INTEGER: Final = re.compile(r"-?[0-9]+")
_MAX_LOG2: Final = 15
_MAX_DIGITS: Final = 9
"""Longer numbers are refused before ``int`` reads them (it refuses over 4,300 digits)."""


class CubeOffer(enum.Enum):
    """A cube action pending in an XGID's dice field."""

    DOUBLE = "D"
    BEAVER = "B"
    RACCOON = "R"


_OFFERS: Final = {CubePhase.DOUBLED: CubeOffer.DOUBLE, CubePhase.BEAVERED: CubeOffer.BEAVER}
"""The cube phases an XGID's dice field can state, and their letters."""


def _log2(value: object, what: str) -> int:
    if not is_integer(value) or value < 1 or value & (value - 1):
        raise InvalidNotationError(f"invalid XGID fields: {what} is a power of two, got {value!r}")
    log2 = value.bit_length() - 1
    if log2 > _MAX_LOG2:
        raise InvalidNotationError(
            f"invalid XGID fields: {what} is at most 2**{_MAX_LOG2}, got {value}"
        )
    return log2


@dataclass(frozen=True, slots=True)
class Xgid:
    """What an XGID says, in the board layout's terms (player 0 = bottom, player 1 = top).

    Raises:
        InvalidNotationError: naming the field when one is out of range or contradicts
            another (an owned cube at 1, a Crawford flag in money play or a 1-point match,
            a double in the Crawford game, a score at or over the match length...).
    """

    board: Board = START
    cube_value: int = 1
    """The cube's value as it stands (a pending double or beaver not counted)."""
    cube_owner: Player | None = None
    """The cube's owner, ``None`` while centred."""
    turn: Player = 0
    """The player on roll; while a cube action is pending, whose turn it is (the doubler)."""
    dice: tuple[int, int] | None = None
    """The roll to play, in the order written, or ``None``."""
    offer: CubeOffer | None = None
    """A pending cube action, or ``None``."""
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    match_length: int = 0
    max_cube: int = 1024

    def __post_init__(self) -> None:
        def fail(reason: str) -> InvalidNotationError:
            return InvalidNotationError(f"invalid XGID fields: {reason}")

        try:
            object.__setattr__(self, "board", check_board(self.board))
        except InvalidPositionError as error:
            raise fail(str(error)) from None
        _log2(self.cube_value, "the cube value")
        _log2(self.max_cube, "the max cube")
        if self.turn not in (0, 1) or not is_integer(self.turn):
            raise fail(f"the turn is player 0 or 1, got {self.turn!r}")
        if self.cube_owner is not None:
            if self.cube_owner not in (0, 1) or not is_integer(self.cube_owner):
                raise fail(f"the cube owner is 0, 1 or None, got {self.cube_owner!r}")
            if self.cube_value == 1:
                raise fail(f"a cube at 1 is centred, not owned by player {self.cube_owner}")
        if self.dice is not None:
            if (
                not isinstance(self.dice, tuple)
                or len(self.dice) != 2
                or not all(is_integer(die) and 1 <= die <= 6 for die in self.dice)
            ):
                raise fail(f"the dice are two numbers from 1 to 6 or None, got {self.dice!r}")
            if self.offer is not None:
                raise fail("dice cannot be rolled while a cube action is pending")
        if self.offer is not None and not isinstance(self.offer, CubeOffer):
            raise fail(f"a pending cube action is a CubeOffer, got {self.offer!r}")
        for name in ("crawford", "jacoby", "beavers"):
            if not isinstance(getattr(self, name), bool):
                raise fail(f"{name} is True or False, got {getattr(self, name)!r}")
        length = self.match_length
        if not is_integer(length) or length < 0:
            raise fail(f"the match length is a number of points (0 for money), got {length!r}")
        if (
            not isinstance(self.score, tuple)
            or len(self.score) != 2
            or not all(is_integer(n) and n >= 0 for n in self.score)
        ):
            raise fail(f"the score is two counts of points, got {self.score!r}")
        if self.crawford and (problem := crawford_problem(length)):
            raise fail(problem)
        if length:
            if max(self.score) >= length:
                raise fail(f"a score of {self.score} ends a {length}-point match")
            if self.jacoby or self.beavers:
                raise fail("the Jacoby rule and beavers belong to money play")
            if self.crawford and not is_at_match_point(length, self.score):
                raise fail(
                    f"the Crawford game needs a player at {length - 1} points, "
                    f"the score is {self.score}"
                )
            if self.crawford and self.cube_value != 1:
                raise fail(
                    f"nobody doubles in the Crawford game: the cube is at 1, got {self.cube_value}"
                )
        if self.offer is not None:
            if self.crawford:
                raise fail("doubling is not allowed in the Crawford game")
            if self.offer is not CubeOffer.DOUBLE and (length or not self.beavers):
                raise fail(f"{self.offer.name.lower()} needs money play with beavers")
            redoubler = 1 - self.turn if self.offer is CubeOffer.BEAVER else self.turn
            if self.offer is CubeOffer.DOUBLE and self.cube_owner not in (None, self.turn):
                raise fail(
                    f"player {self.turn} cannot double a cube owned by player {self.cube_owner}"
                )
            if self.offer is not CubeOffer.DOUBLE and self.cube_owner != redoubler:
                raise fail(
                    f"after a {self.offer.name.lower()} player {redoubler} owns the cube, "
                    f"got {'no owner' if self.cube_owner is None else self.cube_owner}"
                )

    @classmethod
    def from_game(
        cls,
        board: Board,
        match: MatchState,
        cube: CubeState,
        dice: tuple[int, int] | None = None,
    ) -> Xgid:
        """The XGID fields of a game in progress: its board, match, cube and roll.

        Raises:
            InvalidNotationError: if the dice disagree with the cube's phase (a rolled turn
                without dice, dice before the roll or with a double pending) or the match
                and the cube follow different rules.
        """
        if cube.rules != match.rules:
            raise InvalidNotationError(
                f"invalid XGID fields: the cube follows {cube.rules!r}, the match {match.rules!r}"
            )
        if (cube.phase is CubePhase.ROLLED) != (dice is not None):
            raise InvalidNotationError(
                "invalid XGID fields: dice go with a rolled turn and only with one, "
                f"got {dice!r} with the cube {cube.phase.value}"
            )
        rules = match.rules
        return cls(
            board=board,
            cube_value=cube.value,
            cube_owner=cube.owner,
            turn=cube.turn,
            dice=dice,
            offer=_OFFERS.get(cube.phase),
            score=match.score,
            crawford=match.crawford,
            jacoby=rules.jacoby,
            beavers=rules.beavers,
            match_length=rules.match_length,
            max_cube=max(1024, cube.value),
        )

    def rules(self) -> Rules:
        """The rules this XGID states (an XGID cannot say that the Crawford rule is off)."""
        return Rules(match_length=self.match_length, jacoby=self.jacoby, beavers=self.beavers)

    def _rules_or(self, rules: Rules | None) -> Rules:
        if rules is None:
            return self.rules()
        stated = self.rules()
        for name in ("match_length", "jacoby", "beavers"):
            if getattr(rules, name) != getattr(stated, name):
                raise InvalidRulesError(
                    f"the XGID states {name}={getattr(stated, name)!r}, "
                    f"the rules {getattr(rules, name)!r}"
                )
        return rules

    def match_state(self, rules: Rules | None = None) -> MatchState:
        """The match this XGID states, under ``rules`` if given (they may add what an
        XGID cannot say: automatic doubles, no Crawford rule).

        Like GNU Backgammon, a player at match point outside the Crawford game means
        post-Crawford. The game number is unknown: 1.

        Raises:
            InvalidRulesError: if ``rules`` contradict the XGID's match length or options.
            IllegalActionError: for a Crawford flag under rules without the Crawford rule.
        """
        rules = self._rules_or(rules)
        at_match_point = is_at_match_point(self.match_length, self.score)
        return MatchState(
            rules=rules,
            score=self.score,
            crawford=self.crawford,
            post_crawford=rules.crawford and at_match_point and not self.crawford,
        )

    def cube_state(self, rules: Rules | None = None) -> CubeState:
        """The cube and turn this XGID states, under ``rules`` if given.

        Raises:
            InvalidRulesError: if ``rules`` contradict the XGID's match length or options.
            IllegalActionError: for a pending raccoon, which these rules do not offer.
        """
        rules = self._rules_or(rules)
        if self.offer is CubeOffer.RACCOON:
            raise IllegalActionError("raccoons are not offered by these rules")
        phases = {offer: phase for phase, offer in _OFFERS.items()}
        if self.offer is not None:
            phase = phases[self.offer]
        else:
            phase = CubePhase.TO_ROLL if self.dice is None else CubePhase.ROLLED
        return CubeState(
            rules=rules,
            value=self.cube_value,
            owner=self.cube_owner,
            turn=self.turn,
            phase=phase,
            crawford=self.crawford,
        )


def _side(player: Player | None) -> str:
    return "0" if player is None else ("1" if player == 0 else "-1")


def _position(board: Board) -> str:
    return "".join(
        "-" if n == 0 else chr(ord("A") + n - 1) if n > 0 else chr(ord("a") - n - 1) for n in board
    )


def xgid(position: Xgid) -> str:
    """The XGID text of ``position``, with its ``XGID=`` prefix.

    >>> xgid(Xgid(dice=(5, 2), jacoby=True, beavers=True))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10'
    """
    if position.offer is not None:
        dice = position.offer.value
    elif position.dice is not None:
        dice = f"{position.dice[0]}{position.dice[1]}"
    else:
        dice = "00"
    if position.match_length:
        rules = int(position.crawford)
    else:
        rules = int(position.jacoby) + 2 * int(position.beavers)
    fields = [
        _position(position.board),
        str(position.cube_value.bit_length() - 1),
        _side(position.cube_owner),
        _side(position.turn),
        dice,
        str(position.score[0]),
        str(position.score[1]),
        str(rules),
        str(position.match_length),
        str(position.max_cube.bit_length() - 1),
    ]
    return XGID_PREFIX + ":".join(fields)


def parse_xgid(text: str) -> Xgid:
    """What an XGID says; the ``XGID=`` prefix and surrounding blanks are optional.

    Raises:
        InvalidNotationError: naming the XGID and what is wrong with it.
    """

    def fail(reason: str) -> InvalidNotationError:
        return InvalidNotationError(f"invalid XGID {text!r}: {reason}")

    if not isinstance(text, str):
        raise fail("an XGID is a string")
    body = text.strip()
    body = body.removeprefix(XGID_PREFIX)
    fields = body.split(":")
    if len(fields) != 10:
        raise fail(f"expected 10 fields, got {len(fields)}")
    position, cube, owner, turn, dice, *numbers = fields

    if len(position) != 26:
        raise fail(f"the position has 26 characters, got {len(position)}")
    board = []
    for index, char in enumerate(position):
        if char == "-":
            board.append(0)
        elif "A" <= char <= "O":
            board.append(ord(char) - ord("A") + 1)
        elif "a" <= char <= "o":
            board.append(-(ord(char) - ord("a") + 1))
        else:
            raise fail(f"{char!r} at {index} is not '-', 'A'..'O' or 'a'..'o'")
    if board[0] > 0:
        raise fail("the first character is the top player's bar: lower case or '-'")
    if board[25] < 0:
        raise fail("the last character is the bottom player's bar: upper case or '-'")

    def integer(field: str, name: str, low: int, high: int | None = None) -> int:
        if not _INTEGER.fullmatch(field):
            raise fail(f"the {name} is an integer, got {field!r}")
        if len(field.lstrip("-")) > _MAX_DIGITS:
            raise fail(f"the {name} has more than {_MAX_DIGITS} digits")
        value = int(field)
        if value < low or (high is not None and value > high):
            limits = f"{low} to {high}" if high is not None else f"at least {low}"
            raise fail(f"the {name} is {limits}, got {value}")
        return value

    cube_log2 = integer(cube, "cube (log2 of its value)", 0, _MAX_LOG2)
    owner_side = integer(owner, "cube position", -1, 1)
    turn_side = integer(turn, "turn", -1, 1)
    if turn_side == 0:
        raise fail("the turn is 1 (bottom player) or -1 (top player), got 0")
    score = (
        integer(numbers[0], "bottom player's score", 0),
        integer(numbers[1], "top player's score", 0),
    )
    rules = integer(numbers[2], "rules field", 0, 3)
    length = integer(numbers[3], "match length", 0)
    max_log2 = integer(numbers[4], "max cube (log2)", 0, _MAX_LOG2)
    if length and rules > 1:
        raise fail(f"in a match the rules field is 0 or 1 (Crawford game), got {rules}")

    offer: CubeOffer | None = None
    rolled: tuple[int, int] | None = None
    if dice in ("D", "B", "R"):
        offer = CubeOffer(dice)
    elif len(dice) == 2 and dice.isascii() and dice.isdigit():
        if dice != "00":
            rolled = (int(dice[0]), int(dice[1]))
            if not all(1 <= die <= 6 for die in rolled):
                raise fail(f"the dice are two digits from 1 to 6 (or 00), got {dice!r}")
    else:
        raise fail(f"the dice field is two digits, 00, D, B or R, got {dice!r}")

    try:
        return Xgid(
            board=tuple(board),
            cube_value=1 << cube_log2,
            cube_owner=None if owner_side == 0 else (0 if owner_side == 1 else 1),
            turn=0 if turn_side == 1 else 1,
            dice=rolled,
            offer=offer,
            score=score,
            crawford=bool(length) and rules == 1,
            jacoby=not length and bool(rules & 1),
            beavers=not length and bool(rules & 2),
            match_length=length,
            max_cube=1 << max_log2,
        )
    except InvalidNotationError as error:
        raise fail(str(error).removeprefix("invalid XGID fields: ")) from None
