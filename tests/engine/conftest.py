"""Real engines for the tests: both GNU Backgammon paths, started once per module.

Both install on x86-64 (the bindings from PyPI, the program with ``make system-deps``),
so nothing here is skipped: a missing engine is a failing test.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from controller.engine import ENGINE_KINDS, Engine, make_engine


@pytest.fixture(scope="module")
def runner() -> Iterator[asyncio.Runner]:
    """One event loop per module, so that engines started in it can be reused."""
    with asyncio.Runner() as loop:
        yield loop


@pytest.fixture(scope="module", params=ENGINE_KINDS)
def engine(request: pytest.FixtureRequest, runner: asyncio.Runner) -> Iterator[Engine]:
    """Each real engine in turn, at 0-ply, with a budget generous enough for a busy CI."""
    started = make_engine(request.param, ply=0, budget=30.0)
    yield started
    runner.run(started.close())


@pytest.fixture(scope="module")
def engines(runner: asyncio.Runner) -> Iterator[dict[str, Engine]]:
    """Both real engines at once, for the cross-checks."""
    started = {kind: make_engine(kind, ply=0, budget=30.0) for kind in ENGINE_KINDS}
    yield started
    for one in started.values():
        runner.run(one.close())
