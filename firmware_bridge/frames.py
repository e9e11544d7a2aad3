"""Frame codec of the sensor-board link: COBS framing with a CRC-16, no I/O.

Why a pure codec: the asyncio shell (:mod:`firmware_bridge.link`) only moves bytes; every
decision about what is a frame lives here, where property tests can feed it anything.
The format is section 1 of ``hardware/PROTOCOL.md``: ``type u8, seq u16 LE, payload,
crc u16 LE`` (CRC-16/CCITT-FALSE, :func:`binascii.crc_hqx` with initial value 0xFFFF),
COBS-encoded and written as ``0x00 COBS(frame) 0x00``.
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass

from firmware_bridge.errors import FrameError

__all__ = [
    "MAX_ENCODED",
    "MAX_FRAME",
    "MAX_PAYLOAD",
    "BadChunk",
    "Frame",
    "FrameDecoder",
    "cobs_decode",
    "cobs_encode",
    "crc16",
    "decode_frame",
    "encode_frame",
]

#: Largest decoded frame (type + seq + payload + crc), bytes.
MAX_FRAME = 250
#: Largest payload, bytes.
MAX_PAYLOAD = MAX_FRAME - 5
#: Largest COBS-encoded frame (without delimiters), bytes.
MAX_ENCODED = MAX_FRAME + 2
_MIN_FRAME = 5


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE of ``data``, the checksum of every frame.

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    """COBS-encode ``data``: the result has no zero byte and no delimiter.

    >>> cobs_encode(b"\\x11\\x00\\x22").hex()
    '02110222'
    """
    out = bytearray()
    start = 0
    length = len(data)
    while True:
        zero = data.find(0, start, start + 254)
        if zero < 0:
            block_end = min(start + 254, length)
            out.append(block_end - start + 1)
            out += data[start:block_end]
            if block_end >= length:
                # A full block (code 0xFF) carries no implied zero: an empty last block
                # only follows it when the data ends exactly there, and is dropped.
                return bytes(out)
            start = block_end
        else:
            out.append(zero - start + 1)
            out += data[start:zero]
            start = zero + 1


def cobs_decode(encoded: bytes) -> bytes:
    """Decode one COBS block sequence (without delimiters).

    Raises:
        FrameError: if ``encoded`` holds a zero byte or a code byte runs past its end.

    >>> cobs_decode(bytes.fromhex("02110222")).hex()
    '110022'
    """
    out = bytearray()
    index = 0
    length = len(encoded)
    while index < length:
        code = encoded[index]
        if code == 0:
            raise FrameError(
                f"invalid COBS {encoded[:16].hex()!r}...: zero byte at {index}", "cobs"
            )
        end = index + code
        if end > length:
            raise FrameError(
                f"invalid COBS {encoded[:16].hex()!r}...: code {code} at {index} "
                f"runs past the end ({length} bytes)",
                "cobs",
            )
        out += encoded[index + 1 : end]
        index = end
        if code != 0xFF and index < length:
            out.append(0)
    return bytes(out)


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame of the link: its type, sequence number and payload (CRC implied).

    Raises:
        FrameError: if a field is out of range.
    """

    type: int
    seq: int
    payload: bytes = b""

    def __post_init__(self) -> None:
        if not 0 <= self.type <= 0xFF:
            raise FrameError(f"frame type {self.type!r} is not a byte")
        if not 0 <= self.seq <= 0xFFFF:
            raise FrameError(f"frame seq {self.seq!r} is not a u16")
        if len(self.payload) > MAX_PAYLOAD:
            raise FrameError(
                f"payload of {len(self.payload)} bytes for type {self.type:#04x}: "
                f"at most {MAX_PAYLOAD}"
            )


def encode_frame(frame: Frame) -> bytes:
    """The bytes to write for ``frame``: ``0x00 COBS(frame + crc) 0x00``."""
    body = bytes((frame.type, frame.seq & 0xFF, frame.seq >> 8)) + frame.payload
    crc = crc16(body)
    return b"\x00" + cobs_encode(body + bytes((crc & 0xFF, crc >> 8))) + b"\x00"


def decode_frame(chunk: bytes) -> Frame:
    """Decode the bytes between two delimiters into a :class:`Frame`.

    Raises:
        FrameError: if the chunk is too long, not COBS, of the wrong size or fails its CRC.
    """
    if len(chunk) > MAX_ENCODED:
        raise FrameError(f"chunk of {len(chunk)} bytes: at most {MAX_ENCODED}", "oversize")
    raw = cobs_decode(chunk)
    if not _MIN_FRAME <= len(raw) <= MAX_FRAME:
        raise FrameError(
            f"frame {raw[:16].hex()!r} of {len(raw)} bytes: {_MIN_FRAME} to {MAX_FRAME}",
            "length",
        )
    expected = raw[-2] | raw[-1] << 8
    actual = crc16(raw[:-2])
    if actual != expected:
        raise FrameError(
            f"frame {raw[:16].hex()!r}: CRC {actual:#06x}, frame says {expected:#06x}", "crc"
        )
    return Frame(raw[0], raw[1] | raw[2] << 8, raw[3:-2])


@dataclass(frozen=True, slots=True)
class BadChunk:
    """Bytes the decoder dropped, and why (for the counters and the log)."""

    data: bytes
    reason: str
    detail: str = ""


class FrameDecoder:
    """Splits a byte stream into frames, dropping whatever is not a valid frame.

    Pure and incremental: :meth:`feed` takes bytes in any split (a frame across two
    reads is fine) and returns the frames and bad chunks completed by them. Garbage of
    any length costs bounded memory: past :data:`MAX_ENCODED` bytes without a delimiter,
    the decoder discards until the next 0x00.
    """

    __slots__ = ("_overflow", "_rest")

    def __init__(self) -> None:
        self._rest = b""
        self._overflow = False

    def reset(self) -> None:
        """Forget any partial frame (after a reconnect)."""
        self._rest = b""
        self._overflow = False

    def feed(self, data: bytes) -> list[Frame | BadChunk]:
        """Decode what ``data`` completes; keep the unfinished tail for the next call."""
        results: list[Frame | BadChunk] = []
        chunks = (self._rest + data).split(b"\x00")
        self._rest = chunks.pop()
        for chunk in chunks:
            if self._overflow:
                self._overflow = False
                results.append(BadChunk(chunk[-MAX_ENCODED:], "oversize", "no delimiter"))
                continue
            if not chunk:
                continue
            try:
                results.append(decode_frame(chunk))
            except FrameError as error:
                results.append(BadChunk(chunk, error.reason, str(error)))
        if len(self._rest) > MAX_ENCODED:
            self._rest = b""
            self._overflow = True
        return results
