"""The analysed ``.sgf``: GNU Backgammon loads it and shows the engine's analysis.

Each match is reviewed by each real engine, written with the review, and loaded into
Debian's ``gnubg``: its statistics (computed from the analysis it read) must be the
review's own figures, its move lists the engine's, its alerts the review's grades.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from controller.engine import Engine, PlayVerdict, Review, Skill
from controller.record import Beavered, IllegalPlayAccepted, MatchRecord, PositionEdited, replay
from controller.record.decisions import pair_verdicts
from controller.record.sgf import read_sgf, write_sgf
from controller.review import analyse
from controller.rules import Rules
from tests.record.gnubg_program import run_gnubg
from tests.record.matches import irregular_events
from tests.record.test_sgf import comparable
from tests.review.conftest import blunder, engine, match, money, runner

__all__ = ["blunder", "engine", "match", "money", "runner"]

_NUMBER = r"([-+]\d+\.\d+)"
_ERROR_TOTAL = re.compile(rf"Error total EMG \((?:MWC|Points)\)\s+{_NUMBER} \(.*?\)\s+{_NUMBER}")
_ERROR_RATE = re.compile(rf"Error rate mEMG \((?:MWC|Points)\)\s+{_NUMBER}\s+\(.*?\)\s+{_NUMBER}")


def _row(output: str, label: str) -> tuple[int, int]:
    found = re.search(rf"^{re.escape(label)}\s+(\d+)\s+(\d+)", output, re.MULTILINE)
    assert found, f"no {label!r} in GNU Backgammon's statistics"
    return int(found[1]), int(found[2])


def _statistics(record: MatchRecord, review: Review, tmp_path: Path) -> str:
    path = tmp_path / "analysed.sgf"
    path.write_text(write_sgf(record, review), encoding="utf-8")
    return run_gnubg([f"load match {path}", "show statistics match"])


def _check_statistics(record: MatchRecord, review: Review, tmp_path: Path) -> str:
    """Check GNU Backgammon's statistics of the analysed match against the review's."""
    output = _statistics(record, review, tmp_path)
    plays = [v for v in review.plays if not v.forced]
    # GNU Backgammon cannot analyse beavers: a beavered double has no analysis there.
    beavered = {
        id(judged.verdict)
        for judged in pair_verdicts(record, review)
        if any(isinstance(event, Beavered) for event in judged.events)
    }

    chequer, cube, overall = (tuple(map(float, m.groups())) for m in _ERROR_TOTAL.finditer(output))
    rates = [tuple(map(float, m.groups())) for m in _ERROR_RATE.finditer(output)]
    for player in (0, 1):
        mine = [v for v in plays if v.player == player]
        assert -chequer[player] == pytest.approx(sum(v.loss for v in mine), abs=1e-3)
        cube_loss = sum(
            v.loss for v in review.cube_decisions if v.player == player and id(v) not in beavered
        ) + sum(
            v.take_loss or 0.0
            for v in review.cube_decisions
            if v.player != player and id(v) not in beavered
        )
        assert -cube[player] == pytest.approx(cube_loss, abs=2e-3)
        beavers = sum(
            v.loss if v.player == player else v.take_loss or 0.0
            for v in review.cube_decisions
            if id(v) in beavered
        )
        rate = review.error_rate(player)
        assert -overall[player] == pytest.approx(rate.total_loss - beavers, abs=3e-3)
        if not beavered:  # the same decisions: the same error rate
            assert -rates[2][player] == pytest.approx(rate.mean_loss * 1000, abs=0.1)
    assert cube[0] + cube[1] < 0  # the simulated players err at the cube too
    assert _row(output, "Unforced moves") == tuple(
        sum(1 for v in plays if v.player == p) for p in (0, 1)
    )
    assert _row(output, "Moves marked very bad") == tuple(
        sum(1 for v in plays if v.player == p and v.skill is Skill.BLUNDER) for p in (0, 1)
    )
    assert _row(output, "Moves marked doubtful") == tuple(
        sum(1 for v in plays if v.player == p and v.skill is Skill.DOUBTFUL) for p in (0, 1)
    )
    assert _row(output, "Close or actual cube decisions") == tuple(
        sum(1 for v in review.cube_decisions if v.player == p and id(v) not in beavered)
        + sum(
            1
            for v in review.cube_decisions
            if v.player != p and v.decision.doubled and id(v) not in beavered
        )
        for p in (0, 1)
    )
    return output


def test_gnubg_reads_a_match_review_back_as_its_own_statistics(
    match: tuple[MatchRecord, Review], tmp_path: Path
) -> None:
    # Match play: the cube's equities went to GNU Backgammon as match winning chances.
    output = _check_statistics(*match, tmp_path)
    assert "Error total EMG (MWC)" in output


def test_gnubg_reads_a_money_review_back_as_its_own_statistics(
    money: tuple[MatchRecord, Review], tmp_path: Path
) -> None:
    output = _check_statistics(*money, tmp_path)
    assert "Error total EMG (Points)" in output


def _as_gnubg_text(sgf: str, folder: Path) -> str:
    """The match as GNU Backgammon exports it to text after loading ``sgf``."""
    path = folder / "blunder.sgf"
    path.write_text(sgf, encoding="utf-8")
    exported = folder / "blunder.txt"
    run_gnubg([f"load match {path}", f"export match text {exported}"])
    return exported.read_text(encoding="utf-8")


def test_gnubg_shows_the_blunder_the_best_play_and_its_probabilities(
    blunder: tuple[MatchRecord, Review], tmp_path: Path
) -> None:
    record, review = blunder
    verdict = review.plays[0]
    assert isinstance(verdict, PlayVerdict)
    probabilities = verdict.best.probabilities
    assert probabilities is not None and verdict.played.probabilities is not None
    assert probabilities == pytest.approx((0.551, 0.174, 0.0127, 0.1244, 0.005), abs=2e-3)
    sgf = write_sgf(record, review)
    assert "E ver 3 0.55" in sgf
    text = _as_gnubg_text(sgf, tmp_path)

    assert re.search(r"Alert: very bad move \( -0\.2\d\d\)", text)
    best = re.search(rf"\s1\. Cubeful 0-ply\s+8/5 6/5\s+Eq\.: {_NUMBER}", text)
    played = re.search(rf"\*\s+\d+\. Cubeful 0-ply\s+13/9\s+Eq\.: {_NUMBER} \({_NUMBER}\)", text)
    assert best and played, text[:3000]
    assert float(best[1]) == pytest.approx(verdict.best.equity, abs=1e-3)
    assert float(played[1]) == pytest.approx(verdict.played.equity, abs=1e-3)
    assert -float(played[2]) == pytest.approx(verdict.loss, abs=1e-3)
    shown = re.search(
        r"\s1\. Cubeful 0-ply\s+8/5 6/5.*\n\s+(\d\.\d+) (\d\.\d+) (\d\.\d+) - (\d\.\d+) "
        r"(\d\.\d+) (\d\.\d+)",
        text,
    )
    assert shown, text[:3000]
    win, wing, winbg, lose, loseg, losebg = (float(group) for group in shown.groups())
    assert (win, wing, winbg, loseg, losebg) == pytest.approx(probabilities, abs=1e-3)
    assert lose == pytest.approx(1 - win, abs=1e-3)
    assert "nan" not in text[text.index("8/5 6/5") :][:400]


def test_the_analysed_sgf_is_the_same_match_to_tabula(match: tuple[MatchRecord, Review]) -> None:
    record, review = match
    text = write_sgf(record, review)
    assert text != write_sgf(record) and "A[" in text and "DA[E ver 3 " in text
    again = read_sgf(text)
    assert [comparable(g) for g in again.games] == [comparable(g) for g in record.games]


def test_an_irregular_session_is_analysed_around_its_edits(
    runner: asyncio.Runner, engine: Engine, tmp_path: Path
) -> None:
    # Beavers, illegal plays accepted and position edits: no verdict for what is not a
    # legal decision, and GNU Backgammon still reads every verdict there is.
    events = irregular_events(2, Rules(jacoby=True, beavers=True), games=3)
    assert any(isinstance(e, IllegalPlayAccepted | PositionEdited) for e in events)
    record = replay(events)
    review = runner.run(analyse(engine, record))
    _check_statistics(record, review, tmp_path)


def test_gnubg_shows_the_chances_of_a_cube_decision(
    money: tuple[MatchRecord, Review], tmp_path: Path
) -> None:
    record, review = money
    cubes = [v for v in review.cube_decisions if v.advice.probabilities is not None]
    assert cubes, "the engine gave no chances for the cube decisions"
    text = _as_gnubg_text(write_sgf(record, review), tmp_path)
    sections = re.findall(
        r"Cube analysis\n\d-ply cubeless equity\s+([+-]\d\.\d+).*\n\s+(\d\.\d+) (\d\.\d+) "
        r"(\d\.\d+) - (\d\.\d+) (\d\.\d+) (\d\.\d+)",
        text,
    )
    assert len(sections) >= len(cubes), text[:3000]
    shown = {tuple(float(g) for g in found) for found in sections}
    for verdict in cubes:
        win, wing, winbg, loseg, losebg = verdict.advice.probabilities or ()
        equity = 2 * win - 1 + wing - loseg + winbg - losebg
        assert any(
            row == pytest.approx((equity, win, wing, winbg, 1 - win, loseg, losebg), abs=1e-3)
            for row in shown
        ), (verdict.advice, sorted(shown)[:5])
    assert not [block for block in re.findall(r"Cube analysis\n.*\n.*\n", text) if "nan" in block]
