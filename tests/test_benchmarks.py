"""The benchmarks' code paths: every benchmark through ``python -m benchmarks``, small.

No figure is asserted here (speed goals live in the benchmarks): only that each runs,
that its rows reach the results file with a reference and a ratio or the reason there is
none, and that what the benchmarks count (misses) is counted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
import serial

from benchmarks import bench_journal, bench_serial, bench_service, bench_slow, report
from benchmarks.__main__ import known, load, main
from benchmarks.measure import Row
from controller.record import GameEnded, MatchStarted
from controller.referee import Mode
from controller.simulated.demo import SimulatedBoard
from firmware_bridge import SerialPort

ROOT = Path(__file__).resolve().parents[1]


def test_every_benchmark_runs_small_through_the_command(tmp_path: Path) -> None:
    """``python -m benchmarks`` with each benchmark's smallest options: every benchmark's
    rows reach the results file, each with a reference and a ratio or the reason why not."""
    names = known()
    results = tmp_path / "results.json"
    command = [sys.executable, "-m", "benchmarks", "--json", str(results)]
    command += [word for name in names for word in (name, *load(name).SMALL)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    written = json.loads(results.read_text())
    assert {"cpu", "cores", "load_average", "python", "date"} <= set(written["machine"])
    assert [run["name"] for run in written["benchmarks"]] == names
    for run in written["benchmarks"]:
        assert "error" not in run and run["rows"], run
        for row in run["rows"]:
            assert row["reason"] or (row["reference"] > 0 and row["ratio"] is not None), row
            assert row["misses"] is None or row["misses"] >= 0, row
            assert row["reference_name"] or row["reason"], row
    assert "== vision" in done.stdout and "reference:" in done.stdout
    table = tmp_path / "RESULTS.md"
    assert report.main([str(results), "-o", str(table)]) == 0
    text = table.read_text()
    for run in written["benchmarks"]:
        assert f"`python -m benchmarks {run['name']}" in text
        for row in run["rows"]:
            assert f"| {row['name'].replace('|', chr(92) + '|')} | " in text, row["name"]


@pytest.mark.parametrize("content", ['{"machine": {"cpu": "x"}, "benchmarks": [',
                                     '{"benchmarks": []}', '[1, 2]', "\xff"])
def test_a_results_file_that_is_not_one_is_refused_in_one_line(
    content: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    damaged = tmp_path / "results.json"
    damaged.write_text(content, encoding="latin-1")
    with pytest.raises(SystemExit) as exit_:
        report.main([str(damaged)])
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith(f"python -m benchmarks.report: {damaged}: not a results file")
    assert error.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["journal", "--length", "0"],
         "python -m benchmarks journal: error: argument --length: expected a whole number "
         ">= 1, got '0'"),
        (["rules", "--cases", "2", "serial", "--snapshots", "x"],
         "python -m benchmarks serial: error: argument --snapshots: expected a whole number "
         ">= 1, got 'x'"),
        (["service", "--idle-s", "-1"],
         "python -m benchmarks service: error: argument --idle-s: expected seconds above 0, "
         "got '-1'"),
        (["journal", "--length", "3", "--games", "2"],
         "python -m benchmarks journal: error: argument --games: not allowed with argument "
         "--length"),
        (["journal", "--cases", "3"],
         "python -m benchmarks journal: error: unrecognized arguments: --cases 3"),
        (["vision", "--light-rolls", "1"],
         "python -m benchmarks vision: error: argument --light-rolls: expected at least 10 (a "
         "roll of each kind: flat, cocked, off_half, on_checker, missing), got '1'"),
        (["vision", "--photos", "/nowhere"],
         "python -m benchmarks vision: error: argument --photos: '/nowhere' has no "
         "manifest.jsonl of labelled photos"),
        (["rulez", "--cases", "3"],
         "python -m benchmarks: error: unknown benchmark 'rulez'; known: " + ", ".join(known())),
    ],
)  # fmt: skip
def test_a_bad_name_or_option_is_refused_before_anything_runs(
    argv: list[str], error: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "results.json"
    with pytest.raises(SystemExit) as exit_:
        main(["--json", str(results), *argv])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == error
    assert not results.exists()


def test_journal_games_is_a_money_session_cut_after_that_many_games() -> None:
    """``journal --games N`` (the issue's 50-game row) journals a money session up to its
    N-th result: money play never ends, so the events stop there, not at a match's end."""
    events, source = bench_journal._events(7, 3)
    assert source == "a money session of 3 games"
    started = events[0]
    assert isinstance(started, MatchStarted) and started.rules.is_money
    assert isinstance(events[-1], GameEnded)
    assert sum(isinstance(event, GameEnded) for event in events) == 3
    match, what = bench_journal._events(1, None)
    assert what == "a 1-point match" and isinstance(match[-1], GameEnded)
    parser = argparse.ArgumentParser()
    bench_journal.add_options(parser)
    for argv, command in [(["--games", "50"], "--games 50 --repeats 3"), ([], "--repeats 3")]:
        assert report._options(vars(parser.parse_args(argv))) == command  # a command that runs


def _late_open(path: str, baudrate: int) -> SerialPort:
    """pyserial's port, opened half a second late: the link asks for HELLO late."""
    time.sleep(0.5)  # the injected fault: a busy machine runs the opening thread late
    port: SerialPort = serial.serial_for_url(path, baudrate=baudrate, timeout=0, exclusive=True)
    return port


def test_serial_waits_for_a_late_hello_request_through_the_loop() -> None:
    """A blocking read on the loop's thread waited forever for a request that only the
    blocked loop could send; read through the loop, the late request arrives."""
    outcome: dict[str, Row | BaseException] = {}

    def measure() -> None:
        try:
            outcome["row"] = asyncio.run(bench_serial.pty_row(50, 1, open_serial=_late_open))
        except BaseException as error:  # handed to the test's thread
            outcome["error"] = error

    worker = threading.Thread(target=measure, name="bench-serial", daemon=True)
    worker.start()
    worker.join(120)
    assert outcome, "the serial benchmark is stuck: its event loop is blocked"
    row = outcome.get("row", outcome.get("error"))
    if isinstance(row, BaseException):
        raise row
    assert isinstance(row, Row)
    assert row.misses == 0
    assert row.ratio is not None


def test_service_counts_a_change_without_an_led_update_as_a_miss() -> None:
    """In referee mode a lifted checker lights nothing: every change is a miss, counted and
    kept in the percentiles at the bound (they were dropped, and the p99 hid them)."""

    async def measure() -> list[Row]:
        with tempfile.TemporaryDirectory() as folder:
            journal = Path(folder) / "journal.sqlite3"
            async with SimulatedBoard(journal, seed=1, mode=Mode.REFEREE) as table:
                return await bench_service.latency(table, 2, random.Random(1))

    rows = asyncio.run(measure())
    assert [(row.name.rsplit(", ", 1)[1], row.misses) for row in rows] == [
        ("median", 2),
        ("p99", 2),
    ]
    assert all(row.figure == bench_service.BOUND_S * 1000 for row in rows)
    assert all(row.ratio is not None for row in rows)


def test_slow_counts_a_start_that_never_gets_ready_as_a_miss_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ``tabula run`` that stops before READY=1 (here, a configuration it refuses) is a
    miss, counted at systemd's own bound, and the line it ended with is printed."""
    monkeypatch.setattr(bench_slow, "_CONFIG", bench_slow._CONFIG + "bogus = 1\n")
    row = bench_slow._start_up_row(1, tmp_path, None)
    assert (row.misses, row.figure) == (1, bench_slow.TIMEOUT_START_S)
    assert "web.bogus: unknown key" in capsys.readouterr().out
