"""Match play, money play and the opening roll, as immutable values.

Tournament practice: a match is played to N points; the first game after a player first
reaches N-1 (match point) is the Crawford game, with no doubling; the games after it are
post-Crawford, where the cube is back. A 1-point match has no Crawford game (nobody
*reaches* match point). Money play has no length: scores only add up.

The opening roll (seed, "Mouvement des dames" and "Double automatique"): each side rolls one die;
equal numbers are rolled again and, with automatic doubles, turn the cube to 2, 4, ... up
to the agreed limit, the cube staying centred; the higher die plays both numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from controller.rules.board import Player
from controller.rules.cube import CubePhase, CubeState, Rules
from controller.rules.errors import IllegalActionError, InvalidDiceError
from hardware.board.json_types import is_integer

if TYPE_CHECKING:  # chance comes as a parameter: `tabula plays` need not import random
    import random

__all__ = [
    "MatchState",
    "OpeningRoll",
    "is_at_match_point",
    "roll_opening",
]


def _check_die(die: object) -> int:
    if not is_integer(die) or not 1 <= die <= 6:
        raise InvalidDiceError(f"a die shows 1 to 6, got {die!r}")
    return die


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """The opening roll so far: the tied rolls, then the deciding one.

    A pure step value for a referee that reads real dice one roll at a time
    (:meth:`roll`); :func:`roll_opening` draws the dice from a ``random.Random``.

    Raises:
        InvalidDiceError: for a die that is not 1..6, or deciding dice that are equal.
    """

    rules: Rules = field(default_factory=Rules)
    ties: tuple[int, ...] = ()
    """The numbers both players rolled before the deciding roll, in order."""
    dice: tuple[int, int] | None = None
    """The deciding roll: (player 0's die, player 1's die), or ``None`` while tied."""

    def __post_init__(self) -> None:
        for die in self.ties:
            _check_die(die)
        if self.dice is not None:
            if len(self.dice) != 2:
                raise InvalidDiceError(f"the opening roll is two dice, got {self.dice!r}")
            for die in self.dice:
                _check_die(die)
            if self.dice[0] == self.dice[1]:
                raise InvalidDiceError(
                    f"equal opening dice {self.dice!r} are rolled again, they decide nothing"
                )

    @property
    def is_decided(self) -> bool:
        """Whether a player has won the opening roll."""
        return self.dice is not None

    @property
    def first_player(self) -> Player | None:
        """The player who rolled higher and plays first, or ``None`` while undecided."""
        if self.dice is None:
            return None
        return 0 if self.dice[0] > self.dice[1] else 1

    @property
    def play_dice(self) -> tuple[int, int] | None:
        """The numbers the first player plays (both dice, higher first), or ``None``."""
        if self.dice is None:
            return None
        return max(self.dice), min(self.dice)

    @property
    def automatic_doubles(self) -> int:
        """How many times the tied rolls doubled the cube (0 without the option)."""
        if not self.rules.automatic_doubles:
            return 0
        return min(len(self.ties), self.rules.max_automatic_doubles)

    @property
    def cube_value(self) -> int:
        """The centred cube's value when play starts."""
        return 1 << self.automatic_doubles

    def roll(self, die0: int, die1: int) -> OpeningRoll:
        """The next opening roll: player 0 rolled ``die0`` and player 1 ``die1``.

        Raises:
            InvalidDiceError: for a die that is not 1..6.
            IllegalActionError: if the opening roll is already decided.
        """
        _check_die(die0)
        _check_die(die1)
        if self.dice is not None:
            raise IllegalActionError(
                f"the opening roll is decided: player {self.first_player} plays "
                f"{self.dice[0]}-{self.dice[1]}"
            )
        if die0 == die1:
            return replace(self, ties=(*self.ties, die0))
        return replace(self, dice=(die0, die1))


def roll_opening(rng: random.Random, rules: Rules | None = None) -> OpeningRoll:
    """Roll the opening with ``rng`` until a player wins it.

    >>> import random
    >>> roll_opening(random.Random(3)).is_decided
    True
    """
    opening = OpeningRoll(rules=rules if rules is not None else Rules())
    while not opening.is_decided:
        opening = opening.roll(rng.randint(1, 6), rng.randint(1, 6))
    return opening


def is_at_match_point(match_length: int, score: tuple[int, int]) -> bool:
    """Whether a player of a match (longer than 1 point) is one point from winning it.

    >>> is_at_match_point(1, (0, 0))
    False
    """
    return match_length > 1 and match_length - 1 in score


@dataclass(frozen=True, slots=True)
class MatchState:
    """The score of a match (or money session) between games, immutable.

    Raises:
        IllegalActionError: for a state that cannot occur (a negative score, a Crawford
            flag in money play or without a player at match point, a winner who has not
            reached the length...).
    """

    rules: Rules = field(default_factory=Rules)
    score: tuple[int, int] = (0, 0)
    game_number: int = 1
    """The number of the game being played or about to be, from 1."""
    crawford: bool = False
    """Whether the current game is the Crawford game (no doubling)."""
    post_crawford: bool = False
    """Whether the Crawford game has been played."""
    winner: Player | None = None
    """The player who won the match, once a score reaches the match length."""

    def __post_init__(self) -> None:
        if (
            not isinstance(self.score, tuple)
            or len(self.score) != 2
            or not all(map(is_integer, self.score))
            or min(self.score) < 0
        ):
            raise IllegalActionError(f"a score is two counts of points, got {self.score!r}")
        if not isinstance(self.game_number, int) or self.game_number < 1:
            raise IllegalActionError(f"games are numbered from 1, got {self.game_number!r}")
        if self.crawford and self.post_crawford:
            raise IllegalActionError("a game cannot be both the Crawford game and post-Crawford")
        length = self.rules.match_length
        if self.rules.is_money:
            if self.crawford or self.post_crawford or self.winner is not None:
                raise IllegalActionError("money play has no Crawford game and no match winner")
            return
        reached = [player for player in (0, 1) if self.score[player] >= length]
        if self.winner is None and reached:
            raise IllegalActionError(
                f"player {reached[0]} has {self.score[reached[0]]} points in a "
                f"{length}-point match: they are its winner"
            )
        if self.winner is not None and reached != [self.winner]:
            raise IllegalActionError(
                f"player {self.winner!r} cannot win a {length}-point match at {self.score}"
            )
        if self.winner is not None:
            if self.crawford:
                raise IllegalActionError("a finished match has no Crawford game to play")
            return
        at_match_point = is_at_match_point(length, self.score)
        if not self.rules.crawford:
            if self.crawford or self.post_crawford:
                raise IllegalActionError("these rules have no Crawford game")
        elif at_match_point != (self.crawford or self.post_crawford):
            raise IllegalActionError(
                f"at {self.score[0]}-{self.score[1]} in a {length}-point match the game is "
                + (
                    "the Crawford game or post-Crawford"
                    if at_match_point
                    else "neither the Crawford game nor post-Crawford"
                )
            )

    @property
    def is_over(self) -> bool:
        """Whether a player has won the match (never in money play)."""
        return self.winner is not None

    def away(self, player: Player) -> int | None:
        """Points ``player`` still needs to win the match, or ``None`` in money play."""
        if self.rules.is_money:
            return None
        return max(self.rules.match_length - self.score[player], 0)

    def start_game(self, opening: OpeningRoll) -> CubeState:
        """The cube of a new game once ``opening`` is decided.

        The opening roll's winner has rolled (they play both numbers), so nobody may double
        before the second turn; automatic doubles set the centred cube's value.

        Raises:
            IllegalActionError: if the match is over or the opening roll is undecided.
        """
        if self.winner is not None:
            raise IllegalActionError(f"the match is over: player {self.winner} won it")
        first = opening.first_player
        if first is None:
            raise IllegalActionError("the opening roll is not decided: roll again")
        return CubeState(
            rules=self.rules,
            value=opening.cube_value,
            turn=first,
            phase=CubePhase.ROLLED,
            crawford=self.crawford,
        )

    def after_game(self, points: int, winner: Player) -> MatchState:
        """The match after ``winner`` won a game worth ``points``.

        Points beyond what the winner needed are recorded as scored. The game after a
        player first reaches match point is the Crawford game (if the rules have it),
        and every game after that one is post-Crawford.

        Raises:
            IllegalActionError: if the match is over, or for points or a winner that
                cannot be.
        """
        if self.winner is not None:
            raise IllegalActionError(f"the match is over: player {self.winner} won it")
        if not is_integer(points) or points < 1:
            raise IllegalActionError(f"a game is worth at least 1 point, got {points!r}")
        if not is_integer(winner) or winner not in (0, 1):
            raise IllegalActionError(f"a winner is player 0 or 1, got {winner!r}")
        score = list(self.score)
        score[winner] += points
        new_score = (score[0], score[1])
        length = self.rules.match_length
        if self.rules.is_money:
            return replace(self, score=new_score, game_number=self.game_number + 1)
        if new_score[winner] >= length:
            return replace(
                self,
                score=new_score,
                game_number=self.game_number + 1,
                crawford=False,
                winner=winner,
            )
        post_crawford = self.post_crawford or self.crawford
        crawford = self.rules.crawford and not post_crawford and new_score[winner] == length - 1
        return replace(
            self,
            score=new_score,
            game_number=self.game_number + 1,
            crawford=crawford,
            post_crawford=post_crawford,
        )
