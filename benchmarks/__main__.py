"""Run every benchmark, or those named: ``python -m benchmarks rules serial``."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import benchmarks


def main(names: list[str]) -> None:
    found = sorted(
        module.name.removeprefix("bench_")
        for module in pkgutil.iter_modules(benchmarks.__path__)
        if module.name.startswith("bench_")
    )
    unknown = set(names) - set(found)
    if unknown:
        sys.exit(f"unknown benchmark(s) {sorted(unknown)}; known: {found}")
    for name in names or found:
        print(f"== {name}", flush=True)
        importlib.import_module(f"benchmarks.bench_{name}").main()


if __name__ == "__main__":
    main(sys.argv[1:])
