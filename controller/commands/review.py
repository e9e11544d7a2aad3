"""``tabula review``: GNU Backgammon's review of a recorded match, as text, a page or an .sgf.

The match comes from a journal (``--journal``, read-only) or a saved match (``--match``,
the events as JSON lines), as for ``tabula export``. Every play and every close or
actual cube decision is judged by the engine; ``--out`` picks the form by its suffix:
``.txt`` (also standard output without ``--out``), ``.html`` (a standalone page) or
``.sgf`` (the match with the analysis, for GNU Backgammon).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from controller.commands.export import load_match
from controller.record import RecordError

if TYPE_CHECKING:
    from controller.engine import Engine

HELP = "review a recorded match with GNU Backgammon: every play and cube decision graded"

SUFFIXES = (".txt", ".html", ".sgf")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--journal", type=Path, help="the SQLite journal of the match")
    source.add_argument("--match", type=Path, help="a saved match: its events as JSON lines")
    parser.add_argument("--ply", type=int, default=0, help="search depth, 0 to 7 (default 0)")
    parser.add_argument(
        "--engine",
        choices=("bindings", "cli"),
        help="GNU Backgammon's Python bindings or its gnubg program (default: what is installed)",
    )
    parser.add_argument("--gnubg", metavar="PATH", help="the gnubg program (for --engine cli)")
    parser.add_argument(
        "--out",
        type=Path,
        help="FILE.txt, FILE.html or FILE.sgf (default: the text on standard output)",
    )
    parser.add_argument(
        "--budget", type=float, default=30.0, help="seconds one answer may take (default 30)"
    )


def _engine(args: argparse.Namespace) -> Engine:
    """The engine asked for, else the one installed; none is an error here."""
    from controller.engine import EngineUnavailableError, available_engine, make_engine

    if args.engine:
        return make_engine(args.engine, ply=args.ply, budget=args.budget, program=args.gnubg)
    choice = available_engine(ply=args.ply, budget=args.budget, program=args.gnubg)
    if choice.engine is None:
        raise EngineUnavailableError(
            "no engine to review with: install Debian's gnubg package "
            "(or the gnubg bindings on x86-64)"
        )
    return choice.engine


def run(args: argparse.Namespace) -> int:
    from controller.record.journal import Journal
    from controller.record.sgf import write_sgf
    from controller.review import analyse, build_report, render_html, render_text

    if not 0 <= args.ply <= 7:
        raise SystemExit(f"tabula review: --ply is 0 to 7, got {args.ply}")
    suffix = args.out.suffix.lower() if args.out is not None else ".txt"
    if suffix not in SUFFIXES:
        raise SystemExit(f"tabula review: --out ends in .txt, .html or .sgf, got {str(args.out)!r}")
    if args.journal is not None:
        with Journal(args.journal, readonly=True) as journal:
            record = journal.record()
    else:
        record = load_match(args.match)
    engine = _engine(args)
    with asyncio.Runner() as runner:  # one loop: the engine's child process belongs to it
        try:
            review = runner.run(analyse(engine, record, ply=args.ply))
        finally:
            runner.run(engine.close())
    if suffix == ".sgf":
        text = write_sgf(record, review)
    else:
        report = build_report(record, review)
        text = render_html(report) if suffix == ".html" else render_text(report)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        args.out.write_text(text, encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot write {str(args.out)!r}: {error}") from None
    plays, cubes = len(review.plays), len(review.cube_decisions)
    print(f"wrote {args.out} ({plays} plays and {cubes} cube decisions reviewed)")
    return 0
