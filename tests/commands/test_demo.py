"""``tabula demo``: the service on the simulators, and the simulated players' matches."""

from __future__ import annotations

import asyncio
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import aiomqtt
import pytest

from controller.mqtt import decode_event, journal_events
from controller.mqtt.mosquitto import Mosquitto
from controller.rules.board import CHECKERS
from controller.rules.cube import Rules
from controller.service.service import open_journal
from controller.simulated.players import GameWon, Played, SimulatedPlayer, play_match
from hardware.runtimes import RUNTIMES
from tests.commands.test_plays import tabula
from tests.hardware.test_cli import children

ROOT = Path(__file__).resolve().parents[2]


def test_headless_demo_plays_the_games_asked_and_writes_the_match_files(tmp_path: Path) -> None:
    run = tabula("demo", "--headless", "--games", "1", "--seed", "5", "--out", str(tmp_path),
                 "--illegal", "0")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "match 1: 1 game(s)" in run.stdout
    # Progress a person sees while it plays: one line a game, before the match's line.
    lines = run.stdout.splitlines()
    pattern = r"game 1/1: player [01] wins [1-9]\d* \(\d+ s\)"
    (game,) = [i for i, line in enumerate(lines) if re.fullmatch(pattern, line)]
    assert game < next(i for i, line in enumerate(lines) if line.startswith("match 1:"))
    # The start-up is frozen out of the collector's full passes, as tabula run does.
    (frozen,) = [i for i, line in enumerate(lines) if line.startswith("start-up done: ")]
    count = re.fullmatch(r"start-up done: ([\d,]+) objects kept out of the collector's full "
                         r"passes", lines[frozen])  # fmt: skip
    assert count is not None and int(count[1].replace(",", "")) > 10_000 and frozen < game
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


def test_a_jacquet_demo_of_one_game_ends_by_itself(tmp_path: Path) -> None:
    # Seed 2: player 0 wins a double game (score 2-0), the end that was reported to hang.
    run = tabula("demo", "--variant", "jacquet-versailles", "--games", "1", "--seed", "2",
                 "--out", str(tmp_path), timeout=600)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "player 0 wins 2: score 2-0" in run.stdout
    assert "match 1: 1 game(s), score 2-0" in run.stdout


@pytest.mark.parametrize("board_runtime", RUNTIMES)
def test_one_sigint_stops_a_demo_mid_match_in_one_line(tmp_path: Path, board_runtime: str) -> None:
    demo = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "demo", "--variant", "jacquet-versailles",
         "--games", "1", "--seed", "9", "--out", str(tmp_path),
         "--board-runtime", board_runtime],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # As at a terminal: a test run in the background inherits SIGINT ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
    )  # fmt: skip
    assert demo.stdout is not None
    for line in demo.stdout:  # mid-match: the second player has played
        if line.startswith("player 1 "):
            break
    # The board's firmware ran where it was asked: on MicroPython, in a node child.
    commands = {Path(f"/proc/{child}/comm").read_text().strip() for child in children(demo.pid)}
    assert ("node" in commands) == (board_runtime == "micropython")
    demo.send_signal(signal.SIGINT)
    out, err = demo.communicate(timeout=120)
    journal = tmp_path / "match-1.sqlite3"
    assert (demo.returncode, err) == (
        130,
        f"tabula demo: stopped by Ctrl-C in match 1; its journal {journal} keeps every event "
        f"so far (tabula demo --out {tmp_path} resumes it)\n",
    )
    assert "match 1:" not in out
    with open_journal(journal) as kept:  # nothing lost: the export holds every event kept
        entries = kept.entries()
    export = tabula("export", "--journal", str(journal), "--format", "jsonl")
    assert export.returncode == 0, export.stderr
    assert len(export.stdout.splitlines()) == len(entries) > 2


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
    assert "wrote .jsonl and .txt" in run.stdout
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
    export = tabula("export", "--journal", str(tmp_path / "match-1.sqlite3"), "--format", "jsonl")
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
    too_long = tmp_path / ("z" * 300)  # an OSError's traceback before
    run = tabula("demo", "--games", "1", "--out", str(too_long))
    assert (run.returncode, run.stderr) == (
        2,
        f"tabula demo: --out {str(too_long)!r}: File name too long\n",
    )


def test_a_board_keeps_one_event_sequence_across_its_demo_matches(tmp_path: Path) -> None:
    """Two 1-point matches per board: a plain subscriber sees every event once, in order.

    The hub and any other subscriber see a demo as a board, so its numbers go on from one
    match to the next, as a New match on the service does (they started again at 1).
    """
    seeds = {"demo-a": 3, "demo-b": 4}
    received: dict[str, list[tuple[int, str]]] = {board: [] for board in seeds}

    async def collect(client: aiomqtt.Client) -> None:
        async for message in client.messages:
            assert isinstance(message.payload, bytes)
            event = decode_event(message.payload)
            received[event.board_id].append((event.seq, event.kind))

    async def main(broker: Mosquitto) -> dict[str, list[tuple[int, str]]]:
        async with aiomqtt.Client("127.0.0.1", broker.port, identifier="plain") as client:
            await client.subscribe("tabula/+/events", qos=1)
            collector = asyncio.create_task(collect(client))
            demos = [
                await asyncio.create_subprocess_exec(
                    *[sys.executable, "-m", "controller.cli", "demo", "--headless"],
                    *["--games", "2", "--length", "1", "--seed", str(seed), "--illegal", "0"],
                    *["--out", str(tmp_path / board), "--broker", broker.url],
                    *["--board-id", board],
                    cwd=ROOT,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                )
                for board, seed in seeds.items()
            ]
            for demo in demos:
                out, err = await asyncio.wait_for(demo.communicate(), 900)
                assert demo.returncode == 0, err.decode()
                assert "match 2: 1 game(s)" in out.decode(), out.decode()
            journalled = {board: _journalled(board, tmp_path / board) for board in seeds}
            async with asyncio.timeout(60):  # every event is on the broker once a demo ends
                while any(len(received[b]) < len(journalled[b]) for b in seeds):
                    if collector.done():
                        collector.result()  # its error
                    await asyncio.sleep(0.05)
            collector.cancel()
            return journalled

    with Mosquitto(tmp_path / "broker") as broker:
        journalled = asyncio.run(main(broker))
    for board, events in journalled.items():
        assert received[board] == events, board
        assert [seq for seq, _ in events] == list(range(1, len(events) + 1)), board
        assert [kind for _, kind in events].count("match_started") == 2, board


def _journalled(board: str, out: Path) -> list[tuple[int, str]]:
    """The (seq, kind) of every event of ``board``'s match journals, match by match."""
    events = []
    for number in (1, 2):
        with open_journal(out / f"match-{number}.sqlite3") as journal:
            events += [(e.seq, e.kind) for e in journal_events(board, journal.entries())]
    return events
