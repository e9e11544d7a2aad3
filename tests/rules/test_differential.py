"""Differential tests against GNU Backgammon's move generator (its PyPI bindings).

Over 20,000 positions that the golden cases do not hold: random games, bear-offs,
contact bear-offs and bar fights. ``findbestmoves`` returns one entry per distinct play,
so the counts must agree; a move tuple without a bear-off replays exactly, so its
result must be one of ours.
"""

from __future__ import annotations

import random
from itertools import islice

from controller.rules.board import flip
from controller.rules.plays import legal_plays, legal_results
from controller.rules.steps import apply_step
from tests.rules.gnubg_oracle import best_moves, notation
from tests.rules.positions import (
    Case,
    bar_case,
    bearoff_case,
    contact_bearoff_case,
    golden_cases,
    playout_cases,
)


def differential_cases() -> list[Case]:
    rng = random.Random(20261122)
    cases = list(islice(playout_cases(rng, 200), 10_000))
    for make in (bearoff_case, contact_bearoff_case, bar_case):
        cases += [make(rng) for _ in range(4_000)]
    return cases


def test_distinct_plays_agree_with_gnu_backgammon_on_22000_positions() -> None:
    cases = differential_cases()
    assert len(cases) == 22_000
    mismatches = []
    for board, player, dice in cases:
        ours = legal_results(board, player, dice)
        theirs = best_moves(board, player, dice)
        if len(ours) != max(len(theirs), 1):
            mismatches.append(f"{board} player {player} dice {dice}: {len(ours)} != {len(theirs)}")
            continue
        view = board if player == 0 else flip(board)
        for entry in theirs:
            move = entry["move"]
            if len(move) % 2 or 0 in move[1::2]:
                continue  # the bindings cut a tuple at its first bear-off
            for source, target in zip(move[0::2], move[1::2], strict=True):
                view = apply_step(view, source, target)
            result = view if player == 0 else flip(view)
            if result not in ours:
                mismatches.append(f"{board} player {player} dice {dice}: {move} not ours")
            view = board if player == 0 else flip(board)
    assert not mismatches, f"{len(mismatches)} mismatches:\n" + "\n".join(mismatches[:10])


def test_notation_is_gnu_backgammons_for_every_golden_play() -> None:
    differences = []
    for case in golden_cases():
        for play in legal_plays(case["board"], case["player"], case["dice"]):
            if not play.moves:
                continue
            move = tuple(point for step in play.moves for point in step)
            theirs = notation(tuple(case["board"]), case["player"], move)
            if theirs != play.notation:
                differences.append(f"{case['id']}: {play.notation!r} != {theirs!r}")
    assert not differences, "\n".join(differences[:10])
