"""Real engines and reviewed matches for the review's tests.

The engines are the engine tests' fixtures (both GNU Backgammon paths, never skipped);
each match is reviewed once per engine and module, since a review asks the engine about
every decision.
"""

from __future__ import annotations

import asyncio

import pytest

from controller.engine import Engine, Review
from controller.record import MatchRecord, replay
from controller.review import analyse
from tests.engine.conftest import engine, runner
from tests.review.matches import blunder_record, money_record, short_match

__all__ = ["engine", "runner"]


@pytest.fixture(scope="module")
def match(runner: asyncio.Runner, engine: Engine) -> tuple[MatchRecord, Review]:
    """A simulated 3-point match (a double dropped, one taken) and its review."""
    record = replay(short_match())
    return record, runner.run(analyse(engine, record))


@pytest.fixture(scope="module")
def money(runner: asyncio.Runner, engine: Engine) -> tuple[MatchRecord, Review]:
    """A simulated money game with a double taken and its review."""
    record = replay(money_record())
    return record, runner.run(analyse(engine, record))


@pytest.fixture(scope="module")
def blunder(runner: asyncio.Runner, engine: Engine) -> tuple[MatchRecord, Review]:
    """A money game whose opening 31 is played 13/9 and its review."""
    record = replay(blunder_record())
    return record, runner.run(analyse(engine, record))
