"""The SQLite journal: append (a durable commit each) and resume, beside bare SQLite.

Every event is committed (WAL, ``synchronous=FULL``) before the service acts on it, so an
append is on the path of every turn; reopening replays the whole journal against the rules.
The events are those of a seeded simulated match of ``--length`` points, or with ``--games
N`` of a seeded money session stopped after its ``N``-th game (the issue's row: 50 games,
3,485 events; 10, 25 and 50 show whether resuming stays linear). References, in turns with
the subject: a bare ``INSERT`` + ``COMMIT`` of the same JSON text with the same pragmas
(durability alone, without the rules check and the encoding), and for resuming a bare
``SELECT`` of the same rows with ``json.loads`` of each (the reading, without the replay);
for the ``.sgf`` export, the same match's events written as JSON lines (what the ``.sgf``
adds: each play's steps found again by the rules).
CPU time leaves out the waits for the disk, which both sides make alike.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path

from benchmarks.measure import Row, best_of, count, timed_row
from controller.record import Event, GameEnded, event_to_json
from controller.record.journal import Journal
from controller.record.plain import write_events
from controller.record.sgf import write_sgf
from controller.rules import Rules
from controller.simulated.players import SimulatedPlayer, play_match, record_events

SMALL = ("--length", "1", "--repeats", "1")
_LENGTH = 7
"""The match's length when neither ``--length`` nor ``--games`` is given."""


def add_options(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    source = parser.add_mutually_exclusive_group()
    # No default here, so that the report's command line never names both.
    source.add_argument("--length", type=count, default=None,
                        help=f"the match's length ({_LENGTH} unless --games)")  # fmt: skip
    source.add_argument("--games", type=count, default=None,
                        help="a money session of this many games instead of a match")  # fmt: skip
    parser.add_argument("--repeats", type=count, default=3, help="interleaved repeats")


def _events(length: int, games: int | None) -> tuple[list[Event], str]:
    """The journal's events and what they are: a ``length``-point match, or a money session
    of ``games`` games (money play never ends: it stops after that game's result)."""
    rules = Rules(match_length=0 if games else length)
    rng = random.Random(1)
    players = (SimulatedPlayer(random.Random(2)), SimulatedPlayer(random.Random(3)))
    recorded = record_events(play_match(rules, rng, players), rules)
    if games is None:
        return list(recorded), f"a {length}-point match"
    events: list[Event] = []
    ended = 0
    for event in recorded:
        events.append(event)
        ended += isinstance(event, GameEnded)
        if ended == games:
            break
    return events, f"a money session of {games} games"


def _bare(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    return connection


def _in_new_files(folder: Path, work: Callable[[Path], object]) -> Callable[[], None]:
    """``work`` on a new file at each call, named after ``work`` in ``folder``."""
    names = itertools.count()

    def call() -> None:
        work(folder / f"{work.__name__}-{next(names)}.db")

    return call


def run(options: argparse.Namespace) -> list[Row]:
    """Measure and return the rows."""
    events, source = _events(options.length or _LENGTH, options.games)
    texts = [event_to_json(event) for event in events]

    def append(path: Path) -> None:
        with Journal(path) as journal:
            for event in events:
                journal.append(event)

    def commit(path: Path) -> None:
        connection = _bare(path)
        connection.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, at REAL, event TEXT)")
        for seq, text in enumerate(texts, 1):
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("INSERT INTO events VALUES (?, ?, ?)", (seq, 0.0, text))
            connection.execute("COMMIT")
        connection.close()

    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        appends, commits = best_of(_in_new_files(folder, append), _in_new_files(folder, commit),
                                   repeats=options.repeats)  # fmt: skip
        journal = folder / "resumed.db"
        append(journal)

        def resume() -> None:
            with Journal(journal) as reopened:
                reopened.resumed()

        def read() -> None:
            connection = _bare(journal)
            for (text,) in connection.execute("SELECT event FROM events ORDER BY seq"):
                json.loads(text)
            connection.close()

        resumes, reads = best_of(resume, read, repeats=options.repeats)
        with Journal(journal, readonly=True) as reopened:
            match = reopened.record()
    sgfs, lines = best_of(lambda: write_sgf(match), lambda: write_events(match),
                          repeats=options.repeats)  # fmt: skip
    print(f"  {len(events)} events of {source}: resume {resumes * 1e3:.1f} ms, "
          f".sgf {sgfs * 1e3:.1f} ms")  # fmt: skip
    return [
        timed_row("append (rules check, JSON, durable commit), per event", appends, commits,
                  per=len(events), reference_name="a bare INSERT + COMMIT of the same JSON text, "
                  "same pragmas"),
        timed_row("resume (reopen and replay the journal), per event", resumes, reads,
                  per=len(events), reference_name="a bare SELECT of the same rows and "
                  "json.loads of each"),
        timed_row("export as .sgf (a download, the hub's archive), per event", sgfs, lines,
                  per=len(events), reference_name="the same match's events as JSON lines "
                  "(the .jsonl download)"),
    ]  # fmt: skip
