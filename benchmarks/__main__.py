"""``python -m benchmarks [--json PATH] [NAME [OPTION...]]...``: run them, write the results.

Without a name every benchmark runs with its defaults. Each NAME takes its own options
after it (``python -m benchmarks rules --cases 2000 serial --snapshots 500``; ``python -m
benchmarks rules --help`` lists them): a word that names a benchmark starts the next one.
Every option is checked before anything runs. Each benchmark runs in a fresh interpreter,
so that its memory, threads and process-wide settings are its own and none of the one
before. The rows go to a table on stdout and to one JSON file, rewritten after each
benchmark so that an interrupted run keeps what it had measured. A benchmark that fails
is reported in one line (and in the file), the others still run, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import platform
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, cast

import benchmarks
from benchmarks.measure import Row
from hardware.files import write_whole

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
    """The module of benchmark ``name``.

    Raises:
        TypeError: if it does not declare what every benchmark declares.
    """
    module = importlib.import_module(f"benchmarks.bench_{name}")
    missing = [field for field in ("SMALL", "add_options", "run") if not hasattr(module, field)]
    if missing:
        raise TypeError(f"benchmarks/bench_{name}.py declares no {', '.join(missing)} (every "
                        "benchmark does: see benchmarks/__init__.py)")  # fmt: skip
    return cast(_Benchmark, module)


def _parser(name: str, benchmark: _Benchmark) -> argparse.ArgumentParser:
    doc = (cast(object, benchmark).__doc__ or name).strip().splitlines()[0]
    parser = argparse.ArgumentParser(prog=f"python -m benchmarks {name}", description=doc)
    benchmark.add_options(parser)
    return parser


_Step = tuple[str, list[str], argparse.Namespace]
"""A benchmark to run: its name, its options as given and as parsed."""


def _plan(argv: list[str]) -> tuple[Path, Path | None, list[_Step]]:
    """The results file, the file of a benchmark run alone (a child's), and each benchmark
    to run.

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
    parser.add_argument("--alone", type=Path, help=argparse.SUPPRESS)
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
    plan = []
    for name, *words in groups or [[name] for name in names]:
        try:
            benchmark = load(name)
        except TypeError as error:
            parser.error(str(error))
        plan.append((name, words, _parser(name, benchmark).parse_args(words)))
    if head.alone is not None and len(plan) != 1:
        parser.error("--alone runs one benchmark")
    return head.json, head.alone, plan


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
    write_whole(path, (json.dumps(results, indent=1) + "\n").encode())


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


def _json(value: object) -> object:
    """An option's value as JSON holds it."""
    if isinstance(value, list | tuple):
        return [_json(item) for item in value]
    return value if isinstance(value, int | float | str | bool | None) else str(value)


def _alone(step: _Step, path: Path) -> int:
    """Run one benchmark in this process and write its record to ``path``; 1 if it failed."""
    name, _, options = step
    record: dict[str, object] = {
        "name": name,
        "options": {key: _json(value) for key, value in vars(options).items()},
    }
    start = time.perf_counter()
    try:
        record["rows"] = [row.to_json() for row in load(name).run(options)]
    except Exception as error:  # the parent reports it; one failure must not lose the rest
        record["error"] = f"{type(error).__name__}: {error}"
        record["rows"] = []
    record["seconds"] = time.perf_counter() - start
    _write(path, record)
    return 1 if "error" in record else 0


def _in_child(step: _Step, folder: Path) -> dict[str, object]:
    """Run a benchmark in a fresh interpreter (this package first on its path); its record."""
    name, words, options = step
    path = folder / f"{name}.json"
    root = str(Path(benchmarks.__file__).resolve().parents[1])
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [root, *filter(None, [os.environ.get("PYTHONPATH")])]
    )}  # fmt: skip
    command = [sys.executable, "-m", "benchmarks", "--alone", str(path), name, *words]
    done = subprocess.run(command, env=environment, check=False)
    if path.exists():
        record: dict[str, object] = json.loads(path.read_text())
        return record
    return {
        "name": name,
        "options": {key: _json(value) for key, value in vars(options).items()},
        "error": f"its process ended with code {done.returncode} before writing a result",
        "rows": [],
    }


def main(argv: list[str]) -> int:
    """Run the benchmarks ``argv`` names (all without a name); 1 if one failed."""
    path, alone, plan = _plan(argv)
    if alone is not None:
        return _alone(plan[0], alone)
    results: dict[str, object] = {"machine": machine(), "benchmarks": []}
    runs = cast(list[dict[str, object]], results["benchmarks"])
    with tempfile.TemporaryDirectory() as folder:
        for step in plan:
            print(f"== {step[0]}", flush=True)
            record = _in_child(step, Path(folder))
            runs.append(record)
            results["load_average_end"] = os.getloadavg()
            _write(path, results)
            if "error" in record:
                print(f"benchmark {step[0]} failed: {record['error']}", file=sys.stderr,
                      flush=True)  # fmt: skip
            rows = cast(list[dict[str, Any]], record["rows"])
            if rows:
                print(_table([Row.from_json(row) for row in rows]), flush=True)
    print(f"results: {path}")
    return 1 if any("error" in run for run in runs) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
