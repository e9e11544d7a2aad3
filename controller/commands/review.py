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
from pathlib import Path
from typing import Final

from controller.commands import export, hint
from controller.commands.errors import UsageError
from controller.commands.progress import Progress

HELP = "review a recorded match with GNU Backgammon: every play and cube decision graded"

SUFFIXES = (".txt", ".html", ".sgf")

_NO_ENGINE: Final = (
    "no engine to review with: install Debian's gnubg package (or the gnubg bindings on x86-64)"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    export.add_source_arguments(parser)
    hint.add_engine_arguments(parser)
    parser.add_argument(
        "--out",
        type=Path,
        help="FILE.txt, FILE.html or FILE.sgf (default: the text on standard output)",
    )


def run(args: argparse.Namespace) -> int:
    from controller.record.sgf import write_sgf
    from controller.review import analyse, build_report, render_html, render_text

    if not 0 <= args.ply <= 7:
        raise UsageError(f"--ply is 0 to 7, got {args.ply}")
    suffix = args.out.suffix.lower() if args.out is not None else ".txt"
    if suffix not in SUFFIXES:
        raise UsageError(f"--out ends in .txt, .html or .sgf, got {str(args.out)!r}")
    record = export.read_source(args)
    engine = hint.open_engine(args, _NO_ENGINE)
    with asyncio.Runner() as runner:  # one loop: the engine's child process belongs to it
        try:
            progress = Progress.of(args, "review", "decisions judged")
            review = runner.run(analyse(engine, record, ply=args.ply, progress=progress))
        finally:
            runner.run(engine.close())
    if suffix == ".sgf":
        text = write_sgf(record, review)
    else:
        report = build_report(record, review)
        text = render_html(report) if suffix == ".html" else render_text(report)
    if export.write_output(text, args.out):
        plays, cubes = len(review.plays), len(review.cube_decisions)
        print(f"wrote {args.out} ({plays} plays and {cubes} cube decisions reviewed)")
    return 0
