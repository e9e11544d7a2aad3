"""Replay and resume agree with the live flow: random matches, resumed after every batch.

Why: the live :class:`Flow` folds the events it decides by :meth:`Flow.on` as it goes,
while a restarted service folds the journal's with the :class:`Replayer` and rebuilds the
turn's live detail with :meth:`Flow.resume`: both must say the same match. Random players drive the
live flow through whole matches (rolls, plays, illegal plays accepted or demanded, doubles
taken and dropped, beavers, resignations, Jacquet's declines); after every batch of events
it journals, the flow resumed from all the events so far, shown the board the live one
last saw, must agree on the score, the cube, the resignation, the board, the player to
move, the dice and the phase; and the live flow's own snapshot, which it changes only by
folding the events it records, must be the replay's of those events.

``python -m tests.soak resume --matches 20 --steps 3000`` prints, per variant, the
batches checked and the games played, and exits 1 on any disagreement (naming the seed,
the step, the events and what differs); the suite runs a small version
(:mod:`tests.soak.test_resume`).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.match.errors import RefusedError
from controller.match.events import Event, GameEnded, MatchStarted
from controller.match.flow import Flow
from controller.match.replay import Replayer
from controller.match.snapshot import MatchSnapshot
from controller.referee import (
    BoardSeen,
    Button,
    ButtonPressed,
    DiceLifted,
    DiceRolled,
    Input,
    Phase,
    cells_from_board,
)
from controller.rules import (
    BACKGAMMON,
    JACQUET,
    JACQUET_LUDII,
    Play,
    Rules,
    Variant,
    WinKind,
    legal_plays,
)

Step = Callable[[Flow], tuple[Flow, list[Event]]]


def _plays(flow: Flow, snapshot: MatchSnapshot) -> tuple[Play, ...]:
    """The legal plays of the turn being moved (Jacquet's, as the record's turn model says:
    the numbers thrown, or handed over)."""
    turn = flow.turn
    assert turn is not None and turn.dice is not None
    if snapshot.jacquet is not None:
        return snapshot.jacquet.plays()
    return legal_plays(turn.before, turn.player, turn.dice, flow.variant)


def _feed(item: Input) -> Step:
    """The step of an input to the flow."""
    return lambda flow: flow.on(item)


def _choices(flow: Flow, snapshot: MatchSnapshot, rng: random.Random) -> list[Step]:
    """What a player may do now, the likeliest first; the flow refuses what cannot count."""
    roll = _feed(DiceRolled((rng.randint(1, 6), rng.randint(1, 6))))
    phase = flow.phase
    if phase == "opening" or (phase == "roll" and rng.random() > 0.1):
        return [roll]
    if phase == "roll":
        return [_feed(ButtonPressed(Button.DOUBLE)), roll]
    if phase == "cube-offered":
        keys = [Button.TAKE, Button.DROP, Button.DOUBLE]
        rng.shuffle(keys)
        return [_feed(ButtonPressed(key)) for key in keys]
    if phase == "resign-offered":
        accept = rng.random() < 0.5
        return [lambda flow: flow.answer_resignation(accept)]
    if phase == "flagged":
        return [_feed(ButtonPressed(rng.choice([Button.ACCEPT, Button.UNDO])))]
    if phase != "moving":
        return [_feed(ButtonPressed(Button.DONE))]
    turn = flow.turn
    assert turn is not None
    plays = _plays(flow, snapshot)
    played = flow.cells in {cells_from_board(play.result) for play in plays}
    unmoved = flow.cells == cells_from_board(turn.before)
    # Nothing moved now and then: an illegal play when a move was possible.
    if not (played or not plays or (unmoved and rng.random() < 0.05)):
        return [_feed(BoardSeen(cells_from_board(rng.choice(plays).result)))]
    kind = rng.choice(list(WinKind))
    resign: list[Step] = [lambda flow: flow.resign(turn.player, kind)]
    commits: list[Input] = [ButtonPressed(Button.DONE), DiceLifted()]
    return [
        *(resign if rng.random() < 0.05 else []),
        *([_feed(ButtonPressed(Button.DECLINE))] if rng.random() < 0.3 else []),
        _feed(rng.choice(commits)),
    ]


def _agreement(live: Flow, snapshot: MatchSnapshot) -> list[str]:
    """What the flow resumed from ``snapshot`` says otherwise than ``live``."""
    resumed, owed = Flow.resume(snapshot, live.mode)
    if live.cells is not None:
        resumed, _ = resumed.on(BoardSeen(live.cells))
    problems = [f"owed {owed}"] if owed else []
    if live.snapshot != snapshot:
        problems.append(f"snapshot: live {live.snapshot!r}, replayed {snapshot!r}")
    turn, again = live.turn, resumed.turn
    said = {
        "score": (live.match, resumed.match),
        "cube": (live.cube, resumed.cube),
        "resignation": (live.resignation, resumed.resignation),
        "board": (turn and turn.before, again and again.before),
        "player": (turn and turn.player, again and again.player),
        "dice": (turn and turn.dice, again and again.dice),
        "phase": (live.phase, resumed.phase),
    }
    if turn is not None and turn.phase is Phase.FLAGGED:
        del said["phase"]  # a flag is journalled, not resumed: the next Done flags it again
    problems += [f"{what}: live {a!r}, resumed {b!r}" for what, (a, b) in said.items() if a != b]
    return problems


@dataclass
class Tally:
    """What one kind of match proved: batches resumed and compared, games played."""

    matches: int = 0
    batches: int = 0
    games: int = 0
    failures: list[str] = field(default_factory=list)


def play_and_resume(variant: Variant, rules: Rules, seed: int, steps: int, tally: Tally) -> None:
    """Drive a live flow ``steps`` inputs (or to the match's end), comparing the flow
    resumed after each batch of events; the first disagreement ends the match, in
    ``tally.failures`` with the seed, the step, the events and what differs."""
    rng = random.Random(seed)
    flow = Flow.new(("Ann", "Bob"), rules, variant=variant)
    start = MatchStarted(flow.names, rules, variant.name)
    replayer, count = Replayer(start), 1  # the fold of every event so far, one at a time
    flow, _ = flow.on(BoardSeen(cells_from_board(variant.start)))
    tally.matches += 1
    for step in range(steps):
        if flow.match.is_over:
            break
        for choice in _choices(flow, replayer.snapshot, rng):
            try:
                flow, new = choice(flow)
            except RefusedError:
                continue
            break
        else:
            tally.failures.append(f"seed {seed}, step {step}: nothing counts in {flow.phase}")
            return
        if not new:
            continue
        for event in new:
            replayer.apply(count, event)
            count += 1
        tally.batches += 1
        tally.games += sum(isinstance(event, GameEnded) for event in new)
        problems = _agreement(flow, replayer.snapshot)
        if problems:
            where = f"{variant.name} {rules}, seed {seed}, step {step}, after {new}"
            tally.failures.append(f"{where}: " + "; ".join(problems))
            return


#: The kinds of match played: name -> (variant, rules).
KINDS: dict[str, tuple[Variant, Rules]] = {
    "backgammon match": (BACKGAMMON, Rules(match_length=5)),
    "backgammon money": (BACKGAMMON, Rules(match_length=0, beavers=True, jacoby=True)),
    "jacquet": (JACQUET, Rules(match_length=3)),
    "jacquet-ludii": (JACQUET_LUDII, Rules(match_length=3)),
}


def soak(matches: int, steps: int, seed: int = 2026) -> dict[str, Tally]:
    """``matches`` matches of each kind, ``steps`` inputs at most each."""
    tallies = {kind: Tally() for kind in KINDS}
    for kind, (variant, rules) in KINDS.items():
        for number in range(matches):
            play_and_resume(variant, rules, seed + number, steps, tallies[kind])
    return tallies


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak resume", description=__doc__)
    parser.add_argument("--matches", type=int, default=20, help="matches of each kind (20)")
    parser.add_argument("--steps", type=int, default=3000, help="inputs per match at most")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    began = time.process_time()
    tallies = soak(args.matches, args.steps, seed=args.seed)
    print(f"{args.matches} matches of each kind in {time.process_time() - began:.0f} s CPU")
    for kind, tally in tallies.items():
        print(
            f"{kind}: {tally.matches} matches, {tally.games} games, "
            f"{tally.batches} batches resumed, {len(tally.failures)} disagreements"
        )
    failures = [failure for tally in tallies.values() for failure in tally.failures]
    for failure in failures:
        print(f"FAILED {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
