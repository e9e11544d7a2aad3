"""``tabula export``: a recorded match as ``.mat``, ``.sgf``, JSON lines or text, or its IDs.

The formats are the page's downloads and the hub's archive's (:mod:`controller.record.formats`).
``.mat`` and ``.sgf`` are GNU Backgammon's and hold backgammon only: a match of Jacquet de
Versailles (or nackgammon) is refused with a message and exported with ``--format jsonl``
(its events, one a line: the saved-match format ``--match`` reads) or ``--format txt``.
XGID and GNU Backgammon IDs describe backgammon positions: ``--position`` of a Jacquet
match prints where the match stands and says why there is no ID.

The match comes from a journal database (``--journal``, opened read-only, so it can be
exported while the service is writing it) or from a saved match (``--match``: the events
as JSON lines). ``--position`` prints the XGID and the GNU Backgammon Position and Match
IDs of the position now instead of a file.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from controller.commands.errors import UsageError
from controller.commands.progress import Progress, add_progress_argument
from controller.record import (
    InvalidEventError,
    MatchRecord,
    RecordError,
    event_from_json,
    replay,
)
from controller.record.exports import write_match
from controller.record.formats import MATCH_FORMATS
from controller.record.journal import Journal
from controller.rules import gnubg_id, xgid
from hardware.files import write_whole

HELP = (
    "export a recorded match as .mat, .sgf, JSON lines or text, or print its position's "
    "XGID and GNU Backgammon ID"
)


def add_source_arguments(parser: argparse.ArgumentParser) -> None:
    """``--journal PATH`` or ``--match FILE``: where a command reads a recorded match."""
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--journal", type=Path, help="the SQLite journal of the match")
    source.add_argument("--match", type=Path, help="a saved match: its events as JSON lines")
    add_progress_argument(parser)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)
    parser.add_argument(
        "--format",
        choices=MATCH_FORMATS,
        help="mat (Jellyfish), sgf (GNU Backgammon), jsonl (the events, one a line) or txt",
    )
    parser.add_argument("--out", type=Path, help="the file to write (default: standard output)")
    parser.add_argument(
        "--position",
        action="store_true",
        help="print the XGID and GNU Backgammon ID of the position now, not a match file",
    )


def load_match(path: Path) -> MatchRecord:
    """The match of a saved events file (one JSON event per line).

    Raises:
        RecordError: naming the file and line of an event that does not parse or replay.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read match {str(path)!r}: {error}") from None
    events = []
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                events.append(event_from_json(line))
            except InvalidEventError as error:
                raise InvalidEventError(f"{path}:{number}: {error}") from None
    try:
        return replay(events)
    except InvalidEventError as error:
        raise InvalidEventError(f"{path}: {error}") from None


def read_source(args: argparse.Namespace) -> MatchRecord:
    """The match of ``--journal`` (opened read-only) or ``--match``.

    Raises:
        RecordError: for a journal or a file that cannot be read or replayed.
    """
    if args.journal is not None:
        progress = Progress.of(args, "journal", "events replayed")
        with Journal(args.journal, readonly=True, progress=progress) as journal:
            return journal.record()
    return load_match(args.match)


def write_output(text: str, out: Path | None) -> bool:
    """Write ``text`` to ``out``, or to standard output without one; whether a file was written.

    Raises:
        RecordError: naming the file that cannot be written.
    """
    if out is None:
        sys.stdout.write(text)
        return False
    try:
        write_whole(out, text.encode())
    except OSError as error:
        raise RecordError(f"cannot write {str(out)!r}: {error}") from None
    return True


def print_position(record: MatchRecord, out: TextIO) -> None:
    """The XGID and the GNU Backgammon ``PositionID:MatchID`` of the position now."""
    if not record.variant.has_backgammon_ids:
        out.write(f"{record.variant.name}: no XGID or GNU Backgammon ID (backgammon only)\n")
        out.write(f"{record.state.describe()}\n")
        return
    position = record.state.position()
    out.write(f"{xgid(position)}\n")
    # GNU Backgammon's IDs hold no pending double: like gnubg reading this XGID, they
    # show the position before the offer.
    out.write(f"GNU Backgammon ID: {gnubg_id(replace(position, offer=None))}\n")
    out.write(f"{record.state.describe()}\n")


def run(args: argparse.Namespace) -> int:
    if args.position == bool(args.format):
        raise UsageError(f"give --format {'|'.join(MATCH_FORMATS)}, or --position")
    record = read_source(args)
    if args.position:
        print_position(record, sys.stdout)
        return 0
    text = write_match(record, args.format)
    if write_output(text, args.out):
        print(f"wrote {args.out} ({len(record.games)} games, {record.state.describe()})")
    return 0
