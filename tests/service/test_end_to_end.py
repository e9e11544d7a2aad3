"""End to end: the service on the real pty board, rendered rolls and MockFactory pins.

The simulated players play whole games; the journal must hold exactly what they did (every
roll, play, illegal play accepted, cube action and result), every illegal play flagged and
no legal one, every cocked roll rolled again, no hand over dice that stayed put taken for a
roll, and the LED pins must have shown it.
``python -m benchmarks games`` runs the issue's 200 games.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from controller import record
from controller.record.journal import Journal
from controller.referee import Mode
from controller.rules import Rules
from controller.simulated.demo import run_simulated

GAMES = 4


def journalled_play(path: Path) -> tuple[list[record.Event], list[record.Flagged]]:
    """What a journal holds of the play (no start, no board sightings), and its flags."""
    with Journal(path, readonly=True) as journal:
        events = journal.events()
    kept = [e for e in events[1:] if not isinstance(e, record.Observed | record.Flagged)]
    return kept, [e for e in events if isinstance(e, record.Flagged)]


@pytest.mark.parametrize("seed", [11, 12])
def test_the_journal_is_what_the_simulated_players_did(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "match.sqlite3"
    result = asyncio.run(
        run_simulated(
            path,
            games=GAMES // 2,
            seed=seed,
            rules=Rules(match_length=7),
            illegal_rate=0.15,
            cocked_rate=0.15,
            misset_rate=1.0,
        )
    )
    counts = result.counts
    assert result.problems() == []
    recorded, flagged = journalled_play(path)
    assert recorded == result.expected
    assert counts.games == GAMES // 2
    # Each roll of the pool was read right by the same reader for its thrower (the far
    # player's dice in the view's left half, the opening's one in each): none misread.
    assert counts.misread == 0
    # The cube shown at every roll: 64 in the centre, then left where it was after each
    # take, which the service pointed out within 3 rolls (the players check it, and that
    # a cube set right is never flagged; tests/service/test_cube_seen.py shows one).
    assert counts.cube_left == sum(isinstance(e, record.Taken) for e in recorded)
    assert counts.cube_pointed_out == counts.cube_left
    # Every illegal play flagged once, no legal play flagged.
    assert len(flagged) == counts.illegal > 0
    assert counts.accepted + counts.demanded == counts.illegal
    accepted = [e for e in recorded if isinstance(e, record.IllegalPlayAccepted)]
    assert len(accepted) == counts.accepted
    # Every cocked roll rolled again: the players rolled once more than the record holds.
    assert counts.cocked > 0
    # Hands passed over dice that stayed put, players leant over the board mid-play: no roll.
    assert counts.hands > 0 and counts.leans > 0
    assert counts.hits > 0 and counts.bar_entries > 0
    # Every game ended on the board (bearing off) or by a dropped double.
    assert counts.bear_offs > 0 or counts.drops == counts.games
    assert result.led_changes > 0


def test_a_flipped_board_records_the_same_game(tmp_path: Path) -> None:
    from controller.simulated.demo import SimulatedBoard

    async def play() -> tuple[list[record.Event], int]:
        import random

        async with SimulatedBoard(
            tmp_path / "flipped.sqlite3",
            seed=3,
            flipped=True,
            rules=Rules(match_length=1),
            mode=Mode.LEARNER,
        ) as table:
            driver = table.driver(random.Random(3), illegal_rate=0.1)
            await driver.play(1)
            return driver.expected, table.service.counters.led_updates

    expected, leds = asyncio.run(play())
    recorded, _ = journalled_play(tmp_path / "flipped.sqlite3")
    assert recorded == expected
    assert leds > 0
