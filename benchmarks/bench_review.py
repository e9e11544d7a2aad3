"""How long a post-game review takes: the engine's part and the report's.

The match is a seeded simulated 5-point match (weak players: many mistakes, many cube
decisions). Each engine reviews it at 0-ply from the event loop, as ``tabula review``
does; the pure part (report, text, page, analysed ``.sgf``) is timed on its own.
"""

from __future__ import annotations

import asyncio
import random
import time

from controller.engine import ENGINE_KINDS, EngineKind, Review, make_engine
from controller.record import MatchRecord, replay
from controller.record.sgf import write_sgf
from controller.review import analyse, build_report, render_html, render_text
from controller.rules import Rules, Xgid
from controller.selfplay import SimulatedPlayer, play_match, record_events

LENGTH = 5


def _match(seed: int = 3) -> MatchRecord:
    rules = Rules(match_length=LENGTH)
    rng = random.Random(seed)
    players = (
        SimulatedPlayer(random.Random(seed * 7 + 1), aggression=0.7),
        SimulatedPlayer(random.Random(seed * 7 + 2), aggression=0.7),
    )
    return replay(record_events(play_match(rules, rng, players), rules))


async def _review(kind: EngineKind, record: MatchRecord) -> Review:
    engine = make_engine(kind, ply=0, budget=30.0)
    try:
        await engine.hint(Xgid(), (3, 1))  # start the engine
        start = time.perf_counter()
        review = await analyse(engine, record)
        seconds = time.perf_counter() - start
    finally:
        await engine.close()
    asked = len(review.plays)
    print(
        f"  {kind}: {seconds:.2f} s for {len(record.games)} games, {asked} plays and "
        f"{len(review.cube_decisions)} cube decisions kept "
        f"({1000 * seconds / max(asked, 1):.1f} ms per play, cube questions included)"
    )
    return review


def main() -> None:
    record = _match()
    review = None
    for kind in ENGINE_KINDS:
        review = asyncio.run(_review(kind, record))
    assert review is not None
    start = time.perf_counter()
    report = build_report(record, review)
    text, page, sgf = render_text(report), render_html(report), write_sgf(record, review)
    seconds = time.perf_counter() - start
    print(
        f"  report, text, page and analysed .sgf: {1000 * seconds:.0f} ms "
        f"({len(text)} + {len(page)} + {len(sgf)} characters)"
    )


if __name__ == "__main__":
    main()
