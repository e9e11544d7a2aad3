"""How long a post-game review takes: the engine's part and the report's.

The match is a seeded simulated match (weak players: many mistakes, many cube decisions;
``--length`` points, default 5). Each engine reviews it at 0-ply from the event loop, as
``tabula review`` does (wall time: the engine is a child process). Reference: the same
decisions asked of GNU Backgammon raw, through its bindings in this process from an empty
evaluation cache (``findbestmoves`` for a play, a cubeful evaluation for a cube decision,
for money: the nets' work without the child, the matching and the grading); the bindings
install on x86-64 only, elsewhere the rows say so and have no ratio. The pure part
(report, text, page, analysed ``.sgf``) is CPU time, the best of ``--repeats``, beside the
plain ``.sgf`` of the same match without the analysis.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time

from benchmarks.bench_engine import RawEngine
from benchmarks.bench_rules import gnubg_bindings
from benchmarks.measure import Row, best_of, count, timed_row
from controller.engine import ENGINE_KINDS, CheckerDecision, EngineKind, Review, configured_engine
from controller.record import MatchRecord, replay
from controller.record.decisions import decisions_of
from controller.record.sgf import write_sgf
from controller.review import analyse, build_report, render_html, render_text
from controller.rules import Rules, Xgid
from controller.simulated.players import SimulatedPlayer, play_match, record_events

SMALL = ("--length", "1", "--repeats", "1")


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--length", type=count, default=5, help="the match's length")
    parser.add_argument("--repeats", type=count, default=5, help="repeats of the report")


def _match(length: int, seed: int = 3) -> MatchRecord:
    rules = Rules(match_length=length)
    rng = random.Random(seed)
    players = (
        SimulatedPlayer(random.Random(seed * 7 + 1), aggression=0.7),
        SimulatedPlayer(random.Random(seed * 7 + 2), aggression=0.7),
    )
    return replay(record_events(play_match(rules, rng, players), rules))


def _raw_review(raw: RawEngine, record: MatchRecord) -> float:
    """Wall seconds of GNU Backgammon's raw calls for the decisions of ``record``."""
    raw.forget()
    start = time.perf_counter()
    for decision in decisions_of(record):
        if isinstance(decision, CheckerDecision):
            raw.hint(decision.position, decision.dice, 0)
        else:
            raw.cube(decision.position, 0)
    return time.perf_counter() - start


async def _review(kind: EngineKind, record: MatchRecord) -> tuple[str, Review, float] | None:
    """The engine's name, its review of ``record`` and its wall seconds; None without it."""
    engine = configured_engine(kind, budget=30.0).engine
    if engine is None:
        return None
    try:
        await engine.hint(Xgid(), (3, 1))  # start the engine
        start = time.perf_counter()
        review = await analyse(engine, record)
        return engine.name, review, time.perf_counter() - start
    finally:
        await engine.close()


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    record = _match(options.length)
    decisions = len(decisions_of(record))
    gnubg, reason = gnubg_bindings()
    raw = None if gnubg is None else RawEngine(gnubg)
    rows = []
    review = None
    for kind in ENGINE_KINDS:
        reviewed = asyncio.run(_review(kind, record))
        if reviewed is None:
            print(f"  {kind}: not available on this machine")
            continue
        name, review, seconds = reviewed
        print(f"  {name}: {len(record.games)} games, {decisions} decisions asked, "
              f"{len(review.plays)} plays and {len(review.cube_decisions)} cube decisions "
              "kept")  # fmt: skip
        rows.append(timed_row(
            f"{name}: review at 0-ply, per decision", seconds,
            None if raw is None else _raw_review(raw, record), unit="ms", per=decisions,
            clock="wall", reason=reason, reference_name="GNU Backgammon's raw calls for the "
            "same decisions, through its bindings in this process",
        ))  # fmt: skip
    if review is None:
        raise RuntimeError("no engine to review with: install Debian's gnubg (make system-deps)")

    def report() -> None:
        built = build_report(record, review)
        render_text(built), render_html(built), write_sgf(record, review)

    reported, plain = best_of(report, lambda: write_sgf(record), repeats=options.repeats)
    rows.append(timed_row("report, text, page and analysed .sgf", reported, plain, unit="ms",
                          reference_name="the plain .sgf of the same match"))  # fmt: skip
    return rows
