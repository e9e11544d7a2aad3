"""Frames of the serial protocol on the board: COBS, CRC-16 and message types.

Why its own codec: MicroPython has no ``binascii.crc_hqx``, so the board computes the
same CRC-16/CCITT-FALSE from a table built at start-up; the host uses the standard
library and a test checks that both agree. Format: ``hardware/PROTOCOL.md`` section 1.
"""

import struct

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

MAX_FRAME = 250
MAX_ENCODED = MAX_FRAME + 2


def _table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _table()


def crc16(data: "bytes | bytearray", crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as binascii.crc_hqx(data, 0xFFFF)."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data: "bytes | bytearray") -> bytes:
    """COBS-encode bytes: the result holds no zero byte."""
    out = bytearray(b"\x01")
    code_at = 0
    after_full = False
    for byte in data:
        after_full = False
        if byte:
            out.append(byte)
            out[code_at] += 1
            if out[code_at] == 0xFF:
                code_at = len(out)
                out.append(1)
                after_full = True
        else:
            code_at = len(out)
            out.append(1)
    if after_full:
        # A full block (code 0xFF) implies no zero, so the data ended with it: the empty
        # block opened after it carries nothing.
        out = out[:code_at]
    return bytes(out)


def cobs_decode(data: bytes) -> bytes | None:
    """Decode COBS bytes (no delimiters); None if they are not valid COBS."""
    out = bytearray()
    index = 0
    length = len(data)
    while index < length:
        code = data[index]
        if code == 0 or index + code > length:
            return None
        out += data[index + 1 : index + code]
        index += code
        if code != 0xFF and index < length:
            out.append(0)
    return bytes(out)


def encode(kind: int, seq: int, payload: "bytes | bytearray") -> bytes:
    """The bytes to send for one frame: 0x00, COBS(type, seq, payload, crc), 0x00."""
    body = bytearray(struct.pack("<BH", kind, seq & 0xFFFF))
    body += payload
    crc = crc16(body)
    body += struct.pack("<H", crc)
    return b"\x00" + cobs_encode(body) + b"\x00"


class Reader:
    """Splits the bytes from the host into frames; counts and drops bad ones."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.bad = 0
        self.skipping = False

    def feed(self, data: bytes) -> list[tuple[int, int, bytes]]:
        """Return the (type, seq, payload) of every good frame completed by ``data``."""
        frames = []  # type: list[tuple[int, int, bytes]]
        for byte in data:
            if byte:
                if not self.skipping:
                    self.buffer.append(byte)
                    if len(self.buffer) > MAX_ENCODED:
                        self.skipping = True
                        self.buffer = bytearray()
                continue
            if self.skipping:
                self.skipping = False
                self.bad += 1
            elif self.buffer:
                frame = self._decode(bytes(self.buffer))
                if frame is None:
                    self.bad += 1
                else:
                    frames.append(frame)
            self.buffer = bytearray()
        return frames

    @staticmethod
    def _decode(chunk: bytes) -> tuple[int, int, bytes] | None:
        raw = cobs_decode(chunk)
        if raw is None or not 5 <= len(raw) <= MAX_FRAME:
            return None
        if crc16(raw[:-2]) != raw[-2] | raw[-1] << 8:
            return None
        return raw[0], raw[1] | raw[2] << 8, raw[3:-2]
