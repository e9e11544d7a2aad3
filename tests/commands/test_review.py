"""``tabula review``: a recorded match reviewed by GNU Backgammon, as text, a page or an .sgf."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from controller.record import Event, event_to_json
from controller.record.journal import Journal
from controller.record.sgf import read_sgf
from tests.commands.test_plays import tabula
from tests.review.matches import blunder_record, short_match


def saved(tmp_path: Path, events: list[Event]) -> Path:
    path = tmp_path / "match.jsonl"
    path.write_text("".join(event_to_json(event) + "\n" for event in events))
    return path


def test_review_prints_each_decision_and_the_verdicts(tmp_path: Path) -> None:
    run = tabula("review", "--match", str(saved(tmp_path, blunder_record())), "--engine", "cli")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[:2] == ["Review: Alice - Bob, money session", "Engine: gnubg-cli, 0-ply"]
    assert any(line.startswith("Rating ") for line in lines)
    plays = [line for line in lines if "pips" in line]
    assert len(plays) == 2
    assert "31: 13/9" in plays[0] and "blunder -0.2" in plays[0] and "best 8/5 6/5" in plays[0]


def test_review_shows_its_progress_on_stderr_only_when_asked(tmp_path: Path) -> None:
    match = str(saved(tmp_path, blunder_record()))
    quiet = tabula("review", "--match", match, "--engine", "cli")
    run = tabula("review", "--match", match, "--engine", "cli", "--progress")
    assert run.returncode == 0, run.stderr
    assert run.stdout == quiet.stdout  # the review itself, untouched
    assert quiet.stderr == ""  # not a terminal, not asked: no progress
    lines = run.stderr.splitlines()
    total = int(re.fullmatch(r"review: 1/(\d+) decisions judged \(\d+%\)", lines[0])[1])
    assert total >= 2  # the two plays at least
    assert lines[-1] == f"review: {total}/{total} decisions judged (100%)"


def test_review_of_a_journal_writes_a_page(tmp_path: Path) -> None:
    path = tmp_path / "match.db"
    with Journal(path) as journal:
        for event in short_match():
            journal.append(event)
    out = tmp_path / "review.html"
    run = tabula("review", "--journal", str(path), "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"wrote {out} (") and "cube decisions reviewed)" in run.stdout
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "Game 2 (score" in page
    assert "<p>Engine: gnubg-bindings, 0-ply." in page


def test_review_of_a_journal_writes_the_analysed_sgf(tmp_path: Path) -> None:
    path = tmp_path / "match.db"
    with Journal(path) as journal:
        for event in short_match():
            journal.append(event)
    out = tmp_path / "review.sgf"
    run = tabula("review", "--journal", str(path), "--out", str(out), "--engine", "bindings")
    assert run.returncode == 0, run.stderr
    counted = re.fullmatch(
        rf"wrote {re.escape(str(out))} \((\d+) plays and (\d+) cube decisions reviewed\)\n",
        run.stdout,
    )
    assert counted, run.stdout
    text = out.read_text(encoding="utf-8")
    # Every play reviewed carries its ranked plays, every cube decision its equities.
    assert len(re.findall(r"(?<!D)A\[\d+\]\[", text)) == int(counted[1])
    doubles = text.count("[double]DA[")
    assert text.count("DA[") == int(counted[2]) + doubles  # an answer repeats its double's
    assert len(read_sgf(text).games) == 2


def test_without_an_engine_the_review_says_so(tmp_path: Path) -> None:
    # As on a Pi with neither the bindings nor the program: the import finds no bindings.
    code = (
        "import sys; sys.modules['gnubg'] = None; from controller.cli import main; "
        "sys.exit(main(sys.argv[1:]))"
    )
    match = saved(tmp_path, blunder_record())
    run = subprocess.run(
        [sys.executable, "-c", code, "review", "--match", str(match), "--gnubg", "/nonexistent"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2
    assert run.stderr == (
        "tabula review: no engine to review with: install Debian's gnubg package "
        "(or the gnubg bindings on x86-64)\n"
    )
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--engine", "cli", "--gnubg", "/nonexistent/gnubg"),
            "tabula review: cannot start GNU Backgammon ('/nonexistent/gnubg'): [Errno 2]",
        ),
        (("--out", "review.pdf"), "tabula review: --out ends in .txt, .html or .sgf"),
        (("--ply", "9"), "tabula review: --ply is 0 to 7, got 9"),
    ],
)
def test_bad_input_is_one_clear_line_not_a_traceback(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    run = tabula("review", "--match", str(saved(tmp_path, blunder_record())), *args)
    assert run.returncode == 2
    assert run.stderr.startswith(message)
    assert "Traceback" not in run.stderr


def test_a_missing_journal_is_one_clear_line(tmp_path: Path) -> None:
    run = tabula("review", "--journal", str(tmp_path / "none.db"))
    assert run.returncode == 2
    assert run.stderr.startswith("tabula review: ")
    assert "Traceback" not in run.stderr
