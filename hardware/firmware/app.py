"""The board's main loop: scan, debounce, count, and speak the protocol to the host.

Why one class with a ``step`` method: the RP2040 calls it forever from ``main``; the
simulator calls it from a thread on CPython; tests call it directly. Everything it
touches comes through ``hal``. The protocol is ``hardware/PROTOCOL.md``.
"""

import struct

from . import wire
from .hal import Clock, LedChain, Port, SensorMatrix
from .scanner import FAULT, Scanner

# Annotations are ignored by MicroPython and evaluated by CPython 3.11: names used only
# by the type checker stay in strings, and typing is imported for it alone.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .pinmap import Pinmap

PROTOCOL = (1, 1)
NAME = "tabula-fw"  # HELLO's name, with the protocol version the board speaks
DIAGNOSTICS = 16  # the capability bit of DIAGNOSTIC answers, from protocol 1.1
CAPABILITIES = 1 | 2 | 4 | 8 | DIAGNOSTICS  # LEDs, replay, stacks resolved, fault reports
LOCATIONS = 28
LED_COUNT = 29
NO_INDEX = 0xFF
_UP_PERIOD = 1 << 30  # the uptime's small part wraps here: 4 wraps make the wire's 2**32

ERR_SENSOR_FAULT = 1
ERR_SENSOR_RECOVERED = 2
ERR_REPLAY_UNAVAILABLE = 3
ERR_BAD_FRAME = 4
ERR_UNKNOWN_TYPE = 5
ERR_SHORT_PAYLOAD = 6
ERR_VERSION = 7

# DIAGNOSTIC: set u16, scan u16, event u32, total u16, first u16, count u8, then the
# [hall] thresholds (7 x u16), then 3 bytes a slot; 64 slots make 219 bytes of the 245.
DIAGNOSTIC_HEADER = 27
DIAGNOSTIC_SLOTS = 64

REASON_CHANGE = 0
REASON_REQUESTED = 1
REASON_REPLAY_END = 2

_PERIODS = (None, (1000, 500), (250, 125), (1000, 100))  # pattern -> (period, on) in ms
_BLINK_CYCLE = 1000  # ms: a whole number of every pattern's period


class Firmware:
    """The sensor board: give it its hardware, then call :meth:`step` in a loop.

    ``pinmap`` is the parsed pinmap.toml; ``boot_id`` a random u32 chosen at power-up;
    ``protocol`` and ``settings`` (overrides of the pinmap's [firmware] table) exist so
    that the simulator can play other boards.
    """

    def __init__(  # noqa: PLR0917 (MicroPython-friendly positional wiring)
        self,
        pinmap: "Pinmap",
        slots: list[int],
        matrix: SensorMatrix,
        leds: LedChain,
        port: Port,
        clock: Clock,
        boot_id: int,
        protocol: tuple[int, int] = PROTOCOL,
        settings: "dict[str, int] | None" = None,
    ) -> None:
        config = pinmap["firmware"]
        overrides = settings or {}
        self.slots = list(slots)
        self.scan_period_ms = overrides.get("scan_period_ms", config["scan_period_ms"])
        self.heartbeat_ms = overrides.get("heartbeat_ms", config["heartbeat_ms"])
        self.ring_size = overrides.get("ring_size", config["ring_size"])
        stable_scans = overrides.get("stable_scans", config["stable_scans"])
        self.scanner = Scanner(self.slots, pinmap["hall"], stable_scans)
        self.matrix = matrix
        self.leds = leds
        self.port = port
        self.clock = clock
        self.boot_id = boot_id & 0xFFFFFFFF
        self.protocol = protocol
        # A board playing protocol 1.0 (the simulator's) neither announces nor answers it.
        self.diagnostics = (protocol[0], protocol[1]) >= (1, 1)
        self.capabilities = CAPABILITIES if self.diagnostics else CAPABILITIES & ~DIAGNOSTICS
        self.scans = 0
        # One buffer for every DIAGNOSTIC frame, allocated here: a request allocates only
        # the frames it sends, and a scan nothing more.
        self.diagnostic_frame = bytearray(DIAGNOSTIC_HEADER + 3 * DIAGNOSTIC_SLOTS)
        hall = pinmap["hall"]
        struct.pack_into(
            "<7H",
            self.diagnostic_frame,
            13,
            hall["mid"],
            hall["enter"],
            hall["exit"],
            hall["stack_enter"],
            hall["stack_exit"],
            hall["fault_low"],
            hall["fault_high"],
        )
        self.reader = wire.Reader()
        self.readings = [0] * self.scanner.count
        self.faulty = [False] * self.scanner.count
        self.cells = self.scanner.cells()
        self.event = 0
        self.ring = []  # type: list[tuple[int, int, list[tuple[int, int, int]]]]
        self.seq = 0
        self.led_frame = []  # type: list[tuple[int, ...]]
        self.shown = None  # type: list[tuple[int, int, int]] | None
        self.reported_bad = 0
        start = clock.now_ms()
        # Uptime summed step by step: the ticks' difference with the start would turn
        # negative after 2**29 ms (6.2 days) on a Pico, where ticks_diff's range ends. It
        # is kept below 2**30, a small int on a Pico, plus its wraps: a step allocates
        # nothing (a 32-bit sum masked each step made 32 bytes of garbage a step).
        self.up_ms = 0
        self.up_wraps = 0
        # The blinks' phase, counted apart: the uptime's small part wraps at 2**30 ms, no
        # whole number of seconds, which put every blink out of step each 12.4 days.
        self.blink_ms = 0
        self.last_step = start
        self.last_scan = start - self.scan_period_ms
        self.last_beat = start
        self.last_error_ms = start - 1000
        self.last_led = start - 1000
        self.sent = 0
        self.hello_sent = False

    def uptime(self) -> int:
        """Milliseconds since boot, modulo 2**32 (the wire's field)."""
        return self.up_wraps * _UP_PERIOD + self.up_ms

    # Sending.

    def send(self, kind: int, payload: "bytes | bytearray") -> None:
        """Frame and write one message."""
        self.port.write(wire.encode(kind, self.seq, payload))
        self.seq = (self.seq + 1) & 0xFFFF
        self.sent += 1

    def send_hello(self) -> None:
        """HELLO: version, capabilities, boot id, current event, slots, name."""
        name = (NAME + " " + str(self.protocol[0]) + "." + str(self.protocol[1])).encode()
        payload = struct.pack(
            "<BBHIIHHB",
            self.protocol[0],
            self.protocol[1],
            self.capabilities,
            self.boot_id,
            self.event,
            self.heartbeat_ms,
            self.ring_size,
            len(self.slots),
        )
        self.send(wire.HELLO, payload + bytes(self.slots) + bytes((len(name),)) + name)

    def send_snapshot(self, reason: int) -> None:
        """SNAPSHOT of the current cells."""
        self.send(wire.SNAPSHOT, struct.pack("<IB", self.event, reason) + bytes(self.cells))

    def send_change(self, record: "tuple[int, int, list[tuple[int, int, int]]]") -> None:
        """CHANGE of one ring record (event, time_ms, [(location, before, after)])."""
        event, time_ms, changes = record
        payload = bytearray(struct.pack("<IIB", event, time_ms & 0xFFFFFFFF, len(changes)))
        for location, before, after in changes:
            payload += bytes((location, before, after))
        self.send(wire.CHANGE, payload)

    def send_error(
        self, code: int, location: int = NO_INDEX, slot: int = NO_INDEX, value: int = 0
    ) -> None:
        """ERROR with its code, where, and a detail value."""
        self.send(wire.ERROR, struct.pack("<BBBH", code, location, slot, value & 0xFFFF))

    def send_diagnostic(self, set_number: int) -> None:
        """DIAGNOSTIC: every slot's last reading and debounced class, in frames of 64 slots.

        Why frames: a whole set (3 bytes a slot, 474 for 158 slots) is more than one frame
        holds; the host's set number in each lets it never use half a set, nor another's.
        """
        frame = self.diagnostic_frame
        readings = self.readings
        classes = self.scanner.stable
        total = self.scanner.count
        for first in range(0, total, DIAGNOSTIC_SLOTS):
            count = min(DIAGNOSTIC_SLOTS, total - first)
            struct.pack_into(
                "<HHIHHB", frame, 0, set_number, self.scans, self.event, total, first,
                count,
            )  # fmt: skip
            offset = DIAGNOSTIC_HEADER
            for index in range(first, first + count):
                struct.pack_into("<HB", frame, offset, readings[index], classes[index])
                offset += 3
            self.send(wire.DIAGNOSTIC, frame[:offset])

    # The loop.

    def step(self) -> None:
        """Do whatever is due now: read the host, scan, heartbeat, LEDs."""
        now = self.clock.now_ms()
        elapsed = self.clock.diff(now, self.last_step)
        self.up_ms += elapsed
        self.blink_ms = (self.blink_ms + elapsed) % _BLINK_CYCLE
        self.last_step = now
        if self.up_ms >= _UP_PERIOD:
            self.up_ms -= _UP_PERIOD
            self.up_wraps = (self.up_wraps + 1) % 4
        if not self.hello_sent:
            self.hello_sent = True
            self.send_hello()
        data = self.port.read()
        if data:
            self.receive(data, now)
        if self.clock.diff(now, self.last_scan) >= self.scan_period_ms:
            self.last_scan = now
            self.scan()
        if self.clock.diff(now, self.last_beat) >= self.heartbeat_ms:
            self.last_beat = now
            self.send(
                wire.HEARTBEAT,
                struct.pack(
                    "<IIIB",
                    self.event,
                    self.boot_id,
                    self.uptime(),
                    min(255, self.scanner.faults()),
                ),
            )
        if self.clock.diff(now, self.last_led) >= 20:
            self.last_led = now
            self.update_leds()

    def run_forever(self) -> None:
        """The board's life: step, then sleep a little so that USB keeps up."""
        while True:
            self.step()
            self.clock.sleep_ms(1)

    def scan(self) -> None:
        """Read every slot; on a debounced change of any cell, record and send an event."""
        self.matrix.scan(self.readings)
        self.scans = (self.scans + 1) & 0xFFFF
        slot_changes = self.scanner.update(self.readings)
        if not slot_changes:
            return
        for index, cls, reading in slot_changes:
            location = self.scanner.location_of[index]
            slot = self.scanner.slot_of[index]
            if cls == FAULT:
                self.faulty[index] = True
                self.send_error(ERR_SENSOR_FAULT, location, slot, reading)
            elif self.faulty[index]:
                self.faulty[index] = False
                self.send_error(ERR_SENSOR_RECOVERED, location, slot, reading)
        cells = self.scanner.cells()
        changes = [
            (location, self.cells[location], cells[location])
            for location in range(len(cells))
            if self.cells[location] != cells[location]
        ]
        if not changes:
            return
        self.cells = cells
        self.event = (self.event + 1) & 0xFFFFFFFF
        record = (self.event, self.uptime(), changes)
        self.ring.append(record)
        if len(self.ring) > self.ring_size:
            self.ring.pop(0)
        self.send_change(record)
        self.send_snapshot(REASON_CHANGE)

    # Receiving.

    def receive(self, data: bytes, now: int) -> None:
        """Handle every frame ``data`` completes."""
        for kind, seq, payload in self.reader.feed(data):
            self.handle(kind, seq, payload)
        if (
            self.reader.bad != self.reported_bad
            and self.clock.diff(now, self.last_error_ms) >= 1000
        ):
            self.reported_bad = self.reader.bad
            self.last_error_ms = now
            self.send_error(ERR_BAD_FRAME, value=min(self.reader.bad, 0xFFFF))

    def handle(self, kind: int, seq: int, payload: bytes) -> None:
        """Answer one host frame."""
        if kind == wire.HELLO_REQUEST:
            if len(payload) < 2:
                self.send_error(ERR_SHORT_PAYLOAD, value=kind)
                return
            if payload[0] != self.protocol[0]:
                self.send_error(ERR_VERSION, value=payload[0])
            self.send_hello()
        elif kind == wire.SNAPSHOT_REQUEST:
            self.send_snapshot(REASON_REQUESTED)
        elif kind == wire.REPLAY_REQUEST:
            if len(payload) < 4:
                self.send_error(ERR_SHORT_PAYLOAD, value=kind)
                return
            self.replay(struct.unpack_from("<I", payload)[0])
        elif kind == wire.DIAGNOSTIC_REQUEST and self.diagnostics:
            if len(payload) < 2:
                self.send_error(ERR_SHORT_PAYLOAD, value=kind)
                return
            self.send_diagnostic(payload[0] | payload[1] << 8)
        elif kind == wire.LED_FRAME:
            if not payload or len(payload) < 1 + 4 * payload[0]:
                self.send_error(ERR_SHORT_PAYLOAD, value=kind)
                return
            count = min(payload[0], LED_COUNT)
            self.led_frame = [tuple(payload[1 + 4 * i : 5 + 4 * i]) for i in range(count)]
            self.update_leds()
            self.send(wire.ACK, struct.pack("<BH", kind, seq))
        else:
            self.send_error(ERR_UNKNOWN_TYPE, value=kind)

    def replay(self, since: int) -> None:
        """Send every change after event ``since`` still in the ring, then a snapshot."""
        if since != self.event:
            oldest = self.ring[0][0] if self.ring else self.event + 1
            if since > self.event or since + 1 < oldest:
                self.send_error(ERR_REPLAY_UNAVAILABLE, value=oldest)
            else:
                for record in self.ring:
                    if record[0] > since:
                        self.send_change(record)
        self.send_snapshot(REASON_REPLAY_END)

    # LEDs.

    def update_leds(self) -> None:
        """Show the LED frame with each LED's blink pattern applied at the blinks' phase."""
        pixels = []  # type: list[tuple[int, int, int]]
        for index in range(LED_COUNT):
            if index >= len(self.led_frame):
                pixels.append((0, 0, 0))
                continue
            red, green, blue, pattern = self.led_frame[index]
            timing = _PERIODS[pattern] if pattern < len(_PERIODS) else None
            lit = timing is None or (self.blink_ms % timing[0]) < timing[1]
            pixels.append((red, green, blue) if lit else (0, 0, 0))
        if pixels != self.shown:
            self.shown = pixels
            self.leds.show(pixels)
