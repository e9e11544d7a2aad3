"""``tabula plays``: single positions and the batch mode, through the real console script."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.rules.variants import VARIANTS
from tests.firmware_bridge.conftest import PATIENCE_S
from tests.rules.positions import golden_cases

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"


def tabula(
    *args: str, stdin: str = "", timeout: float | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the console script; ``env`` adds to this process's environment."""
    return subprocess.run(
        [sys.executable, "-m", "controller.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
        env={**os.environ, **env} if env else None,
    )


def test_plays_from_a_position_id_prints_notation_and_xgid() -> None:
    run = tabula("plays", "4HPwATDgc/ABMA", "52")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 8  # the opening 5-2 has 8 distinct plays (GNU Backgammon agrees)
    assert "13/11 13/8\tXGID=-b----E-D--AeC---c-e----B-:0:0:-1:00:0:0:0:0:10" in lines


def test_plays_from_an_xgid_keeps_the_match_fields() -> None:
    run = tabula("plays", START_XGID, "52")
    assert run.returncode == 0, run.stderr
    assert "13/11 13/8\tXGID=-b----E-D--AeC---c-e----B-:0:0:-1:00:0:0:3:0:10" in run.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("4HPwATDgc/ABMA", "72"), "dice must be two numbers from 1 to 6, got [7, 2]"),
        (("4HPwATDgc/ABMA", "5"), "dice are two digits from 1 to 6 such as 52, got '5'"),
        (("4HPwATDgc", "52"), "expected 14 characters, got 9"),
        (("XGID=abc:0", "52"), "invalid XGID"),
    ],
)
def test_bad_input_is_one_clear_line_not_a_traceback(args: tuple[str, str], message: str) -> None:
    run = tabula("plays", *args)
    assert run.returncode != 0
    assert message in run.stderr
    assert "Traceback" not in run.stderr


def test_batch_answers_golden_cases_in_the_golden_layout() -> None:
    cases = golden_cases()[:300]
    requests = "".join(
        json.dumps({"id": c["id"], "variant": "backgammon", "board": c["board"],
                    "player": c["player"], "dice": c["dice"]}) + "\n"
        for c in cases
    )  # fmt: skip
    run = tabula("plays", "--batch", "--notation", stdin=requests)
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert [a["id"] for a in answers] == [c["id"] for c in cases]
    for case, reply in zip(cases, answers, strict=True):
        assert sorted(reply["results"]) == sorted(case["results"]), case["id"]
        assert len(reply["plays"]) == len(reply["results"])
        if case["no_move"]:
            assert reply["plays"] == [""] and reply["results"] == [case["board"]]


def test_batch_reports_each_bad_line_and_goes_on() -> None:
    good = {"id": "ok", "variant": "backgammon", "board": golden_cases()[0]["board"],
            "player": 1, "dice": [3, 3]}  # fmt: skip
    lines = [
        "not json",
        json.dumps({**good, "id": 1, "dice": [7, 1]}),
        json.dumps({**good, "id": 2, "variant": "chess"}),
        json.dumps({**good, "id": 3, "board": [0] * 25}),
        json.dumps({**good, "id": 4, "player": 2}),
        json.dumps({"id": 5}),
        "[" * 100_000,  # deeper than JSON's decoder recurses
        '{"id": ' + "9" * 5000 + "}",  # an integer too long to convert
        json.dumps(good),
    ]
    run = tabula("plays", "--batch", stdin="\n".join(lines) + "\n")
    assert run.returncode == 1, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert [a["id"] for a in answers] == [None, 1, 2, 3, 4, 5, None, None, "ok"]
    errors = [a.get("error", "") for a in answers]
    assert "bad JSON" in errors[0]
    assert "two numbers from 1 to 6" in errors[1]
    assert "unknown variant 'chess'" in errors[2]
    assert "26 integers" in errors[3]
    assert "player must be 0 or 1, got 2" in errors[4]
    assert "missing 'board'" in errors[5]
    assert "line 7: bad JSON: arrays or objects nested deeper" in errors[6]
    assert "line 8: bad JSON: Exceeds the limit (4300 digits)" in errors[7]
    assert len(answers[8]["results"]) == golden_cases()[0]["n"]


def test_a_position_with_a_double_pending_has_no_plays_yet() -> None:
    run = tabula("plays", "XGID=-b----E-C---eE---c-e----B-:1:0:1:D:0:0:0:0:10", "52")
    assert run.returncode == 2
    assert "has a double pending: take or drop it first" in run.stderr


def test_batch_plays_jacquet_and_nackgammon_with_handed_over_numbers() -> None:
    jacquet_start = [0] * 26
    jacquet_start[24], jacquet_start[12] = 15, -15
    nackgammon = [0, -2, -2, 0, 0, 0, 4, 0, 3, 0, 0, 0, -4, 4, 0, 0, 0, -3, 0, -4, 0, 0, 0, 2, 2, 0]
    lines = [
        {"id": "j", "variant": "jacquet-versailles", "board": jacquet_start, "player": 0,
         "dice": [6, 6]},
        {"id": "l", "variant": "jacquet-versailles-ludii", "board": jacquet_start, "player": 1,
         "dice": [5, 3]},
        {"id": "n", "variant": "nackgammon", "board": nackgammon, "player": 0, "dice": [6, 5]},
    ]  # fmt: skip
    run = tabula(
        "plays", "--batch", "--notation", stdin="".join(json.dumps(line) + "\n" for line in lines)
    )
    assert run.returncode == 0, run.stderr
    jacquet, ludii, nack = (json.loads(line) for line in run.stdout.splitlines())
    # 6-6 at the start: the courier reaches pos 7, player 1's start point blocks the rest,
    # and the five sixes left pass to the opponent (rule 10).
    assert jacquet["plays"] == ["24/18"] and jacquet["handed_over"] == [6, 6, 6, 6, 6]
    assert jacquet["results"][0][18] == 1 and jacquet["results"][0][24] == 14
    # Player 1 starts on point 12 and moves 12 -> 1: 5-3 takes the courier to point 4.
    assert ludii["plays"] == ["24/16"] and ludii["handed_over"] == []
    assert ludii["results"][0][4] == -1
    assert "handed_over" not in nack
    assert "24/13" in nack["plays"] and len(nack["plays"]) == 7


def test_plays_imports_only_the_rules() -> None:
    """`tabula plays` imports its own command and the rules, not every command's module
    (the service, OpenCV, the web), nor shutil and its compression modules, which argparse
    imports when it must find the terminal's width itself: its start on a Pi is mostly
    imports."""
    code = (
        "import json, sys; from controller.cli import main; "
        f"main(['plays', '{START_XGID}', '31']); "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('controller.', "
        "'vision', 'firmware_bridge', 'cv2', 'numpy', 'serial', 'asyncio', 'shutil')))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    imported = json.loads(done.stdout.splitlines()[-1])
    assert imported and all(m.startswith("controller.") for m in imported)
    assert {m.split(".")[1] for m in imported} == {"cli", "commands", "rules"}, imported


def test_batch_writes_notation_only_when_asked() -> None:
    cases = golden_cases()[:50]
    lines = [
        {"id": c["id"], "board": c["board"], "player": c["player"], "dice": c["dice"]}
        for c in cases
    ]
    lines[1]["notation"] = True
    run = tabula("plays", "--batch", stdin="".join(json.dumps(line) + "\n" for line in lines))
    assert run.returncode == 0, run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert [sorted(a["results"]) for a in answers] == [sorted(c["results"]) for c in cases]
    assert [("plays" in a) for a in answers] == [index == 1 for index in range(len(cases))]
    assert len(answers[1]["plays"]) == len(answers[1]["results"])


def test_batch_answers_a_request_before_the_next_one_arrives() -> None:
    """Answers are written in blocks, but never held while tabula waits for input: a
    program that asks one position and waits for its answer is answered."""
    child = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "plays", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    try:
        for case in golden_cases()[:3]:
            request = {"id": case["id"], "board": case["board"], "player": case["player"]}
            child.stdin.write(json.dumps({**request, "dice": case["dice"]}) + "\n")
            child.stdin.flush()
            ready, _, _ = select.select([child.stdout], [], [], PATIENCE_S)
            assert ready, "no answer while tabula waits for the next request"
            reply = json.loads(child.stdout.readline())
            assert reply["id"] == case["id"] and len(reply["results"]) == case["n"]
        child.stdin.close()
        assert child.wait(timeout=PATIENCE_S) == 0
    finally:
        child.kill()


def test_batch_refuses_a_line_that_is_not_utf8_and_answers_the_rest() -> None:
    """Read in blocks from the descriptor, a line of bytes that are not UTF-8 is one clear
    error; the lines around it, the last one without its newline, are answered."""
    case = golden_cases()[0]
    good = json.dumps({"id": "ok", "board": case["board"], "player": case["player"],
                       "dice": case["dice"]}).encode()  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli", "plays", "--batch"],
        input=good + b"\n\xff\xfe not text\n" + good,
        capture_output=True,
        check=False,
        timeout=PATIENCE_S,
    )
    assert done.returncode == 1
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers] == ["ok", None, "ok"]
    assert "line 2: bad JSON" in answers[1]["error"]
    assert len(answers[2]["results"]) == case["n"]


@pytest.mark.parametrize(
    "response",
    [
        {"id": 7, "results": [tuple(range(-15, 11)), tuple(range(15, -11, -1))]},
        {"id": "a", "plays": ["24/18"], "results": [(0,) * 26], "handed_over": [6, 6]},
        {"id": None, "error": 'line 3: bad JSON: "x"'},
        {"id": 1, "results": []},
        {"results": [(0,) * 26]},
    ],
)
def test_a_batch_line_is_the_json_of_its_response(response: dict[str, object]) -> None:
    """The boards are written by hand (faster than JSON's encoder): the same JSON."""
    from controller.commands.plays import json_line

    line = json_line(response)
    assert line.endswith("\n") and "\n" not in line[:-1]
    assert json.loads(line) == json.loads(json.dumps(response))


_SCALARS = st.none() | st.booleans() | st.integers(-20, 30) | st.text(max_size=6)
_JSON = st.recursive(
    _SCALARS | st.floats(allow_nan=False),
    lambda inner: (
        st.lists(inner, max_size=27) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=30,
)
"""Any JSON value (but NaN, which is not equal to itself)."""

_GOLDEN_BOARDS = [case["board"] for case in golden_cases()[:200]]


@settings(max_examples=400, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "id": _JSON,
            "variant": st.sampled_from(list(VARIANTS)) | _JSON,
            "board": st.sampled_from(_GOLDEN_BOARDS)
            | st.lists(st.integers(-16, 16), min_size=26, max_size=26)
            | _JSON,
            "player": st.sampled_from([0, 1]) | _JSON,
            "dice": st.lists(st.integers(0, 7), min_size=2, max_size=2) | _JSON,
            "notation": st.booleans() | _JSON,
        },
    )
    | _JSON
)
def test_any_batch_request_is_answered_or_refused_in_one_line(request: object) -> None:
    """Whatever JSON a line holds, its answer is one line: the results, or what is wrong."""
    from controller.commands.plays import answer, json_line

    response = answer(request)
    assert ("error" in response) != ("results" in response), response
    assert response["id"] == (request.get("id") if isinstance(request, dict) else None)
    assert json.loads(json_line(response))["id"] == response["id"]
