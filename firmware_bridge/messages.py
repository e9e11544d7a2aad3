"""The messages of the sensor-board protocol and their payloads, no I/O.

Why separate from :mod:`firmware_bridge.frames`: frames know bytes and CRCs, messages know
fields. Each message is an immutable value; :func:`pack` and :func:`unpack` are the
symmetric pair between a message and a :class:`~firmware_bridge.frames.Frame`. The
layouts are section 3 of ``hardware/PROTOCOL.md``.
"""

from __future__ import annotations

import struct
from dataclasses import astuple, dataclass, fields
from enum import IntEnum
from typing import TypeAlias

from firmware_bridge.errors import MessageError
from firmware_bridge.frames import MAX_PAYLOAD, Frame
from firmware_bridge.layout import decode_cell, encode_cell
from hardware.board.geometry import LOCATIONS, Cell

__all__ = [
    "CAPABILITIES",
    "LED_COUNT",
    "PROTOCOL_VERSION",
    "Ack",
    "Blink",
    "CellChange",
    "Change",
    "Diagnostic",
    "DiagnosticRequest",
    "ErrorCode",
    "ErrorReport",
    "HallThresholds",
    "Heartbeat",
    "Hello",
    "HelloRequest",
    "Led",
    "LedFrame",
    "Message",
    "MessageType",
    "ReplayRequest",
    "SlotClass",
    "Snapshot",
    "SnapshotReason",
    "SnapshotRequest",
    "pack",
    "unpack",
]

#: The protocol version this host speaks (major, minor).
PROTOCOL_VERSION = (1, 1)
#: Capability bits of HELLO (``diagnostics``: DIAGNOSTIC answers, protocol 1.1).
CAPABILITIES = {"leds": 1, "replay": 2, "stacks": 4, "faults": 8, "diagnostics": 16}
#: LEDs of an LED frame: one per location, then the status LED.
LED_COUNT = LOCATIONS + 1
_NONE = 0xFF


class MessageType(IntEnum):
    """The type byte of each message."""

    HELLO = 0x01
    SNAPSHOT = 0x02
    CHANGE = 0x03
    HEARTBEAT = 0x04
    ERROR = 0x05
    ACK = 0x06
    DIAGNOSTIC = 0x07
    HELLO_REQUEST = 0x81
    SNAPSHOT_REQUEST = 0x82
    REPLAY_REQUEST = 0x83
    LED_FRAME = 0x84
    DIAGNOSTIC_REQUEST = 0x85


class SnapshotReason(IntEnum):
    """Why the board sent a snapshot."""

    CHANGE = 0
    REQUESTED = 1
    REPLAY_END = 2


class ErrorCode(IntEnum):
    """The code of an ERROR message."""

    SENSOR_FAULT = 1
    SENSOR_RECOVERED = 2
    REPLAY_UNAVAILABLE = 3
    BAD_FRAME = 4
    UNKNOWN_TYPE = 5
    SHORT_PAYLOAD = 6
    VERSION = 7


class SlotClass(IntEnum):
    """What the firmware makes of one slot's reading (its debounced class)."""

    EMPTY = 0
    COLOUR_A = 1
    COLOUR_B = 2
    FAULT = 3
    STACKED_A = 5
    STACKED_B = 6


class Blink(IntEnum):
    """An LED's pattern."""

    STEADY = 0
    SLOW = 1
    FAST = 2
    FLASH = 3


def _check(value: int, bits: int, what: str) -> None:
    if not 0 <= value < 1 << bits:
        raise MessageError(f"{what} {value!r}: expected 0..{(1 << bits) - 1}")


@dataclass(frozen=True, slots=True)
class Hello:
    """The board's version, capabilities and current state (HELLO, 0x01)."""

    major: int
    minor: int
    capabilities: int
    boot_id: int
    event: int
    heartbeat_ms: int
    ring_size: int
    slots: tuple[int, ...]
    name: str

    def has(self, capability: str) -> bool:
        """Whether the board announced ``capability`` (a key of :data:`CAPABILITIES`)."""
        return bool(self.capabilities & CAPABILITIES[capability])


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Every location's cell at one event (SNAPSHOT, 0x02)."""

    event: int
    reason: SnapshotReason
    cells: tuple[Cell, ...]

    def __post_init__(self) -> None:
        _check(self.event, 32, "snapshot event")
        if len(self.cells) != LOCATIONS:
            raise MessageError(f"snapshot of {len(self.cells)} cells: expected {LOCATIONS}")


@dataclass(frozen=True, slots=True)
class CellChange:
    """One location's cell before and after a change."""

    location: int
    before: Cell
    after: Cell


@dataclass(frozen=True, slots=True)
class Change:
    """One debounced change of the board (CHANGE, 0x03)."""

    event: int
    time_ms: int
    changes: tuple[CellChange, ...]

    def __post_init__(self) -> None:
        _check(self.event, 32, "change event")
        if not 1 <= len(self.changes) <= LOCATIONS:
            raise MessageError(f"change of {len(self.changes)} locations: expected 1..28")


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """The board is alive, at this event (HEARTBEAT, 0x04)."""

    event: int
    boot_id: int
    uptime_ms: int
    faults: int


@dataclass(frozen=True, slots=True)
class ErrorReport:
    """A fault the board reports (ERROR, 0x05); location and slot None when not applicable."""

    code: ErrorCode
    location: int | None
    slot: int | None
    value: int


@dataclass(frozen=True, slots=True)
class Ack:
    """The board applied the host frame of this type and seq (ACK, 0x06)."""

    type: int
    seq: int


@dataclass(frozen=True, slots=True)
class HallThresholds:
    """The board's classification thresholds in ADC counts (pinmap.toml ``[hall]``).

    Why on the wire: the host judges a slot's readings by the numbers the board itself
    classifies with, never by a second copy that could differ.
    """

    mid: int
    enter: int
    exit: int
    stack_enter: int
    stack_exit: int
    fault_low: int
    fault_high: int

    def __post_init__(self) -> None:
        for field in fields(self):
            _check(getattr(self, field.name), 16, f"threshold {field.name}")


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One frame of a set of raw readings: slots ``first ..`` of ``total`` (DIAGNOSTIC, 0x07).

    Attributes:
        set_number: the set this frame belongs to; every frame of one answer has it.
        scan: the board's scan counter (wraps at 65536) when the readings were taken.
        event: the board's event number then (its cells are those of this event).
        total: the number of slots in the whole set.
        first: the index of this frame's first slot (slot order of PROTOCOL.md).
        readings: each slot's last reading, ADC counts (0..65535).
        classes: each slot's debounced class.
        hall: the thresholds the board classifies with.
    """

    set_number: int
    scan: int
    event: int
    total: int
    first: int
    readings: tuple[int, ...]
    classes: tuple[SlotClass, ...]
    hall: HallThresholds

    def __post_init__(self) -> None:
        _check(self.set_number, 16, "diagnostic set")
        _check(self.scan, 16, "diagnostic scan")
        _check(self.event, 32, "diagnostic event")
        count = len(self.readings)
        if not 1 <= count <= 255 or len(self.classes) != count:
            raise MessageError(
                f"diagnostic of {count} readings and {len(self.classes)} classes: "
                "expected as many of each, 1..255"
            )
        if self.first + count > self.total or self.total > 0xFFFF:
            raise MessageError(
                f"diagnostic slots {self.first}..{self.first + count - 1} "
                f"of a set of {self.total}: past its end"
            )
        for reading in self.readings:
            _check(reading, 16, "diagnostic reading")


@dataclass(frozen=True, slots=True)
class HelloRequest:
    """Ask the board for HELLO, telling it the host's version (0x81)."""

    major: int = PROTOCOL_VERSION[0]
    minor: int = PROTOCOL_VERSION[1]


@dataclass(frozen=True, slots=True)
class SnapshotRequest:
    """Ask the board for a SNAPSHOT (0x82)."""


@dataclass(frozen=True, slots=True)
class ReplayRequest:
    """Ask the board for every CHANGE after event ``since``, then a SNAPSHOT (0x83)."""

    since: int


@dataclass(frozen=True, slots=True)
class DiagnosticRequest:
    """Ask the board for one set of raw readings, as DIAGNOSTIC frames (0x85, protocol 1.1)."""


@dataclass(frozen=True, slots=True)
class Led:
    """One LED: colour (0..255 each) and blink pattern; ``Led()`` is off."""

    red: int = 0
    green: int = 0
    blue: int = 0
    blink: Blink = Blink.STEADY

    def __post_init__(self) -> None:
        for name in ("red", "green", "blue"):
            _check(getattr(self, name), 8, f"LED {name}")


@dataclass(frozen=True, slots=True)
class LedFrame:
    """The LED chain's content: LED i < 28 lights location i, LED 28 is the status LED."""

    leds: tuple[Led, ...] = ()

    def __post_init__(self) -> None:
        if len(self.leds) > LED_COUNT:
            raise MessageError(f"LED frame of {len(self.leds)} LEDs: at most {LED_COUNT}")


Message: TypeAlias = (
    Hello
    | Snapshot
    | Change
    | Heartbeat
    | ErrorReport
    | Ack
    | Diagnostic
    | HelloRequest
    | SnapshotRequest
    | ReplayRequest
    | LedFrame
    | DiagnosticRequest
)

#: DIAGNOSTIC's fields before the slots: set, scan, event, total, first, count, thresholds.
_DIAGNOSTIC_HEADER = struct.Struct("<HHIHHB7H")


def _pack_payload(message: Message) -> tuple[MessageType, bytes]:
    match message:
        case Hello():
            name = message.name.encode()[:32]
            return MessageType.HELLO, (
                struct.pack(
                    "<BBHIIHHB",
                    message.major,
                    message.minor,
                    message.capabilities,
                    message.boot_id,
                    message.event,
                    message.heartbeat_ms,
                    message.ring_size,
                    len(message.slots),
                )
                + bytes(message.slots)
                + bytes((len(name),))
                + name
            )
        case Snapshot():
            cells = bytes(encode_cell(cell) for cell in message.cells)
            return MessageType.SNAPSHOT, struct.pack("<IB", message.event, message.reason) + cells
        case Change():
            body = bytearray(
                struct.pack("<IIB", message.event, message.time_ms, len(message.changes))
            )
            for change in message.changes:
                body += bytes(
                    (change.location, encode_cell(change.before), encode_cell(change.after))
                )
            return MessageType.CHANGE, bytes(body)
        case Heartbeat():
            return MessageType.HEARTBEAT, struct.pack(
                "<IIIB", message.event, message.boot_id, message.uptime_ms, message.faults
            )
        case ErrorReport():
            location = _NONE if message.location is None else message.location
            slot = _NONE if message.slot is None else message.slot
            return MessageType.ERROR, struct.pack(
                "<BBBH", message.code, location, slot, message.value
            )
        case Ack():
            return MessageType.ACK, struct.pack("<BH", message.type, message.seq)
        case Diagnostic():
            body = bytearray(
                _DIAGNOSTIC_HEADER.pack(
                    message.set_number,
                    message.scan,
                    message.event,
                    message.total,
                    message.first,
                    len(message.readings),
                    *astuple(message.hall),
                )
            )
            for reading, cls in zip(message.readings, message.classes, strict=True):
                body += struct.pack("<HB", reading, cls)
            return MessageType.DIAGNOSTIC, bytes(body)
        case HelloRequest():
            return MessageType.HELLO_REQUEST, bytes((message.major, message.minor))
        case SnapshotRequest():
            return MessageType.SNAPSHOT_REQUEST, b""
        case ReplayRequest():
            return MessageType.REPLAY_REQUEST, struct.pack("<I", message.since)
        case LedFrame():
            body = bytearray((len(message.leds),))
            for led in message.leds:
                body += bytes((led.red, led.green, led.blue, led.blink))
            return MessageType.LED_FRAME, bytes(body)
        case DiagnosticRequest():
            return MessageType.DIAGNOSTIC_REQUEST, b""


def pack(message: Message, seq: int) -> Frame:
    """The frame carrying ``message`` with sequence number ``seq``.

    Raises:
        MessageError: if a field does not fit its size.
    """
    try:
        kind, payload = _pack_payload(message)
    except struct.error as error:
        raise MessageError(f"cannot pack {message!r}: {error}") from None
    if len(payload) > MAX_PAYLOAD:
        raise MessageError(f"{message!r} needs {len(payload)} bytes: at most {MAX_PAYLOAD}")
    return Frame(kind, seq, payload)


_MIN_PAYLOAD = {
    MessageType.HELLO: 18,
    MessageType.SNAPSHOT: 5 + LOCATIONS,
    MessageType.CHANGE: 9,
    MessageType.HEARTBEAT: 13,
    MessageType.ERROR: 5,
    MessageType.ACK: 3,
    MessageType.DIAGNOSTIC: _DIAGNOSTIC_HEADER.size,
    MessageType.HELLO_REQUEST: 2,
    MessageType.SNAPSHOT_REQUEST: 0,
    MessageType.REPLAY_REQUEST: 4,
    MessageType.LED_FRAME: 1,
    MessageType.DIAGNOSTIC_REQUEST: 0,
}


def _short(frame: Frame, needed: int) -> MessageError:
    return MessageError(
        f"payload {frame.payload[:16].hex()!r} of type {frame.type:#04x} (seq {frame.seq}) "
        f"has {len(frame.payload)} bytes: needs {needed}"
    )


def unpack(frame: Frame) -> Message:
    """The message a frame carries; bytes after the known fields are ignored.

    Raises:
        MessageError: if the type is unknown or the payload too short or out of range.
    """
    try:
        kind = MessageType(frame.type)
    except ValueError:
        raise MessageError(f"unknown message type {frame.type:#04x} (seq {frame.seq})") from None
    data = frame.payload
    if len(data) < _MIN_PAYLOAD[kind]:
        raise _short(frame, _MIN_PAYLOAD[kind])
    try:
        return _unpack(kind, frame, data)
    except (ValueError, UnicodeDecodeError) as error:
        if isinstance(error, MessageError):
            raise
        raise MessageError(
            f"payload {data[:16].hex()!r} of type {kind.name} (seq {frame.seq}): {error}"
        ) from None


def _unpack(kind: MessageType, frame: Frame, data: bytes) -> Message:
    match kind:
        case MessageType.HELLO:
            major, minor, caps, boot, event, beat, ring, count = struct.unpack_from(
                "<BBHIIHHB", data
            )
            if len(data) < 18 + count:
                raise _short(frame, 18 + count)
            slots = tuple(data[17 : 17 + count])
            name_len = data[17 + count]
            name = data[18 + count : 18 + count + name_len].decode()
            return Hello(major, minor, caps, boot, event, beat, ring, slots, name)
        case MessageType.SNAPSHOT:
            event, reason = struct.unpack_from("<IB", data)
            cells = tuple(decode_cell(b) for b in data[5 : 5 + LOCATIONS])
            return Snapshot(event, SnapshotReason(reason), cells)
        case MessageType.CHANGE:
            event, time_ms, count = struct.unpack_from("<IIB", data)
            if len(data) < 9 + 3 * count:
                raise _short(frame, 9 + 3 * count)
            changes = []
            for offset in range(9, 9 + 3 * count, 3):
                location = data[offset]
                if location >= LOCATIONS:
                    raise MessageError(f"change of location {location}: expected 0..27")
                changes.append(
                    CellChange(
                        location, decode_cell(data[offset + 1]), decode_cell(data[offset + 2])
                    )
                )
            return Change(event, time_ms, tuple(changes))
        case MessageType.HEARTBEAT:
            return Heartbeat(*struct.unpack_from("<IIIB", data))
        case MessageType.ERROR:
            code, location, slot, value = struct.unpack_from("<BBBH", data)
            return ErrorReport(
                ErrorCode(code),
                None if location == _NONE else location,
                None if slot == _NONE else slot,
                value,
            )
        case MessageType.ACK:
            return Ack(*struct.unpack_from("<BH", data))
        case MessageType.DIAGNOSTIC:
            return _unpack_diagnostic(frame, data)
        case MessageType.HELLO_REQUEST:
            return HelloRequest(data[0], data[1])
        case MessageType.SNAPSHOT_REQUEST:
            return SnapshotRequest()
        case MessageType.REPLAY_REQUEST:
            return ReplayRequest(struct.unpack_from("<I", data)[0])
        case MessageType.LED_FRAME:
            count = data[0]
            if len(data) < 1 + 4 * count:
                raise _short(frame, 1 + 4 * count)
            leds = tuple(
                Led(data[i], data[i + 1], data[i + 2], Blink(data[i + 3]))
                for i in range(1, 1 + 4 * count, 4)
            )
            return LedFrame(leds)
        case MessageType.DIAGNOSTIC_REQUEST:
            return DiagnosticRequest()


def _unpack_diagnostic(frame: Frame, data: bytes) -> Diagnostic:
    set_number, scan, event, total, first, count, *hall = _DIAGNOSTIC_HEADER.unpack_from(data)
    start = _DIAGNOSTIC_HEADER.size
    if len(data) < start + 3 * count:
        raise _short(frame, start + 3 * count)
    slots = range(start, start + 3 * count, 3)
    readings = tuple(data[i] | data[i + 1] << 8 for i in slots)
    try:
        classes = tuple(SlotClass(data[i + 2]) for i in slots)
    except ValueError as error:
        raise MessageError(f"diagnostic (seq {frame.seq}) slot class: {error}") from None
    return Diagnostic(
        set_number, scan, event, total, first, readings, classes, HallThresholds(*hall)
    )
