"""Both real GNU Backgammon engines: known plays, blunders, cube advice, budgets, failures."""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

import pytest

from controller.engine import (
    NO_ENGINE,
    CubeAction,
    Engine,
    EngineTimeoutError,
    EngineUnavailableError,
    GnubgBindingsEngine,
    GnubgCliEngine,
    Skill,
    available_engine,
    classify,
)
from controller.rules import START, Rules, Xgid, flip, legal_plays
from controller.rules.errors import IllegalActionError
from controller.simulated.players import GameStarted, Played, SimulatedPlayer, play_match

# Player 0 is about to bear off (57 pips), player 1 is far behind (111 pips): no contact.
RACE = (0, 2, 2, 2, 3, 3, 3, 0, 0, 0, -3, -3, 0, 0, 0, 0, 0, 0, 0, 0, 0, -3, -2, -2, -2, 0)
# A bear-off against a contact position: the bindings' move tuples are cut here.
BEAR_OFF = (0, 3, 3, 3, 3, 2, 1, 0, 0, 0, 0, 0, -2, 0, 0, 0, 0, 0, -3, -3, -3, -2, -2, 0, 0, 0)
# Player 0 on the bar against a closed board: no legal move with any roll.
CLOSED_OUT = (0, 0, 0, 0, 0, 0, 14, 0, 0, 0, 0, 0, -3, 0, 0, 0, 0, 0, 0, -2, -2, -2, -2, -2, -2, 1)


@pytest.mark.parametrize(
    ("dice", "best"),
    [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 5), "24/13"), ((1, 3), "8/5 6/5")],
)
@pytest.mark.parametrize("player", [0, 1])
def test_opening_best_plays_are_the_books(
    runner: asyncio.Runner, engine: Engine, dice: tuple[int, int], best: str, player: int
) -> None:
    hint = runner.run(engine.hint(Xgid(turn=player), dice))
    assert hint.best.play.notation == best
    assert len(hint.plays) == len(legal_plays(START, player, dice))
    assert hint.engine == engine.name


def test_a_known_blunder_is_graded_a_blunder(runner: asyncio.Runner, engine: Engine) -> None:
    hint = runner.run(engine.hint(Xgid(), (3, 1)))
    running = next(play for play in legal_plays(START, 0, (3, 1)) if play.notation == "24/20")
    split = next(p for p in legal_plays(START, 0, (3, 1)) if p.notation == "24/23 24/21")
    # Running a back checker instead of making the 5 point: about 0.24 lost at 0-ply.
    assert 0.2 < hint.loss(running) < 0.3
    assert classify(hint.loss(running)) is Skill.BLUNDER
    assert classify(hint.loss(split)) is Skill.BLUNDER
    assert hint.loss(hint.best.play) == 0.0


def test_every_engine_text_is_our_notation(runner: asyncio.Runner) -> None:
    """The program's notation equals Tabula's for every play of a simulated game."""
    engine = GnubgCliEngine(budget=30.0)
    board, checked = START, 0
    rng = random.Random(11)
    for event in play_match(Rules(match_length=1), rng, (SimulatedPlayer(rng),) * 2):
        if isinstance(event, GameStarted):
            board = START
        elif isinstance(event, Played):
            hint = runner.run(engine.hint(Xgid(board=board, turn=event.player), event.dice))
            for ranked in hint.plays:
                if ranked.engine_text is not None:
                    assert ranked.engine_text == ranked.play.notation
                    checked += 1
            board = event.board
    runner.run(engine.close())
    assert checked > 100


@pytest.mark.parametrize("seed", [3, 5])
def test_both_engines_agree_on_a_simulated_game(
    runner: asyncio.Runner, engines: dict[str, Engine], seed: int
) -> None:
    """Cross-check: the two paths pick plays worth the same to within 0.02 (0-ply nets differ
    slightly between the bindings and Debian's 1.07)."""
    rng = random.Random(seed)
    board, agreed, total, differences = START, 0, 0, []
    for event in play_match(Rules(match_length=1), rng, (SimulatedPlayer(rng),) * 2):
        if isinstance(event, GameStarted):
            board = START
        elif isinstance(event, Played):
            position = Xgid(board=board, turn=event.player)
            cli = runner.run(engines["cli"].hint(position, event.dice))
            bindings = runner.run(engines["bindings"].hint(position, event.dice))
            total += 1
            agreed += cli.best.play.result == bindings.best.play.result
            assert cli.loss(bindings.best.play) < 0.02
            # Equities compare where both are cubeful: not without a move (each estimates
            # the opponent's roll its own way), not in bear-offs (the bindings' are cubeless).
            if cli.best.play.moves and not any("off" in r.play.notation for r in cli.plays):
                differences.append(abs(cli.best.equity - bindings.best.equity))
            board = event.board
    assert agreed >= 0.9 * total
    # The 0-ply nets of the bindings (1.1) and of Debian's program (1.07) differ a little.
    assert statistics.median(differences) < 0.03
    assert max(differences) < 0.1


def test_a_bear_off_ranks_every_play(runner: asyncio.Runner, engine: Engine) -> None:
    hint = runner.run(engine.hint(Xgid(board=BEAR_OFF), (6, 4)))
    assert hint.best.play.notation == "6/off 4/off"
    assert {r.play.result for r in hint.plays} == {
        p.result for p in legal_plays(BEAR_OFF, 0, (6, 4))
    }


def test_no_legal_move_is_one_empty_play_with_a_losing_equity(
    runner: asyncio.Runner, engine: Engine
) -> None:
    hint = runner.run(engine.hint(Xgid(board=CLOSED_OUT), (6, 5)))
    assert [r.play.notation for r in hint.plays] == [""]
    assert hint.best.equity < -0.9


def test_cube_advice_in_a_huge_race_lead(runner: asyncio.Runner, engine: Engine) -> None:
    race = runner.run(engine.cube(Xgid(board=RACE)))
    assert race.action in (CubeAction.DOUBLE_PASS, CubeAction.TOO_GOOD_PASS)
    assert not race.action.should_take and race.double_pass == 1.0
    assert race.double_take > race.double_pass  # a take would be a big mistake
    assert classify(race.double_take - race.double_pass) is Skill.BLUNDER
    # The same race seen by the trailer, who may not double: no double, take.
    behind = runner.run(engine.cube(Xgid(board=flip(RACE), turn=0)))
    assert behind.action is CubeAction.NO_DOUBLE_TAKE
    opening = runner.run(engine.cube(Xgid()))
    assert opening.action is CubeAction.NO_DOUBLE_TAKE
    assert opening.no_double > opening.double_take


# Player 0 leads a race 58 to 66 pips: a double, a take or not depending on the score.
CLOSE_RACE = (0, 3, 2, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, -1, -1, -1, -2, -2, -2, -2, -2, -2, 0)


@pytest.mark.parametrize(
    ("position", "action"),
    [
        (Xgid(board=CLOSE_RACE), CubeAction.DOUBLE_TAKE),
        # 2-away 4-away in a 7-point match: the leader keeps the cube.
        (Xgid(board=CLOSE_RACE, match_length=7, score=(5, 3)), CubeAction.NO_DOUBLE_TAKE),
    ],
)
def test_both_engines_agree_on_cube_decisions_at_2_ply(
    runner: asyncio.Runner, engines: dict[str, Engine], position: Xgid, action: CubeAction
) -> None:
    cli, bindings = (
        runner.run(engines[kind].cube(position, ply=2)) for kind in ("cli", "bindings")
    )
    assert cli.action is bindings.action is action
    assert abs(cli.no_double - bindings.no_double) < 0.03
    assert abs(cli.double_take - bindings.double_take) < 0.03
    assert cli.ply == bindings.ply == 2


def test_cube_question_without_the_cube_is_refused(runner: asyncio.Runner, engine: Engine) -> None:
    with pytest.raises(IllegalActionError, match="player 0 cannot double: player 1 owns"):
        runner.run(engine.cube(Xgid(cube_value=2, cube_owner=1)))


def test_deeper_ply_is_used_and_reported(runner: asyncio.Runner, engine: Engine) -> None:
    hint = runner.run(engine.hint(Xgid(), (6, 4), ply=2))
    assert hint.ply == 2
    assert max(ranked.ply for ranked in hint.plays) == 2


@pytest.mark.parametrize("kind", ["bindings", "cli"])
def test_a_late_answer_times_out_and_the_engine_restarts(runner: asyncio.Runner, kind: str) -> None:
    engine: GnubgBindingsEngine | GnubgCliEngine = (
        GnubgBindingsEngine(budget=30.0) if kind == "bindings" else GnubgCliEngine(budget=30.0)
    )
    runner.run(engine.hint(Xgid(), (2, 1)))  # started and warm
    engine.budget = 0.05
    start = time.perf_counter()
    with pytest.raises(EngineTimeoutError, match=r"gave no answer within 0\.05 s for the hint"):
        runner.run(engine.hint(Xgid(), (6, 3), ply=3))  # seconds of work at 3-ply
    assert time.perf_counter() - start < 1.0
    engine.budget = 30.0
    assert runner.run(engine.hint(Xgid(), (4, 2))).best.play.notation == "8/4 6/4"
    runner.run(engine.close())
    runner.run(engine.close())  # idempotent


def test_a_missing_program_is_a_clear_error(runner: asyncio.Runner) -> None:
    engine = GnubgCliEngine("/nonexistent/gnubg")
    with pytest.raises(
        EngineUnavailableError, match=r"cannot start GNU Backgammon \('/nonexistent/gnubg'\)"
    ):
        runner.run(engine.hint(Xgid(), (3, 1)))
    runner.run(engine.close())


def test_a_missing_interpreter_for_the_bindings_is_a_clear_error(runner: asyncio.Runner) -> None:
    engine = GnubgBindingsEngine("/nonexistent/python")
    with pytest.raises(EngineUnavailableError, match="cannot start the GNU Backgammon bindings"):
        runner.run(engine.cube(Xgid()))


def test_bindings_that_do_not_import_are_a_clear_error(
    runner: asyncio.Runner, tmp_path: Path
) -> None:
    # An interpreter whose `gnubg` cannot import, as on a machine without a wheel.
    fake = tmp_path / "fake" / "gnubg"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text('raise ImportError("no wheel for this machine")\n')
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\nPYTHONPATH={fake.parent} exec {sys.executable} "$@"\n')
    python.chmod(0o755)
    engine = GnubgBindingsEngine(str(python))
    with pytest.raises(
        EngineUnavailableError,
        match="the GNU Backgammon bindings: cannot import gnubg: no wheel for this machine",
    ):
        runner.run(engine.hint(Xgid(), (3, 1)))
    runner.run(engine.close())


def test_available_engine_prefers_the_bindings_then_the_program() -> None:
    assert isinstance(available_engine().engine, GnubgBindingsEngine)
    program = available_engine(use_bindings=False)
    assert isinstance(program.engine, GnubgCliEngine)
    assert "GNU Backgammon (" in program.message
    nothing = available_engine(use_bindings=False, program="/nonexistent/gnubg")
    assert nothing.engine is None
    assert nothing.message == NO_ENGINE
    assert nothing.message.startswith("no engine: hints are off")
