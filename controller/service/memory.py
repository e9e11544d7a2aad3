"""The service process's memory: what start-up made is kept out of the garbage
collector's full passes.

Why: CPython's full collection walks every object it tracks. Once the service has started,
most of them are its modules, its configuration and the resumed match, some 50,000
objects that live as long as the service. A pass over them took 11.6 ms on the development
machine (the ``service`` benchmark), so four to eight times that on a Pi Zero 2 W, and the
one event loop (the LEDs with it) stands still meanwhile; with them frozen, 0.74 ms.
``gc.freeze`` moves them to a permanent generation that no pass walks; what the service
makes later is collected as before. ``tabula run`` freezes once ready; ``tabula demo``,
which plays match after match in one process, freezes at each match's start and unfreezes
at its end, so that a finished match's objects are collected.
"""

from __future__ import annotations

import gc

__all__ = ["freeze_start_up"]


def freeze_start_up() -> int:
    """Collect once, then keep every object left out of the full passes; how many.

    Call it once start-up is over, in the service's own process: an object frozen is
    never freed by the collector, so a process that goes on making long-lived cycles of
    its own (a test run) would keep them.
    """
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
