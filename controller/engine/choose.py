"""Which engine this machine has: the bindings where they install, else the program.

Nothing is started here: the checks are cheap (a module spec, an executable file), and
an engine starts on its first request. Without either, the service runs on without
hints and shows :attr:`EngineChoice.message`.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from typing import Final, Literal

from controller.engine.gnubg_bindings import GnubgBindingsEngine
from controller.engine.gnubg_cli import GnubgCliEngine, find_program
from controller.engine.model import Engine

__all__ = [
    "ENGINE_KINDS",
    "NO_ENGINE",
    "EngineChoice",
    "EngineKind",
    "available_engine",
    "configured_engine",
    "make_engine",
]

EngineKind = Literal["bindings", "cli"]
ENGINE_KINDS: Final[tuple[EngineKind, ...]] = ("bindings", "cli")

NO_ENGINE: Final = (
    "no engine: hints are off (install Debian's gnubg package, or the gnubg bindings on x86-64)"
)


@dataclass(frozen=True, slots=True)
class EngineChoice:
    """The engine picked (``None`` when there is none) and a sentence saying so."""

    engine: Engine | None
    message: str


def _bindings_installed() -> bool:
    return importlib.util.find_spec("gnubg") is not None


def _program_runs(program: str) -> bool:
    return os.path.isfile(program) and os.access(program, os.X_OK)


def make_engine(
    kind: EngineKind, *, ply: int = 0, budget: float = 5.0, program: str | None = None
) -> Engine:
    """The engine of ``kind`` (``program`` is the ``gnubg`` executable for ``cli``).

    Raises:
        ValueError: for an unknown kind.
    """
    if kind == "bindings":
        return GnubgBindingsEngine(ply=ply, budget=budget)
    if kind == "cli":
        return GnubgCliEngine(program, ply=ply, budget=budget)
    raise ValueError(f"unknown engine {kind!r}; known: {', '.join(ENGINE_KINDS)}")


def available_engine(
    *,
    ply: int = 0,
    budget: float = 5.0,
    program: str | None = None,
    use_bindings: bool = True,
) -> EngineChoice:
    """The bindings if they are installed, else the ``gnubg`` program, else no engine.

    Args:
        ply: default depth of the engine.
        budget: seconds an answer may take.
        program: the ``gnubg`` executable (default: :func:`find_program`).
        use_bindings: ``False`` skips the bindings (to use the program a Pi would use).
    """
    if use_bindings and _bindings_installed():
        engine = make_engine("bindings", ply=ply, budget=budget)
        return EngineChoice(engine, "engine: GNU Backgammon's Python bindings")
    path = program or find_program()
    if _program_runs(path):
        engine = make_engine("cli", ply=ply, budget=budget, program=path)
        return EngineChoice(engine, f"engine: GNU Backgammon ({path})")
    return EngineChoice(None, NO_ENGINE)


def configured_engine(
    kind: str, *, ply: int = 0, budget: float = 5.0, program: str | None = None
) -> EngineChoice:
    """The engine a configuration's ``[engine] kind`` asks for (``auto``, ``none``, a kind).

    Raises:
        ValueError: for an unknown kind.
    """
    if kind == "none":
        return EngineChoice(None, 'no engine: hints are off (engine.kind = "none")')
    if kind == "auto":
        return available_engine(ply=ply, budget=budget, program=program)
    if kind == "bindings" and not _bindings_installed():
        return EngineChoice(None, NO_ENGINE)
    if kind == "cli" and not _program_runs(program or find_program()):
        return EngineChoice(None, NO_ENGINE)
    if kind not in ENGINE_KINDS:
        raise ValueError(f"unknown engine {kind!r}; known: auto, none, {', '.join(ENGINE_KINDS)}")
    engine = make_engine("bindings" if kind == "bindings" else "cli", ply=ply, budget=budget,
                         program=program)  # fmt: skip
    return EngineChoice(engine, f"engine: {engine.name}, {ply}-ply")
