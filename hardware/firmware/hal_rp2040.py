"""The real hardware of the reference board (RP2040, MicroPython only).

Wiring (README.md, pinmap.toml): ten CD74HC4067 multiplexers share the select lines
S0..S3; each has its own active-low enable; their common outputs feed ADC0 (GP26) or
ADC1 (GP27). The WS2812 chain hangs on one GPIO; the host link is the USB CDC port.
"""

import select
import sys
import time

import machine
import micropython
import neopixel

from .hal import Clock, LedChain, Port, SensorMatrix

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .pinmap import Pinmap


class MuxSensorMatrix(SensorMatrix):
    """Reads slot k on input k % 16 of multiplexer k // 16 (pinmap.toml [sensors])."""

    def __init__(self, pinmap: "Pinmap", slots: int) -> None:
        rp = pinmap["rp2040"]
        self.slots = slots
        self.channels = pinmap["sensors"]["mux_channels"]
        self.select = [machine.Pin(n, machine.Pin.OUT) for n in rp["mux_select"]]
        self.enable = [machine.Pin(n, machine.Pin.OUT, value=1) for n in rp["mux_enable"]]
        adcs = {}  # type: dict[int, machine.ADC]
        for n in rp["mux_adc"]:
            if n not in adcs:
                adcs[n] = machine.ADC(machine.Pin(n))
        self.adc = [adcs[n] for n in rp["mux_adc"]]
        self.settle_us = rp["mux_settle_us"]

    def scan(self, out: list[int]) -> None:
        """One pass over every slot, one multiplexer enabled at a time."""
        current = -1
        for k in range(self.slots):
            mux = k // self.channels
            if mux != current:
                if current >= 0:
                    self.enable[current].value(1)
                self.enable[mux].value(0)
                current = mux
            channel = k % self.channels
            for bit, pin in enumerate(self.select):
                pin.value((channel >> bit) & 1)
            time.sleep_us(self.settle_us)  # type: ignore[attr-defined]
            out[k] = self.adc[mux].read_u16()
        if current >= 0:
            self.enable[current].value(1)


class Ws2812Chain(LedChain):
    """The WS2812 (NeoPixel) chain: locations 0..27, then the status LED."""

    def __init__(self, pinmap: "Pinmap") -> None:
        rp = pinmap["rp2040"]
        self.strip = neopixel.NeoPixel(machine.Pin(rp["led_data"]), rp["led_count"])

    def show(self, pixels: list[tuple[int, int, int]]) -> None:
        """Write every pixel, then latch the chain."""
        for index, pixel in enumerate(pixels[: len(self.strip)]):
            self.strip[index] = pixel
        self.strip.write()


class UsbPort(Port):
    """The USB CDC serial port, in binary: Ctrl-C must not interrupt the firmware."""

    def __init__(self) -> None:
        micropython.kbd_intr(-1)
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)

    def read(self) -> bytes:
        """Every byte waiting, without blocking."""
        data = bytearray()
        while len(data) < 256 and self.poll.poll(0):
            data += self.stdin.read(1)
        return bytes(data)

    def write(self, data: bytes) -> None:
        """Write a frame to the host."""
        self.stdout.write(data)


class TicksClock(Clock):
    """time.ticks_ms, which wraps: differences go through ticks_diff."""

    def now_ms(self) -> int:
        """The current tick count in ms."""
        return time.ticks_ms()  # type: ignore[attr-defined,no-any-return]

    def diff(self, later: int, earlier: int) -> int:
        """``later - earlier`` across a wrap."""
        return time.ticks_diff(later, earlier)  # type: ignore[attr-defined,no-any-return]

    def sleep_ms(self, ms: int) -> None:
        """Sleep ``ms`` milliseconds."""
        time.sleep_ms(ms)  # type: ignore[attr-defined]
