"""mypy --strict covers the whole tree: every package is in its files, none is let off."""

from __future__ import annotations

import tomllib
from pathlib import Path

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
