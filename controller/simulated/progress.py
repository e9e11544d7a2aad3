"""Waiting on a running service by its progress, never by the clock alone.

Why: the simulated players and the tests wait for the service (a roll read, a play
committed); a slow CPU makes every step slower but not stuck, so a wait goes on for as
long as the service keeps working, and fails only once nothing advances.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from controller.service.service import Service

__all__ = ["STALL_S", "service_progress", "until_progress"]

#: How long a wait goes on while nothing it watches advances: the only bound on the
#: simulated players' waits. Generous on purpose: the slowest step (a journal commit or a
#: dice read on a throttled Pi Zero 2 W) takes well under a second, so 60 s of no progress
#: at all means the thing waited on is stuck, never that the machine is slow.
STALL_S = 60.0


async def until_progress(
    what: str,
    done: Callable[[], bool],
    progress: Callable[[], object],
    *,
    stall_s: float = STALL_S,
) -> None:
    """Wait until ``done()``, for as long as ``progress()`` keeps changing.

    Why: a slow CPU makes every step slower but not stuck; a wall-clock deadline misjudges
    it. ``progress`` is what the waited-on part advances as it works (frames read, inputs
    handled, events journalled).

    Raises:
        TimeoutError: ``progress()`` stayed the same for ``stall_s`` seconds.
    """
    last = progress()
    moved = time.monotonic()
    while not done():
        await asyncio.sleep(0.002)
        now = progress()
        if now != last:
            last, moved = now, time.monotonic()
        elif time.monotonic() - moved > stall_s:
            raise TimeoutError(f"waited for {what}: nothing advanced for {stall_s:g} s")


def service_progress(service: Service) -> Callable[[], object]:
    """What ``service`` advances as it works: inputs handled, rolls read, events journalled,
    the engine's hints and verdicts (the progress to wait on, see :func:`until_progress`)."""
    counters = service.counters
    return lambda: (
        counters.inputs,
        counters.rolls,
        counters.journalled,
        counters.hints,
        counters.hints_dropped,
        counters.judged,
    )
