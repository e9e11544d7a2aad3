"""Whole matches of every ruleset at the simulated table: each journal holds what was played.

``python -m tests.soak matches --matches 3`` plays, for each ruleset (backgammon,
nackgammon, Jacquet de Versailles and Ludii's Jacquet), ``--matches`` whole matches of
``--length`` points with seeds from ``--first``: the service on the pty board, the camera
and the pins, as ``tabula demo`` runs them, with illegal plays and cocked throws. A match
passes when the players reach its end and the journal holds exactly what they did
(:meth:`~controller.simulated.demo.DemoResult.problems`). Each match prints one line.

Why: one game at a time (what the suite's end-to-end tests play) never meets what happens
between games; two-game Jacquet matches stopped there (the checkers never set up again
after a game won with the dice on the table, or at all in Ludii's rules), which only whole
matches showed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from controller.rules import VARIANTS, Rules
from controller.simulated.demo import run_simulated

#: Games enough to end any match of the lengths played here.
_ALL_GAMES = 1_000


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak matches")
    parser.add_argument("--matches", type=int, default=3, help="matches of each ruleset")
    parser.add_argument("--first", type=int, default=1, help="the first seed")
    parser.add_argument("--length", type=int, default=3, help="points of each match")
    parser.add_argument("--variants", nargs="+", choices=sorted(VARIANTS), default=sorted(VARIANTS))
    parser.add_argument("--illegal", type=float, default=0.1, help="share of illegal plays")
    parser.add_argument("--cocked", type=float, default=0.1, help="share of cocked throws")
    options = parser.parse_args(argv)
    failed = played = 0
    with tempfile.TemporaryDirectory(prefix="tabula-matches-") as directory:
        for name in options.variants:
            for seed in range(options.first, options.first + options.matches):
                journal = Path(directory) / f"{name}-{seed}.sqlite3"
                started = time.monotonic()
                try:
                    result = asyncio.run(
                        run_simulated(
                            journal,
                            games=_ALL_GAMES,
                            seed=seed,
                            rules=Rules(match_length=options.length),
                            variant=VARIANTS[name],
                            illegal_rate=options.illegal,
                            cocked_rate=options.cocked,
                        )
                    )
                except Exception as error:  # what stopped the players is the finding
                    problems = [f"stopped: {type(error).__name__}: {error}"]
                    games = turns = 0
                else:
                    problems = result.problems()
                    games, turns = result.counts.games, result.counts.turns
                seconds = time.monotonic() - started
                played += 1
                failed += bool(problems)
                verdict = "; ".join(problems) if problems else "as played"
                print(f"  {name:26} seed {seed:4}: {games} games, {turns:4} turns, "
                      f"{seconds:5.1f} s: {verdict}", flush=True)  # fmt: skip
    print(f"{played - failed} of {played} matches ended and journalled as played")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
