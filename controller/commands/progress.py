"""Progress lines for the commands' long steps (a review, an export), on standard error.

Why on standard error, and only on a terminal or with ``--progress``: the result may go to
standard output (``tabula review`` without ``--out``), which must stay the result alone;
and a script or a systemd journal wants no progress unless it asks.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["Progress", "add_progress_argument"]


def add_progress_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--progress`` flag (progress is shown anyway when standard error is a terminal)."""
    parser.add_argument(
        "--progress",
        action="store_true",
        help="print progress on standard error (the default on a terminal)",
    )


class Progress:
    """``what: 12/87 things (14%)`` lines: the first, the last, and at most one a second.

    Args:
        what: the step (``review``).
        unit: what is counted (``decisions``).
        shown: print at all (``args.progress or stream.isatty()``).
        stream: where the lines go.
        clock: seconds, for the one-a-second limit.
    """

    def __init__(
        self,
        what: str,
        unit: str,
        *,
        shown: bool,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        every_s: float = 1.0,
    ) -> None:
        self._what = what
        self._unit = unit
        self._stream = sys.stderr if stream is None else stream
        self._shown = shown
        self._clock = clock
        self._every_s = every_s
        self._last: float | None = None

    @classmethod
    def of(cls, args: argparse.Namespace, what: str, unit: str) -> Progress:
        """The progress a command's ``--progress`` flag and standard error ask for."""
        return cls(what, unit, shown=bool(args.progress) or sys.stderr.isatty())

    def __call__(self, done: int, total: int) -> None:
        """``done`` of ``total`` are done."""
        if not self._shown:
            return
        now = self._clock()
        if done not in (1, total) and self._last is not None and now - self._last < self._every_s:
            return
        self._last = now
        share = f" ({done * 100 // total}%)" if total else ""
        print(f"{self._what}: {done}/{total} {self._unit}{share}", file=self._stream, flush=True)
