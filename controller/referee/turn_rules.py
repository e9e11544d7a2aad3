"""What a variant changes in a turn, and how a turn ends.

Why apart from :mod:`.turn`: the turn's state machine asks a :class:`TurnRules` wherever
variants differ (how the dice are judged, their own phases and buttons, who plays next,
a game ending mid-turn) and never tests which variant it plays. Backgammon's rules are
:class:`~controller.referee.turn.BackgammonTurnRules`; Jacquet de Versailles' carry the
rules' turn model (:mod:`controller.referee.jacquet_turn`). A turn's end
(:class:`TurnEnd`) carries the rules of what follows, since a variant's turn state may
change with the play (Jacquet: numbers handed over, the hand given back).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from controller.referee.inputs import Roll, TurnInput
from controller.referee.judge import Judge
from controller.referee.verdict import Fault
from controller.rules import Board, JacquetResult, Play, Player
from hardware.board.geometry import Location

if TYPE_CHECKING:  # the state machine asks the rules: only its type is named here
    from controller.referee.turn import TurnState

__all__ = ["TurnEnd", "TurnRules"]


class TurnRules(Protocol):
    """What a variant changes in a turn; :class:`TurnState` asks, never tests the variant.

    An implementation may carry the variant's own turn state (Jacquet's: who plays which
    numbers), so a state's rules are replaced as the turn ends (:attr:`TurnEnd.following`).
    """

    @property
    def behalf(self) -> str:
        """Who plays which numbers on whose behalf, or ``""`` for a player's own roll."""

    @property
    def courier(self) -> Location | None:
        """The location of the mover's courier travelling alone (rule 5), or None."""

    @property
    def mover_throws_next(self) -> bool:
        """Whether the mover throws the next dice even while playing (Jacquet's numbers
        handed over: their own throw follows at once, rule 10)."""

    def judge(self, before: Board, player: Player, dice: tuple[int, int]) -> Judge:
        """The judge of the turn once ``dice`` are known (rolled, entered or given)."""

    def on(self, state: TurnState, event: TurnInput) -> TurnState | None:
        """The state after an event the variant answers itself (its phases, its buttons),
        or None to leave ``event`` to the general turn."""

    def may_decline(self, state: TurnState) -> bool:
        """Whether the mover may decline the numbers being played now."""

    def has_contact(self, board: Board, player: Player) -> bool:
        """Whether ``player``'s checkers may still meet the opponent's after ``board``."""

    def result(self, board: Board) -> JacquetResult | None:
        """The game's result the moment ``board`` is reached, for a variant whose game ends
        mid-turn; None otherwise (backgammon's ends in the match flow, with its cube)."""

    def with_board(self, board: Board) -> TurnRules:
        """These rules for a turn from ``board`` instead (the position corrected)."""

    def after(self, state: TurnState, play: Play | None, board: Board) -> TurnRules:
        """The rules of what follows ``state`` ended on ``board`` (``play`` if legal)."""

    def next_turn(self, ended: TurnState) -> TurnState:
        """The turn after ``ended`` (whose rules these are), before it sees the board.

        Raises:
            IllegalActionError: if nothing follows (the game is over).
        """


@dataclass(frozen=True, slots=True)
class TurnEnd:
    """How a turn ended: the board it leaves and what the record needs.

    Attributes:
        board: the position after the turn (the next turn's position before).
        play: the legal play made, or None for an illegal play accepted as made.
        fault: why the accepted play is illegal, or None.
        accepted: the play was accepted as made (Accept, or the opponent rolled or doubled).
        next_roll: the opponent's roll that ended the turn (a reading, a cocked die, an
            unreadable roll), when it counts: the next turn starts from it.
        void_roll: the opponent rolled too early: that roll is void and must be made again.
        doubled: the opponent doubled, which ended the turn.
        declined: Jacquet: the mover declined the numbers handed over (rule 11).
        following: the variant's rules after this turn (Jacquet's: who plays what next).
    """

    board: Board
    play: Play | None
    fault: Fault | None = None
    accepted: bool = False
    next_roll: Roll | None = None
    void_roll: bool = False
    doubled: bool = False
    declined: bool = False
    following: TurnRules = field(kw_only=True)

    @property
    def result(self) -> JacquetResult | None:
        """The game's result if this turn ended it (Jacquet's rule 12), else None."""
        return self.following.result(self.board)
