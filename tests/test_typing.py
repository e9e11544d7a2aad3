"""mypy --strict covers the whole tree: every package is in its files, none is let off."""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

from tests.test_layering import PACKAGES, imported_modules, unit_of

ROOT = Path(__file__).parent.parent
MYPY = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def test_mypy_is_strict_over_every_package_but_the_tests() -> None:
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests"}
    assert MYPY["strict"] is True
    assert packages <= set(MYPY["files"]), f"not checked: {sorted(packages - set(MYPY['files']))}"


def test_no_module_of_the_tree_is_let_off_its_errors() -> None:
    let_off = [override["module"] for override in MYPY.get("overrides", [])
               if override.get("ignore_errors")]
    assert not let_off, f"mypy ignores the errors of {let_off}"


# No `Any` between packages.

#: The cross-unit signatures still allowed an `Any`, each named as the test reports it
#: (``module.Qualified.name``), so that a new one is a visible change to this list.
ANY_ALLOWED: set[str] = set()


def _dotted(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules_crossing_units() -> dict[str, Path]:
    """Every module another unit imports, directly or through its package's re-exports."""
    paths = {_dotted(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")}
    imports = {module: imported_modules(path) for module, path in paths.items()}
    crossing = {
        target
        for module, targets in imports.items()
        for target in targets
        if target in paths and unit_of(target) != unit_of(module)
    }
    pending = list(crossing)
    while pending:
        module = pending.pop()
        if paths[module].name == "__init__.py":
            passed_on = {t for t in imports[module] if t in paths and unit_of(t) == unit_of(module)}
            pending += passed_on - crossing
            crossing |= passed_on
    return {module: paths[module] for module in sorted(crossing)}


def _names_any(annotation: ast.expr | None) -> bool:
    """Whether ``annotation`` spells ``Any`` (``typing.Any``, or inside a string)."""
    for node in ast.walk(annotation) if annotation is not None else ():
        if (
            isinstance(node, ast.Name | ast.Attribute)
            and getattr(node, "id", getattr(node, "attr", None)) == "Any"
        ):
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                if _names_any(ast.parse(node.value, mode="eval").body):
                    return True
            except SyntaxError:
                pass
    return False


def _is_public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def _public_annotations(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, ast.expr]]:
    """Each annotation of a public signature: parameters and returns of public functions
    and methods (``__init__`` included), public classes' fields and public type aliases."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _is_public(node.name):
            arguments = node.args
            for argument in (
                *arguments.posonlyargs,
                *arguments.args,
                *arguments.kwonlyargs,
                arguments.vararg,
                arguments.kwarg,
            ):
                if argument is not None and argument.annotation is not None:
                    yield f"{prefix}{node.name}({argument.arg})", argument.annotation
            if node.returns is not None:
                yield f"{prefix}{node.name}() return", node.returns
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            yield from _public_annotations(node.body, f"{prefix}{node.name}.")
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if _is_public(node.target.id):
                yield f"{prefix}{node.target.id}", node.annotation
                if not prefix and node.value is not None:  # `Alias: TypeAlias = ...`
                    yield f"{node.target.id} =", node.value
        elif isinstance(node, ast.Assign) and not prefix and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and _is_public(target.id):
                yield f"{target.id} =", node.value  # a type alias, or any public value


def any_between_units() -> list[str]:
    """``file:line: module.name`` of each public signature with ``Any`` that crosses units."""
    found = []
    for module, path in _modules_crossing_units().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for name, annotation in _public_annotations(tree.body, ""):
            if _names_any(annotation) and f"{module}.{name}" not in ANY_ALLOWED:
                found.append(f"{path.relative_to(ROOT)}:{annotation.lineno}: {module}.{name}")
    return found


def test_no_any_in_a_signature_between_units() -> None:
    """Between units every value is typed (issue 17): a JSON payload is a JsonValue, a raw
    TOML value an ``object`` checked where it is read, gpiozero's factory a PinFactory."""
    found = any_between_units()
    assert not found, "Any in a signature between units:\n" + "\n".join(found)


def test_the_check_sees_any_wherever_a_signature_spells_it() -> None:
    source = """
import typing
from typing import Any
Alias = dict[str, Any]
class Public:
    field: "list[Any]"
    def __init__(self, x: typing.Any) -> None: ...
    def _private(self, x: Any) -> Any: ...
def public(*args: int, **kwargs: "Any") -> None: ...
def _hidden(x: Any) -> None: ...
class _Hidden:
    def method(self, x: Any) -> None: ...
"""
    annotations = _public_annotations(ast.parse(source).body, "")
    found = [name for name, annotation in annotations if _names_any(annotation)]
    assert found == ["Alias =", "Public.field", "Public.__init__(x)", "public(kwargs)"]


def test_modules_cross_directly_or_through_their_package() -> None:
    crossing = _modules_crossing_units()
    assert "controller.status" in crossing  # imported by the web view, the hub, MQTT
    assert "controller.devices.buttons" in crossing  # re-exported by controller.devices
    assert "controller.config._reader" not in crossing  # only the configuration reads it
