"""The house's layering: which package may import which, and the pure ones import no I/O.

Why as data: the allowed imports between the top-level packages (and controller's
subpackages and modules, each a unit of its own) are written out below, so a new
dependency is a visible change to this file, never an accident. ``rules``, ``vision`` and
``firmware_bridge`` import nothing of ``controller``; the pure units import no I/O
back-end (STYLE.md, rule 9), and only other pure units.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PACKAGES = ("controller", "firmware_bridge", "vision", "hardware")

#: Units that compute without I/O: the shared words, the rules, the referee, the controls,
#: the match core (with the record's events and their replay).
PURE = {
    "hardware.board", "controller.rules", "controller.referee", "controller.controls",
    "controller.links", "controller.match",
}  # fmt: skip
# `random` is allowed: chance arrives as a random.Random parameter, never a module-level call.
BANNED = {
    "asyncio", "serial", "cv2", "sqlite3", "gpiozero", "socket", "subprocess", "threading",
    "time", "os", "aiomqtt", "numpy",
}  # fmt: skip

# fmt: off
_SERVICE_EDGES = {
    "controller.closing", "controller.devices", "controller.engine", "controller.links",
    "controller.match",
    "controller.record", "controller.referee", "controller.review", "controller.rules",
    "controller.status", "firmware_bridge", "hardware.board", "vision",
}
_COMMANDS_EDGES = {
    "controller.config", "controller.controls", "controller.devices", "controller.engine",
    "controller.hub", "controller.mqtt", "controller.record", "controller.referee",
    "controller.review", "controller.rules", "controller.service", "controller.simulated",
    "controller.systemd", "controller.web", "firmware_bridge", "hardware", "hardware.board",
    "hardware.files", "vision", "controller.doctor",
}

#: Every import allowed from one unit to another; any other import fails the test.
ALLOWED: dict[str, set[str]] = {
    "hardware.board": set(),
    # Files written whole on a card that may lose power: the journal's, the hub's, the
    # camera's calibration, an export's. The standard library alone, as hardware.board.
    "hardware.files": set(),
    "controller": set(),
    "controller.controls": set(),
    "controller.rules": {"hardware.board"},
    "controller.referee": {"controller.controls", "controller.rules", "hardware.board"},
    "controller.closing": set(),
    "controller.config": {
        "controller.controls", "controller.record", "controller.rules", "hardware",
        "hardware.board",
    },
    "controller.cli": {"hardware.board"},
    "controller.commands": _COMMANDS_EDGES,
    "controller.devices": {
        "controller.closing", "controller.config", "controller.controls", "firmware_bridge",
        "hardware.board",
    },
    # The checks of tabula doctor reach every edge, as the service does, to try each.
    "controller.doctor": {
        "controller.config", "controller.devices", "controller.engine", "controller.mqtt",
        "controller.rules", "firmware_bridge", "hardware.board", "vision",
    },
    "controller.engine": {"controller.rules", "hardware.board"},
    "controller.links": {"hardware.board"},
    "controller.hub": {
        "controller.closing", "controller.config", "controller.match", "controller.mqtt",
        "controller.record", "controller.status", "controller.web", "hardware.board",
        "hardware.files",
    },
    "controller.match": {"controller.referee", "controller.rules", "hardware.board"},
    "controller.mqtt": {
        "controller.closing", "controller.config", "controller.record", "controller.status",
        "hardware.board",
    },
    "controller.record": {
        "controller.engine", "controller.match", "controller.rules", "hardware.board",
        "hardware.files",
    },
    "controller.review": {
        "controller.engine", "controller.record", "controller.rules", "hardware.board",
    },
    # The simulated table assembles the real service on simulated edges (the demo, tests).
    "controller.simulated": {
        "controller.closing", "controller.config", "controller.devices", "controller.engine",
        "controller.match", "controller.mqtt", "controller.record", "controller.referee",
        "controller.rules", "controller.service", "controller.status", "firmware_bridge",
        "hardware", "vision",
    },
    "controller.service": _SERVICE_EDGES,
    "controller.status": {
        "controller.match", "controller.record", "controller.referee", "controller.rules",
        "hardware.board",
    },
    "controller.systemd": {"controller.closing", "hardware.board"},
    "controller.web": {"controller.closing", "controller.status", "hardware.board"},
    "firmware_bridge": {"hardware.board"},
    "vision": {"hardware.board", "hardware.files"},
    "hardware": {"firmware_bridge", "hardware.firmware", "hardware.board"},
    # The on-demand checks of an installed Tabula on an emulated Pi (make pi-check) drive
    # the whole program from outside, as a user would: no other unit imports them.
    "hardware.pi": {"controller.record", "controller.rules", "hardware", "hardware.board"},
    # The sensor board's firmware runs on MicroPython: it imports nothing of the host.
    "hardware.firmware": set(),
}
# fmt: on


_HARDWARE_UNITS = {"board", "files", "firmware", "pi"}
"""The modules of ``hardware`` that are units of their own."""


def unit_of(module: str) -> str:
    """The unit a dotted module name belongs to."""
    parts = module.split(".")
    if parts[0] == "controller" and len(parts) > 1:
        return ".".join(parts[:2])
    if parts[0] == "hardware" and len(parts) > 1 and parts[1] in _HARDWARE_UNITS:
        return ".".join(parts[:2])
    return parts[0]


def _is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports (function-local imports included), fully dotted."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    package = package.removesuffix(".__init__")
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            # `from controller import record` imports the subpackage controller.record.
            found |= {
                f"{source}.{alias.name}" if _is_module(f"{source}.{alias.name}") else source
                for alias in node.names
            }
    return found


def _sources() -> list[Path]:
    return [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]


def import_graph() -> dict[tuple[str, str], list[str]]:
    """Edges between units, each with the modules whose imports make it."""
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in _sources():
        source = unit_of(".".join(path.relative_to(ROOT).with_suffix("").parts))
        for imported in imported_modules(path):
            if imported.split(".")[0] in PACKAGES and unit_of(imported) != source:
                edges[source, unit_of(imported)].append(str(path.relative_to(ROOT)))
    return edges


def test_every_import_between_units_is_allowed() -> None:
    unknown = sorted({source for source, _ in import_graph()} - ALLOWED.keys())
    assert not unknown, f"units missing from ALLOWED: {unknown}"
    forbidden = [
        f"{source} -> {target} (in {', '.join(sorted(set(paths)))})"
        for (source, target), paths in sorted(import_graph().items())
        if target not in ALLOWED[source]
    ]
    assert not forbidden, "imports outside the layering:\n" + "\n".join(forbidden)


@pytest.mark.parametrize(
    "edge", ["controller.rules", "firmware_bridge", "vision", "hardware.board", "hardware.firmware"]
)
def test_the_edges_may_import_nothing_of_controller(edge: str) -> None:
    assert not [unit for unit in ALLOWED[edge] if unit.split(".")[0] == "controller"]


def test_pure_units_may_import_only_pure_units() -> None:
    for unit in PURE:
        assert ALLOWED[unit] <= PURE, f"{unit} may import {sorted(ALLOWED[unit] - PURE)}"


pure_modules = [path for path in _sources() if unit_of(".".join(
    path.relative_to(ROOT).with_suffix("").parts)) in PURE]  # fmt: skip


@pytest.mark.parametrize("path", pure_modules, ids=lambda path: str(path.relative_to(ROOT)))
def test_pure_module_imports_no_io(path: Path) -> None:
    imported = {module.split(".")[0] for module in imported_modules(path)}
    assert not imported & BANNED, f"{path.name} imports {sorted(imported & BANNED)}"


def test_there_are_pure_modules_to_check() -> None:
    assert len(pure_modules) >= 8


def test_the_graph_sees_every_kind_of_import() -> None:
    """Absolute, relative, function-local and ``from package import module`` imports."""
    assert "hardware.board.errors" in imported_modules(ROOT / "controller" / "rules" / "errors.py")
    firmware = imported_modules(ROOT / "hardware" / "firmware" / "app.py")
    assert {"hardware.firmware.wire", "hardware.firmware.scanner"} <= firmware
    assert "controller.devices" in imported_modules(ROOT / "controller" / "commands" / "run.py")
    assert "controller.record" in imported_modules(ROOT / "controller" / "service" / "service.py")


def _import_cycle(modules: dict[str, set[str]]) -> list[str]:
    """One import cycle among ``modules`` (name -> the modules it imports), or []."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return []
        for imported in sorted(modules.get(module, set())):
            if cycle := visit(imported, [*path, module]):
                return cycle
        done.add(module)
        return []

    for module in sorted(modules):
        if cycle := visit(module, []):
            return cycle
    return []


def test_the_match_core_has_no_import_cycle() -> None:
    """The flow hands a variant's turns to hooks the variant registers, never importing it."""
    modules = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts): imported_modules(path)
        for path in sorted((ROOT / "controller" / "match").glob("*.py"))
        if path.name != "__init__.py"
    }
    assert not _import_cycle(modules), " -> ".join(_import_cycle(modules))


MAX_MODULE_LINES = 500
"""The longest a module of ``controller/`` may be: past it, a module holds more than one
room (issue 17's rule, which a stranger should find kept)."""


def test_no_module_of_controller_is_longer_than_its_rule() -> None:
    lengths = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for path in (ROOT / "controller").rglob("*.py")
    }
    assert lengths, "no module found under controller/"
    too_long = {path: lines for path, lines in lengths.items() if lines > MAX_MODULE_LINES}
    assert not too_long, f"over {MAX_MODULE_LINES} lines: {too_long}"
