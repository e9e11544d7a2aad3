"""``tabula demo --variant V`` for the variants the board service does not referee yet:
a match (or a game of Jacquet) between two simulated players on the rules engine alone,
printed move by move."""

from __future__ import annotations

import argparse
import random
import sys
from typing import TextIO

from controller.rules.board import pip_counts
from controller.rules.cube import Rules
from controller.rules.jacquet import JacquetTurn
from controller.rules.variants import Scoring, variant_named
from controller.selfplay import (
    Doubled,
    Dropped,
    GameStarted,
    GameWon,
    JacquetDeclined,
    JacquetPlayed,
    MatchEvent,
    Played,
    SimulatedPlayer,
    Taken,
    play_jacquet_game,
    play_match,
)

NAMES = ("X", "O")


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else random.randrange(10**6)
    rules = Rules(
        match_length=args.length,
        jacoby=args.jacoby,
        beavers=args.beavers,
        automatic_doubles=args.automatic_doubles,
    )
    rng = random.Random(seed)
    variant = variant_named(args.variant)
    if variant.scoring is Scoring.JACQUET:
        print(f"Tabula demo: a game of {variant.name} between two simulated players (seed {seed})")
        for item in play_jacquet_game(rng, variant):
            print_jacquet(item, sys.stdout)
        return 0
    players = (SimulatedPlayer(random.Random(rng.random())), SimulatedPlayer(rng))
    what = f"{args.length}-point match" if args.length else "money game"
    print(f"Tabula demo: a {what} of {variant.name} between two simulated players (seed {seed})")
    for event in play_match(rules, rng, players, variant=variant):
        print_event(event, sys.stdout)
        if isinstance(event, GameWon) and rules.is_money:
            break
    return 0


def print_event(event: MatchEvent, out: TextIO) -> None:
    """One line (or two) of the match as a person reads it."""
    if isinstance(event, GameStarted):
        out.write(
            f"\nGame {event.game_number}, score {event.score[0]}-{event.score[1]}: "
            f"{NAMES[event.first_player]} wins the opening roll with "
            f"{event.dice[0]}{event.dice[1]}"
            + (f", cube at {event.cube_value}" if event.cube_value > 1 else "")
            + "\n"
        )
    elif isinstance(event, Played):
        pips = pip_counts(event.board)
        notation = event.play.notation or "(no legal move)"
        out.write(
            f"  {NAMES[event.player]} {event.dice[0]}{event.dice[1]}: {notation:<28}"
            f" pips X {pips[0]:>3}  O {pips[1]:>3}\n"
        )
    elif isinstance(event, Doubled):
        out.write(f"  {NAMES[event.player]} doubles to {event.value}\n")
    elif isinstance(event, Taken):
        out.write(f"  {NAMES[event.player]} takes\n")
    elif isinstance(event, Dropped):
        out.write(f"  {NAMES[event.player]} drops\n")
    elif isinstance(event, GameWon):
        result, match = event.result, event.match
        kind = "drop" if result.dropped else result.kind.name.lower()
        out.write(
            f"  {NAMES[result.winner]} wins {result.points} point(s) ({kind}); "
            f"score {match.score[0]}-{match.score[1]}\n"
        )
        if match.is_over:
            assert match.winner is not None
            out.write(f"\n{NAMES[match.winner]} wins the match {match.score[0]}-{match.score[1]}\n")


def print_jacquet(item: JacquetPlayed | JacquetDeclined | JacquetTurn, out: TextIO) -> None:
    """One line of a Jacquet game: who plays which numbers on whose behalf (JACQUET.md)."""
    if isinstance(item, JacquetPlayed):
        turn, play = item.turn, item.play
        numbers = "".join(map(str, turn.numbers))
        if turn.primaute:
            whose = " (primauté doublet)"
        elif turn.is_handed_over:
            whose = f" handed over by {NAMES[turn.thrower]}"
        elif turn.handed_back:
            whose = " handed back"
        else:
            whose = ""
        courier = " courier travelling" if turn.courier is not None else ""
        text = play.notation or "(cannot play)"
        unused = f"  [{''.join(map(str, play.unused))} not played]" if play.unused else ""
        out.write(f"  {NAMES[turn.player]} {numbers}{whose}: {text}{unused}{courier}\n")
    elif isinstance(item, JacquetDeclined):
        turn = item.turn
        out.write(
            f"  {NAMES[turn.player]} declines {''.join(map(str, turn.numbers))} (rule 11): "
            f"the hand goes back to {NAMES[turn.thrower]}\n"
        )
    else:
        result = item.result
        assert result is not None
        kind = "a double win" if result.is_double else "a single win"
        out.write(f"\n{NAMES[result.winner]} wins {kind}: {result.points} point(s)\n")
