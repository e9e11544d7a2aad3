"""The rules core and the referee are pure: they import no I/O back-end (STYLE.md, rule 9)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PURE_PACKAGES = [ROOT / "controller" / "rules", ROOT / "controller" / "referee"]
# `random` is allowed: chance arrives as a random.Random parameter, never a module-level call.
BANNED = {
    "asyncio", "serial", "cv2", "sqlite3", "gpiozero", "socket", "subprocess", "threading",
    "time", "os", "aiomqtt", "numpy",
}  # fmt: skip

pure_modules = [
    path for package in PURE_PACKAGES if package.exists() for path in sorted(package.rglob("*.py"))
] + [ROOT / "tabula" / "scene.py"]


@pytest.mark.parametrize("path", pure_modules, ids=lambda path: str(path.relative_to(ROOT)))
def test_pure_module_imports_no_io(path: Path) -> None:
    imported = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module.split(".")[0])
    assert not imported & BANNED, f"{path.name} imports {sorted(imported & BANNED)}"


def test_there_are_pure_modules_to_check() -> None:
    assert len(pure_modules) >= 8
