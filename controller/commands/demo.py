"""``tabula demo``: the whole service on simulated hardware, with simulated players.

The board simulator speaks the firmware's protocol over a pseudo-terminal, the camera
shows rendered rolls read by the real dice reader, the buttons and the shift-register
LEDs are gpiozero devices on its MockFactory; two simulated players play whole matches
(hits, bar entries, bear-offs, cube actions, some illegal plays and cocked dice). The
game and the LED states are printed as they go; the journal and the match files are
written to ``--out``, as the hub keeps them (:func:`~controller.record.exports.kept_files`):
``.sgf``, and ``.mat`` when the match has no illegal play.

``--variant`` plays nackgammon or Jacquet de Versailles through the same service (for
Jacquet: the primauté, numbers handed over and declined, no cube); GNU Backgammon's
``.mat``/``.sgf`` hold backgammon only, so such a match is written as its events in JSON
lines (``.jsonl``) and as text (``.txt``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hardware.runtimes import RUNTIMES

if TYPE_CHECKING:
    from controller.rules import Rules, Variant

HELP = "run the board service on simulated hardware with simulated players"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from controller.rules.variants import VARIANTS

    parser.add_argument(
        "--variant",
        choices=list(VARIANTS),
        default="backgammon",
        help="the game the service referees (default backgammon)",
    )
    parser.add_argument("--jacoby", action="store_true", help="money play: the Jacoby rule")
    parser.add_argument("--beavers", action="store_true", help="money play: beavers allowed")
    parser.add_argument(
        "--automatic-doubles", action="store_true", help="equal opening dice double the cube"
    )
    parser.add_argument("--seed", type=int, default=None, help="replay the same games")
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="stop after this many games (default: one whole match)",
    )
    parser.add_argument("--length", type=int, default=3, help="match length in points")
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="directory of the journals and match files (default: a temporary one)",
    )
    parser.add_argument(
        "--headless", action="store_true", help="print one line a game, not every move and LED"
    )
    parser.add_argument("--mode", choices=("referee", "learner", "recorder"), default="learner")
    parser.add_argument(
        "--engine",
        choices=("auto", "bindings", "cli", "none"),
        default="auto",
        help="the teacher of learner mode (auto: the bindings, else the gnubg program)",
    )
    parser.add_argument("--illegal", type=float, default=0.08, help="share of illegal plays")
    parser.add_argument("--cocked", type=float, default=0.08, help="share of cocked rolls")
    parser.add_argument(
        "--broker",
        default=None,
        help="also publish every event to this MQTT broker (mqtt://host[:port])",
    )
    parser.add_argument(
        "--board-id", default="demo", help="the board's id on the broker (default: demo)"
    )
    parser.add_argument(
        "--slow",
        action="store_true",
        help="throttle the demo to 25%% of one core, about a Raspberry Pi Zero 2 W (also "
        "TABULA_SLOW=1): the whole process, as the service, the simulated board, camera and "
        "players run in it; needs root and the cgroup v1 cpu controller, else it says so "
        "and runs at full speed",
    )
    parser.add_argument(
        "--board-runtime",
        choices=RUNTIMES,
        default=RUNTIMES[0],
        help="where the simulated sensor board's firmware runs: CPython (default) or real "
        "MicroPython under node (`make micropython` installs it)",
    )
    parser.add_argument(
        "--ack",
        action="store_true",
        help="print 'ack SEQ' after each journalled event (crash tests)",
    )


def run(args: argparse.Namespace) -> int:
    from controller.commands.errors import UsageError, make_directory
    from controller.rules import Rules, variant_named

    variant = variant_named(args.variant)
    if args.games is not None and args.games < 1:
        raise UsageError(f"--games {args.games}: expected at least 1")
    if args.broker is not None:
        from controller.config import parse_config

        parse_config(  # the same checks as the configuration's [mqtt] keys
            f"[mqtt]\nbroker = {json.dumps(args.broker)}\nboard_id = {json.dumps(args.board_id)}\n",
            source="--broker/--board-id",
            check_files=False,
        )
    if args.length < 0 or (args.length == 0 and args.games is None):
        raise UsageError(
            f"--length {args.length}: a match of at least 1 point, or 0 (money play) with --games"
        )
    seed = args.seed if args.seed is not None else random.randrange(10**6)
    out = args.out or Path(tempfile.mkdtemp(prefix="tabula-demo-"))
    make_directory(out, "--out")
    cube = variant.has_cube
    rules = Rules(
        match_length=args.length,
        jacoby=args.jacoby and cube,
        beavers=args.beavers and cube,
        automatic_doubles=args.automatic_doubles and cube,
    )
    what = f"{args.length}-point matches" if args.length else "money play"
    what = f"{variant.name}, {what}"
    print(f"Tabula demo (seed {seed}): {what}, files in {out}", flush=True)
    with contextlib.ExitStack() as stack:
        if args.slow or os.environ.get("TABULA_SLOW") == "1":
            _slow_down(stack)
        return _play_matches(args, out, seed, rules, variant)


def _slow_down(stack: contextlib.ExitStack) -> None:
    """Throttle this process (and so all the demo) to a Pi Zero 2 W's share of a core."""
    from controller.service.throttle import PI_ZERO_SHARE, CpuThrottle, ThrottleUnavailableError

    try:
        throttle = stack.enter_context(CpuThrottle(PI_ZERO_SHARE))
        throttle.join(os.getpid())
    except ThrottleUnavailableError as error:
        print(f"tabula demo: --slow: {error}; running at full speed", file=sys.stderr, flush=True)
        return
    print(
        f"slow: the demo's process (service, simulated board, camera and players) throttled "
        f"to {PI_ZERO_SHARE:.0%} of one core ({throttle.path})",
        flush=True,
    )

    def report() -> None:
        stats = throttle.stats()
        print(
            f"slow: held back in {stats.throttled} of {stats.periods} periods of 0.1 s "
            f"({stats.throttled_s:.1f} s)",
            flush=True,
        )

    stack.callback(report)


def _play_matches(
    args: argparse.Namespace, out: Path, seed: int, rules: Rules, variant: Variant
) -> int:
    """Play what ``args`` asks (whole matches, or ``--games``), one journal a match.

    Returns the exit status: 0, or 130 when Ctrl-C stopped it.
    """
    from controller.record.exports import kept_files
    from controller.referee import Mode
    from controller.service.memory import freeze_start_up
    from controller.service.service import open_journal
    from controller.simulated.demo import run_simulated

    wanted = args.games if args.games is not None else 10**9  # else: to the match's end
    echo = None if args.headless else _echo
    played = reported = 0
    started = time.monotonic()

    def progress(winner: int, points: int) -> None:
        """One line a game, so that a long headless run shows it moves."""
        nonlocal reported
        reported += 1
        of = "" if args.games is None else f"/{args.games}"
        elapsed = time.monotonic() - started
        print(f"game {reported}{of}: player {winner} wins {points} ({elapsed:.0f} s)", flush=True)

    said = False

    def ready() -> None:
        """Keep the start-up out of the garbage collector's full passes, as ``tabula run``
        does (:mod:`controller.service.memory`); said once."""
        nonlocal said
        frozen = freeze_start_up()
        if not said:
            said = True
            print(f"start-up done: {frozen:,} objects kept out of the collector's full passes",
                  flush=True)  # fmt: skip

    number = 1
    first_seq = 1  # the board's event numbers go on from one match's journal to the next
    while played < wanted:
        journal = out / f"match-{number}.sqlite3"
        if journal.exists():
            with open_journal(journal) as existing:
                state = existing.state
                last_seq = existing.last_seq
            if state is not None and state.match.is_over:
                played += len(existing_games(journal))
                number += 1
                first_seq = last_seq + 1
                continue
        on_event = _ack if args.ack else None
        reported = played  # the games of earlier matches, kept in their journals
        try:
            result = _run_async(
                run_simulated(
                    journal,
                    games=wanted - played,
                    seed=seed + number,
                    rules=rules,
                    mode=Mode(args.mode),
                    echo=echo,
                    show_leds=not args.headless,
                    on_event=on_event,
                    announce=_echo,
                    ready=ready,
                    progress=progress,
                    illegal_rate=args.illegal,
                    cocked_rate=args.cocked,
                    broker=args.broker,
                    board_id=args.board_id,
                    variant=variant,
                    engine=args.engine,
                    first_seq=first_seq,
                    board_runtime=args.board_runtime,
                )
            )
        except KeyboardInterrupt:  # Ctrl-C: say where the match is kept, in one line
            print(
                f"tabula demo: stopped by Ctrl-C in match {number}; its journal {journal} "
                f"keeps every event so far (tabula demo --out {out} resumes it)",
                file=sys.stderr,
                flush=True,
            )
            return 130
        finally:
            gc.unfreeze()  # the match's own objects are collected as ever; the next freezes anew
        counts = result.counts
        played += counts.games
        with open_journal(journal) as done:
            record = done.record()
            texts, missing = kept_files(record)
            for fmt, text in texts.items():
                (out / f"match-{number}.{fmt}").write_text(text)
            files = " and ".join(f".{fmt}" for fmt in texts) + (f" ({missing})" if missing else "")
            score = record.state.match.score
            first_seq = done.last_seq + 1
        print(
            f"match {number}: {counts.games} game(s), score {score[0]}-{score[1]}, "
            f"{counts.turns} turns, {counts.illegal} illegal plays ({counts.accepted} "
            f"accepted, {counts.demanded} demanded), {counts.cocked} cocked rolls, "
            f"{counts.doubles} doubles, {counts.hits} hits, {counts.hands} hands over the dice, "
            f"{counts.leans} players leaning over the board; wrote {files}",
            flush=True,
        )
        number += 1
        if args.games is None:  # one whole match, as the help says
            break
    return 0


def _run_async(coroutine: Any) -> Any:
    """Run ``coroutine``; an error of one of its tasks is raised as itself, not in a group."""
    from controller.service.errors import first_error

    try:
        return asyncio.run(coroutine)
    except BaseExceptionGroup as group:
        raise first_error(group) from None


def existing_games(journal: Path) -> list[object]:
    from controller.service.service import open_journal

    with open_journal(journal) as done:
        return [game for game in done.record().games if game.result is not None]


def _echo(line: str) -> None:
    print(line, flush=True)


def _ack(seq: int, kind: str) -> None:
    print(f"ack {seq} {kind}", flush=True)
