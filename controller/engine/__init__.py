"""GNU Backgammon as Tabula's teacher: ranked plays, cube advice and game reviews.

Two real engines behind one :class:`Engine` interface, each in a child process so that
the event loop never waits on it and a late answer can be killed:

* :class:`GnubgBindingsEngine` — the PyPI ``gnubg`` bindings (x86-64 wheels only);
* :class:`GnubgCliEngine` — Debian's ``gnubg`` program driven through its text
  interface, the engine of a Raspberry Pi.

:func:`available_engine` picks one, or none with a message ("no engine: hints are off").
Every play an engine names is matched by resulting board to the rules engine's
:func:`~controller.rules.plays.legal_plays`, so notations are Tabula's own.
:mod:`~controller.engine.review` grades mistakes with GNU Backgammon's thresholds.
"""

from controller.engine.choose import (
    ENGINE_KINDS,
    NO_ENGINE,
    EngineChoice,
    EngineKind,
    available_engine,
    configured_engine,
    make_engine,
)
from controller.engine.errors import (
    EngineError,
    EngineProtocolError,
    EngineTimeoutError,
    EngineUnavailableError,
)
from controller.engine.gnubg_bindings import GnubgBindingsEngine
from controller.engine.gnubg_cli import DEFAULT_PROGRAM, GnubgCliEngine, find_program
from controller.engine.model import CubeAction, CubeAdvice, Engine, Hint, RankedPlay
from controller.engine.review import (
    BLUNDER,
    DOUBTFUL,
    ERROR,
    CheckerDecision,
    CubeDecision,
    CubeVerdict,
    ErrorRate,
    PlayVerdict,
    Rating,
    Review,
    Skill,
    classify,
    double_loss,
    error_rate,
    rating,
    review,
    take_loss,
)

__all__ = [
    "BLUNDER",
    "DEFAULT_PROGRAM",
    "DOUBTFUL",
    "ENGINE_KINDS",
    "ERROR",
    "NO_ENGINE",
    "CheckerDecision",
    "CubeAction",
    "CubeAdvice",
    "CubeDecision",
    "CubeVerdict",
    "Engine",
    "EngineChoice",
    "EngineError",
    "EngineKind",
    "EngineProtocolError",
    "EngineTimeoutError",
    "EngineUnavailableError",
    "ErrorRate",
    "GnubgBindingsEngine",
    "GnubgCliEngine",
    "Hint",
    "PlayVerdict",
    "RankedPlay",
    "Rating",
    "Review",
    "Skill",
    "available_engine",
    "classify",
    "configured_engine",
    "double_loss",
    "error_rate",
    "find_program",
    "make_engine",
    "rating",
    "review",
    "take_loss",
]
