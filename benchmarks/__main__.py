"""``python -m benchmarks [--json PATH] [NAME [OPTION...]]...``: run them, write the results.

Without a name every benchmark runs with its defaults. Each NAME takes its own options
after it (``python -m benchmarks rules --cases 2000 serial --snapshots 500``; ``python -m
benchmarks rules --help`` lists them): a word that names a benchmark starts the next one.
Every option is checked before anything runs. The rows go to a table on stdout and to one
JSON file, rewritten after each benchmark so that an interrupted run keeps what it had
measured. A benchmark that fails is reported in one line (and in the file), the others
still run, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import platform
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol, cast

import benchmarks
from benchmarks.measure import Row

RESULTS = Path(benchmarks.__file__).parent / "results.json"


class _Benchmark(Protocol):
    """What each ``bench_NAME`` module offers."""

    SMALL: tuple[str, ...]

    def add_options(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, options: argparse.Namespace) -> list[Row]: ...


def known() -> list[str]:
    """The names of the benchmarks: their modules ``bench_NAME``, sorted."""
    return sorted(
        module.name.removeprefix("bench_")
        for module in pkgutil.iter_modules(benchmarks.__path__)
        if module.name.startswith("bench_")
    )


def load(name: str) -> _Benchmark:
    """The module of benchmark ``name``."""
    return cast(_Benchmark, importlib.import_module(f"benchmarks.bench_{name}"))


def _parser(name: str, benchmark: _Benchmark) -> argparse.ArgumentParser:
    doc = (cast(object, benchmark).__doc__ or name).strip().splitlines()[0]
    parser = argparse.ArgumentParser(prog=f"python -m benchmarks {name}", description=doc)
    benchmark.add_options(parser)
    return parser


def _plan(argv: list[str]) -> tuple[Path, list[tuple[str, argparse.Namespace]]]:
    """The results file, and each benchmark to run with its parsed options.

    Exits (``argparse``) with a one-line error for an unknown name or a bad option.
    """
    names = known()
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        usage="%(prog)s [--json PATH] [NAME [OPTION...]]...",
        description="Run the benchmarks named (every one without a name), each with the "
        "options after its name; write their rows to one JSON file.",
        epilog=f"benchmarks: {', '.join(names)}; NAME --help lists a benchmark's options",
    )
    parser.add_argument("--json", type=Path, default=RESULTS, help=f"default {RESULTS}")
    parser.add_argument("unknown", nargs="*", help=argparse.SUPPRESS)
    starts = [index for index, word in enumerate(argv) if word in names]
    first = starts[0] if starts else len(argv)
    head, extra = parser.parse_known_args(argv[:first])
    if head.unknown:
        parser.error(f"unknown benchmark {head.unknown[0]!r}; known: {', '.join(names)}")
    if extra:
        parser.error(f"unrecognized arguments {extra}: a benchmark's options follow its name")
    if not head.json.parent.is_dir():
        parser.error(f"--json {str(head.json)!r}: no directory {str(head.json.parent)!r}")
    groups = [argv[start:end] for start, end in zip(starts, [*starts[1:], len(argv)], strict=True)]
    plan = [
        (group[0], _parser(group[0], load(group[0])).parse_args(group[1:]))
        for group in groups or [[name] for name in names]
    ]
    return head.json, plan


def _cpu_model() -> str:
    """The processor's name as the kernel gives it (x86's ``model name``, a Pi's ``Model``)."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        lines = []
    fields = dict(line.split(":", 1) for line in lines if ":" in line)
    for key in ("model name", "Model", "Hardware"):
        for field, value in fields.items():
            if field.strip() == key:
                return value.strip()
    return platform.processor() or platform.machine()


def machine() -> dict[str, object]:
    """Where and when the figures were measured."""
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "architecture": platform.machine(),
        "load_average": os.getloadavg(),
        "python": platform.python_version(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def _write(path: Path, results: dict[str, object]) -> None:
    """Replace ``path`` whole: a reader never sees half a file."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    partial.write_text(json.dumps(results, indent=1) + "\n")
    partial.replace(path)


def _table(rows: list[Row]) -> str:
    width = max(len(row.name) for row in rows)
    lines = [f"  {'':{width}} {'figure':>12} {'reference':>12} {'ratio':>7}  misses"]
    for row in rows:
        reference = "" if row.reference is None else f"{row.reference:.4g} {row.unit}"
        ratio = "-" if row.ratio is None else f"{row.ratio:.2f}"
        misses = "" if row.misses is None else str(row.misses)
        lines.append(
            f"  {row.name:{width}} {f'{row.figure:.4g} {row.unit}':>12} {reference:>12} "
            f"{ratio:>7}  {misses:>6}{'  (wall time)' if row.clock == 'wall' else ''}".rstrip()
        )
        lines.append(f"      reference: {row.reference_name}" if row.reason is None
                     else f"      no reference: {row.reason}")  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Run the benchmarks ``argv`` names (all without a name); 1 if one failed."""
    path, plan = _plan(argv)
    results: dict[str, object] = {"machine": machine(), "benchmarks": []}
    runs = cast(list[dict[str, object]], results["benchmarks"])
    failed = False
    for name, options in plan:
        print(f"== {name}", flush=True)
        start = time.perf_counter()
        run: dict[str, object] = {"name": name, "options": {
            key: value if isinstance(value, int | float | str | bool | None) else str(value)
            for key, value in vars(options).items()
        }}  # fmt: skip
        try:
            rows = load(name).run(options)
        except Exception as error:  # one benchmark's failure must not lose the others'
            failed = True
            run["error"] = f"{type(error).__name__}: {error}"
            print(f"benchmark {name} failed: {run['error']}", file=sys.stderr, flush=True)
            rows = []
        run["seconds"] = time.perf_counter() - start
        run["rows"] = [row.to_json() for row in rows]
        runs.append(run)
        results["load_average_end"] = os.getloadavg()
        _write(path, results)
        if rows:
            print(_table(rows), flush=True)
    print(f"results: {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
