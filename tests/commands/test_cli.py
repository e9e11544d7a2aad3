"""``tabula``: one exit status per kind of outcome, and one line per mistake, for every command.

0 done; 2 a mistake to fix (the command line, as argparse says it, or the input it names);
1 some lines of a batch failed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import COMMANDS, main

MISTAKES: dict[str, tuple[list[str], str]] = {
    "plays": (["4HPwATDgc/ABMA"], "give POSITION and DICE, or --batch"),
    "demo": (["--games", "0"], "--games 0: expected at least 1"),
    "sim-board": (["--protocol", "two"], "--protocol 'two': expected MAJOR.MINOR, each 0..255"),
    "board": (["--settle-ms", "-1"], "--settle-ms -1: must be >= 0"),
    "export": (["--match", "{tmp}/m.jsonl"], "give --format mat|sgf|json|text, or --position"),
    "check-config": (["--config", "{tmp}/none.toml"], "cannot read the configuration"),
    "hint": (["4HPwATDgc/ABMA", "31", "--ply", "9"], "--ply is 0 to 7, got 9"),
    "review": (["--match", "{tmp}/m.jsonl", "--ply", "9"], "--ply is 0 to 7, got 9"),
    "hub": (["--broker", "mqtt://h", "--archive", "{tmp}", "--port", "70000"], "--port: a TCP"),
    "dice": (["--config", "{tmp}/none.toml", "{tmp}/a.png"], "cannot read config"),
    "calibrate": (["--config", "{tmp}/c.toml", "--source", "{tmp}/a.png"], "cannot read image"),
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
