"""What the referee says about the board: a :class:`Verdict` and the faults it can name."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from controller.rules import Board, Play, Player
from hardware.board.geometry import Location

__all__ = ["Fault", "Kind", "Lifted", "Verdict"]


class Kind(StrEnum):
    """The six things a board can show during a turn (DESIGN.md, "Verdicts")."""

    WAITING = "waiting"
    """The board still shows the position before the turn."""
    PARTIAL = "partial"
    """A position on the way to a legal play (some dice used), or a hit not yet finished."""
    IN_HAND = "in_hand"
    """Checkers are lifted; what remains is part of a legal position."""
    COMPLETE = "complete"
    """A legal final position of this roll."""
    ILLEGAL = "illegal"
    """No legal play reaches what the board shows."""
    INCONSISTENT = "inconsistent"
    """The sensors cannot be right: unknown cells, too many checkers, mixed colours."""


class Fault(StrEnum):
    """Why a board is illegal, in the words a player understands."""

    BLOCKED = "blocked point"
    BAR_FIRST = "must enter from the bar first"
    BOTH_DICE = "must use both dice"
    ALL_FOUR = "must play all four numbers"
    AS_MANY = "must play as many numbers as possible"
    HIGHER_DIE = "must play the higher die"
    BEAR_OFF_EARLY = "cannot bear off yet"
    HIGHER_FIRST = "must move the higher checker first"
    OPPONENT = "moved the opponent's checker"
    BACKWARDS = "moved backwards"
    WRONG_NUMBERS = "the move does not match the dice"
    COURIER = "the courier must reach the last quadrant first"
    """Jacquet's rule 5."""
    TWO_POINTS = "at most two made points in the first quadrant"
    """Jacquet's rule 8."""


@dataclass(frozen=True, slots=True)
class Lifted:
    """A checker in hand: whose, where it was lifted from, where it may be put down."""

    player: Player
    source: Location
    destinations: frozenset[Location]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The referee's reading of one stable observation.

    Attributes:
        kind: what the board shows.
        text: one sentence for the status line and the web view.
        play: the canonical legal play (``complete`` only).
        lifted: the checkers in hand and their legal destinations (``in_hand`` only).
        pending_hits: points where a hit blot still stands (the moment of a hit).
        dice_left: dice still to play (``waiting``, ``partial``, ``in_hand``), highest first.
        fault: why the board is illegal (``illegal`` only).
        locations: ``illegal``: where the board differs from the nearest legal position;
            ``inconsistent``: the locations the sensors got wrong (may be empty for totals).
        nearest: the nearest legal position (``illegal`` only).
        board: the board shown, as 26 integers, when no checker is in hand (hits completed).
    """

    kind: Kind
    text: str
    play: Play | None = None
    lifted: tuple[Lifted, ...] = ()
    pending_hits: frozenset[Location] = frozenset()
    dice_left: tuple[int, ...] = ()
    fault: Fault | None = None
    locations: frozenset[Location] = frozenset()
    nearest: Board | None = None
    board: Board | None = None

    def __post_init__(self) -> None:
        if (self.kind is Kind.COMPLETE) != (self.play is not None):
            raise ValueError(f"a {self.kind} verdict with play {self.play!r}")
        if (self.kind is Kind.ILLEGAL) != (self.fault is not None):
            raise ValueError(f"a {self.kind} verdict with fault {self.fault!r}")
        if (self.kind is Kind.IN_HAND) != bool(self.lifted):
            raise ValueError(f"a {self.kind} verdict with lifted checkers {self.lifted!r}")

    @property
    def is_settled(self) -> bool:
        """Whether the board shows a whole position: nothing in hand, no hit half done."""
        return self.board is not None and not self.pending_hits
