"""``tabula demo``: the service on the simulators, and the simulated players' matches."""

from __future__ import annotations

import random
from pathlib import Path

from controller.rules.board import CHECKERS
from controller.rules.cube import Rules
from controller.selfplay import GameWon, Played, SimulatedPlayer, play_match
from tests.commands.test_plays import tabula


def test_headless_demo_plays_the_games_asked_and_writes_the_match_files(tmp_path: Path) -> None:
    run = tabula("demo", "--headless", "--games", "1", "--seed", "5", "--out", str(tmp_path),
                 "--illegal", "0")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "match 1: 1 game(s)" in run.stdout
    assert (tmp_path / "match-1.sgf").read_text().startswith("(;FF[4]")
    assert (tmp_path / "match-1.mat").exists()


def test_demo_without_games_plays_one_whole_match_and_stops(tmp_path: Path) -> None:
    # A demo that went on to a second match would not stop: the timeout fails the test.
    run = tabula("demo", "--headless", "--length", "1", "--seed", "5", "--out", str(tmp_path),
                 "--illegal", "0", timeout=300)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "match 1: 1 game(s)" in run.stdout
    assert "match 2" not in run.stdout
    assert not (tmp_path / "match-2.sqlite3").exists()


def test_demo_refuses_a_bad_number_of_games() -> None:
    run = tabula("demo", "--games", "0")
    assert run.returncode == 2
    assert "--games 0: expected at least 1" in run.stderr


def test_simulated_matches_are_legal_and_reach_the_length() -> None:
    for seed in range(5):
        rng = random.Random(seed)
        players = (SimulatedPlayer(random.Random(seed + 100)), SimulatedPlayer(rng))
        events = list(play_match(Rules(match_length=5), rng, players))
        final = events[-1]
        assert isinstance(final, GameWon) and final.match.is_over
        assert max(final.match.score) >= 5
        for event in events:
            if isinstance(event, Played):
                board = event.board
                assert sum(n for n in board if n > 0) <= CHECKERS
                assert -sum(n for n in board if n < 0) <= CHECKERS


def test_demo_plays_nackgammon_through_the_service(tmp_path: Path) -> None:
    args = ["--variant", "nackgammon", "--seed", "4", "--length", "1", "--games", "1"]
    run = tabula("demo", *args, "--headless", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert "nackgammon, 1-point matches" in run.stdout
    assert "wrote .json and .txt" in run.stdout
    assert "nackgammon" in (tmp_path / "match-1.txt").read_text()
