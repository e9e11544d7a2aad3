"""Property tests of the frame codec: round trips, and garbage never crashes or passes."""

from __future__ import annotations

import binascii

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.errors import FrameError
from firmware_bridge.frames import (
    MAX_PAYLOAD,
    BadChunk,
    Frame,
    FrameDecoder,
    cobs_decode,
    cobs_encode,
    crc16,
    decode_frame,
    encode_frame,
)

frames = st.builds(
    Frame,
    st.integers(0, 255),
    st.integers(0, 0xFFFF),
    st.binary(max_size=MAX_PAYLOAD),
)


@given(st.binary(max_size=1200))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert cobs_decode(encoded) == data


@given(frames)
def test_frame_round_trip(frame: Frame) -> None:
    wire = encode_frame(frame)
    assert wire[0] == 0 and wire[-1] == 0 and 0 not in wire[1:-1]
    assert decode_frame(wire[1:-1]) == frame
    assert FrameDecoder().feed(wire) == [frame]


@given(st.lists(frames, max_size=8), st.data())
def test_any_split_of_the_stream_decodes_the_same(items: list[Frame], data: st.DataObject) -> None:
    stream = b"".join(encode_frame(f) for f in items)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10)))
    decoder = FrameDecoder()
    got: list[Frame | BadChunk] = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        got += decoder.feed(stream[start:end])
    assert got == items


@settings(max_examples=300)
@given(st.binary(max_size=2000))
def test_garbage_yields_only_frames_that_were_in_it(garbage: bytes) -> None:
    results = FrameDecoder().feed(garbage + b"\x00")
    chunks = set(garbage.split(b"\x00"))
    for item in results:
        if isinstance(item, Frame):
            # Never invented: the exact encoding was in the input, CRC and all.
            assert encode_frame(item)[1:-1] in chunks
            raw = cobs_decode(encode_frame(item)[1:-1])
            assert binascii.crc_hqx(raw[:-2], 0xFFFF) == raw[-2] | raw[-1] << 8


@settings(max_examples=200)
@given(st.binary(max_size=600), st.lists(frames, min_size=1, max_size=5))
def test_every_frame_after_garbage_is_read(garbage: bytes, items: list[Frame]) -> None:
    decoder = FrameDecoder()
    results = decoder.feed(garbage) + decoder.feed(b"".join(encode_frame(f) for f in items))
    good = [item for item in results if isinstance(item, Frame)]
    assert good[-len(items) :] == items


@given(frames, st.integers(0, 10_000), st.integers(0, 7))
def test_a_bit_flip_is_never_accepted(frame: Frame, where: int, bit: int) -> None:
    wire = bytearray(encode_frame(frame))
    index = 1 + where % (len(wire) - 2)
    wire[index] ^= 1 << bit
    accepted = [item for item in FrameDecoder().feed(bytes(wire)) if isinstance(item, Frame)]
    assert accepted == []


def test_oversize_garbage_is_discarded_until_the_next_delimiter() -> None:
    decoder = FrameDecoder()
    assert decoder.feed(b"\x01" * 5000) == []
    good = Frame(2, 7, b"abc")
    results = decoder.feed(b"\x05" * 100 + encode_frame(good))
    assert results[0] == BadChunk(results[0].data, "oversize", "no delimiter")
    assert results[-1] == good


def test_crc_is_ccitt_false() -> None:
    assert crc16(b"123456789") == 0x29B1


def test_error_messages_name_the_input() -> None:
    with pytest.raises(FrameError, match=r"CRC 0x[0-9a-f]{4}, frame says 0x0000") as caught:
        decode_frame(cobs_encode(b"\x02\x00\x00\x00\x00"))
    assert caught.value.reason == "crc"
    with pytest.raises(FrameError, match=r"code 9 at 0 runs past the end \(2 bytes\)"):
        decode_frame(b"\x09\x01")
    with pytest.raises(FrameError, match=r"of 2 bytes: 5 to 250"):
        decode_frame(cobs_encode(b"\x01\x02"))
    with pytest.raises(FrameError, match=r"frame seq 70000 is not a u16"):
        Frame(1, 70000)
