"""A CPU throttle: processes held to a share of one core, about as slow as a Pi Zero 2 W.

Why: a Raspberry Pi Zero 2 W is 4-8 times slower per core than a development machine, and
the service must hold there. Linux's CFS bandwidth control (the cgroup v1 ``cpu``
controller) gives a group of processes ``cpu.cfs_quota_us`` of CPU time every
``cpu.cfs_period_us``: 25,000 of 100,000 us is a quarter of one core, whatever else runs.
The throttle is a real one, never simulated: where the kernel or the user cannot give it
(no cgroup v1 ``cpu`` hierarchy, not root), it raises :class:`ThrottleUnavailableError`
with the reason, and the caller says so.

Example::

    with CpuThrottle(0.25) as throttle:
        throttle.join(os.getpid())   # this process, all its threads, and its children
        ...
    print(throttle.stats())          # how often the kernel held it back
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

from controller.closing import Closing
from controller.service.errors import ServiceError
from hardware.board.errors import os_reason

__all__ = [
    "CGROUP_CPU",
    "PI_ZERO_SHARE",
    "CpuThrottle",
    "ThrottleStats",
    "ThrottleUnavailableError",
]

#: Where the cgroup v1 ``cpu`` controller is mounted.
CGROUP_CPU = Path("/sys/fs/cgroup/cpu")
#: A Raspberry Pi Zero 2 W's speed as a share of one core of a development machine.
PI_ZERO_SHARE = 0.25
_PERIOD_US = 100_000


class ThrottleUnavailableError(ServiceError, OSError):
    """The kernel or the user cannot throttle the CPU here (the message says why)."""


@dataclass(frozen=True, slots=True)
class ThrottleStats:
    """The kernel's count of a throttled group (its ``cpu.stat``)."""

    periods: int
    """Periods in which the group wanted the CPU."""
    throttled: int
    """Periods in which the group used its quota up and was held back."""
    throttled_s: float
    """Time the group spent held back."""


class CpuThrottle(Closing):
    """A cgroup of the ``cpu`` controller limited to ``share`` of one core.

    The group is made on entering (under the cgroup this process is in, so that outer
    limits still hold) and removed by :meth:`close`, which first moves its processes back.

    Args:
        share: the share of one core, in (0, 1].
        root: the mount point of the cgroup v1 ``cpu`` controller.

    Raises:
        ValueError: ``share`` is not in (0, 1].
    """

    def __init__(self, share: float = PI_ZERO_SHARE, *, root: Path = CGROUP_CPU) -> None:
        if not 0 < share <= 1:
            raise ValueError(f"CPU share {share!r}: expected more than 0 and at most 1")
        self.share = share
        self._root = root
        self.path: Path | None = None
        self._last = ThrottleStats(0, 0, 0.0)

    def __enter__(self) -> CpuThrottle:
        """Make the group.

        Raises:
            ThrottleUnavailableError: no cgroup v1 ``cpu`` controller, or it is not writable.
        """
        parent = self._root / _own_cpu_cgroup()
        if not (parent / "cpu.cfs_quota_us").is_file():
            raise ThrottleUnavailableError(
                f"cannot throttle the CPU: no cgroup v1 cpu controller at {str(parent)!r}"
            )
        path = parent / f"tabula-throttle-{os.getpid()}"
        try:
            path.mkdir()
            self.path = path
            (path / "cpu.cfs_period_us").write_text(str(_PERIOD_US))
            (path / "cpu.cfs_quota_us").write_text(str(round(_PERIOD_US * self.share)))
        except OSError as error:
            self.close()
            raise ThrottleUnavailableError(
                f"cannot throttle the CPU: {os_reason(error)} ({str(path)!r})"
            ) from None
        return self

    def join(self, pid: int) -> None:
        """Move process ``pid`` (all its threads, and the children it starts) into the group.

        Raises:
            ThrottleUnavailableError: the group is closed, or the kernel refuses the move.
        """
        if self.path is None:
            raise ThrottleUnavailableError("cannot throttle the CPU: the group is closed")
        try:
            (self.path / "cgroup.procs").write_text(str(pid))
        except OSError as error:
            raise ThrottleUnavailableError(
                f"cannot throttle process {pid}: {os_reason(error)}"
            ) from None

    def stats(self) -> ThrottleStats:
        """The kernel's count so far (the last one once closed)."""
        if self.path is not None:
            self._last = _read_stats(self.path)
        return self._last

    def close(self) -> None:
        """Move the group's processes back to its parent and remove it; idempotent."""
        path, self.path = self.path, None
        if path is None:
            return
        self._last = _read_stats(path)
        for pid in (path / "cgroup.procs").read_text().split():
            with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
                (path.parent / "cgroup.procs").write_text(pid)
        path.rmdir()


def _read_stats(path: Path) -> ThrottleStats:
    fields = dict(line.split() for line in (path / "cpu.stat").read_text().splitlines())
    return ThrottleStats(
        int(fields["nr_periods"]), int(fields["nr_throttled"]), int(fields["throttled_time"]) / 1e9
    )


def _own_cpu_cgroup() -> str:
    """This process's cgroup in the ``cpu`` hierarchy, relative to its mount point."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "cpu" in controllers.split(","):
            return path.lstrip("/")
    return ""
