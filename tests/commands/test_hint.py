"""``tabula hint``: single positions and the batch mode, through the real console script."""

from __future__ import annotations

import json

import pytest

from controller.rules import START, legal_plays
from tests.commands.test_plays import tabula  # the console script, run as users run it

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


@pytest.mark.parametrize("engine", ["bindings", "cli"])
def test_hint_prints_the_best_play_first_then_the_next_ones(engine: str) -> None:
    run = tabula("hint", START_XGID, "31", "--engine", engine, "--top", "3")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("1. 8/5 6/5") and "0-ply" in lines[0]
    equity = float(lines[0].split()[3])
    assert 0.15 < equity < 0.3
    assert lines[1].startswith("2. ") and lines[1].endswith(")")  # the loss against the best


def test_hint_from_a_position_id_with_the_default_engine_at_a_deeper_ply() -> None:
    run = tabula("hint", "4HPwATDgc/ABMA", "42", "--ply", "1")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("1. 8/4 6/4")
    assert "1-ply" in run.stdout


def request(identifier: object, dice: list[int], player: int = 0) -> str:
    return json.dumps({"id": identifier, "board": list(START), "player": player, "dice": dice})


def test_batch_answers_every_line_and_fails_for_bad_ones() -> None:
    lines = [
        request("a", [6, 5]),
        "not json",
        json.dumps({"id": "b", "board": [1], "player": 0, "dice": [1, 2]}),
        json.dumps({"id": "c", "board": list(START), "player": 2, "dice": [1, 2]}),
        json.dumps({"id": "d", "board": list(START), "player": 0, "dice": [7, 2]}),
        json.dumps({"id": "e", "board": list(START), "player": 0}),
        request("f", [4, 2], player=1),
    ]
    run = tabula("hint", "--batch", "--engine", "cli", stdin="\n".join(lines) + "\n")
    assert run.returncode == 1, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert [answer["id"] for answer in answers] == ["a", None, "b", "c", "d", "e", "f"]
    run_off = next(p for p in legal_plays(START, 0, (6, 5)) if p.notation == "24/13")
    assert answers[0] == {
        "id": "a",
        "best": "24/13",
        "result": list(run_off.result),
        "equity": answers[0]["equity"],
    }
    assert answers[1]["error"].startswith("line 2: bad JSON")
    assert answers[2]["error"] == "a board is 26 integers, got [1]"
    assert answers[3]["error"] == "player must be 0 or 1, got 2"
    assert answers[4]["error"] == "dice must be two numbers from 1 to 6, got [7, 2]"
    assert answers[5]["error"] == "missing 'dice'"
    assert answers[6]["best"] == "8/4 6/4"


def test_batch_reads_what_tabula_plays_batch_reads() -> None:
    lines = request(1, [3, 1]) + "\n" + request(2, [3, 1], player=1) + "\n"
    plays = tabula("plays", "--batch", "--notation", stdin=lines)
    hints = tabula("hint", "--batch", "--engine", "bindings", stdin=lines)
    assert plays.returncode == hints.returncode == 0, hints.stderr
    for play_line, hint_line in zip(
        plays.stdout.splitlines(), hints.stdout.splitlines(), strict=True
    ):
        listed, hinted = json.loads(play_line), json.loads(hint_line)
        assert hinted["best"] == "8/5 6/5" and hinted["best"] in listed["plays"]
        assert hinted["result"] == listed["results"][listed["plays"].index(hinted["best"])]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("4HPwATDgc/ABMA", "31", "--engine", "cli", "--gnubg", "/nonexistent/gnubg"),
            "tabula hint: cannot start GNU Backgammon ('/nonexistent/gnubg'): [Errno 2]",
        ),
        (("4HPwATDgc/ABMA", "3"), "tabula hint: dice are two digits from 1 to 6 such as 52"),
        (("XGID=abc:0", "52"), "tabula hint: invalid XGID"),
    ],
)
def test_bad_input_is_one_clear_line_not_a_traceback(args: tuple[str, ...], message: str) -> None:
    run = tabula("hint", *args)
    assert run.returncode == 2
    assert run.stderr.startswith(message)
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("4HPwATDgc/ABMA", "31", "--ply", "9"), "tabula hint: --ply is 0 to 7, got 9"),
        (("4HPwATDgc/ABMA",), "tabula hint: give POSITION and DICE, or --batch"),
        (("--batch", "4HPwATDgc/ABMA"), "tabula hint: --batch reads stdin and takes no POSITION"),
    ],
)
def test_usage_errors_exit_2_as_for_tabula_plays(args: tuple[str, ...], message: str) -> None:
    run = tabula("hint", *args)
    assert run.returncode == 2
    assert run.stderr.startswith(message)
