"""End to end, Jacquet de Versailles: the service on the real pty board, rendered rolls and
MockFactory pins, with simulated players of Jacquet; and a restart in the middle of a turn.

The journal must hold exactly what the players did (primauté throws, throws, plays,
numbers handed over and declined, illegal plays accepted, results), every illegal play
flagged, every cocked throw thrown again.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path

import pytest

from controller import record
from controller.record.journal import Journal
from controller.rules import JACQUET, JACQUET_LUDII, Rules, Variant
from controller.simulated.demo import SimulatedBoard, run_simulated
from controller.simulated.players import jacquet_record_events
from hardware.board.geometry import cells_from_board


def test_jacquet_games_through_the_service_are_journalled_as_played(tmp_path: Path) -> None:
    path = tmp_path / "jacquet.sqlite3"
    result = asyncio.run(
        run_simulated(
            path,
            games=1,
            seed=21,
            rules=Rules(match_length=3),
            variant=JACQUET,
            illegal_rate=0.1,
            cocked_rate=0.1,
        )
    )
    assert result.problems() == []
    counts = result.counts
    assert counts.games == 1 and counts.turns > 20
    assert counts.illegal > 0 and counts.cocked > 0
    assert counts.misread == 0  # each player's throws read in his own right-hand half
    with Journal(path, readonly=True) as journal:
        replayed = journal.record()
    assert replayed.variant is JACQUET
    assert replayed.games[0].result is not None
    assert replayed.games[0].result.points in (1, 2)
    assert any(isinstance(e, record.OpeningRolled) for e in replayed.events)


def test_a_jacquet_game_resumes_mid_turn_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "jacquet.sqlite3"

    async def first_part() -> list[record.Event]:
        async with SimulatedBoard(path, seed=22, rules=Rules(3), variant=JACQUET) as table:
            driver = table.driver(random.Random(22), illegal_rate=0.0, cocked_rate=0.0)
            task = asyncio.create_task(driver.play(1))
            # Stop while a throw is being played: some numbers rolled, not yet committed.
            while not (
                table.service.status().phase == "moving"
                and sum(isinstance(e, record.Played) for e in driver.expected) >= 12
                and driver.expected
                and isinstance(driver.expected[-1], record.Rolled)
            ):
                await asyncio.sleep(0.005)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return list(driver.expected)

    before = asyncio.run(first_part())

    async def second_part() -> tuple[str, list[record.Event], str]:
        async with SimulatedBoard(path, seed=23, rules=Rules(3), variant=JACQUET) as table:
            resumed = table.service.resumed
            phase = table.service.status().phase
            driver = table.driver(random.Random(23), illegal_rate=0.0, cocked_rate=0.0)
            task = asyncio.create_task(driver.play(1))
            while sum(isinstance(e, record.Played) for e in driver.expected) < 8:
                await asyncio.sleep(0.005)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return resumed, list(driver.expected), phase

    resumed, after, phase = asyncio.run(second_part())
    assert resumed.startswith("resumed") or "game 1" in resumed, resumed
    assert phase == "moving"
    with Journal(path, readonly=True) as journal:
        events = journal.events()
        journal.record()  # it replays
    kept = [e for e in events[1:] if not isinstance(e, record.Observed | record.Flagged)]
    assert kept[: len(before)] == before
    # The players stopped mid-action: all but their last two logged actions are journalled.
    assert kept[len(before) : len(before) + len(after) - 2] == after[:-2]


@pytest.mark.parametrize(("variant", "seed"), [(JACQUET, 12), (JACQUET_LUDII, 2)])
def test_the_next_game_is_set_up_when_the_last_ended_with_the_dice_on_the_table(
    tmp_path: Path, variant: Variant, seed: int
) -> None:
    """A game won by a throw ends with its dice on the table; picking them up begins the
    next game: its primauté waits, or in Ludii's rules player 0's throw. The players set
    the checkers up only for a game not begun, and ``tabula demo --variant
    jacquet-versailles --seed 11`` stopped in its second game (the primauté thrown on the
    last game's checkers, the first move lifted from an empty point), as every Ludii demo
    of two games did.

    The journal: a random match's first game up to its last throw, which any numbers win
    (``seed`` chosen so).
    """
    events = list(jacquet_record_events(Rules(3), random.Random(seed), variant, games=1))
    last_throw = max(i for i, event in enumerate(events) if isinstance(event, record.Rolled))
    assert isinstance(events[last_throw + 2], record.GameEnded)
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        journal.append(*events[:last_throw])

    def next_game(said: list[tuple[str, object]]) -> list[tuple[str, object]]:
        ended = [i for i, (line, _) in enumerate(said) if " wins " in line]
        return said[ended[0] + 1 :] if ended else []

    async def body() -> list[tuple[str, object]]:
        async with SimulatedBoard(path, seed=seed, rules=Rules(3), variant=variant) as table:
            assert table.service.status().phase == "roll"
            said: list[tuple[str, object]] = []
            driver = table.driver(
                random.Random(seed),
                illegal_rate=0.0,
                cocked_rate=0.0,
                echo=lambda line: said.append((line, table.sim.board.cells())),
            )
            task = asyncio.create_task(driver.play(2))
            await driver.until("the next game's first throw", lambda _: task.done() or any(
                line.startswith(("primauté", "player ")) for line, _ in next_game(said)
            ))  # fmt: skip
            if task.done():
                task.result()  # what stopped the players, raised
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return next_game(said)

    line, cells = asyncio.run(body())[0]
    assert "moved" not in line, line
    if variant is JACQUET:  # said as the primauté is thrown, before anything moves
        assert line.startswith("primauté") and cells == cells_from_board(variant.start), line


def test_a_ludii_game_begins_with_player_0s_throw_as_the_players_log_it(tmp_path: Path) -> None:
    """Ludii's rules have no primauté: player 0 throws first. The players threw one die
    each for a primauté at every game's start and logged it so; the service rightly took
    player 0's throw, and the log (what the tests compare with the journal) differed."""
    path = tmp_path / "ludii.sqlite3"

    async def body() -> list[record.Event]:
        async with SimulatedBoard(path, seed=31, rules=Rules(3), variant=JACQUET_LUDII) as table:
            driver = table.driver(random.Random(31), illegal_rate=0.0, cocked_rate=0.0)
            task = asyncio.create_task(driver.play(1))
            await driver.until("the first play", lambda _: task.done() or any(
                isinstance(event, record.Played) for event in driver.expected
            ))  # fmt: skip
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return list(driver.expected)

    expected = asyncio.run(body())
    with Journal(path, readonly=True) as journal:
        kept = [e for e in journal.events()[1:] if not isinstance(e, record.Observed)]
    assert isinstance(expected[0], record.Rolled) and expected[0].player == 0, expected[0]
    assert kept[: len(expected)] == expected
