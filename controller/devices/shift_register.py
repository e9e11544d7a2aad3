"""The location LEDs on a chain of 74HC595 shift registers driven from the Pi's GPIO.

Why bit-banged through gpiozero output devices rather than SPI: three plain pins work
with every pin factory, the mock one included, so the tests assert the very pin
transitions a real chain sees. A frame is 56 bits (28 bicolour LEDs, 2 bits each), about
170 pin writes: a few milliseconds with lgpio.

Bit order (the contract with the wiring):

* Logical bit ``2 * location`` is the location's red die, ``2 * location + 1`` its green
  die (amber lights both); bits 56 and up are padding, always 0.
* Logical bit ``b`` is output ``Q(b % 8)`` (QA..QH) of register ``b // 8``; register 0 is
  the one whose SER input is wired to the Pi's data pin, each register's QH' feeds the
  next one's SER. So location 0 (point 1) is QA/QB of register 0, location 27 (tray of
  player 1) QG/QH of register 6.
* A 74HC595 moves QA towards QH' on every clock, so the bit shifted first ends up
  farthest: :func:`frame_bits` lists the bits from logical bit ``8 * registers - 1``
  down to logical bit 0, which is shifted last.
* For each bit: set data, raise then lower the clock (the 74HC595 samples SER on the
  rising edge of SRCLK); after the last bit, raise then lower the latch (RCLK) to show
  the frame at once. The optional /OE pin stays high (outputs off) until the first frame
  is latched, so power-up garbage never lights.

Blinking needs no thread: :meth:`ShiftRegisterLeds.tick` recomputes the frame from the
injected clock and shifts only when a bit changed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from gpiozero import DigitalOutputDevice

from controller.closing import Closing
from controller.devices.errors import DeviceClosedError, SceneError
from controller.devices.factory import PinFactory
from controller.devices.status import StatusLed
from hardware.board.geometry import LOCATIONS
from hardware.board.scene import DARK, Colour, Scene, phase_ms

__all__ = ["REGISTERS", "ShiftRegisterLeds", "frame_bits"]

#: 74HC595 registers the 56 bits need (28 locations x 2 dies / 8 bits).
REGISTERS = (2 * LOCATIONS + 7) // 8


def frame_bits(scene: Scene, phase: int, *, registers: int = REGISTERS) -> tuple[int, ...]:
    """The bits to shift out for ``scene`` at blink phase ``phase`` ms, first bit first.

    See the module's docstring for the order. ``8 * registers`` bits are returned.

    Raises:
        SceneError: if ``registers`` cannot hold the 56 bits.

    >>> from hardware.board.scene import Colour, Lamp, Scene
    >>> bits = frame_bits(Scene.of({0: Lamp(Colour.RED), 27: Lamp(Colour.GREEN)}), 0)
    >>> len(bits), bits[0], bits[1], bits[-2], bits[-1]
    (56, 1, 0, 0, 1)
    """
    if not isinstance(registers, int) or registers * 8 < 2 * LOCATIONS:
        raise SceneError(
            f"{registers!r} shift registers: at least {REGISTERS} needed for {2 * LOCATIONS} bits"
        )
    logical = [0] * (8 * registers)
    for location, lamp in enumerate(scene.lamps):
        colour = lamp.colour_at(phase)
        logical[2 * location] = int(colour.red)
        logical[2 * location + 1] = int(colour.green)
    logical.reverse()
    return tuple(logical)


class ShiftRegisterLeds(Closing):
    """The 28 location LEDs on a 74HC595 chain, and optionally the Pi's status LED.

    Wiring: ``data`` to SER of register 0, ``clock`` to every SRCLK, ``latch`` to every
    RCLK, ``enable`` (optional) to every /OE, /SRCLR tied high; each location's bicolour
    LED (common cathode) has its red anode on the even output and its green anode on the
    odd output named in the module's docstring, each through its resistor.

    Example::

        with ShiftRegisterLeds(10, 11, 8, enable=7, status_pins=(24, 23, 25)) as leds:
            await leds.show(Scene.of({5: Lamp(Colour.GREEN, Pattern.SLOW)}))
            leds.tick()  # from the service's loop, every few tens of milliseconds

    Args:
        data: BCM pin of the serial data (SER).
        clock: BCM pin of the shift clock (SRCLK).
        latch: BCM pin of the storage clock (RCLK).
        enable: BCM pin of /OE (active low), or None if /OE is tied to ground.
        registers: registers in the chain, at least 7.
        status_pins: (red, green) or (red, green, blue) of the status LED, or None.
        pin_factory: gpiozero pin factory; None for gpiozero's default.
        clock_s: the clock blinking follows, in seconds.

    Raises:
        SceneError: if ``registers`` is below 7.
    """

    def __init__(
        self,
        data: int,
        clock: int,
        latch: int,
        *,
        enable: int | None = None,
        registers: int = REGISTERS,
        status_pins: tuple[int, int] | tuple[int, int, int] | None = None,
        pin_factory: PinFactory | None = None,
        clock_s: Callable[[], float] = time.monotonic,
    ) -> None:
        frame_bits(DARK, 0, registers=registers)
        self._registers = registers
        self._clock_s = clock_s
        self._devices: list[Any] = []
        self._status: StatusLed | None = None
        try:
            self._data = self._output(data, pin_factory)
            self._shift = self._output(clock, pin_factory)
            self._latch = self._output(latch, pin_factory)
            # /OE is active low: "on" disables the outputs until the first frame.
            self._enable = None if enable is None else self._output(enable, pin_factory, True)
            if status_pins is not None:
                self._status = StatusLed(*status_pins, pin_factory=pin_factory)
        except BaseException:
            self._release()
            raise
        self._scene = DARK
        self._latched: tuple[int, ...] | None = None
        self._frames = 0
        self._closed = False

    def _output(self, pin: int, factory: PinFactory | None, initial: bool = False) -> Any:
        device = DigitalOutputDevice(pin, initial_value=initial, pin_factory=factory)
        self._devices.append(device)
        return device

    @property
    def scene(self) -> Scene:
        """The scene being shown."""
        return self._scene

    @property
    def latched(self) -> tuple[int, ...] | None:
        """The bits of the last latched frame, in shift order; None before the first."""
        return self._latched

    @property
    def frames(self) -> int:
        """How many frames were shifted and latched."""
        return self._frames

    async def show(self, scene: Scene) -> None:
        """Show ``scene`` now (only the bits that differ from the latched frame move)."""
        self.display(scene)

    def display(self, scene: Scene) -> None:
        """Show ``scene`` now, synchronously (for callers outside the event loop).

        Raises:
            DeviceClosedError: if the chain was closed.
        """
        self._check_open()
        self._scene = scene
        self.tick()

    def tick(self) -> None:
        """Bring blinking lamps to the clock's phase; shift only when a bit changes.

        Raises:
            DeviceClosedError: if the chain was closed.
        """
        self._check_open()
        phase = phase_ms(self._clock_s())
        bits = frame_bits(self._scene, phase, registers=self._registers)
        if bits != self._latched:
            self._write(bits)
        if self._status is not None:
            self._status.show(self._scene.status, phase)

    def _write(self, bits: tuple[int, ...]) -> None:
        for bit in bits:
            self._data.value = bit
            self._shift.on()
            self._shift.off()
        self._latch.on()
        self._latch.off()
        self._latched = bits
        self._frames += 1
        if self._enable is not None and self._enable.value:
            self._enable.off()

    def _check_open(self) -> None:
        if self._closed:
            raise DeviceClosedError("shift-register LED chain is closed")

    def _release(self) -> None:
        if self._status is not None:
            self._status.close()
        for device in reversed(self._devices):
            device.close()

    def close(self) -> None:
        """Darken every LED, disable the outputs and release the pins; idempotent."""
        if self._closed:
            return
        try:
            self._write(frame_bits(DARK, 0, registers=self._registers))
            if self._enable is not None:
                self._enable.on()
            if self._status is not None:
                self._status.colour = Colour.OFF
        finally:
            self._closed = True
            self._release()
