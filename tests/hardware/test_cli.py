"""``tabula sim-board`` and ``tabula board`` as a builder runs them, in subprocesses."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge import BoardLink, Health, RawSet, classify_slots
from hardware.runtimes import RUNTIMES
from tests.firmware_bridge.conftest import PATIENCE_S

START = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]
AFTER = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 1, 0, 0, 1, 0, 0]


def _tabula(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "controller.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_scripted_board_is_watched_until_sigterm(tmp_path: Path, runtime: str) -> None:
    script = tmp_path / "game.jsonl"
    script.write_text(
        json.dumps({"board": START, "hold_ms": 600})
        + "\n"
        + json.dumps({"board": AFTER, "hold_ms": 10})
        + "\n"
    )
    link = tmp_path / "board"
    sim = _tabula(
        "sim-board",
        *("--script", str(script), "--link", str(link), "--step-ms", "20", "--runtime", runtime),
    )
    try:
        assert sim.stdout is not None
        assert sim.stdout.readline().strip() == str(link)
        watcher = _tabula("board", "--device", str(link), "--settle-ms", "100")
        assert watcher.stdout is not None
        records = []
        for line in watcher.stdout:
            records.append(json.loads(line))
            if records[-1].get("board") == AFTER:
                break
        watcher.send_signal(signal.SIGTERM)
        rest, errors = watcher.communicate(timeout=PATIENCE_S)
        assert watcher.returncode == 0, errors
        assert records[:3] == [
            {"type": "link", "state": state} for state in ("searching", "syncing", "live")
        ]
        observations = [r for r in records if r["type"] == "observation"]
        assert observations[-1] == {"type": "observation", "board": AFTER, "inconsistent": False}
        counters = json.loads(rest.splitlines()[-1])
        assert counters["type"] == "counters" and counters["frames_ok"] > 0
    finally:
        sim.send_signal(signal.SIGINT)
        sim.communicate(timeout=PATIENCE_S)
    assert sim.returncode == 0


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux's /proc: each thread lists its own)."""
    tasks = Path(f"/proc/{pid}/task")
    return [
        int(child) for task in tasks.iterdir() for child in (task / "children").read_text().split()
    ]


def test_a_killed_micropython_ends_the_board_with_a_message() -> None:
    """The board's MicroPython dying is said in one line: no traceback, no silent board."""
    sim = _tabula("sim-board", "--runtime", "micropython")
    try:
        assert sim.stdout is not None and sim.stdout.readline().startswith("/dev/")
        (node,) = children(sim.pid)
        os.kill(node, signal.SIGKILL)
        _, errors = sim.communicate(timeout=PATIENCE_S)
    finally:
        sim.kill()
    assert sim.returncode == 2
    assert errors.startswith("tabula sim-board: the simulated board stopped: MicroPython stopped")
    assert len(errors.strip().splitlines()) == 1 and "Traceback" not in errors


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('{"board": [1, 2]}', "board [1, 2]: expected 26 integers"),
        ("[" * 100_000, "not JSON (arrays or objects nested deeper than the JSON decoder follows)"),
    ],
)
def test_a_bad_script_is_refused_before_anything_runs(
    tmp_path: Path, line: str, problem: str
) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text(json.dumps({"board": START, "hold_ms": 1}) + "\n" + line + "\n")
    sim = _tabula("sim-board", "--script", str(script))
    out, errors = sim.communicate(timeout=PATIENCE_S)
    assert sim.returncode == 2 and out == ""
    assert errors.strip() == f"tabula sim-board: script {str(script)!r} line 2: {problem}"


def test_a_script_that_is_not_utf8_is_refused_in_one_line(tmp_path: Path) -> None:
    from controller.commands.sim_board import read_script
    from hardware.board.errors import LayoutError

    script = tmp_path / "bad.jsonl"
    script.write_bytes(b'{"board": \xff}\n')  # a UnicodeDecodeError's traceback before
    with pytest.raises(LayoutError, match=r"script '.*bad\.jsonl': 'utf-8' codec can't decode"):
        read_script(script)


def test_the_board_command_refuses_an_incompatible_board(tmp_path: Path) -> None:
    link = tmp_path / "board"
    sim = _tabula("sim-board", "--link", str(link), "--protocol", "2.0")
    try:
        assert sim.stdout is not None and sim.stdout.readline().strip() == str(link)
        watcher = _tabula("board", "--device", str(link))
        out, errors = watcher.communicate(timeout=PATIENCE_S)
        assert watcher.returncode == 2
        assert errors.strip() == (
            "tabula board: board 'tabula-fw 2.0' speaks protocol 2.0; this host speaks 1.1: "
            "update the firmware or the host so that the major versions match"
        )
        assert json.loads(out.splitlines()[-1]) == {"type": "link", "state": "syncing"}
    finally:
        sim.send_signal(signal.SIGTERM)
        sim.communicate(timeout=PATIENCE_S)
    bad = _tabula("sim-board", "--protocol", "one")
    assert bad.communicate(timeout=PATIENCE_S)[1].strip() == (
        "tabula sim-board: --protocol 'one': expected MAJOR.MINOR, each 0..255"
    )


def test_the_board_command_says_why_it_is_still_searching(tmp_path: Path) -> None:
    missing = tmp_path / "tabula-board"
    watcher = _tabula("board", "--device", str(missing))
    try:
        assert watcher.stdout is not None
        assert json.loads(watcher.stdout.readline()) == {"type": "link", "state": "searching"}
        record = json.loads(watcher.stdout.readline())
    finally:
        watcher.send_signal(signal.SIGTERM)
        _, errors = watcher.communicate(timeout=PATIENCE_S)
    assert record["state"] == "searching"
    assert record["problem"].startswith(f"cannot open {str(missing)!r}: ")
    assert "No such file or directory" in record["problem"]
    assert f"board on {str(missing)!r}: cannot open" in errors
    assert watcher.returncode == 0


def test_a_slot_broken_from_the_command_line_is_found_through_the_pty(tmp_path: Path) -> None:
    link = tmp_path / "board"
    sim = _tabula(
        "sim-board", "--link", str(link), "--fault", "13/2=dead", "--fault", "28/4=noisy"
    )
    try:
        assert sim.stdout is not None and sim.stdout.readline().strip() == str(link)

        async def read() -> tuple[RawSet, ...]:
            async with BoardLink(str(link), settle_s=0.06) as board:
                return await board.read_raw_sets(10, timeout=PATIENCE_S)

        verdicts = classify_slots(asyncio.run(read()))
    finally:
        sim.send_signal(signal.SIGTERM)
        sim.communicate(timeout=PATIENCE_S)
    assert sim.returncode == 0
    broken = {v.label: v.health for v in verdicts if v.health is not Health.OK}
    assert broken == {"13/2": Health.DEAD, "28/4": Health.NOISY}


@pytest.mark.parametrize(
    ("fault", "error"),
    [
        ("13/2", "--fault '13/2': expected SLOT=KIND, KIND one of dead, noisy, stuck, open"),
        ("13/2=broken", "--fault '13/2=broken': expected SLOT=KIND, KIND one of dead"),
        ("13/9=dead", "--fault '13/9=dead': slot '13/9': point 13 has sensors 1..5"),
    ],
)
def test_a_bad_fault_is_refused_in_one_line_before_anything_runs(fault: str, error: str) -> None:
    sim = _tabula("sim-board", "--fault", fault)
    out, errors = sim.communicate(timeout=PATIENCE_S)
    assert sim.returncode == 2 and out == ""
    assert errors.startswith(f"tabula sim-board: {error}") and len(errors.splitlines()) == 1
