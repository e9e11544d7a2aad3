"""Learner mode with the real engine: hints on the LEDs, each play judged, recorder refuses.

The service runs on the simulated board (the pty simulator, MockFactory pins and LEDs);
GNU Backgammon's bindings answer. At the start, 31 is best played 8/5 6/5 (every other
play loses over 0.2); after it, player 1's 65 is best played 24/13 and 13/8 13/7 is a
blunder (0.20 at 0-ply).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import pytest

from controller import record
from controller.engine import ENGINE_KINDS, NO_ENGINE, Engine, EngineKind, make_engine
from controller.match import RefusedError
from controller.match.learner import SOURCE_LAMP, TARGET_LAMP, hint_scene, hint_step
from controller.record import replay
from controller.referee import BoardSeen, Button, ButtonPressed, DiceEntered, Mode, cells_from_board
from controller.rules import START, Rules, legal_plays
from controller.service import Service
from controller.service.counters import Counters
from controller.service.service import open_journal
from controller.service.teacher import Teacher
from controller.simulated.demo import SimulatedBoard
from controller.simulated.progress import service_progress, until_progress
from hardware.board.scene import Colour, Lamp, Pattern, Scene
from tests.record.matches import selfplay_events

OPENING_BEST = next(p for p in legal_plays(START, 0, (3, 1)) if p.notation == "8/5 6/5")


async def _until(service: Service, what: str, predicate: Callable[[], bool]) -> None:
    """Wait for ``predicate`` while ``service`` makes progress (a slow machine is no failure)."""
    await until_progress(what, predicate, service_progress(service))


def _lamps(scene: Scene) -> dict[int, Lamp]:
    return {index: scene.lamps[index] for index in scene.lit()}


# The pure guide.


def test_the_guide_shows_the_next_checker_until_the_play_is_made() -> None:
    before = START
    step = hint_step(OPENING_BEST, 0, before, cells_from_board(before))
    assert step is not None and (step.source, step.destination, step.done) == (7, 4, 0)
    one = list(before)
    one[8], one[5] = one[8] - 1, one[5] + 1
    step = hint_step(OPENING_BEST, 0, before, cells_from_board(tuple(one)))
    assert step is not None and (step.source, step.destination, step.done) == (5, 4, 1)
    assert hint_scene(OPENING_BEST, 0, before, cells_from_board(OPENING_BEST.result)) is None


def test_a_play_is_judged_where_it_was_made_after_the_events_of_its_own_input() -> None:
    """An input's events are journalled together: a play after a roll of the same input is
    judged from the match with the roll in it, not as it stood before the input."""
    events = selfplay_events(3, 3)
    at = next(
        index
        for index in range(1, len(events))
        if isinstance(events[index], record.Played) and isinstance(events[index - 1], record.Rolled)
    )
    before = replay(events[: at - 1]).state
    made_at = replay(events[:at]).state
    assert before is not None and made_at is not None
    assert made_at.position() != before.position()  # the roll is in it
    engine = cast(Engine, object())  # stored with the play, not asked here
    teacher = Teacher(engine, 1.0, lambda aid: None, Counters())
    judgings = teacher.to_judge(Mode.LEARNER, events[at - 1 : at + 1], before)
    assert judgings[0] is None and judgings[1] is not None
    assert judgings[1].position == made_at.position() and judgings[1].played == events[at]
    assert teacher.to_judge(Mode.REFEREE, events[at - 1 : at + 1], before) == [None, None]


def test_a_lifted_checker_keeps_its_move_lit_and_another_play_drops_it() -> None:
    cells = list(cells_from_board(START))
    cells[7] = (2, 0)  # one of the three on the 8 point is in the hand
    scene = hint_scene(OPENING_BEST, 0, START, tuple(cells))
    assert scene == Scene.of({7: SOURCE_LAMP, 4: TARGET_LAMP})
    other = next(p for p in legal_plays(START, 0, (3, 1)) if p.notation == "13/10 6/5")
    assert hint_scene(OPENING_BEST, 0, START, cells_from_board(other.result)) is None
    # The same play in the other order is still the hinted one.
    six_first = list(START)
    six_first[6], six_first[5] = six_first[6] - 1, six_first[5] + 1
    step = hint_step(OPENING_BEST, 0, START, cells_from_board(tuple(six_first)))
    assert step is not None and (step.source, step.destination) == (7, 4)


def test_one_checker_carried_on_is_one_lift() -> None:
    play = next(p for p in legal_plays(START, 1, (6, 5)) if p.notation == "24/13")
    step = hint_step(play, 1, START, cells_from_board(START))
    assert step is not None and (step.source, step.destination, step.total) == (0, 11, 2)


# Through the service, with the engine.


@pytest.mark.parametrize("kind", ENGINE_KINDS)
def test_a_hint_is_followed_checker_by_checker_and_each_play_is_judged(
    tmp_path: Path, kind: EngineKind
) -> None:
    async def scenario() -> None:
        engine = make_engine(kind, ply=0, budget=30.0)
        try:
            async with SimulatedBoard(
                tmp_path / "learner.sqlite3",
                mode=Mode.LEARNER,
                rules=Rules(),
                engine=engine,
                signal_s=30.0,
            ) as table:
                await _learner_game(table)
        finally:
            await engine.close()

    asyncio.run(scenario())


async def _learner_game(table: SimulatedBoard) -> None:
    service = table.service
    driver = table.driver(random.Random(1))
    board = table.sim.board
    leds = service.leds
    assert leds is not None

    async def move(source: int, destination: int) -> None:
        await asyncio.to_thread(board.move, source, destination)

    await asyncio.to_thread(board.set_board, START)
    await _until(service, "the start", lambda: service.status().cells == cells_from_board(START))
    await service.apply(DiceEntered((3, 1)))  # the opening roll: player 0 plays 31
    assert service.status().phase == "moving"

    await driver.press(Button.HINT.value)
    await _until(service, "the hint", lambda: service.counters.hints == 1)
    status = service.status()
    assert status.hint == "best 8/5 6/5"
    assert _lamps(leds.scene) == {7: SOURCE_LAMP, 4: TARGET_LAMP}
    assert status.lights[7].colour == "amber" and status.lights[4].colour == "green"
    assert "move 8 to 5 (1 of 2)" in status.text

    await move(7, 4)  # 8/5: the next checker is shown
    await _until(
        service,
        "the second checker",
        lambda: _lamps(leds.scene) == {5: SOURCE_LAMP, 4: TARGET_LAMP},
    )
    await move(5, 4)  # 6/5: the play is complete, the learner display takes over
    await _until(service, "the complete play", lambda: service.status().verdict == "complete")
    assert _lamps(leds.scene) == {4: Lamp(Colour.GREEN, Pattern.FAST)}
    await driver.press(Button.DONE.value)
    await _until(service, "the verdict", lambda: service.counters.judged == 1)
    status = service.status()
    assert (status.play_player, status.play_notation, status.play_grade) == (0, "8/5 6/5", "good")
    assert status.play_loss == 0.0 and status.play_signal == "good"
    assert leds.scene.status == Lamp(Colour.GREEN)

    # Player 1 before rolling: the cube.
    await driver.press(Button.HINT.value)
    await _until(service, "the cube hint", lambda: service.counters.hints == 2)
    assert service.status().hint == "no double" and service.status().text == "hint: no double"
    await service.apply(DiceEntered((6, 5)))
    assert service.status().hint == ""  # the roll made the advice a thing of the past

    await service.apply(ButtonPressed(Button.HINT))
    await _until(service, "the hint of 65", lambda: service.counters.hints == 3)
    assert service.status().hint == "best 24/13"
    assert _lamps(leds.scene) == {0: SOURCE_LAMP, 11: TARGET_LAMP}  # 24/18/13 is one lift
    await move(11, 16)  # 13/8: another way; the hint goes, the learner display stays
    await _until(service, "the partial play", lambda: service.status().verdict == "partial")
    assert SOURCE_LAMP not in leds.scene.lamps and TARGET_LAMP not in leds.scene.lamps
    await move(11, 17)  # 13/7: a blunder
    await _until(service, "the complete blunder", lambda: service.status().verdict == "complete")
    await driver.press(Button.DONE.value)
    await _until(service, "the second verdict", lambda: service.counters.judged == 2)
    status = service.status()
    assert (status.play_player, status.play_notation) == (1, "13/8 13/7")
    assert status.play_grade == "blunder" and status.play_best == "24/13"
    assert status.play_loss is not None and 0.12 < status.play_loss < 0.3
    assert status.play_signal.startswith("blunder -0.2") and status.play_signal.endswith("24/13")
    assert leds.scene.status == Lamp(Colour.RED, Pattern.SLOW)
    assert service.counters.hints_dropped == 0


@asynccontextmanager
async def _opened(
    path: Path, mode: Mode, *, engine: bool = True, **options: Any
) -> AsyncIterator[Service]:
    """A running service without hardware (observations fed), player 0 to play 31."""
    teacher = make_engine("bindings", ply=0, budget=30.0) if engine else None
    try:
        with open_journal(path) as journal:
            service = Service(path.stem, journal, mode=mode, engine=teacher, **options)
            task = asyncio.create_task(service.run())
            try:
                service.feed(_observed(START))
                await service.apply(DiceEntered((3, 1)))
                yield service
            finally:
                task.cancel()
    finally:
        if teacher is not None:
            await teacher.close()


def _observed(board: tuple[int, ...]) -> Any:
    return BoardSeen(cells_from_board(board))


def test_a_late_answer_is_dropped_and_the_signal_goes_out(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with _opened(tmp_path / "late.sqlite3", Mode.LEARNER, signal_s=0.2) as service:
            await service.apply(ButtonPressed(Button.HINT))
            service.feed(_observed(OPENING_BEST.result))  # the play is made at once
            service.press(Button.DONE)  # and committed before the engine answers
            await _until(service, "the late hint", lambda: service.counters.hints_dropped == 1)
            assert service.counters.hints == 0 and service.status().hint == ""
            await _until(service, "the verdict", lambda: service.counters.judged == 1)
            assert service.status().lights[-1].colour == "green"
            await _until(
                service, "the signal's end", lambda: service.status().lights[-1].colour == "off"
            )

    asyncio.run(scenario())


def test_no_hint_in_recorder_mode_by_button_or_action(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with _opened(tmp_path / "recorder.sqlite3", Mode.RECORDER) as service:
            with pytest.raises(RefusedError, match="no hint in 'recorder' mode"):
                await service.apply(ButtonPressed(Button.HINT))
            refused = service.counters.refused
            service.press(Button.HINT)
            await _until(service, "the refusal", lambda: service.counters.refused > refused)
            assert service.flow.notice.startswith("no hint in 'recorder' mode")
            with pytest.raises(RefusedError, match="no review during the game"):
                await service.review("html")
            await asyncio.sleep(0.3)  # time enough for an answer that must not come
            assert service.counters.hints == 0 and service.status().hint == ""
            assert not service.engine._process.running  # type: ignore[union-attr]

    asyncio.run(scenario())


def test_without_an_engine_the_service_says_so_and_plays_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with _opened(tmp_path / "none.sqlite3", Mode.LEARNER, engine=False) as service:
            assert service.status().engine == NO_ENGINE
            with pytest.raises(RefusedError, match=r"^no engine: hints are off"):
                await service.apply(ButtonPressed(Button.HINT))
            service.feed(_observed(OPENING_BEST.result))
            service.press(Button.DONE)
            await _until(service, "the next turn", lambda: service.status().turn == 1)
            assert service.status().play_grade == "" and service.counters.judged == 0

    asyncio.run(scenario())


def test_switching_to_recorder_hides_a_hint_already_shown(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with _opened(tmp_path / "switch.sqlite3", Mode.LEARNER) as service:
            await service.apply(ButtonPressed(Button.HINT))
            await _until(service, "the hint", lambda: service.counters.hints == 1)
            assert service.status().lights[7].blink == "slow"
            service.next_mode()  # learner -> recorder
            await _until(service, "recorder", lambda: service.status().mode == "recorder")
            status = service.status()
            assert status.hint == "" and all(lamp.colour == "off" for lamp in status.lights)

    asyncio.run(scenario())


def test_the_doubled_player_is_told_to_take(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with _opened(tmp_path / "cube.sqlite3", Mode.LEARNER) as service:
            service.feed(_observed(OPENING_BEST.result))
            service.press(Button.DONE)
            await _until(service, "player 1's turn", lambda: service.status().turn == 1)
            service.press(Button.DOUBLE)  # far too early: player 0 takes, of course
            await _until(service, "the double", lambda: service.status().phase == "cube-offered")
            await service.apply(ButtonPressed(Button.HINT))
            await _until(service, "the cube hint", lambda: service.counters.hints == 1)
            status = service.status()
            assert status.hint == "take" and status.text == "hint: take"

    asyncio.run(scenario())
