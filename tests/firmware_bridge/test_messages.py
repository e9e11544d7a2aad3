"""Round trips of every message, and the errors of payloads that cannot be."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.errors import MessageError
from firmware_bridge.frames import Frame
from firmware_bridge.messages import (
    Ack,
    Blink,
    CellChange,
    Change,
    Diagnostic,
    DiagnosticRequest,
    ErrorCode,
    ErrorReport,
    HallThresholds,
    Heartbeat,
    Hello,
    HelloRequest,
    Led,
    LedFrame,
    Message,
    ReplayRequest,
    SlotClass,
    Snapshot,
    SnapshotReason,
    SnapshotRequest,
    pack,
    unpack,
)

u8 = st.integers(0, 255)
u16 = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFFFFFF)
cells = st.one_of(
    st.none(),
    st.tuples(st.integers(0, 15), st.integers(0, 15)).filter(lambda c: c != (15, 15)),
)
slots = st.tuples(u16, st.sampled_from(SlotClass))
HALL = HallThresholds(32768, 4000, 2500, 11500, 10000, 1000, 64535)


def _diagnostic(
    number: int, scan: int, event: int, first: int, items: list[tuple[int, SlotClass]]
) -> Diagnostic:
    readings = tuple(r for r, _ in items) or (0,)
    classes = tuple(c for _, c in items) or (SlotClass.EMPTY,)
    return Diagnostic(number, scan, event, first + len(readings), first, readings, classes, HALL)


messages: st.SearchStrategy[Message] = st.one_of(
    st.builds(
        Hello,
        u8,
        u8,
        u16,
        u32,
        u32,
        u16,
        u16,
        st.lists(u8, max_size=28).map(tuple),
        st.text(st.characters(codec="ascii"), max_size=32),
    ),
    st.builds(
        Snapshot,
        u32,
        st.sampled_from(SnapshotReason),
        st.lists(cells, min_size=28, max_size=28).map(tuple),
    ),
    st.builds(
        Change,
        u32,
        u32,
        st.lists(
            st.builds(CellChange, st.integers(0, 27), cells, cells), min_size=1, max_size=28
        ).map(tuple),
    ),
    st.builds(Heartbeat, u32, u32, u32, u8),
    st.builds(
        ErrorReport,
        st.sampled_from(ErrorCode),
        st.none() | st.integers(0, 27),
        st.none() | u8.filter(lambda v: v != 255),
        u16,
    ),
    st.builds(Ack, u8, u16),
    st.builds(HelloRequest, u8, u8),
    st.just(SnapshotRequest()),
    st.builds(ReplayRequest, u32),
    st.builds(
        LedFrame,
        st.lists(st.builds(Led, u8, u8, u8, st.sampled_from(Blink)), max_size=29).map(tuple),
    ),
    st.builds(_diagnostic, u16, u16, u32, st.integers(0, 200), st.lists(slots, max_size=64)),
    st.just(DiagnosticRequest()),
)


@given(messages, u16)
def test_every_message_round_trips(message: Message, seq: int) -> None:
    frame = pack(message, seq)
    assert frame.seq == seq
    assert unpack(frame) == message


@given(messages, st.binary(max_size=8))
def test_trailing_bytes_of_a_later_minor_version_are_ignored(
    message: Message, extra: bytes
) -> None:
    frame = pack(message, 0)
    assert unpack(Frame(frame.type, 0, frame.payload + extra)) == message


def test_short_and_unknown_payloads_are_refused_by_name() -> None:
    with pytest.raises(
        MessageError, match=r"payload '0100' of type 0x02 \(seq 9\) has 2 bytes: needs 33"
    ):
        unpack(Frame(0x02, 9, b"\x01\x00"))
    with pytest.raises(MessageError, match=r"unknown message type 0x42 \(seq 1\)"):
        unpack(Frame(0x42, 1, b""))
    with pytest.raises(MessageError, match=r"change of location 40: expected 0..27"):
        unpack(Frame(0x03, 1, bytes(8) + b"\x01" + bytes((40, 0, 1))))
    with pytest.raises(MessageError, match=r"LED red 300: expected 0..255"):
        Led(300)
    with pytest.raises(MessageError, match=r"LED frame of 30 LEDs: at most 29"):
        LedFrame((Led(),) * 30)
    one = pack(_diagnostic(1, 2, 3, 0, [(32768, SlotClass.EMPTY)]), 4)
    with pytest.raises(MessageError, match=r"diagnostic \(seq 4\) slot class: 4 is not a valid"):
        unpack(Frame(one.type, 4, one.payload[:-1] + b"\x04"))  # STACKED without a colour
    with pytest.raises(MessageError, match=r"type 0x07 \(seq 4\) has 30 bytes: needs 33"):
        unpack(Frame(one.type, 4, one.payload[:12] + b"\x02" + one.payload[13:]))
    with pytest.raises(MessageError, match=r"diagnostic slots 150..159 of a set of 158: past"):
        Diagnostic(1, 1, 1, 158, 150, (0,) * 10, (SlotClass.EMPTY,) * 10, HALL)


def test_hello_capabilities() -> None:
    hello = Hello(1, 0, 0b0110, 7, 0, 500, 64, (5,) * 28, "x")
    assert hello.has("replay") and hello.has("stacks") and not hello.has("leds")
