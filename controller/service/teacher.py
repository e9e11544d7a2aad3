"""The learner's teacher beside the referee: hints, verdicts on plays and reviews.

Why apart from the service's loop: the engine is slow and optional, so every question to it
runs in a task of its own whose answer comes back through the service's queue (an
:data:`Aid`), and is dropped if the position moved on meanwhile; the referee task never
waits on it. What the teacher adds to the display (the hinted play's next checker, the cube
advice, the last play's signal) and to the status is a function of its answers and the flow.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypedDict

from controller import record
from controller.engine import NO_ENGINE, CubeAdvice, Engine, EngineError, RankedPlay
from controller.engine.review import CheckerDecision, PlayVerdict, Review, review
from controller.match.errors import RefusedError
from controller.match.flow import Flow
from controller.match.fold import fold
from controller.match.learner import hint_step
from controller.match.snapshot import MatchSnapshot
from controller.record.sgf import write_sgf
from controller.referee import Display, Kind, Mode, Phase
from controller.review import AidForbiddenError, PlaySignal, check_aid, signal_for
from controller.rules import RulesError, Xgid
from controller.rules.cube import CubePhase
from controller.service.counters import Counters
from controller.status import ReviewFormat

__all__ = ["Aid", "Judging", "Teacher", "TeacherStatus", "with_notice"]

_log = logging.getLogger(__name__)

_BACKGAMMON_ONLY = "GNU Backgammon's hints and reviews are for backgammon only"


@dataclass(frozen=True, slots=True)
class _Guide:
    """A hinted play being followed on the board."""

    best: RankedPlay
    player: int
    before: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _HintReady:
    """The engine's answer to a hint, asked at ``epoch``."""

    epoch: int
    best: RankedPlay | None = None
    advice: CubeAdvice | None = None
    taker: bool = False


@dataclass(frozen=True, slots=True)
class _PlayJudged:
    """The engine's verdict on a committed play."""

    verdict: PlayVerdict


@dataclass(frozen=True, slots=True)
class _AidFailed:
    """The engine failed: say so, play on."""

    text: str


@dataclass(frozen=True, slots=True)
class _SignalOver:
    """The play's signal has been shown long enough."""

    token: int


Aid = _HintReady | _PlayJudged | _AidFailed | _SignalOver
"""An engine's answer (or the end of a signal), queued back to the service's loop."""


@dataclass(frozen=True, slots=True)
class Judging:
    """A learner's play to judge once it is journalled, from the position it was made in."""

    engine: Engine
    position: Xgid
    played: record.Played


class TeacherStatus(TypedDict, total=False):
    """The status fields of the teacher (:class:`controller.status.BoardStatus`'s)."""

    engine: str
    hint: str
    play_player: int
    play_notation: str
    play_best: str
    play_loss: float
    play_grade: str
    play_signal: str


def with_notice(flow: Flow, notice: str) -> Flow:
    """``flow`` telling the players ``notice``."""
    return replace(flow, notice=notice)


class Teacher:
    """The engine's hints and verdicts for the learner, asked off the loop.

    Args:
        engine: the teacher's engine, or None: hints are off.
        signal_s: seconds the status lamp shows a play's verdict.
        feed: queues an answer back to the service's loop.
        counters: the service's counters (hints shown and dropped, plays judged).
    """

    def __init__(
        self,
        engine: Engine | None,
        signal_s: float,
        feed: Callable[[Aid], None],
        counters: Counters,
    ) -> None:
        self.engine = engine
        self.signal_s = signal_s
        self._feed = feed
        self._counters = counters
        self._epoch = 0  # bumped by every recorded event but a board seen mid-turn
        self.guide: _Guide | None = None
        """The hinted play being followed on the board, if any."""
        self._advice = ""
        self._verdict: PlayVerdict | None = None
        self._signal: PlaySignal | None = None
        self._signal_token = 0
        self._aids: set[asyncio.Task[None]] = set()

    def cancel(self) -> None:
        """Cancel every question in flight (the service stops)."""
        for task in list(self._aids):
            task.cancel()

    def _spawn(self, coroutine: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(coroutine, name=name)
        self._aids.add(task)
        task.add_done_callback(self._aids.discard)

    def moved_on(self) -> None:
        """The position moved on: a hint in flight or shown is of the past."""
        self._epoch += 1
        self.guide = None
        self._advice = ""

    def ask_hint(self, flow: Flow, position: Callable[[], Xgid]) -> Flow:
        """The Hint button or action: ask the engine in a task; the flow saying so.

        Raises:
            RefusedError: in recorder mode (tournament rules forbid aids), without an
                engine, or when there is nothing to hint.
        """
        try:
            check_aid(flow.mode.value, "hint")
        except AidForbiddenError as error:
            raise RefusedError(str(error)) from None
        engine = self.engine
        if engine is None:
            raise RefusedError(NO_ENGINE)
        if not flow.variant.has_backgammon_ids:
            raise RefusedError(_BACKGAMMON_ONLY)
        turn, cube = flow.turn, flow.cube
        if turn is None or cube is None:
            raise RefusedError("no hint now: the game has not started")
        where, epoch = position(), self._epoch
        if cube.phase in (CubePhase.DOUBLED, CubePhase.BEAVERED):
            self._spawn(self._cube_hint(engine, where, epoch, taker=True), "hint")
        elif turn.phase is Phase.MOVING and turn.dice is not None:
            self._spawn(self._play_hint(engine, where, turn.dice, epoch), "hint")
        elif turn.phase is Phase.ROLL and turn.dice is None:
            problem = cube.double_problem(turn.player)
            if problem is not None:
                raise RefusedError(f"no cube decision now ({problem}): roll")
            self._spawn(self._cube_hint(engine, where, epoch, taker=False), "hint")
        else:
            raise RefusedError(f"no hint now ({flow.phase})")
        return with_notice(flow, "hint: asking the engine")

    async def _play_hint(
        self, engine: Engine, position: Xgid, dice: tuple[int, int], epoch: int
    ) -> None:
        try:
            hint = await engine.hint(position, dice)
        except EngineError as error:
            self._feed(_AidFailed(f"hint failed: {error}"))
            return
        self._feed(_HintReady(epoch, best=hint.best))

    async def _cube_hint(self, engine: Engine, position: Xgid, epoch: int, *, taker: bool) -> None:
        try:
            advice = await engine.cube(position)
        except (EngineError, RulesError) as error:
            self._feed(_AidFailed(f"hint failed: {error}"))
            return
        self._feed(_HintReady(epoch, advice=advice, taker=taker))

    def to_judge(
        self, mode: Mode, events: Sequence[record.Event], before: MatchSnapshot
    ) -> list[Judging | None]:
        """What to judge of each of ``events`` once journalled: a learner's play, with an
        engine, from where it was made (``before``, the match before the events, with
        those before the play folded in: they are journalled together, and the flow has
        folded each already, so none is refused here)."""
        judgings: list[Judging | None] = [None] * len(events)
        if self.engine is None or mode is not Mode.LEARNER:
            return judgings
        last = max(
            (index for index, event in enumerate(events) if isinstance(event, record.Played)),
            default=-1,
        )
        for index, event in enumerate(events[: last + 1]):
            if isinstance(event, record.Played):
                with contextlib.suppress(RulesError, AssertionError):
                    judgings[index] = Judging(self.engine, before.position(), event)
            if index < last:  # the match where a later play is made
                before = fold(before, event, vouched=True)
        return judgings

    def judge(self, judging: Judging) -> None:
        """Ask the engine's verdict on a journalled play, in a task of its own."""
        self._spawn(self._judge(judging), "judge")

    async def _judge(self, judging: Judging) -> None:
        try:
            decision = CheckerDecision(judging.position, judging.played.dice, judging.played.board)
            verdict = (await review(judging.engine, [decision])).plays[0]
        except (EngineError, ValueError) as error:
            self._feed(_AidFailed(f"cannot judge the play: {error}"))
            return
        self._feed(_PlayJudged(verdict))

    def answered(self, item: Aid, flow: Flow) -> Flow | None:
        """Take the engine's answer: the flow to show, or None when it changes nothing (a
        hint asked before the position moved on, a signal already replaced)."""
        if isinstance(item, _AidFailed):
            _log.warning("%s", item.text)
            return with_notice(flow, item.text)
        if isinstance(item, _SignalOver):
            if item.token != self._signal_token:
                return None
            self._signal = None
        elif isinstance(item, _PlayJudged):
            self._counters.judged += 1
            self._verdict = item.verdict
            self._signal = signal_for(item.verdict)
            self._signal_token += 1
            token = self._signal_token
            asyncio.get_running_loop().call_later(self.signal_s, self._feed, _SignalOver(token))
        elif item.epoch != self._epoch:
            self._counters.hints_dropped += 1
            return None
        elif item.best is not None:
            turn = flow.turn
            assert turn is not None
            self.guide = _Guide(item.best, turn.player, turn.before)
            self._advice = f"best {item.best.play.notation or '(no move)'}"
            self._counters.hints += 1
        elif item.advice is not None:
            self._advice = _cube_words(item.advice, taker=item.taker)
            self._counters.hints += 1
            return with_notice(flow, f"hint: {self._advice}")
        return flow

    def follow(self, flow: Flow) -> None:
        """Drop the hint once the board settles off its path (the learner went elsewhere)."""
        guide, turn = self.guide, flow.turn
        if guide is None or turn is None or turn.verdict is None:
            return
        if turn.verdict.kind not in (Kind.PARTIAL, Kind.COMPLETE, Kind.ILLEGAL):
            return
        cells = turn.cells
        if cells is None:
            return
        on_path = hint_step(guide.best.play, guide.player, guide.before, cells) is not None
        if not on_path and turn.verdict.board != guide.best.play.result:
            self.guide = None

    def display(self, flow: Flow) -> Display:
        """The flow's display, with the hint being followed and the last play's signal."""
        display = flow.display()
        if flow.mode is Mode.RECORDER:
            return display  # no aid shows in recorder mode, even one asked before
        guide, turn = self.guide, flow.turn
        if guide is not None and turn is not None and turn.cells is not None:
            step = hint_step(guide.best.play, guide.player, guide.before, turn.cells)
            if step is not None:
                move = step.move
                text = (
                    f"hint: {guide.best.play.notation}; move {_point(move.source)} to "
                    f"{_point(move.destination)} ({step.done + 1} of {step.total})"
                )
                display = Display(step.scene.with_status(display.status), text)
        elif self._advice and not display.text.startswith("hint"):
            display = Display(display.scene, f"{display.text}; hint: {self._advice}")
        if self._signal is not None and display.status.is_off:
            display = Display(display.scene.with_status(self._signal.lamp), display.text)
        return display

    def status_fields(self, mode: Mode) -> TeacherStatus:
        """The status fields of the engine: its name, the hint, the last play's verdict."""
        fields: TeacherStatus = {
            "engine": self.engine.name if self.engine is not None else NO_ENGINE,
        }
        if mode is Mode.RECORDER:
            return fields
        fields["hint"] = self._advice
        verdict = self._verdict
        if verdict is not None:
            fields.update(
                {
                    "play_player": verdict.player,
                    "play_notation": verdict.played.play.notation or "(no move)",
                    "play_best": verdict.best.play.notation or "(no move)",
                    "play_loss": round(verdict.loss, 4),
                    "play_grade": verdict.skill.value,
                    "play_signal": signal_for(verdict).text,
                }
            )
        return fields

    async def review(self, flow: Flow, match: record.MatchRecord, fmt: ReviewFormat) -> str:
        """The engine's review of the match so far: a web page, text, or an analysed .sgf.

        Raises:
            RefusedError: without an engine, or mid-game in recorder mode.
        """
        from controller.review import analyse

        try:
            check_aid(flow.mode.value, "review", game_over=flow.turn is None)
        except AidForbiddenError as error:
            raise RefusedError(str(error)) from None
        if self.engine is None:
            raise RefusedError(NO_ENGINE)
        if not flow.variant.has_gnubg_files:  # the review is GNU Backgammon's .sgf
            raise RefusedError(_BACKGAMMON_ONLY)
        try:
            analysis = await analyse(self.engine, match)
        except EngineError as error:
            raise RefusedError(f"the review failed: {error}") from None
        return await asyncio.to_thread(_written_review, match, analysis, fmt)


def _written_review(match: record.MatchRecord, analysis: Review, fmt: ReviewFormat) -> str:
    """The review written, in a worker thread: a long match's ``.sgf`` alone takes tens of
    milliseconds here, which the loop would wait."""
    from controller.review import build_report, render_html, render_text

    if fmt == "sgf":
        return write_sgf(match, analysis)
    report = build_report(match, analysis)
    return render_html(report) if fmt == "html" else render_text(report)


def _point(point: int) -> str:
    return {25: "the bar", 0: "off"}.get(point, str(point))


def _cube_words(advice: CubeAdvice, *, taker: bool) -> str:
    """The cube hint in words: ``double``, ``no double``; for the doubled player ``take``."""
    action = advice.action
    if taker:
        return "take" if action.should_take else "drop"
    if action.should_double:
        return "double"
    if not action.should_take:
        return "no double (too good: play on)"
    return "no double"
