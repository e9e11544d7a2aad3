"""GNU Backgammon Match ID: the match and cube state as 12 base64 characters.

The ID is the base64 text of the 9-byte match key (GNU Backgammon manual, "A technical
description of the Match ID"), a bit string packed little-endian (bit 1 is the least
significant bit of the first byte), numbers least significant bit first:

====== ===================================================================
bits   field
====== ===================================================================
1-4    log2 of the cube value
5-6    cube owner: 00 player 0, 01 player 1, 11 centred
7      the player on roll, or who did roll ("dice owner")
8      the Crawford game
9-11   game state: 0 no game, 1 playing, 2 over, 3 resigned, 4 dropped
12     whose turn it is to act (the doubled player while a double is pending)
13     a double is offered
14-15  resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
16-18  first die (the higher one, as GNU Backgammon writes them); 0 = not rolled
19-21  second die
22-36  match length (0 = money play)
37-51  player 0's score
52-66  player 1's score
67     set when the Jacoby rule is off (GNU Backgammon's ``!fJacoby``, an addition
       after the manual's 66 bits: 0 reads as Jacoby on, as older IDs mean)
====== ===================================================================

Player numbers are the Match ID's own: our player 0 is its player 0. (GNU Backgammon,
importing an XGID, makes the XGID's bottom player - our player 0 - its player 1: see
:func:`controller.rules.gnubg_ids.gnubg_id`.) Every field is checked on construction and on
reading, so a parsed key always writes back to the same ID.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from controller.rules.board import Player
from controller.rules.cube import crawford_problem
from controller.rules.errors import InvalidNotationError
from controller.rules.idcodec import KeyTextError, key_from_text, text_from_key
from hardware.board.json_types import is_integer

__all__ = [
    "GameState",
    "MatchKey",
    "match_id",
    "parse_match_id",
]

_KEY_BYTES: Final = 9
_MAX_CUBE_LOG2: Final = 15
_MAX_NUMBER: Final = (1 << 15) - 1


class GameState(enum.IntEnum):
    """The game state field of a match key."""

    NONE = 0
    """No game started."""
    PLAYING = 1
    OVER = 2
    """Won on the board."""
    RESIGNED = 3
    DROPPED = 4
    """Ended by a dropped double."""


@dataclass(frozen=True, slots=True)
class MatchKey:
    """The fields of a GNU Backgammon match key, validated on construction.

    Raises:
        InvalidNotationError: naming the field and its value when one cannot be encoded
            or contradicts another (a Crawford game in money play or a 1-point match, a
            score over the length).
    """

    cube_value: int = 1
    cube_owner: Player | None = None
    """The player who owns the cube, ``None`` while centred."""
    player_on_roll: Player = 0
    """The player on roll, or who did roll."""
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: Player = 0
    """The player who must act now (the doubled one while a double is pending)."""
    doubled: bool = False
    resigned: int = 0
    """A pending resignation: 0 none, 1 single game, 2 gammon, 3 backgammon."""
    dice: tuple[int, int] | None = None
    """The dice rolled, higher first, or ``None`` before rolling."""
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = True
    """Money play's Jacoby rule (bit 67, set when off)."""

    def __post_init__(self) -> None:
        def fail(reason: str) -> InvalidNotationError:
            return InvalidNotationError(f"invalid match key: {reason}")

        value = self.cube_value
        if not is_integer(value) or value < 1 or value & (value - 1):
            raise fail(f"the cube value is a power of two, got {value!r}")
        if value.bit_length() - 1 > _MAX_CUBE_LOG2:
            raise fail(f"the cube value is at most 2**15, got {value}")
        for name in ("player_on_roll", "turn"):
            if getattr(self, name) not in (0, 1) or not is_integer(getattr(self, name)):
                raise fail(f"{name} is 0 or 1, got {getattr(self, name)!r}")
        if self.cube_owner is not None and (
            self.cube_owner not in (0, 1) or not is_integer(self.cube_owner)
        ):
            raise fail(f"the cube owner is 0, 1 or None, got {self.cube_owner!r}")
        for name in ("crawford", "doubled", "jacoby"):
            if not isinstance(getattr(self, name), bool):
                raise fail(f"{name} is True or False, got {getattr(self, name)!r}")
        if not isinstance(self.game_state, GameState):
            raise fail(f"the game state is a GameState, got {self.game_state!r}")
        if self.resigned not in (0, 1, 2, 3) or not is_integer(self.resigned):
            raise fail(f"a resignation is 0 to 3, got {self.resigned!r}")
        if self.dice is not None:
            if (
                not isinstance(self.dice, tuple)
                or len(self.dice) != 2
                or not all(is_integer(die) and 1 <= die <= 6 for die in self.dice)
            ):
                raise fail(f"the dice are two numbers from 1 to 6 or None, got {self.dice!r}")
            if self.dice[0] < self.dice[1]:
                object.__setattr__(self, "dice", (self.dice[1], self.dice[0]))
        length = self.match_length
        if not is_integer(length) or not 0 <= length <= _MAX_NUMBER:
            raise fail(f"the match length is 0 to {_MAX_NUMBER}, got {length!r}")
        if (
            not isinstance(self.score, tuple)
            or len(self.score) != 2
            or not all(is_integer(n) and 0 <= n <= _MAX_NUMBER for n in self.score)
        ):
            raise fail(f"the score is two numbers from 0 to {_MAX_NUMBER}, got {self.score!r}")
        if length and max(self.score) > length:
            raise fail(f"a score of {self.score} is over the match length {length}")
        if self.crawford and (problem := crawford_problem(length)):
            raise fail(problem)


def _bits(fields: list[tuple[int, int]]) -> int:
    """Pack (value, width) fields one after the other, least significant bit first."""
    bits = 0
    position = 0
    for value, width in fields:
        bits |= value << position
        position += width
    return bits


def match_id(key: MatchKey) -> str:
    """The 12-character GNU Backgammon Match ID of ``key``.

    >>> match_id(MatchKey(game_state=GameState.PLAYING, dice=(5, 2), player_on_roll=1,
    ...                   turn=1, match_length=0))
    'cIkKAAAAAAAA'
    """
    dice = key.dice or (0, 0)
    owner = 3 if key.cube_owner is None else key.cube_owner
    bits = _bits(
        [
            (key.cube_value.bit_length() - 1, 4),
            (owner, 2),
            (key.player_on_roll, 1),
            (int(key.crawford), 1),
            (int(key.game_state), 3),
            (key.turn, 1),
            (int(key.doubled), 1),
            (key.resigned, 2),
            (dice[0], 3),
            (dice[1], 3),
            (key.match_length, 15),
            (key.score[0], 15),
            (key.score[1], 15),
            (int(not key.jacoby), 1),
        ]
    )
    return text_from_key(bits, _KEY_BYTES)


def parse_match_id(text: str) -> MatchKey:
    """The match key a GNU Backgammon Match ID encodes.

    Raises:
        InvalidNotationError: naming the ID and what is wrong with it.
    """

    def fail(reason: str) -> InvalidNotationError:
        return InvalidNotationError(f"invalid match ID {text!r}: {reason}")

    if not isinstance(text, str):
        raise fail("a match ID is a string")
    try:
        bits = key_from_text(text, _KEY_BYTES)
    except KeyTextError as error:
        raise fail(str(error)) from None

    position = 0

    def take(width: int) -> int:
        nonlocal position
        value = (bits >> position) & ((1 << width) - 1)
        position += width
        return value

    cube_log2 = take(4)
    owner = take(2)
    player_on_roll = take(1)
    crawford = take(1)
    game_state = take(3)
    turn = take(1)
    doubled = take(1)
    resigned = take(2)
    dice = (take(3), take(3))
    match_length = take(15)
    score = (take(15), take(15))
    no_jacoby = take(1)
    if bits >> position:
        raise fail("bits are set after bit 67")
    if owner == 2:
        raise fail("the cube owner bits are 10, neither a player (00, 01) nor centred (11)")
    if game_state > GameState.DROPPED:
        raise fail(f"the game state is 0 to 4, got {game_state}")
    if 0 in dice and dice != (0, 0):
        raise fail(f"the dice are both 0 (not rolled) or both 1 to 6, got {dice}")
    if max(dice) > 6:
        raise fail(f"a die shows 1 to 6, got {dice}")
    if dice[0] < dice[1]:
        raise fail(f"GNU Backgammon writes the higher die first, got {dice}")
    try:
        return MatchKey(
            cube_value=1 << cube_log2,
            cube_owner=None if owner == 3 else owner,
            player_on_roll=player_on_roll,
            crawford=bool(crawford),
            game_state=GameState(game_state),
            turn=turn,
            doubled=bool(doubled),
            resigned=resigned,
            dice=None if dice == (0, 0) else dice,
            match_length=match_length,
            score=score,
            jacoby=not no_jacoby,
        )
    except InvalidNotationError as error:
        raise fail(str(error).removeprefix("invalid match key: ")) from None
