"""The engine's review of a recorded match, as GNU Backgammon counts decisions.

:func:`analyse` asks the engine about every decision of the match
(:func:`~controller.record.decisions.decisions_of`) and keeps the plays and the "close or
actual" cube decisions: a chance to double that was nowhere near a double is no decision,
and counting it would flatter everyone's error rate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from controller.engine.model import CubeAdvice, Engine
from controller.engine.review import CubeVerdict, Review, review
from controller.record import MatchRecord
from controller.record.decisions import decisions_of

__all__ = ["CLOSE_CUBE", "analyse", "is_close"]

CLOSE_CUBE: Final = 0.16
"""GNU Backgammon reports a chance to double when doubling costs less than this (its
``isCloseCubedecision``)."""


def is_close(advice: CubeAdvice) -> bool:
    """Whether a chance to double was a real decision (doubling was within reach)."""
    return advice.best_equity - min(advice.double_take, advice.double_pass) < CLOSE_CUBE


async def analyse(
    engine: Engine,
    record: MatchRecord,
    *,
    ply: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The engine's review of ``record``: each play and each close or actual cube decision
    (``progress`` hears how many decisions the engine has judged, of how many).

    Raises:
        RecordError: for a record without its events.
        EngineError: if the engine fails.
    """
    full = await review(engine, decisions_of(record), ply=ply, progress=progress)
    return Review(
        tuple(
            verdict
            for verdict in full.verdicts
            if not isinstance(verdict, CubeVerdict)
            or verdict.decision.doubled
            or is_close(verdict.advice)
        )
    )
