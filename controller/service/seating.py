"""Who sits where during a match: the board's orientation and its confirmation at the start.

Why apart from the loop: before a match's first opening roll the orientation the set-up
shows is proposed and the players confirm it (Done, or the web view) or swap it (Undo);
that is state of the table, pure, which the service journals once confirmed
(``record.OrientationConfirmed``) so that a restart keeps it.
"""

from __future__ import annotations

from controller import record
from controller.match.orientation import Orientation, propose
from controller.referee import Cells, Display, cells_from_board
from controller.rules import Board

__all__ = ["ORIENT_TEXT", "Seating"]

ORIENT_TEXT = "Done confirms, Undo swaps sides"
"""What the players do to confirm the orientation."""


class Seating:
    """The orientation of a board's match, proposed, swapped and confirmed.

    Args:
        orientation: the configured orientation, until a confirmed one is journalled.
        confirm: propose the orientation at a match's start and wait for the players'
            confirmation before the opening roll.
    """

    def __init__(self, orientation: Orientation, *, confirm: bool) -> None:
        self.orientation = orientation
        self.confirm = confirm
        self.pending = False
        """Waiting for the players to confirm the orientation (no opening roll before)."""
        self.physical: Cells | None = None
        """The sensors' last cells as the board numbers them (before the orientation)."""

    def resume(self, state: record.MatchSnapshot | None) -> None:
        """Take the journal's confirmed orientation, or ask for one at a match's start."""
        confirmed = state.orientation if state is not None else None
        if confirmed is not None:
            self.orientation = Orientation(confirmed.far, confirmed.colour_b)
            self.pending = False
            return
        self.pending = (
            self.confirm
            and state is not None
            and state.phase is record.Phase.OPENING
            and state.opening is None
            and state.match.game_number == 1
        )

    def seen(self, cells: Cells, start: Board) -> Cells:
        """Note the sensors' ``cells``; while pending, propose the orientation in which they
        show ``start`` (the variant's set-up). The cells in the referee's numbering."""
        self.physical = cells
        if self.pending:
            self.orientation = (
                propose(cells, cells_from_board(start), self.orientation) or self.orientation
            )
        return self.orientation.logical(cells)

    def confirmed(self, orientation: Orientation) -> Cells | None:
        """Adopt the confirmed ``orientation``: the last cells seen in its numbering."""
        self.orientation, self.pending = orientation, False
        return self.logical()

    def logical(self) -> Cells | None:
        """The last cells seen, in the referee's numbering (None before any)."""
        return None if self.physical is None else self.orientation.logical(self.physical)

    def display(self, names: tuple[str, str], start: Board) -> Display:
        """What the LEDs and the status line show while the orientation waits."""
        who = self.orientation.describe(names)
        set_up = self.logical() == cells_from_board(start)
        head = "who is who" if set_up else "set up the board; who is who"
        text = f"{head}: {who} (green: {names[0]}); {ORIENT_TEXT}"
        return Display(self.orientation.scene(self.physical), text)
