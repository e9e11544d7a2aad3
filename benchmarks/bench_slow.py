"""The board service on a slow CPU: ``service``'s rows throttled, beside them at full speed.

A Raspberry Pi Zero 2 W is four to eight times slower than this machine per core. This
runs the ``service`` benchmark (board change -> LED latency, idle CPU and memory) twice in
child processes in the same run: first as it is, the reference, then moved into a cgroup v1
``cpu`` group with a quarter of one core (:class:`controller.service.throttle.CpuThrottle`;
the whole child is throttled, the simulated board and players with the service). Each
throttled row is the figure, the same row at full speed its reference. Without cgroup v1
(not root, a Pi) the throttled rows say why there are none.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.measure import Row, count
from controller.service.throttle import PI_ZERO_SHARE, CpuThrottle, ThrottleUnavailableError

SMALL = ("--changes", "4")


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--changes", type=count, default=200, help="board changes timed")


def _service_rows(changes: int, folder: Path, throttle: CpuThrottle | None) -> list[Row]:
    """The ``service`` benchmark's rows from a child process, throttled if asked."""
    path = folder / ("throttled.json" if throttle else "full.json")
    command = [sys.executable, "-m", "benchmarks", "--alone", str(path), "service",
               "--changes", str(changes)]  # fmt: skip
    child = subprocess.Popen(command)
    if throttle is not None:
        throttle.join(child.pid)  # before it has imported the service: all of it is slow
    child.wait()
    if not path.exists():
        raise RuntimeError(f"the service benchmark ended with code {child.returncode}")
    record = json.loads(path.read_text())
    return [Row.from_json(row) for row in record["rows"]]


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    share = f"{PI_ZERO_SHARE:.0%} of one core"
    with tempfile.TemporaryDirectory() as folder:
        full = _service_rows(options.changes, Path(folder), None)
        try:
            with CpuThrottle(PI_ZERO_SHARE) as throttle:
                slow = _service_rows(options.changes, Path(folder), throttle)
                stats = throttle.stats()
        except ThrottleUnavailableError as error:
            return [
                Row(f"{row.name}, at {share}", row.figure, row.unit, None, "",
                    reason=f"not throttled: {error}", misses=row.misses, clock=row.clock)
                for row in full
            ]  # fmt: skip
    reference = {row.name: row for row in full}
    rows = [
        Row(f"{row.name}, at {share}", row.figure, row.unit,
            reference[row.name].figure if reference[row.name].figure > 0 else None,
            f"{row.name} at full speed", reason=None if reference[row.name].figure > 0
            else "nothing at full speed to compare with", misses=row.misses, clock=row.clock)
        for row in slow
    ]  # fmt: skip
    held = f"of {stats.periods} periods of 0.1 s: proof it was throttled"
    rows.append(Row("periods the kernel held the service back", stats.throttled, "periods",
                    None, "", reason=held, clock=None))  # fmt: skip
    return rows
