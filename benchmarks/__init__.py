"""Benchmarks, run on demand (``make bench`` or ``python -m benchmarks [NAME...]``).

Each ``bench_*.py`` module has a ``main() -> None`` that prints its figures. Speed goals
live here, never in the test suite: the machine is shared, so every benchmark measures a
reference in the same run and reports the ratio.
"""
