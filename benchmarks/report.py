"""``python -m benchmarks.report [RESULTS] [-o FILE]``: a results file as a Markdown table.

Why: ``results.json`` is rewritten by every run and not kept in git; the figures a change is
compared with are committed as ``benchmarks/RESULTS.md``, written from one run's file by
this command, so the table always says which machine, which load and which options made it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from benchmarks.__main__ import RESULTS
from benchmarks.measure import Row

__all__ = ["main", "markdown"]

def _figure(value: float, unit: str) -> str:
    return f"{value:.4g} {unit}"


ROOT = Path(__file__).resolve().parents[1]
"""The repository: a path inside it is given from there, as in a clone."""


def _from_root(text: str) -> str:
    """``text``, a path inside the repository given from its root."""
    path = Path(text)
    return str(path.relative_to(ROOT)) if path.is_absolute() and path.is_relative_to(ROOT) else text


def _options(options: dict[str, Any]) -> str:
    """The options a benchmark ran with, as its command line would give them."""
    words = []
    for key, given in sorted(options.items()):
        value = _from_root(given) if isinstance(given, str) else given
        flag = "--" + key.replace("_", "-")
        if value is True:
            words.append(flag)
        elif isinstance(value, list):
            words.append(" ".join([flag, *map(str, value)]))
        elif value not in (False, None):
            words.append(f"{flag} {value}")
    return " ".join(words)


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(results: dict[str, Any]) -> str:
    """The Markdown of a results file: the machine, then a table per benchmark.

    Raises:
        KeyError: if ``results`` is not what ``python -m benchmarks`` writes.
    """
    machine = results["machine"]
    start = ", ".join(f"{load:.1f}" for load in machine["load_average"])
    end = ", ".join(f"{load:.1f}" for load in results.get("load_average_end", []))
    lines = [
        "# Benchmark results",
        "",
        f"Measured {machine['date']} on {machine['cpu']} ({machine['cores']} cores, "
        f"{machine['architecture']}), Python {machine['python']}. Load average (1, 5, 15 "
        f"min) {start} at the start" + (f", {end} at the end." if end else "."),
        "",
        "Each figure is the best of interleaved repeats beside its reference, measured in the "
        "same run (CPU time unless the row says wall). Written by `python -m benchmarks.report` "
        "from the results file of `python -m benchmarks`.",
    ]
    for run in results["benchmarks"]:
        command = " ".join(filter(None, ["python -m benchmarks", run["name"],
                                         _options(run["options"])]))  # fmt: skip
        lines += ["", f"## {run['name']}", "", f"`{command}`", ""]
        if "error" in run:
            lines += [f"Failed: {_cell(run['error'])}", ""]
        if not run["rows"]:
            continue
        lines += ["| what | figure | reference | ratio | misses | clock | load | reference is |",
                  "|---|---|---|---|---|---|---|---|"]  # fmt: skip
        for data in run["rows"]:
            row = Row.from_json(data)
            reference = "-" if row.reference is None else _figure(row.reference, row.unit)
            ratio = "-" if row.ratio is None else f"{row.ratio:.2f}"
            misses = "" if row.misses is None else str(row.misses)
            why = row.reference_name if row.reason is None else f"none: {row.reason}"
            lines.append(
                f"| {_cell(row.name)} | {_figure(row.figure, row.unit)} | {reference} | {ratio} "
                f"| {misses} | {row.clock or '-'} | {row.load:.1f} | {_cell(why)} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    """Write the Markdown of a results file; 2 with a one-line error for a bad file."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.report", description=__doc__)
    parser.add_argument("results", nargs="?", type=Path, default=RESULTS,
                        help=f"a results file (default {RESULTS})")  # fmt: skip
    parser.add_argument("-o", "--output", type=Path, help="write here (default: stdout)")
    options = parser.parse_args(argv)
    try:
        text = markdown(json.loads(options.results.read_text()))
    except (OSError, ValueError, KeyError, TypeError) as error:
        parser.exit(2, f"python -m benchmarks.report: {options.results}: not a results file "
                       f"of python -m benchmarks ({type(error).__name__}: {error})\n")  # fmt: skip
    if options.output is None:
        sys.stdout.write(text)
    else:
        options.output.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
