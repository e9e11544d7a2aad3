"""Legal-result enumeration over the golden cases, beside GNU Backgammon's generator.

Target (issue 2): at least 20,000 cases/s on one core, under 2 ms for the worst roll.
The reference is GNU Backgammon's ``findbestmoves`` at 0-ply through its PyPI bindings:
it generates the same plays and scores them with its neural net, so it is an upper bound
on what its generator alone costs.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.rules.board import flip
from controller.rules.plays import legal_plays, legal_results, plays_of_numbers
from controller.rules.tree import PlayTree
from controller.rules.variants import BACKGAMMON, JACQUET, JACQUET_LUDII
from controller.selfplay import JacquetPlayed, play_jacquet_game

GOLDEN = Path(__file__).parent.parent / "tests" / "data" / "backgammon-golden" / "cases.jsonl"
ROUNDS = 5


def _jacquet_trees() -> None:
    """PlayTree of every play of a few random Jacquet games (both rulesets)."""
    import random

    from controller.rules.variants import JACQUET, JACQUET_LUDII
    from controller.selfplay import JacquetPlayed, play_jacquet_game

    for variant in (JACQUET, JACQUET_LUDII):
        turns = [
            item.turn
            for seed in range(10)
            for item in play_jacquet_game(random.Random(seed), variant)
            if isinstance(item, JacquetPlayed)
        ]
        times = []
        for turn in turns:
            start = time.perf_counter()
            PlayTree.of_numbers(turn.board, turn.player, turn.numbers, variant)
            times.append(time.perf_counter() - start)
        print(
            f"  PlayTree {variant.name} ({len(turns):,} plays of 10 random games): "
            f"median {statistics.median(times) * 1e3:.2f} ms, worst {max(times) * 1e3:.1f} ms"
        )


def _general_path(cases: list[dict[str, Any]]) -> None:
    """The variants' generator: Jacquet turns and the golden cases forced through it.

    Each figure comes with the same work done in the same run by the backgammon fast path
    (the reference, so that ratios compare across machines) and by the general generator
    as it was before it was made fast (``tests/rules/reference_general.py``).
    """
    from tests.rules.reference_general import reference_plays

    def numbers(case: dict[str, Any]) -> tuple[int, ...]:
        return BACKGAMMON.moves_of(case["dice"])

    fast = _per_case(cases, lambda c: legal_plays(c["board"], c["player"], c["dice"]))
    general = _per_case(
        cases, lambda c: plays_of_numbers(c["board"], c["player"], numbers(c), BACKGAMMON)
    )
    before = _per_case(
        cases, lambda c: reference_plays(c["board"], c["player"], numbers(c), BACKGAMMON)
    )
    print(
        f"  golden cases, legal_plays: fast path {fast:,.0f}/s, general path {general:,.0f}/s "
        f"(fast / general {fast / general:.2f}), general before {before:,.0f}/s "
        f"(speed-up {general / before:.2f}x)"
    )
    turns = [
        {"board": event.turn.board, "player": event.turn.player, "numbers": event.turn.numbers}
        for variant in (JACQUET, JACQUET_LUDII)
        for seed in range(10)
        for event in play_jacquet_game(random.Random(seed), variant)
        if isinstance(event, JacquetPlayed)
    ]
    for variant in (JACQUET, JACQUET_LUDII):
        jacquet = _per_case(
            turns, lambda t, v=variant: plays_of_numbers(t["board"], t["player"], t["numbers"], v)
        )
        old = _per_case(
            turns, lambda t, v=variant: reference_plays(t["board"], t["player"], t["numbers"], v)
        )
        print(
            f"  {variant.name} turns: {jacquet:,.0f}/s over {len(turns):,} turns "
            f"(fast path / this {fast / jacquet:.2f}; before {old:,.0f}/s, "
            f"speed-up {jacquet / old:.2f}x)"
        )
    start = time.perf_counter()
    for variant in (JACQUET, JACQUET_LUDII):
        for seed in range(50):
            for _ in play_jacquet_game(random.Random(seed), variant):
                pass
    print(
        f"  random Jacquet games (the property test's work): "
        f"{100 / (time.perf_counter() - start):.1f} games/s"
    )


def _per_case(cases: list[dict[str, Any]], function: Callable[[dict[str, Any]], object]) -> float:
    """Best of ``ROUNDS`` passes, in cases per second."""
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for case in cases:
            function(case)
        best = min(best, time.perf_counter() - start)
    return len(cases) / best


def main() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the target says
    cases = [json.loads(line) for line in GOLDEN.open()]
    for case in cases:
        case["board"] = tuple(case["board"])
        case["dice"] = tuple(case["dice"])

    ours = _per_case(cases, lambda c: legal_results(c["board"], c["player"], c["dice"]))
    print(f"tabula legal_results: {ours:,.0f} cases/s over {len(cases):,} golden cases")

    timings = []
    for case in cases:
        start = time.perf_counter()
        legal_results(case["board"], case["player"], case["dice"])
        timings.append(time.perf_counter() - start)
    worst = max(range(len(cases)), key=timings.__getitem__)
    print(
        f"  per roll: median {statistics.median(timings) * 1e6:.0f} us, "
        f"worst {timings[worst] * 1e3:.2f} ms ({cases[worst]['id']}, dice "
        f"{list(cases[worst]['dice'])}, {cases[worst]['n']} results)"
    )

    trees = [time.perf_counter()]
    for case in cases:
        PlayTree(case["board"], case["player"], case["dice"])
        trees.append(time.perf_counter())
    tree_times = [b - a for a, b in itertools.pairwise(trees)]
    print(
        f"  PlayTree (referee, once per roll): median {statistics.median(tree_times) * 1e3:.2f} ms,"
        f" worst {max(tree_times) * 1e3:.1f} ms"
    )
    _jacquet_trees()

    _general_path(cases)

    try:
        import gnubg
    except ImportError:
        print("GNU Backgammon bindings not installed: no reference ratio")
        return
    cube, zero_ply = gnubg.cubeinfo(), gnubg.evalcontext(0, 0, 1, 0, 0.0)

    def gnubg_board(case: dict[str, Any]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        view = case["board"] if case["player"] == 0 else flip(case["board"])
        mine = (*(max(view[p], 0) for p in range(1, 25)), view[25])
        theirs = (*(max(-view[25 - p], 0) for p in range(1, 25)), -view[0])
        return theirs, mine

    for case in cases:
        case["gnubg"] = gnubg_board(case)
    reference = _per_case(
        cases, lambda c: gnubg.findbestmoves(c["gnubg"], cube, zero_ply, c["dice"])
    )
    print(f"gnubg findbestmoves (0-ply, C): {reference:,.0f} cases/s")
    print(f"ratio tabula / gnubg: {ours / reference:.2f}")
