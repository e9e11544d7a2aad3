"""What the players choose on the board: its buttons, and the mode it is used in.

Why a leaf module: the devices read the buttons, the configuration names the mode, and
the referee answers both; none of them should import another to share these words.
"""

from enum import StrEnum

__all__ = ["Button", "Mode"]


class Mode(StrEnum):
    """What the board is used for (DESIGN.md, "Modes")."""

    REFEREE = "referee"
    LEARNER = "learner"
    RECORDER = "recorder"


class Button(StrEnum):
    """Every button of the board, and the web view's actions that act as one.

    The value is the pin map's key suffix (``button_done``). The turn answers Done,
    Accept, Demand, Undo and Decline; the cube's buttons, Hint and Mode belong to the
    service.
    """

    DONE = "done"
    """Commit the turn."""
    DOUBLE = "double"
    """Offer the cube."""
    TAKE = "take"
    """Take the cube."""
    DROP = "drop"
    """Drop (pass) the cube."""
    ACCEPT = "accept"
    """Accept the opponent's illegal play as played."""
    DEMAND = "demand"
    """Demand a legal play instead (no button of its own: Undo while a play is flagged)."""
    UNDO = "undo"
    """Take back the last uncommitted change."""
    DECLINE = "decline"
    """Jacquet's rule 11: decline numbers handed over that would break a point."""
    HINT = "hint"
    """Learner mode: show the best play."""
    MODE = "mode"
    """Switch between referee, learner and recorder."""
