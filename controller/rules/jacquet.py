"""Jacquet de Versailles: the turn model, the primauté and the score (``shared/JACQUET.md``).

A board alone cannot say what happens next in Jacquet: numbers that the player on roll
could not play pass to the opponent, who plays them with their own checkers before
their own throw (rule 10), and may decline them if playing them would break a point,
handing the hand back (rule 11). :class:`JacquetTurn` carries that: whose hand it is,
the numbers to play now and whose throw they came from. The move rules themselves
(the courier, the two-point limit, bearing off) are the variant's description in
:mod:`controller.rules.variants`, applied by :mod:`controller.rules.plays`.

Readings where JACQUET.md leaves a choice, documented here:

* numbers handed over that the opponent cannot play either are void (they are not
  handed back again, which could go on forever);
* in the primauté, a doublet both players play (rule 2) hands nothing over: it is part
  of deciding who starts, not a turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from controller.rules.board import CHECKERS, Board, Player, borne_off, check_board
from controller.rules.errors import IllegalActionError, InvalidDiceError
from controller.rules.plays import Play, check_dice, plays_of_numbers
from controller.rules.variants import JACQUET, FirstTurn, Scoring, Unplayable, Variant

__all__ = ["JacquetResult", "JacquetTurn", "jacquet_result"]


@dataclass(frozen=True, slots=True)
class JacquetResult:
    """A finished game: the winner and 1 point, or 2 for a double win (rule 12)."""

    winner: Player
    points: int

    @property
    def is_double(self) -> bool:
        """Whether the loser had borne off no checker."""
        return self.points == 2


def jacquet_result(board: Board) -> JacquetResult | None:
    """The result if a player has borne off all 15 checkers, else None."""
    off = borne_off(board)
    for player in (0, 1):
        if off[player] == CHECKERS:
            return JacquetResult(player, 2 if off[1 - player] == 0 else 1)
    return None


@dataclass(frozen=True, slots=True)
class JacquetTurn:
    """Who acts now in a game of Jacquet de Versailles, and with which numbers.

    ``numbers`` empty means ``player`` throws the dice next (:meth:`throw`); otherwise
    ``player`` must play them (:meth:`plays`, :meth:`play`). ``thrower`` is the player whose
    throw gave the numbers: the opponent of ``player`` when they were handed over.

    Raises:
        IllegalActionError: for a state that cannot be (a variant that is not Jacquet,
            numbers outside 1..6).
    """

    board: Board = JACQUET.start
    player: Player = 0
    numbers: tuple[int, ...] = ()
    thrower: Player = 0
    variant: Variant = JACQUET
    primaute: bool = False
    """The first turn is still being decided (rule 2): numbers, if any, are a doublet that
    both players play before the primauté is thrown again."""
    handed_back: bool = False
    """The opponent declined the handed numbers and the hand came back (rule 11)."""

    def __post_init__(self) -> None:
        if self.variant.scoring is not Scoring.JACQUET:
            raise IllegalActionError(f"{self.variant.name} is not a Jacquet variant")
        check_board(self.board)
        if self.player not in (0, 1) or self.thrower not in (0, 1):
            raise IllegalActionError(f"players are 0 and 1, got {self.player}, {self.thrower}")
        if any(not 1 <= number <= 6 for number in self.numbers):
            raise IllegalActionError(f"numbers are 1..6, got {self.numbers!r}")

    @classmethod
    def start(cls, variant: Variant = JACQUET) -> JacquetTurn:
        """A new game: the primauté in the default rules, player 0 to throw in Ludii's."""
        return cls(
            board=variant.start,
            variant=variant,
            primaute=variant.first_turn is FirstTurn.PRIMAUTE,
        )

    @property
    def result(self) -> JacquetResult | None:
        """The game's result once a player has borne off every checker (rule 12)."""
        return jacquet_result(self.board)

    @property
    def is_handed_over(self) -> bool:
        """Whether ``player`` is playing numbers from the opponent's throw (rule 10)."""
        return bool(self.numbers) and self.player != self.thrower

    @property
    def courier(self) -> int | None:
        """The layout point of ``player``'s courier while it travels alone (rule 5), or None.

        The courier is the one checker out while 14 wait on the start point and none has
        reached the last quadrant: until it arrives no other checker may leave.
        """
        track = self.variant.tracks[self.player]
        sign = 1 if self.player == 0 else -1
        view = [sign * self.board[index] for index in track]
        out = [index for index in range(1, 24) if view[index] > 0]
        if view[24] == 14 and view[25] == 0 and len(out) == 1 and out[0] > 6:
            return track[out[0]]
        return None

    def throw(self, dice: tuple[int, int]) -> JacquetTurn:
        """``player`` throws ``dice``: their numbers to play (a doublet n-n gives n moves).

        Raises:
            IllegalActionError: if the game is over or ``player`` has numbers to play.
            InvalidDiceError: for dice that are not two numbers 1..6.
        """
        pair = check_dice(dice)
        self._check_open()
        if self.numbers:
            raise IllegalActionError(
                f"player {self.player} must first play {list(self.numbers)}, not throw"
            )
        if self.primaute:
            raise IllegalActionError("the first turn is decided by the primauté: one die each")
        return replace(self, numbers=self.variant.moves_of(pair), thrower=self.player)

    def throw_primaute(self, die0: int, die1: int) -> JacquetTurn:
        """Both players throw one die for the first turn (rule 2).

        The higher die wins the hand and plays both numbers; equal dice are a doublet that
        player 0, then player 1, play before throwing again.

        Raises:
            IllegalActionError: if the first turn is already decided.
            InvalidDiceError: for a die outside 1..6.
        """
        for die in (die0, die1):
            if not 1 <= die <= 6:
                raise InvalidDiceError(f"a die shows 1 to 6, got {die!r}")
        if self.numbers or not self.primaute:
            raise IllegalActionError("the primauté is thrown before the first turn only")
        if die0 == die1:
            numbers = self.variant.moves_of((die0, die1))
            return replace(self, player=0, thrower=0, numbers=numbers, primaute=True)
        winner = 0 if die0 > die1 else 1
        numbers = self.variant.moves_of((die0, die1))
        return replace(self, player=winner, thrower=winner, numbers=numbers, primaute=False)

    def plays(self) -> tuple[Play, ...]:
        """The legal plays of ``numbers`` by ``player`` (each with the numbers it leaves)."""
        self._check_open()
        if not self.numbers:
            raise IllegalActionError(f"player {self.player} must throw the dice first")
        return plays_of_numbers(self.board, self.player, self.numbers, self.variant)

    def may_decline(self) -> bool:
        """Rule 11: handed numbers that can only be played by breaking a point may be declined.

        Breaking a point is leaving one of ``player``'s points that held two or more
        checkers with exactly one.
        """
        if not self.is_handed_over or self.handed_back:
            return False
        plays = [play for play in self.plays() if play.moves]
        return bool(plays) and all(self._breaks_a_point(play.result) for play in plays)

    def _breaks_a_point(self, after: Board) -> bool:
        sign = 1 if self.player == 0 else -1
        return any(
            sign * before >= 2 and sign * now == 1
            for before, now in zip(self.board[1:25], after[1:25], strict=True)
        )

    def play(self, play: Play) -> JacquetTurn:
        """The turn after ``player`` makes ``play`` (one of :meth:`plays`).

        Raises:
            IllegalActionError: if ``play`` is not a legal play now.
        """
        if play not in self.plays():
            raise IllegalActionError(
                f"{play.notation or 'no move'!r} is not a legal play of {list(self.numbers)} "
                f"for player {self.player}"
            )
        after = replace(self, board=play.result, numbers=(), handed_back=False)
        if after.result is not None:
            return after
        opponent = 1 - self.player
        if self.primaute:
            if self.player == 0:  # player 1 plays the same doublet, then the primauté again
                return replace(after, player=1, numbers=self.numbers, thrower=1, primaute=True)
            return replace(after, player=0, thrower=0, primaute=True)
        hands_over = (
            self.variant.unplayable is Unplayable.HANDED_OVER
            and self.player == self.thrower
            and not self.handed_back
            and play.unused
        )
        if hands_over:
            return replace(after, player=opponent, numbers=play.unused, thrower=self.player)
        if self.is_handed_over:  # the opponent's numbers are done: now their own throw
            return replace(after, thrower=self.player)
        return replace(after, player=opponent, thrower=opponent)

    def after_illegal(self, board: Board) -> JacquetTurn:
        """The turn after an illegal play, accepted by the opponent, left ``board``.

        Why here: the referee and the record's replay must agree on it. The numbers are
        spent and nothing is handed over; a primauté doublet still passes to player 1, and
        numbers handed over end with the player's own throw.
        """
        after = replace(self, board=board, numbers=(), handed_back=False)
        if after.result is not None:
            return after
        if self.primaute:
            if self.player == 0:
                return replace(after, player=1, thrower=1, numbers=self.numbers)
            return replace(after, player=0, thrower=0)
        if self.is_handed_over:
            return replace(after, thrower=self.player)
        opponent = 1 - self.player
        return replace(after, player=opponent, thrower=opponent)

    def decline(self) -> JacquetTurn:
        """Rule 11: decline the handed numbers; the hand returns to the thrower.

        Raises:
            IllegalActionError: if the numbers may not be declined, saying why.
        """
        if not self.may_decline():
            raise IllegalActionError(
                f"player {self.player} cannot decline {list(self.numbers)}: "
                + (
                    "they were not handed over"
                    if not self.is_handed_over
                    else "a play that keeps every point exists"
                )
            )
        return replace(self, player=self.thrower, handed_back=True)

    def _check_open(self) -> None:
        result = self.result
        if result is not None:
            raise IllegalActionError(f"the game is over: player {result.winner} won")
