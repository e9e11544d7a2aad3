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


def _blocked_demo(out: Path) -> tuple[str, ...]:
    """A demo that fails once its match is played: match-1.sgf is a directory."""
    (out / "match-1.sgf").mkdir(parents=True)
    return ("demo", "--headless", "--games", "1", "--seed", "5", "--illegal", "0",
            "--out", str(out))  # fmt: skip


def test_a_crash_inside_the_demo_is_one_line_and_its_traceback_a_log(tmp_path: Path) -> None:
    run = tabula(*_blocked_demo(tmp_path), env={"TMPDIR": str(tmp_path)})
    assert run.returncode == 1
    (line,) = run.stderr.splitlines()
    head, log = line.split("; the traceback is in ")
    assert head == (
        f"tabula demo: unexpected IsADirectoryError: [Errno 21] Is a directory: "
        f"'{tmp_path / 'match-1.sgf'}'"
    )
    assert log == f"{Path(log.split(' ')[0])} (tabula --debug prints it)"
    traceback = Path(log.split(" ")[0]).read_text()
    assert traceback.startswith("Traceback") and "IsADirectoryError" in traceback
    # Nothing is lost: the journal holds the game played, for `tabula export`.
    export = tabula("export", "--journal", str(tmp_path / "match-1.sqlite3"), "--format", "json")
    assert export.returncode == 0 and '"type":"game_ended"' in export.stdout.replace(" ", "")
    debug = tabula("--debug", *_blocked_demo(tmp_path / "again"))
    assert debug.returncode == 1
    assert debug.stderr.startswith("Traceback") and "IsADirectoryError" in debug.stderr


def test_demo_refuses_an_out_that_is_not_a_directory(tmp_path: Path) -> None:
    (tmp_path / "file").touch()
    run = tabula("demo", "--games", "1", "--out", str(tmp_path / "file"))
    assert (run.returncode, run.stderr) == (
        2,
        f"tabula demo: --out {str(tmp_path / 'file')!r} is not a directory\n",
    )
