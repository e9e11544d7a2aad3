"""Stable observations: a board state counts only once it has held for the settle time.

Why: a hand sliding a checker over several points makes the board pass through states
that are not moves. The settler is pure (time is an argument), so that tests drive it
with a fake clock and the asyncio shell only sleeps until :meth:`Settler.deadline`.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_bridge.layout import Observation, observe
from hardware.board.errors import LayoutError
from hardware.board.geometry import Cell

__all__ = ["Settler"]


class Settler:
    """Turns a stream of timed board states into observations of the stable ones.

    An observation is emitted when a state has not changed for ``settle_s`` seconds and
    differs from the last one emitted, so a state that comes back (after a reconnect, a
    replay or a checker lifted and put back) is not read twice.

    Raises:
        LayoutError: if ``settle_s`` is negative.

    >>> from hardware.board.geometry import cells_from_board
    >>> settler = Settler(0.5)
    >>> settler.update(cells_from_board([0] * 26), event=1, now=10.0)
    >>> settler.poll(10.4) is None, settler.poll(10.5).event
    (True, 1)
    """

    __slots__ = ("_event", "_last", "_pending", "_settle_s", "_since")

    def __init__(self, settle_s: float) -> None:
        if settle_s < 0:
            raise LayoutError(f"settle time {settle_s!r}: must be >= 0 seconds")
        self._settle_s = settle_s
        self._pending: tuple[Cell, ...] | None = None
        self._since = 0.0
        self._event = 0
        self._last: tuple[Cell, ...] | None = None

    @property
    def last(self) -> tuple[Cell, ...] | None:
        """The cells of the last observation emitted."""
        return self._last

    def update(self, cells: Sequence[Cell], event: int, now: float) -> None:
        """Record the board's state at time ``now``; a different state restarts the clock."""
        state = tuple(cells)
        if state != self._pending:
            self._pending = state
            self._since = now
        self._event = event

    def deadline(self) -> float | None:
        """When the pending state becomes stable if unchanged; None if nothing is pending."""
        if self._pending is None or self._pending == self._last:
            return None
        return self._since + self._settle_s

    def poll(self, now: float) -> Observation | None:
        """The observation of the pending state if it has settled by ``now``, else None."""
        due = self.deadline()
        if due is None or now < due or self._pending is None:
            return None
        self._last = self._pending
        return observe(self._pending, self._event)

    def interrupt(self) -> None:
        """Forget the pending state (the link dropped: its timing means nothing now)."""
        self._pending = None
