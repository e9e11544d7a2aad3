"""What a board has still to publish: a bounded queue that drops its oldest events.

Why: the board keeps playing while the broker is down (DESIGN.md, "Beyond one board"), so
its events wait here; memory on a Pi is bounded, so past ``capacity`` the oldest go first
and are counted (the hub sees the gap in the per-board sequence numbers). Only the latest
status is kept: the status topic is retained, an old status is worth nothing.

>>> from controller.status import BoardEvent
>>> box = Outbox(2)
>>> for seq in (1, 2, 3):
...     box.put(BoardEvent("b", seq, "rolled"))
>>> [event.seq for event in box.peek(10)], box.dropped
([2, 3], 1)
"""

from __future__ import annotations

from collections import deque

from controller.status import BoardEvent, BoardStatus

__all__ = ["Outbox"]


class Outbox:
    """Events waiting to be published, oldest first, at most ``capacity`` of them.

    Args:
        capacity: how many events to keep (>= 1).

    Raises:
        ValueError: for a capacity below 1.
    """

    def __init__(self, capacity: int = 10_000) -> None:
        if capacity < 1:
            raise ValueError(f"an outbox holds at least 1 event, got capacity {capacity!r}")
        self.capacity = capacity
        self._events: deque[BoardEvent] = deque()
        self.status: BoardStatus | None = None
        """The latest status not yet published, or None."""
        self.dropped = 0
        """How many events were dropped, oldest first, since the outbox was made."""

    def __len__(self) -> int:
        return len(self._events)

    def put(self, event: BoardEvent) -> None:
        """Queue ``event``, dropping the oldest event when full."""
        if len(self._events) >= self.capacity:
            self._events.popleft()
            self.dropped += 1
        self._events.append(event)

    def put_before(self, events: list[BoardEvent]) -> None:
        """Queue ``events`` (in order) before those queued, up to the first queued one.

        Why: a publisher reads the journal after subscribing to the service's updates, so
        the journal and the first updates may overlap; the overlap is taken once.
        """
        head = self._events[0].seq if self._events else None
        earlier = [event for event in events if head is None or event.seq < head]
        self._events.extendleft(reversed(earlier))
        while len(self._events) > self.capacity:
            self._events.popleft()
            self.dropped += 1

    def peek(self, count: int) -> list[BoardEvent]:
        """The ``count`` oldest events, still queued until :meth:`done`."""
        return [self._events[index] for index in range(min(count, len(self._events)))]

    def done(self, events: list[BoardEvent]) -> None:
        """Forget ``events``, published; those dropped meanwhile are skipped."""
        published = {event.seq for event in events}
        while self._events and self._events[0].seq in published:
            self._events.popleft()
