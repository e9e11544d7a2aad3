"""Exceptions of the match core.

Why here: the match refuses inputs (no double to answer...), and the web view and the
buttons turn that refusal into a 4xx; the core is pure, so the refusal's root lives in it
and :mod:`controller.status` re-exports it. The match record's events and their replay
are the core's too, so the records' root error lives here and :mod:`controller.record`
roots its journal's and files' errors in it.
"""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = ["ActionError", "InvalidEventError", "RecordError", "RefusedError", "RefusedEventError"]


class ActionError(TabulaError, ValueError):
    """An action the board refuses now (bad dice, nothing to accept...): a 4xx, no change."""


class RefusedError(ActionError):
    """An input or action the match refuses now (no double to answer...): nothing changes."""


class RecordError(TabulaError):
    """Base class of the records' errors: the events, the journal, the match files."""


class InvalidEventError(RecordError, ValueError):
    """An event that does not parse, or that the rules forbid at its place in the match."""


class RefusedEventError(RecordError, ValueError):
    """Why an event cannot happen where a game stands (the replayer names the event)."""
