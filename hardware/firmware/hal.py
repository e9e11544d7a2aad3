"""The firmware's whole view of the hardware, and a virtual board for CPython.

Why a layer this thin: ``app`` and ``scanner`` only call these four interfaces, so the
same code runs on the RP2040 (``hal_rp2040``) and, on a PC, behind the board simulator
(``hardware.simulator``), which drives the virtual implementations below.
"""

import time


class SensorMatrix:
    """Every Hall-sensor slot, read in slot order (PROTOCOL.md location order)."""

    slots = 0

    def scan(self, out: list[int]) -> None:
        """Fill ``out[0 .. slots-1]`` with one reading per slot (ADC counts, 0..65535)."""
        raise OSError("no sensor matrix")


class LedChain:
    """The LED chain: one LED per location, then the status LED."""

    def show(self, pixels: list[tuple[int, int, int]]) -> None:
        """Light LED i with ``pixels[i]`` = (red, green, blue)."""
        raise OSError("no LED chain")


class Port:
    """The serial line to the host."""

    def read(self) -> bytes:
        """The bytes received since the last call, without waiting (b"" if none)."""
        raise OSError("no serial port")

    def write(self, data: bytes) -> None:
        """Send ``data``, dropping it rather than blocking if the host is not reading."""
        raise OSError("no serial port")


class Clock:
    """Milliseconds since an arbitrary origin, and the difference of two such times."""

    def now_ms(self) -> int:
        """The current time in ms."""
        return int(time.monotonic() * 1000)

    def diff(self, later: int, earlier: int) -> int:
        """``later - earlier`` in ms."""
        return later - earlier

    def sleep_ms(self, ms: int) -> None:
        """Wait ``ms`` milliseconds."""
        time.sleep(ms / 1000)


class XorShift32:
    """Marsaglia's xorshift32: the simulator's noise, the same numbers on every runtime.

    Why not ``random``: CPython's Mersenne Twister and MicroPython's generator give
    different numbers for one seed, and the simulator's two runtimes must put the same
    bytes on the wire. Integer arithmetic only, so a float's width changes nothing.
    """

    def __init__(self, seed: int) -> None:
        self.state = (seed & 0xFFFFFFFF) or 0x9E3779B9  # zero is the generator's fixed point

    def next(self) -> int:
        """The next 32-bit number."""
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def spread(self, amplitude: int) -> int:
        """A number in -amplitude .. amplitude (amplitude >= 0)."""
        return self.next() % (2 * amplitude + 1) - amplitude


class VirtualSensorMatrix(SensorMatrix):
    """Readings set by a simulator, with faults: noise on a slot, a slot stuck at a value.

    ``seed`` seeds the noise (:class:`XorShift32`).
    """

    def __init__(self, slots: int, mid: int, seed: int) -> None:
        self.slots = slots
        self.readings = [mid] * slots
        self.noise = {}  # type: dict[int, int]
        self.stuck = {}  # type: dict[int, int]
        self.rng = XorShift32(seed)

    def set_readings(self, readings: list[int]) -> None:
        """Replace every reading at once (the simulator's board changed)."""
        self.readings = list(readings)

    def scan(self, out: list[int]) -> None:
        """Copy the readings, then apply the injected faults."""
        out[:] = self.readings
        # In slot order: MicroPython's dicts do not keep insertion order, and the noise
        # must draw its numbers in the same order on every runtime.
        for slot in sorted(self.noise):
            value = out[slot] + self.rng.spread(self.noise[slot])
            out[slot] = min(65535, max(0, value))
        for slot, value in self.stuck.items():
            out[slot] = value


class VirtualLedChain(LedChain):
    """Remembers what the LEDs show, for tests and the simulator's display."""

    def __init__(self, count: int) -> None:
        self.pixels = [(0, 0, 0)] * count
        self.updates = 0

    def show(self, pixels: list[tuple[int, int, int]]) -> None:
        """Record the pixels."""
        self.pixels = list(pixels)
        self.updates += 1
