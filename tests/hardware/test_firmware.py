"""The firmware's own codec, scanner and protocol, run directly on CPython."""

from __future__ import annotations

import ast
import binascii
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import frames, messages
from firmware_bridge.diagnostics import RawSetAssembler
from firmware_bridge.layout import decode_cell
from firmware_bridge.messages import SlotClass
from hardware.board.geometry import cells_from_board
from hardware.firmware import app, hal, lockstep, pinmap, scanner, wire
from hardware.pinmap import PINMAP_PATH, PinmapError, load_pinmap, slots_per_location

FIRMWARE = Path(wire.__file__).parent
PINS = load_pinmap()
SLOTS = slots_per_location(PINS)
START = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)
#: What MicroPython on an RP2040 provides; the firmware may import nothing else.
MICROPYTHON_MODULES = {
    "gc",
    "json",
    "struct",
    "time",
    "sys",
    "os",
    "select",
    "machine",
    "micropython",
    "neopixel",
}


@given(st.binary(max_size=700))
def test_firmware_crc_and_cobs_agree_with_the_host(data: bytes) -> None:
    assert wire.crc16(data) == binascii.crc_hqx(data, 0xFFFF) == frames.crc16(data)
    assert wire.cobs_encode(data) == frames.cobs_encode(data)
    assert wire.cobs_decode(frames.cobs_encode(data)) == data


@given(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=245))
def test_firmware_frames_are_host_frames(kind: int, seq: int, payload: bytes) -> None:
    encoded = wire.encode(kind, seq, payload)
    assert encoded == frames.encode_frame(frames.Frame(kind, seq, payload))
    assert wire.Reader().feed(encoded) == [(kind, seq, payload)]


@given(st.binary(max_size=1500))
def test_firmware_reader_survives_garbage(garbage: bytes) -> None:
    reader = wire.Reader()
    good = frames.encode_frame(frames.Frame(0x82, 5, b""))
    assert reader.feed(garbage + good)[-1:] == [(0x82, 5, b"")]


def test_the_pinmap_reader_agrees_with_tomllib() -> None:
    assert pinmap.load(str(PINMAP_PATH)) == tomllib.loads(PINMAP_PATH.read_text())
    assert pinmap.slots_per_location(PINS) == SLOTS and sum(SLOTS) == 158
    text = 'a = [1,\n  2, # two\n  3]\n[t]\nname = "x # y"\nf = 1.5\nok = true\n'
    assert pinmap.parse(text) == tomllib.loads(text)
    with pytest.raises(ValueError, match=r"pinmap line 1: 'oops' is not 'key = value'"):
        pinmap.parse("oops")


def test_a_pinmap_without_a_key_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "pinmap.toml"
    broken.write_text(PINMAP_PATH.read_text().replace("stable_scans = 3", ""))
    with pytest.raises(PinmapError, match=r"missing \[firmware\] stable_scans"):
        load_pinmap(broken)


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"version = 1": "version = 1\nhall = 3", "[hall]": "[hall2]"}, r"\[hall\] is not a table"),
        ({"stable_scans = 3": 'stable_scans = "3"'}, r"\[firmware\] stable_scans is an integer"),
        ({"mux_channels = 16": "mux_channels = true"}, r"\[sensors\] mux_channels is an integer"),
        ({"mux_select = [2, 3, 4, 5]": "mux_select = 2"}, r"\[rp2040\] mux_select is a list"),
        ({"buzzer = 18": "buzzer = [18]"}, r"\[pi\] buzzer is a pin or a path, got \[18\]"),
    ],
)
def test_a_pinmap_value_of_the_wrong_type_is_named(
    tmp_path: Path, changes: dict[str, str], problem: str
) -> None:
    """A TypeError's traceback before, out of the configuration's check."""
    text = PINMAP_PATH.read_text()
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new, 1)
    broken = tmp_path / "pinmap.toml"
    broken.write_text(text)
    with pytest.raises(PinmapError, match=rf"pin map '.*pinmap\.toml': {problem}"):
        load_pinmap(broken)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"x = " + b"[" * 5000 + b"]" * 5000, "nested deeper than tomllib reads"),
        (b"[firmware]\n\xff = 1\n", "'utf-8' codec can't decode byte 0xff"),
    ],
)
def test_a_pinmap_that_is_no_toml_is_refused_in_one_line(
    tmp_path: Path, content: bytes, problem: str
) -> None:
    broken = tmp_path / "pinmap.toml"
    broken.write_bytes(content)
    with pytest.raises(PinmapError, match=rf"pin map '.*pinmap\.toml': .*{problem}"):
        load_pinmap(broken)


def test_the_firmware_imports_only_what_micropython_has() -> None:
    for source in FIRMWARE.glob("*.py"):
        tree = ast.parse(source.read_text())
        # Imports for the type checker alone never run on the board.
        checker_only = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
            for inner in ast.walk(node)
        }
        for node in ast.walk(tree):
            if id(node) in checker_only:
                continue
            if isinstance(node, ast.Import):
                names = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = {(node.module or "").split(".")[0]}
            else:
                continue
            assert names <= MICROPYTHON_MODULES | {"firmware"}, f"{source.name} imports {names}"
            assert not isinstance(node, ast.ImportFrom) or node.module != "__future__"


HALL = PINS["hall"]


def test_classification_has_hysteresis_and_sees_stacks() -> None:
    scan = scanner.Scanner([1], HALL, stable_scans=1)
    mid = HALL["mid"]
    assert scan.classify(scanner.EMPTY, mid + 3000) == scanner.EMPTY  # below enter
    assert scan.classify(scanner.EMPTY, mid + 5000) == scanner.COLOUR_A
    assert scan.classify(scanner.COLOUR_A, mid + 3000) == scanner.COLOUR_A  # above exit
    assert scan.classify(scanner.COLOUR_A, mid + 2000) == scanner.EMPTY
    assert scan.classify(scanner.EMPTY, mid - 9000) == scanner.COLOUR_B
    assert scan.classify(scanner.EMPTY, mid - 14000) == scanner.COLOUR_B | scanner.STACKED
    assert scan.classify(scanner.COLOUR_B | scanner.STACKED, mid - 10500) == (
        scanner.COLOUR_B | scanner.STACKED
    )
    assert scan.classify(scanner.COLOUR_A, 200) == scanner.FAULT


def test_a_slot_counts_only_after_stable_scans() -> None:
    scan = scanner.Scanner([1] * 28, HALL, stable_scans=3)
    readings = [HALL["mid"]] * 28
    readings[4] = HALL["mid"] + 9000
    assert scan.update(readings) == [] and scan.update(readings) == []
    assert scan.update(readings) == [(4, scanner.COLOUR_A, readings[4])]
    readings[4] = HALL["mid"]  # a one-scan blip back is ignored
    scan.update(readings)
    readings[4] = HALL["mid"] + 9000
    assert scan.update(readings) == [] and scan.stable[4] == scanner.COLOUR_A


def _board_readings(board: tuple[int, ...], stacked: dict[int, int] | None = None) -> list[int]:
    from hardware.simulator import VirtualBoard

    captured: list[list[int]] = []
    virtual = VirtualBoard(SLOTS, HALL["mid"], captured.append)
    virtual.set_cells(cells_from_board(board))
    for location, extra in (stacked or {}).items():
        virtual.stack(location, 0, extra)
    return captured[-1]


def _settled_cells(readings: list[int]) -> list[object]:
    scan = scanner.Scanner(SLOTS, HALL, stable_scans=1)
    scan.update(readings)
    return [decode_cell(byte) for byte in scan.cells()]


def test_deep_stacks_are_resolved_with_the_totals() -> None:
    board = list(START)
    board[6], board[8] = 8, 0  # eight checkers on point 6: five slots, three stacked
    assert _settled_cells(_board_readings(tuple(board))) == list(cells_from_board(board))
    # Two deep stacks of one colour cannot be split: both become unknown.
    board = [0] * 26
    board[6], board[8], board[1] = 7, 8, -15
    cells = _settled_cells(_board_readings(tuple(board)))
    assert cells[5] is None and cells[7] is None and cells[0] == (0, 15)


def _firmware(
    ring_size: int = 4,
) -> tuple[app.Firmware, hal.VirtualSensorMatrix, lockstep.HostPort, lockstep.HostClock]:
    matrix = hal.VirtualSensorMatrix(sum(SLOTS), HALL["mid"], 0)
    matrix.set_readings(_board_readings(START))
    port, clock = lockstep.HostPort(), lockstep.HostClock()
    settings = {"ring_size": ring_size, "stable_scans": 1}
    board = app.Firmware(
        PINS, SLOTS, matrix, hal.VirtualLedChain(29), port, clock, 42, settings=settings
    )
    return board, matrix, port, clock


def _messages(port: lockstep.HostPort) -> list[messages.Message]:
    decoded = frames.FrameDecoder().feed(b"".join(port.writes))
    port.writes.clear()
    return [messages.unpack(f) for f in decoded if isinstance(f, frames.Frame)]


def _request(port: lockstep.HostPort, message: messages.Message) -> None:
    port.inbox = frames.encode_frame(messages.pack(message, 0))


def test_the_firmware_speaks_the_protocol_the_host_reads() -> None:
    board, matrix, port, clock = _firmware()
    board.step()
    hello, change, snapshot = _messages(port)
    assert isinstance(change, messages.Change) and change.event == 1
    assert isinstance(hello, messages.Hello)
    assert (hello.major, hello.minor, hello.boot_id, hello.slots) == (1, 1, 42, tuple(SLOTS))
    assert hello.name == "tabula-fw 1.1" and hello.has("diagnostics")
    assert isinstance(snapshot, messages.Snapshot)  # the first scan: event 1
    assert snapshot.cells == cells_from_board(START) and snapshot.event == 1
    for event in range(2, 8):  # six changes: the ring of 4 keeps events 4..7
        moved = list(START)
        moved[24], moved[20 - event % 2] = 1, 1
        matrix.set_readings(_board_readings(tuple(moved)))
        clock.now += board.scan_period_ms
        board.step()
        matrix.set_readings(_board_readings(START))
        clock.now += board.scan_period_ms
        board.step()
    _messages(port)
    assert board.event == 13
    _request(port, messages.ReplayRequest(10))
    board.step()
    replayed = _messages(port)
    assert [m.event for m in replayed if isinstance(m, messages.Change)] == [11, 12, 13]
    assert replayed[-1] == messages.Snapshot(
        13, messages.SnapshotReason.REPLAY_END, cells_from_board(START)
    )
    _request(port, messages.ReplayRequest(2))
    board.step()
    assert _messages(port)[0] == messages.ErrorReport(
        messages.ErrorCode.REPLAY_UNAVAILABLE, None, None, 10
    )


def test_the_firmware_answers_bad_requests_with_errors() -> None:
    board, _, port, clock = _firmware()
    board.step()
    _messages(port)
    port.inbox = frames.encode_frame(frames.Frame(0x99, 0, b"")) + b"\x05garbage\x00"
    board.step()
    clock.now += 1000
    board.step()
    errors = [m for m in _messages(port) if isinstance(m, messages.ErrorReport)]
    assert [(e.code, e.value) for e in errors] == [
        (messages.ErrorCode.UNKNOWN_TYPE, 0x99),
        (messages.ErrorCode.BAD_FRAME, 1),
    ]
    _request(port, messages.HelloRequest(2, 0))
    board.step()
    error, hello = _messages(port)[:2]
    assert error == messages.ErrorReport(messages.ErrorCode.VERSION, None, None, 2)
    assert isinstance(hello, messages.Hello)


def test_a_diagnostic_request_gets_every_slot_in_frames_of_one_set() -> None:
    board, matrix, port, _ = _firmware()
    readings = _board_readings(START)
    readings[3] = 0  # a dead slot: the firmware's class says FAULT
    matrix.set_readings(readings)
    board.step()
    _messages(port)
    for number in (1, 0xFFFF):
        _request(port, messages.DiagnosticRequest(number))
        board.step()
        assert max(len(data) for data in port.writes) <= frames.MAX_ENCODED + 2  # the limit
        answer = _messages(port)
        parts = [p for p in answer if isinstance(p, messages.Diagnostic)]
        assert len(parts) == len(answer)
        assert [(p.first, len(p.readings), p.set_number) for p in parts] == [
            (0, 64, number), (64, 64, number), (128, 30, number)
        ]  # fmt: skip
        assembler = RawSetAssembler(SLOTS)
        raw = [assembler.feed(p) for p in parts][-1]
        assert raw is not None and raw.readings == tuple(readings) and raw.scan == 1
        assert raw.classes == tuple(board.scanner.stable) and raw.classes[3] == SlotClass.FAULT
        assert raw.hall == messages.HallThresholds(**HALL) and raw.event == board.event
    port.inbox = frames.encode_frame(frames.Frame(0x85, 0, b"\x01"))
    board.step()
    assert _messages(port) == [
        messages.ErrorReport(messages.ErrorCode.SHORT_PAYLOAD, None, None, 0x85)
    ]


def test_a_board_playing_protocol_1_0_neither_announces_nor_answers_diagnostics() -> None:
    matrix = hal.VirtualSensorMatrix(sum(SLOTS), HALL["mid"], 0)
    port, clock = lockstep.HostPort(), lockstep.HostClock()
    board = app.Firmware(
        PINS, SLOTS, matrix, hal.VirtualLedChain(29), port, clock, 42, protocol=(1, 0)
    )
    board.step()
    hello = _messages(port)[0]
    assert isinstance(hello, messages.Hello) and hello.name == "tabula-fw 1.0"
    assert not hello.has("diagnostics") and hello.has("faults")
    _request(port, messages.DiagnosticRequest(1))
    board.step()
    assert _messages(port) == [
        messages.ErrorReport(messages.ErrorCode.UNKNOWN_TYPE, None, None, 0x85)
    ]


def test_led_patterns_blink() -> None:
    assert all(app._BLINK_CYCLE % timing[0] == 0 for timing in app._PERIODS if timing)
    board, _, port, clock = _firmware()
    _request(port, messages.LedFrame((messages.Led(9, 9, 9, messages.Blink.SLOW),)))
    board.step()
    assert board.leds.pixels[0] == (9, 9, 9)
    clock.now = 600
    board.step()
    assert board.leds.pixels[0] == (0, 0, 0)
    assert any(isinstance(m, messages.Ack) for m in _messages(port))


def _every_slot_classified(scan: scanner.Scanner, readings: list[int]) -> list[tuple[int, ...]]:
    """The debounced changes of one scan with every slot classified: the scanner's oracle."""
    changes = []
    for index, reading in enumerate(readings):
        cls = scan.classify(scan.raw[index], reading)
        scan.raw[index] = cls
        if cls == scan.stable[index]:
            scan.run[index] = 0
            continue
        if cls == scan.candidate[index]:
            scan.run[index] += 1
        else:
            scan.candidate[index], scan.run[index] = cls, 1
        if scan.run[index] >= scan.stable_scans:
            scan.stable[index], scan.run[index] = cls, 0
            changes.append((index, cls, reading))
    return changes


_EDGES = [
    HALL["mid"] + sign * HALL[key] + offset
    for key in ("enter", "exit", "stack_enter", "stack_exit")
    for sign in (1, -1)
    for offset in (-1, 0, 1)
] + [HALL["fault_low"] - 1, HALL["fault_low"], HALL["fault_high"], HALL["fault_high"] + 1]


@given(st.lists(st.lists(st.sampled_from(_EDGES), min_size=3, max_size=3), max_size=60))
def test_skipping_settled_slots_changes_no_result(scans: list[list[int]]) -> None:
    """Readings on every threshold's edge: the same changes as classifying every slot."""
    fast = scanner.Scanner([3], HALL, stable_scans=2)
    oracle = scanner.Scanner([3], HALL, stable_scans=2)
    for readings in scans:
        assert fast.update(readings) == _every_slot_classified(oracle, readings), readings
        assert fast.stable == oracle.stable and fast.cells() == oracle.cells()
