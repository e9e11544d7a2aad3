"""How every benchmark measures: the best of interleaved repeats, beside a reference.

The machine is shared, so a figure alone says little. Each benchmark times its subject and
a reference (the nearest honest baseline of the same work) alternately in the same run and
keeps the least time of each: what the machine took away hits both alike, and the ratio
holds. The clock is CPU time (:func:`time.process_time`: every thread of this process), so
that other programs on the cores do not count. Where the work is done by another process,
a pty or a broker, this process's CPU time would leave it out: those rows are wall time
(``clock="wall"``) and say so. A latency measured with a bound counts each item that did
not arrive within it as a miss, and at the bound in the percentiles: a miss can only make
a figure worse, never vanish from it.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from functools import partial
from time import perf_counter, process_time
from typing import Any, Literal, TypeVar

__all__ = [
    "CLOCKS",
    "SCALES",
    "Clock",
    "Interleaved",
    "Row",
    "best_of",
    "best_per_item",
    "count",
    "duration",
    "latency_rows",
    "quantile",
    "timed_row",
]

Clock = Literal["cpu", "wall"]
CLOCKS: dict[Clock, Callable[[], float]] = {"cpu": process_time, "wall": perf_counter}
"""The clock of each kind, in seconds."""

SCALES = {"s": 1.0, "ms": 1e3, "us": 1e6, "ns": 1e9}
"""Time units and how many of them make a second."""

T = TypeVar("T")
N = TypeVar("N", int, float)


def _load() -> float:
    return os.getloadavg()[0]


@dataclass(frozen=True, slots=True)
class Row:
    """One figure of a benchmark beside its reference, measured in the same run.

    Raises:
        ValueError: with neither a reference nor the reason there is none, or with a
            reference that is not positive (no ratio could be made of it).
    """

    name: str
    """What was measured, and per what (``legal_results, per golden case``)."""
    figure: float
    unit: str
    """``s``, ``ms``, ``us`` or ``ns`` for times (then the reference's unit too), else any."""
    reference: float | None
    reference_name: str
    """What the reference is: the same work done by the nearest honest baseline."""
    reason: str | None = None
    """Why there is no reference (then ``reference`` is None)."""
    misses: int | None = None
    """Items that did not complete within their bound (None where nothing can miss)."""
    clock: Clock | None = "cpu"
    """The clock of a time; None for a figure that is not one (a share, megabytes)."""
    load: float = field(default_factory=_load)
    """The 1-minute load average when the row was made."""

    def __post_init__(self) -> None:
        if self.reference is None and not self.reason:
            raise ValueError(f"row {self.name!r}: no reference and no reason why")
        if self.reference is not None and not self.reference > 0:
            raise ValueError(f"row {self.name!r}: reference {self.reference!r} is not positive")

    @property
    def ratio(self) -> float | None:
        """``figure / reference``, None without a reference."""
        return None if self.reference is None else self.figure / self.reference

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Row:
        """The row a results file holds (``to_json``'s ratio is derived, not read)."""
        return cls(data["name"], data["figure"], data["unit"], data["reference"],
                   data["reference_name"], reason=data["reason"], misses=data["misses"],
                   clock=data["clock"], load=data["load"])  # fmt: skip

    def to_json(self) -> dict[str, object]:
        """The row as the results file holds it."""
        return {
            "name": self.name,
            "figure": self.figure,
            "unit": self.unit,
            "reference": self.reference,
            "reference_name": self.reference_name,
            "ratio": self.ratio,
            "reason": self.reason,
            "misses": self.misses,
            "clock": self.clock,
            "load": self.load,
        }


class Interleaved:
    """Times of a subject and of its reference, taken alternately; the least of each.

    For work that ``best_of`` cannot call itself (a coroutine, one step of a longer run)::

        pair = Interleaved("wall")
        for _ in range(repeats):
            with pair.subject():
                await engine.hint(position, dice)
            with pair.reference():
                raw_hint(position, dice)
    """

    def __init__(self, clock: Clock = "cpu") -> None:
        self._now = CLOCKS[clock]
        self.subjects: list[float] = []
        self.references: list[float] = []

    @contextmanager
    def _timed(self, into: list[float]) -> Iterator[None]:
        start = self._now()
        yield
        into.append(self._now() - start)

    def subject(self) -> AbstractContextManager[None]:
        """Time one run of the subject."""
        return self._timed(self.subjects)

    def reference(self) -> AbstractContextManager[None]:
        """Time one run of the reference."""
        return self._timed(self.references)

    @property
    def best(self) -> tuple[float, float]:
        """The least seconds of the subject and of the reference.

        Raises:
            ValueError: before both were timed.
        """
        if not self.subjects or not self.references:
            raise ValueError("the subject and its reference must both be timed")
        return min(self.subjects), min(self.references)


def best_of(
    subject: Callable[[], object],
    reference: Callable[[], object],
    *,
    repeats: int,
) -> tuple[float, float]:
    """The least CPU seconds of ``subject()`` and ``reference()`` over ``repeats`` turns each.

    They take turns, the first alternating, so that neither always runs on a cache the
    other warmed.
    """
    pair = Interleaved()
    turns = ((pair.subject, subject), (pair.reference, reference))
    for repeat in range(repeats):
        for timer, work in turns if repeat % 2 == 0 else turns[::-1]:
            with timer():
                work()
    return pair.best


def best_per_item(
    items: Sequence[T],
    subject: Callable[[T], object],
    reference: Callable[[T], object],
    *,
    repeats: int,
) -> tuple[list[float], list[float]]:
    """For each item, the least CPU seconds of ``subject(item)`` and ``reference(item)``."""
    subjects: list[float] = []
    references: list[float] = []
    for item in items:
        best = best_of(partial(subject, item), partial(reference, item), repeats=repeats)
        subjects.append(best[0])
        references.append(best[1])
    return subjects, references


def timed_row(
    name: str,
    seconds: float,
    reference_seconds: float | None,
    *,
    reference_name: str,
    unit: str = "us",
    per: int = 1,
    clock: Clock = "cpu",
    reason: str | None = None,
    misses: int | None = None,
) -> Row:
    """A row of times: ``seconds`` (and the reference's) per item, in ``unit``."""
    scale = SCALES[unit] / per
    reference = None if reference_seconds is None else reference_seconds * scale
    return Row(name, seconds * scale, unit, reference, reference_name, reason=reason,
               misses=misses, clock=clock)  # fmt: skip


def latency_rows(
    name: str,
    samples: Sequence[float],
    references: Sequence[float],
    *,
    reference_name: str,
    misses: int | None = None,
) -> list[Row]:
    """Median and p99 rows of latencies and of their reference's (seconds, wall time)."""
    return [
        timed_row(f"{name}, {label}", quantile(samples, q), quantile(references, q),
                  unit="ms", clock="wall", misses=misses, reference_name=reference_name)
        for label, q in (("median", 0.5), ("p99", 0.99))
    ]  # fmt: skip


def quantile(samples: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile of ``samples`` (``q`` in (0, 1]): one of them.

    Raises:
        ValueError: for no samples.
    """
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def _positive(convert: Callable[[str], N], expected: str) -> Callable[[str], N]:
    """An ``argparse`` type: ``convert(text)``, refused unless above 0 and finite.

    Its error names the option's text and what was expected.
    """

    def parse(text: str) -> N:
        try:
            value: N | None = convert(text)
        except ValueError:
            value = None
        if value is None or not 0 < value < math.inf:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
        return value

    return parse


count = _positive(int, "a whole number >= 1")
"""An option's whole number, at least 1."""
duration = _positive(float, "seconds above 0")
"""An option's number of seconds, above 0."""
