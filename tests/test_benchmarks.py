"""The benchmarks' code paths: every benchmark through ``python -m benchmarks``, small.

No figure is asserted here (speed goals live in the benchmarks): only that each runs,
that its rows reach the results file with a reference and a ratio or the reason there is
none, and that what the benchmarks count (misses) is counted.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import threading
import time
from pathlib import Path

import serial

from benchmarks import bench_serial, bench_service
from benchmarks.measure import Row
from controller.referee import Mode
from controller.service.demo import SimulatedBoard
from firmware_bridge import SerialPort


def _late_open(path: str, baudrate: int) -> SerialPort:
    """pyserial's port, opened half a second late: the link asks for HELLO late."""
    time.sleep(0.5)  # the injected fault: a busy machine runs the opening thread late
    port: SerialPort = serial.serial_for_url(path, baudrate=baudrate, timeout=0, exclusive=True)
    return port


def test_serial_waits_for_a_late_hello_request_through_the_loop() -> None:
    """A blocking read on the loop's thread waited forever for a request that only the
    blocked loop could send; read through the loop, the late request arrives."""
    outcome: dict[str, Row | BaseException] = {}

    def measure() -> None:
        try:
            outcome["row"] = asyncio.run(bench_serial.pty_row(50, 1, open_serial=_late_open))
        except BaseException as error:  # handed to the test's thread
            outcome["error"] = error

    worker = threading.Thread(target=measure, name="bench-serial", daemon=True)
    worker.start()
    worker.join(120)
    assert outcome, "the serial benchmark is stuck: its event loop is blocked"
    row = outcome.get("row", outcome.get("error"))
    if isinstance(row, BaseException):
        raise row
    assert isinstance(row, Row)
    assert row.misses == 0
    assert row.ratio is not None


def test_service_counts_a_change_without_an_led_update_as_a_miss() -> None:
    """In referee mode a lifted checker lights nothing: every change is a miss, counted and
    kept in the percentiles at the bound (they were dropped, and the p99 hid them)."""

    async def measure() -> list[Row]:
        with tempfile.TemporaryDirectory() as folder:
            journal = Path(folder) / "journal.sqlite3"
            async with SimulatedBoard(journal, seed=1, mode=Mode.REFEREE) as table:
                return await bench_service.latency(table, 2, random.Random(1))

    rows = asyncio.run(measure())
    assert [(row.name.rsplit(", ", 1)[1], row.misses) for row in rows] == [
        ("median", 2),
        ("p99", 2),
    ]
    assert all(row.figure == bench_service.BOUND_S * 1000 for row in rows)
    assert all(row.ratio is not None for row in rows)
