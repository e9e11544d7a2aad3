"""The referee's cost per roll and per observation, over the golden cases and Jacquet turns.

What the service pays: a :class:`Judge` built once per roll, then a verdict for each stable
observation: a legal board (a dictionary look-up), a checker in hand (a scan of the roll's
positions) and an illegal board (the scan plus the diagnosis). The budget is the LED
latency target of issue 6 (20 ms p99 from a board change to the pins). References, the
nearest work that answers less: the roll's tree of partial plays built alone (what a Judge
indexes), and for each verdict the look-up of the same observation among the legal
results' observations (all that a referee knowing only the legal results could say).
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from benchmarks.measure import Row, best_of, best_per_item, count, timed_row
from controller.referee import Cells, Judge, cells_from_board
from controller.rules import BACKGAMMON, JACQUET, JACQUET_LUDII, Board, Variant, legal_results
from controller.rules.tree import PlayTree
from controller.simulated.players import JacquetPlayed, play_jacquet_game

GOLDEN = Path(__file__).parent.parent / "tests" / "data" / "backgammon-golden" / "cases.jsonl"

SMALL = ("--cases", "20", "--repeats", "1")


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--cases", type=count, default=1000,
                        help="golden cases, and Jacquet plays of each ruleset")  # fmt: skip
    parser.add_argument("--repeats", type=count, default=5, help="interleaved repeats")


@dataclass(frozen=True, slots=True)
class _Roll:
    """A roll to referee, and one observation of each kind."""

    board: Board
    player: int
    dice: tuple[int, int]
    variant: Variant
    numbers: tuple[int, ...] | None
    """The numbers handed over (Jacquet), None for the whole roll."""
    legal: Cells
    in_hand: Cells | None
    """The board with one of the mover's checkers lifted; None if the mover has none."""
    illegal: Cells
    results: frozenset[Cells]
    """The observations of the roll's legal results."""

    def judge(self) -> Judge:
        return Judge(self.board, self.player, self.dice, variant=self.variant,
                     numbers=self.numbers)  # fmt: skip

    def tree(self) -> PlayTree:
        """The tree the Judge builds, built alone."""
        if self.numbers is not None:
            return PlayTree.of_numbers(self.board, self.player, self.numbers, self.variant)
        return PlayTree(self.board, self.player, self.dice, variant=self.variant)


def _illegal(rng: random.Random, result: Board, player: int, results: frozenset[Board]) -> Board:
    """``result`` with one of the mover's checkers moved to a point it may not reach."""
    sign = 1 if player == 0 else -1
    for _ in range(20):
        board = list(result)
        mine = [index for index in range(26) if board[index] * sign > 0]
        free = [index for index in range(1, 25) if board[index] * sign >= 0]
        if not mine:
            break
        board[rng.choice(mine)] -= sign
        board[rng.choice(free)] += sign
        if tuple(board) not in results:
            return tuple(board)
    return result


def _roll(
    rng: random.Random,
    board: Board,
    player: int,
    dice: tuple[int, int],
    *,
    variant: Variant,
    numbers: tuple[int, ...] | None,
    results: frozenset[Board],
) -> _Roll:
    result = rng.choice(sorted(results))
    referee = Judge(board, player, dice, variant=variant, numbers=numbers)
    lifted = list(cells_from_board(board))
    sources = [
        location
        for point in range(1, 26)
        if (cell := lifted[location := referee.locate(player, point)]) is not None
        and cell[player] > 0
    ]
    in_hand = None
    if sources:
        location = rng.choice(sources)
        red, green = lifted[location] or (0, 0)
        lifted[location] = (red - (player == 0), green - (player == 1))
        in_hand = tuple(lifted)
    illegal = cells_from_board(_illegal(rng, result, player, results))
    return _Roll(board, player, dice, variant, numbers, cells_from_board(result), in_hand,
                 illegal, frozenset(cells_from_board(r) for r in results))  # fmt: skip


def _golden(rng: random.Random, cases: int) -> list[_Roll]:
    lines = GOLDEN.read_text().splitlines()
    rolls = []
    for line in rng.sample(lines, min(cases, len(lines))):
        case = json.loads(line)
        board, player = tuple(case["board"]), case["player"]
        dice = (case["dice"][0], case["dice"][1])
        rolls.append(_roll(rng, board, player, dice, variant=BACKGAMMON, numbers=None,
                           results=legal_results(board, player, dice)))  # fmt: skip
    return rolls


def _jacquet(rng: random.Random, variant: Variant, plays: int) -> list[_Roll]:
    """The first ``plays`` plays of random games of Jacquet, as the referee gets them."""
    rolls: list[_Roll] = []
    seeds = itertools.count()
    while len(rolls) < plays:
        for item in play_jacquet_game(random.Random(next(seeds)), variant):
            if not isinstance(item, JacquetPlayed) or len(rolls) == plays:
                continue
            turn = item.turn
            numbers = turn.numbers
            # The throw the numbers came from: a single number handed over had a partner.
            partner = numbers[-1] if len(numbers) > 1 else (1 if numbers[0] != 1 else 2)
            dice = (numbers[0], partner)
            part = None if variant.moves_of(dice) == numbers else numbers
            results = frozenset(play.result for play in turn.plays())
            rolls.append(_roll(rng, turn.board, turn.player, dice, variant=variant, numbers=part,
                               results=results))  # fmt: skip
    return rolls


def _verdicts(judges: list[Judge], seen: list[tuple[int, Cells]]) -> list[object]:
    return [judges[index].verdict(cells) for index, cells in seen]


def _look_ups(rolls: list[_Roll], seen: list[tuple[int, Cells]]) -> list[object]:
    return [cells in rolls[index].results for index, cells in seen]


def _rows(label: str, rolls: list[_Roll], repeats: int) -> list[Row]:
    built, trees = best_of(lambda: [roll.judge() for roll in rolls],
                           lambda: [roll.tree() for roll in rolls], repeats=repeats)  # fmt: skip
    rows = [timed_row(f"{label}: Judge, per roll", built, trees, per=len(rolls),
                      reference_name="the roll's PlayTree built alone")]  # fmt: skip
    built_each, trees_each = best_per_item(rolls, _Roll.judge, _Roll.tree, repeats=repeats)
    worst = max(range(len(rolls)), key=built_each.__getitem__)
    rows.append(timed_row(f"{label}: Judge, worst roll", built_each[worst], trees_each[worst],
                          unit="ms", reference_name="its PlayTree built alone"))  # fmt: skip
    judges = [roll.judge() for roll in rolls]
    for kind in ("legal", "in_hand", "illegal"):
        seen = [(i, cells) for i, roll in enumerate(rolls) if (cells := getattr(roll, kind))]
        verdicts, looked_up = best_of(partial(_verdicts, judges, seen),
                                      partial(_look_ups, rolls, seen), repeats=repeats)  # fmt: skip
        rows.append(timed_row(
            f"{label}: verdict, {kind.replace('_', ' ')} board", verdicts, looked_up,
            per=len(seen), reference_name="the same observation looked up among the legal "
            "results' observations",
        ))  # fmt: skip
    return rows


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    rng = random.Random(6)
    rows = _rows(f"{options.cases} golden rolls", _golden(rng, options.cases), options.repeats)
    for variant in (JACQUET, JACQUET_LUDII):
        rows += _rows(f"{options.cases} {variant.name} plays",
                      _jacquet(rng, variant, options.cases), options.repeats)  # fmt: skip
    return rows
