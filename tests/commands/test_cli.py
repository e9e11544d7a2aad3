"""``tabula``: one exit status per kind of outcome, and one line per mistake, for every command.

0 done; 2 a mistake to fix (the command line, as argparse says it, or the input it names);
1 the rest: some lines of a batch failed, or an unexpected error, whose traceback goes to
a log file (or to standard error with ``--debug``).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import TextIO

import pytest

from controller.cli import COMMANDS, _report_unexpected, main
from tests.commands.test_plays import tabula
from tests.firmware_bridge.conftest import PATIENCE_S

MISTAKES: dict[str, tuple[list[str], str]] = {
    "plays": (["4HPwATDgc/ABMA"], "give POSITION and DICE, or --batch"),
    "demo": (["--games", "0"], "--games 0: expected at least 1"),
    "sim-board": (["--protocol", "two"], "--protocol 'two': expected MAJOR.MINOR, each 0..255"),
    "board": (["--settle-ms", "-1"], "--settle-ms -1: must be >= 0"),
    "export": (["--match", "{tmp}/m.jsonl"], "give --format mat|sgf|jsonl|txt, or --position"),
    "check-config": (["--config", "{tmp}/none.toml"], "cannot read the configuration"),
    "doctor": (["--timeout", "0"], "--timeout 0.0: must be > 0"),
    "hint": (["4HPwATDgc/ABMA", "31", "--ply", "9"], "--ply is 0 to 7, got 9"),
    "review": (["--match", "{tmp}/m.jsonl", "--ply", "9"], "--ply is 0 to 7, got 9"),
    "hub": (["--broker", "mqtt://h", "--archive", "{tmp}", "--port", "70000"], "--port: a TCP"),
    "dice": (["--config", "{tmp}/none.toml", "{tmp}/a.png"], "cannot read config"),
    "calibrate": (["--config", "{tmp}/c.toml", "--source", "{tmp}/a.png"], "cannot read image"),
    "calibration-sheet": (["--out", "{tmp}/none/sheet.pdf"], "cannot write"),
    "run": (["--config", "{tmp}/none.toml"], "cannot read the configuration"),
}
"""A mistake for each command, and what its message says."""


def test_every_command_has_a_mistake_here() -> None:
    assert set(MISTAKES) == set(COMMANDS)


@pytest.mark.parametrize("command", list(MISTAKES))
def test_every_command_refuses_a_mistake_with_status_2_in_one_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args, message = MISTAKES[command]
    status = main([command, *(arg.format(tmp=tmp_path) for arg in args)])
    captured = capsys.readouterr()
    assert status == 2, captured.err
    assert len(captured.err.splitlines()) == 1, captured.err
    assert captured.err.startswith(f"tabula {command}: ")
    assert message in captured.err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "tabula: the following arguments are required: COMMAND"),
        (["chess"], "tabula: argument COMMAND: invalid choice: 'chess'"),
        (["plays", "--bogus"], "tabula: unrecognized arguments: --bogus"),
        (["hint", "--ply", "x"], "tabula hint: argument --ply: invalid int value: 'x'"),
    ],
)
def test_argparse_mistakes_are_one_line_too_with_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(message)
    assert len(err.splitlines()) == 1 and err.rstrip().endswith("--help)"), err


def test_help_still_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plays", "--help"]) == 0
    assert capsys.readouterr().out.startswith("usage: tabula plays")


@pytest.mark.parametrize("columns", [40, 200])
def test_help_fills_the_width_columns_gives(
    columns: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The help is wrapped to $COLUMNS as argparse does, without shutil finding it."""
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(["plays", "--help"]) == 0
    widest = max(map(len, capsys.readouterr().out.splitlines()))
    assert widest <= columns - 2
    assert widest > 80 if columns > 80 else widest > columns - 10


_INJECTED_FAULT = """
import pathlib

_mkdir = pathlib.Path.mkdir


def mkdir(self, *args, **kwargs):
    if self.name == "archive":
        raise RuntimeError("injected: the card's controller failed")
    return _mkdir(self, *args, **kwargs)


pathlib.Path.mkdir = mkdir
"""
"""A fault no command expects, put in the child by ``sitecustomize``: making the hub's
archive folder raises RuntimeError (every fault of a real disk is now a clear refusal)."""


def test_a_command_that_logs_to_stderr_keeps_an_unexpected_traceback_there(
    tmp_path: Path,
) -> None:
    inject = tmp_path / "inject"
    inject.mkdir()
    (inject / "sitecustomize.py").write_text(_INJECTED_FAULT)
    path = os.pathsep.join(filter(None, [str(inject), os.environ.get("PYTHONPATH")]))
    run = tabula("hub", "--broker", "mqtt://127.0.0.1:1", "--archive", str(tmp_path / "archive"),
                 env={"TMPDIR": str(tmp_path), "PYTHONPATH": path}, timeout=60)  # fmt: skip
    assert run.returncode == 1
    assert run.stderr.startswith("Traceback") and "RuntimeError" in run.stderr
    assert run.stderr.splitlines()[-1] == (
        "tabula hub: unexpected RuntimeError: injected: the card's controller failed"
    )
    assert sorted(path.name for path in tmp_path.iterdir()) == ["inject"]  # no log file


def test_without_a_log_file_the_traceback_is_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "missing"))
    with pytest.raises(FileExistsError) as raised:
        tmp_path.mkdir()
    assert _report_unexpected("demo", raised.value, to_stderr=False) == 1
    err = capsys.readouterr().err
    assert err.startswith("Traceback") and "tmp_path.mkdir()" in err
    assert err.splitlines()[-1].startswith(
        f"tabula demo: unexpected FileExistsError: [Errno 17] File exists: '{tmp_path}' "
        "(no log file: [Errno 2] No such file or directory: "
    )


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    """`tabula plays --batch | head -1`: the answers' reader gone is no error (status 0,
    nothing said), unlike any other broken pipe (below)."""
    request = '{"board": [0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0], '
    lines = "".join(f'{request}"player": 0, "dice": [{n % 6 + 1}, 1], "id": {n}}}\n'
                    for n in range(3_000))  # fmt: skip
    child = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "plays", "--batch"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    writer = threading.Thread(target=_write_quietly, args=(child.stdin, lines))
    writer.start()
    assert child.stdout.readline().startswith('{"id":0,')
    child.stdout.close()  # far more answers to come than a pipe holds
    writer.join()
    assert child.wait(timeout=PATIENCE_S) == 0
    assert child.stderr.read() == ""


def _write_quietly(stream: TextIO, text: str) -> None:
    """Write ``text`` and close ``stream``, whether or not its reader is still there."""
    with contextlib.suppress(BrokenPipeError):
        stream.write(text)
        stream.close()


_BROKEN_PIPE = """
from hardware.board import json_types


def loads(text):
    raise BrokenPipeError("injected: a pipe to a child broken")


json_types.loads = loads
"""
"""A broken pipe that is not the output's, put in the child by ``sitecustomize``."""


def test_a_broken_pipe_that_is_not_the_output_s_is_an_unexpected_error(tmp_path: Path) -> None:
    """It was taken for the output's reader gone away: the command ended with status 0,
    saying nothing (a pipe to a child broken, say)."""
    inject = tmp_path / "inject"
    inject.mkdir()
    (inject / "sitecustomize.py").write_text(_BROKEN_PIPE)
    path = os.pathsep.join(filter(None, [str(inject), os.environ.get("PYTHONPATH")]))
    run = tabula("plays", "--batch", stdin='{"id": 1}\n', timeout=PATIENCE_S,
                 env={"TMPDIR": str(tmp_path), "PYTHONPATH": path})  # fmt: skip
    assert run.returncode == 1
    last = run.stderr.splitlines()[-1]
    assert last.startswith("tabula plays: unexpected BrokenPipeError: injected: a pipe to a child")
