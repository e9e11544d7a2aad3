"""The firmware driven one step at a time by a host: the board simulator's side of the board.

Why lockstep: the simulator runs the firmware either in its own process (CPython) or in a
MicroPython child process; in both, this same code owns the firmware and its virtual
hardware (sensor matrix with noise and stuck slots, LED chain, a port fed by the host, a
clock the host sets), so for the same requests both runtimes give the same bytes. A request
is a dict (a JSON line for the child): ``now`` (ms), and when they changed ``rx`` (bytes
from the host), ``readings``, ``noise`` and ``stuck`` ([slot, value] pairs), ``boot``
([boot_id, major, minor, settings]: power up a new firmware first). The answer holds
``tx`` (each write the firmware made), and when they changed ``leds`` (the chain's pixels)
and ``frame`` (the last LED_FRAME received, as [red, green, blue, pattern] per LED).
"""

import gc
import json
import time

from . import app, hal, pinmap

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypedDict

    class StepRequest(TypedDict, total=False):
        """A step's request (:meth:`Lockstep.step`): ``now`` always, the rest when changed."""

        now: int
        boot: tuple[int, int, int, dict[str, int] | None]
        readings: list[int]
        noise: list[tuple[int, int]]
        stuck: list[tuple[int, int]]
        rx: list[int]

    class StepAnswer(TypedDict, total=False):
        """A step's answer: ``tx`` always, ``leds`` and ``frame`` when they changed."""

        tx: list[list[int]]
        leds: list[list[int]]
        frame: list[list[int]]


class HostPort(hal.Port):
    """The serial port as the host feeds it: bytes in before a step, writes out after."""

    def __init__(self) -> None:
        self.inbox = b""
        self.writes = []  # type: list[bytes]

    def read(self) -> bytes:
        """What the host sent for this step."""
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data: bytes) -> None:
        """Keep one write for the host."""
        self.writes.append(bytes(data))


_TICKS_MASK = (1 << 30) - 1
"""MicroPython's ``ticks_ms`` counts modulo 2**30 on the Pico (``TICKS_PERIOD``); the mask,
and half the period, are small ints there, so the clock allocates nothing."""
_TICKS_HALF = 1 << 29


class HostClock(hal.Clock):
    """The time the host gives with each step, counted as a Pico's ``ticks_ms`` counts it.

    Why as ticks: a script's time is then the same everywhere, and the firmware meets
    what the Pico gives it (``hal_rp2040.TicksClock``): a count modulo 2**30 whose
    differences, as ``time.ticks_diff``'s, lie within half of that either way.
    """

    def __init__(self) -> None:
        self.now = 0

    def now_ms(self) -> int:
        """The time of the current step, in ticks."""
        return self.now & _TICKS_MASK

    def diff(self, later: int, earlier: int) -> int:
        """``later - earlier`` as ``time.ticks_diff`` gives it."""
        return ((later - earlier + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF


def _timer() -> "tuple[Any, Any]":
    """A microsecond counter and its difference (``ticks_us`` wraps on MicroPython)."""
    ticks_us = getattr(time, "ticks_us", None)
    if ticks_us is not None:
        return ticks_us, getattr(time, "ticks_diff")  # noqa: B009 (MicroPython only)
    return (lambda: time.perf_counter_ns() // 1000), (lambda later, earlier: later - earlier)


class Lockstep:
    """The firmware and its virtual hardware; :meth:`step` runs one step of the board.

    ``pinmap_text`` is the pin map file's text, read with the firmware's own reader as the
    board reads it; ``seed`` seeds the noise.
    """

    def __init__(self, pinmap_text: str, seed: int) -> None:
        self.pinmap = pinmap.parse(pinmap_text)
        self.slots = pinmap.slots_per_location(self.pinmap)
        self.matrix = hal.VirtualSensorMatrix(sum(self.slots), self.pinmap["hall"]["mid"], seed)
        self.leds = hal.VirtualLedChain(app.LED_COUNT)
        self.port = HostPort()
        self.clock = HostClock()
        self.firmware = None  # type: app.Firmware | None
        self.leds_sent = 0
        self.frame_sent = []  # type: list[tuple[int, ...]]

    def boot(self, boot_id: int, major: int, minor: int, settings: "dict[str, int] | None") -> None:
        """Power up a new firmware (the sensors and LEDs keep their state)."""
        self.firmware = app.Firmware(
            self.pinmap,
            self.slots,
            self.matrix,
            self.leds,
            self.port,
            self.clock,
            boot_id,
            protocol=(major, minor),
            settings=settings,
        )

    def step(self, request: "StepRequest") -> "StepAnswer":
        """Apply the request's changes, run one firmware step, and say what came out."""
        self.clock.now = request["now"]
        if "boot" in request:
            boot_id, major, minor, settings = request["boot"]
            self.boot(boot_id, major, minor, settings)
        if "readings" in request:
            self.matrix.set_readings(request["readings"])
        if "noise" in request:
            self.matrix.noise = dict(request["noise"])
        if "stuck" in request:
            self.matrix.stuck = dict(request["stuck"])
        if "rx" in request:
            self.port.inbox += bytes(request["rx"])
        firmware = self.firmware
        if firmware is None:
            raise ValueError("step before boot: the first request must boot the firmware")
        firmware.step()
        answer = {"tx": [list(data) for data in self.port.writes]}  # type: StepAnswer
        self.port.writes = []
        if self.leds.updates != self.leds_sent:
            self.leds_sent = self.leds.updates
            answer["leds"] = [list(pixel) for pixel in self.leds.pixels]
        if firmware.led_frame != self.frame_sent:
            self.frame_sent = firmware.led_frame
            answer["frame"] = [list(led) for led in firmware.led_frame]
        return answer

    def time_scans(self, scans: int) -> int:
        """Microseconds taken by ``scans`` scans of the current readings, as a step scans.

        Only the scan (``Firmware.scan``: the matrix read and ``Scanner.update``): the
        heartbeat and the LEDs cost per second, not per scan.

        Raises:
            ValueError: before the firmware booted.
        """
        firmware = self.firmware
        if firmware is None:
            raise ValueError("time_scans before boot")
        micros, diff = _timer()
        start = micros()
        for _ in range(scans):
            firmware.scan()
        return diff(micros(), start)  # type: ignore[no-any-return]

    def time_diagnostics(self, answers: int) -> int:
        """Microseconds taken by ``answers`` answers to DIAGNOSTIC_REQUEST, frames included.

        Why: a request costs the board a whole set's packing, CRC and COBS, between scans;
        its frames are dropped here, as a port does with what nobody reads.

        Raises:
            ValueError: before the firmware booted.
        """
        firmware = self.firmware
        if firmware is None:
            raise ValueError("time_diagnostics before boot")
        micros, diff = _timer()
        start = micros()
        for number in range(answers):
            firmware.send_diagnostic(number & 0xFFFF)
            self.port.writes = []
        return diff(micros(), start)  # type: ignore[no-any-return]

    def heap(self, steps: int) -> "dict[str, int]":
        """The bytes the heap holds after a collection (``live``: the firmware, its
        virtual hardware and this driver), and those the board's loop allocates in a
        second, from ``steps`` steps a millisecond apart as a Pico's loop runs them
        (``per_second``: its scans, heartbeats and LED refreshes as they fall due; the
        garbage a Pico collects once it fills the heap). MicroPython only: CPython's
        ``gc`` does not count bytes. The board's time moves on by ``steps`` ms.

        Raises:
            ValueError: before the firmware booted.
        """
        firmware = self.firmware
        if firmware is None:
            raise ValueError("heap before boot")
        gc.collect()
        live = gc.mem_alloc()  # type: ignore[attr-defined]
        writes = self.port.writes
        gc.disable()
        try:
            before = gc.mem_alloc()  # type: ignore[attr-defined]
            for _ in range(steps):
                self.clock.now += 1
                firmware.step()
                writes.clear()  # what a port sends on, kept by nobody
            allocated = gc.mem_alloc() - before  # type: ignore[attr-defined]
        finally:
            gc.enable()
        return {"live": live, "per_second": allocated * 1000 // max(steps, 1)}

    def handle(self, line: str) -> str:
        """One JSON request line in, one JSON answer line out (the MicroPython child)."""
        request = json.loads(line)
        if "time_scans" in request:
            return json.dumps({"us": self.time_scans(request["time_scans"])})
        if "time_diagnostics" in request:
            return json.dumps({"us": self.time_diagnostics(request["time_diagnostics"])})
        if "heap" in request:
            return json.dumps(self.heap(request["heap"]))
        if "time_additions" in request:
            return json.dumps({"us": time_additions(request["time_additions"])})
        return json.dumps(self.step(request))


def time_additions(count: int) -> int:
    """Microseconds for ``count`` turns of a loop adding two list items (small integers).

    Why: this loop's time on a Pico is published (hardware/README.md, "Scan speed"), so
    its time here scales this runtime's figures to a Pico's.
    """
    operands = [12345678, 56781234]
    micros, diff = _timer()
    start = micros()
    for _ in range(count):
        _total = operands[0] + operands[1]
    return diff(micros(), start)  # type: ignore[no-any-return]


def from_line(line: str) -> Lockstep:
    """The driver described by the child's first line: {"pinmap": text, "seed": n}."""
    setup = json.loads(line)
    return Lockstep(setup["pinmap"], setup["seed"])
