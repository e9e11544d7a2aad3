"""The board service on a slow CPU: ``service``'s rows throttled, beside them at full speed.

A Raspberry Pi Zero 2 W is four to eight times slower than this machine per core. This
runs the ``service`` benchmark (board change -> LED latency, idle CPU and memory) twice in
child processes in the same run: first as it is, the reference, then moved into a cgroup v1
``cpu`` group with a quarter of one core (:class:`controller.service.throttle.CpuThrottle`;
the whole child is throttled, the simulated board and players with the service). Each
throttled row is the figure, the same row at full speed its reference. Without cgroup v1
(not root, a Pi) the throttled rows say why there are none.

It also starts ``tabula run`` as systemd does (``hardware/tabula.service``), each time a new
match, and times it from the spawn to its ``READY=1`` on a notify socket: the camera (the
synthetic source), the LEDs on gpiozero's MockFactory, the web view, and the sensor
board's simulator on a pty, which runs in this process (it stands for the Pico, which the
throttle does not slow). systemd gives up on a start after ``TimeoutStartSec``: a start
not ready by then is a miss.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.measure import Row, count
from controller.mqtt.mosquitto import free_port
from controller.service.throttle import PI_ZERO_SHARE, CpuThrottle, ThrottleUnavailableError
from controller.simulated.demo import DEMO_PINMAP, FAST_FIRMWARE
from hardware.simulator import BoardSimulator

SMALL = ("--changes", "4", "--starts", "1")

UNIT = (Path(__file__).resolve().parents[1] / "hardware" / "tabula.service").read_text()


def _unit_seconds(key: str) -> float:
    """A time of the service's unit, in seconds (``TimeoutStartSec=60``)."""
    return float(re.findall(rf"^{key}=(\d+)$", UNIT, re.MULTILINE)[0])


TIMEOUT_START_S = _unit_seconds("TimeoutStartSec")
"""systemd fails a start not ready by then."""
TIMEOUT_STOP_S = _unit_seconds("TimeoutStopSec")
"""systemd kills a service not stopped by then (SIGKILL after SIGTERM)."""


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--changes", type=count, default=200, help="board changes timed")
    parser.add_argument("--starts", type=count, default=5, help="starts of tabula run timed")


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


def _start_up_row(starts: int, folder: Path, throttle: CpuThrottle | None) -> Row:
    """The slowest of ``starts`` starts of ``tabula run``, spawn to ``READY=1`` (wall)."""
    times = [_start_up_s(folder / f"start-{index}", throttle) for index in range(starts)]
    ready = [seconds for seconds in times if seconds is not None]
    limit = f"TimeoutStartSec {TIMEOUT_START_S:.0f} s"
    name = f"tabula run: spawn to READY=1, slowest of {starts} starts ({limit})"
    slowest = max(ready, default=TIMEOUT_START_S)
    reason = "run() sets it beside the same start at full speed"
    return Row(name, slowest, "s", None, "", reason, misses=starts - len(ready), clock="wall")


def _start_up_s(folder: Path, throttle: CpuThrottle | None) -> float | None:
    """Seconds from spawning ``tabula run`` to its ``READY=1``, or None if it was not ready
    within :data:`TIMEOUT_START_S` (or stopped before)."""
    folder.mkdir(parents=True)
    notify = folder / "notify"
    with (
        BoardSimulator(settings=FAST_FIRMWARE, pinmap=DEMO_PINMAP) as board,
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock,
    ):
        sock.bind(str(notify))
        sock.settimeout(0.1)
        config = folder / "tabula.toml"
        config.write_text(_CONFIG.format(folder=folder, device=board.path, port=free_port()))
        environment = {**os.environ, "NOTIFY_SOCKET": str(notify)}
        environment.pop("WATCHDOG_USEC", None)
        started = time.monotonic()
        command = [sys.executable, "-m", "controller.cli", "run", "--config", str(config)]
        log = folder / "stderr.txt"
        with log.open("w") as stderr:
            child = subprocess.Popen(command, env=environment, stderr=stderr)
        if throttle is not None:
            throttle.join(child.pid)
        try:
            while time.monotonic() - started < TIMEOUT_START_S and child.poll() is None:
                try:
                    if sock.recv(4096).startswith(b"READY=1"):
                        return time.monotonic() - started
                except TimeoutError:
                    continue
        finally:
            child.terminate()
            try:
                child.wait(TIMEOUT_STOP_S)
            except subprocess.TimeoutExpired:  # as systemd would, and the start is reported
                child.kill()
                child.wait()
                print(f"  tabula run did not stop within {TIMEOUT_STOP_S:g} s of SIGTERM")
        last = log.read_text().strip().splitlines()[-1:] or ["(nothing on stderr)"]
        print(f"  tabula run was not ready (exit status {child.returncode}): {last[0]}")
        return None


_CONFIG = """
mode = "learner"
journal = "{folder}/journal.sqlite3"
[board]
serial_device = "{device}"
settle_s = 0.02
[camera]
source = "synthetic"
[gpio]
pin_factory = "mock"
leds = "shift-register"
[web]
port = {port}
"""
"""A board as a club sets one up: the camera, the LEDs and the web view on (the engine as
configured by default); the simulator's pty, a mock pin factory and the synthetic camera
in place of the hardware."""


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    share = f"{PI_ZERO_SHARE:.0%} of one core"
    with tempfile.TemporaryDirectory() as folder:
        full = _service_rows(options.changes, Path(folder), None)
        full.append(_start_up_row(options.starts, Path(folder) / "full", None))
        try:
            with CpuThrottle(PI_ZERO_SHARE) as throttle:
                slow = _service_rows(options.changes, Path(folder), throttle)
                slow.append(_start_up_row(options.starts, Path(folder) / "slow", throttle))
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
