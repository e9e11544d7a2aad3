"""Exceptions of the match core.

Why here: the match refuses inputs (no double to answer...), and the web view and the
buttons turn that refusal into a 4xx; the core is pure, so the refusal's root lives in it
and :mod:`controller.status` re-exports it.
"""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = ["ActionError", "RefusedError"]


class ActionError(TabulaError, ValueError):
    """An action the board refuses now (bad dice, nothing to accept...): a 4xx, no change."""


class RefusedError(ActionError):
    """An input or action the match refuses now (no double to answer...): nothing changes."""
