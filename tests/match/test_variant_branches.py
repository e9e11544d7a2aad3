"""General code asks the variant's description or its hooks, never which variant it is.

Why a test: a ``variant == ...`` or ``is_jacquet`` branch creeps back one call site at a
time; the variant's own modules (the rules' descriptions, and the ``jacquet*`` modules of
the core, the referee and the simulated table) are where what differs lives.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent.parent
#: What a branch on the variant's identity looks like.
BRANCH = re.compile(
    r"is_jacquet|scoring\s+is|scoring\s*[!=]="
    r"|\.jacquet\s+is\s+(not\s+)?None|variant(\.name)?\s*[!=]= "
)
#: The rooms where a variant's identity is known: its description and its own modules.
OWN_ROOMS = ("controller/rules/",)


def _general_modules() -> list[Path]:
    return [
        path
        for path in sorted((ROOT / "controller").rglob("*.py"))
        if not str(path.relative_to(ROOT)).startswith(OWN_ROOMS)
        and not path.name.startswith("jacquet")
    ]


def test_no_general_module_branches_on_the_variant() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _general_modules()
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if BRANCH.search(line)
    ]
    assert not found, "ask the variant's description or hooks instead:\n" + "\n".join(found)


def test_the_check_sees_a_branch() -> None:
    assert BRANCH.search("        if flow.is_jacquet:")
    assert BRANCH.search("    if variant.scoring is Scoring.JACQUET:")
    assert BRANCH.search('    if variant == "backgammon":')
    assert BRANCH.search("        if self.jacquet is not None:")
    assert not BRANCH.search("    if not record.variant.has_gnubg_files:")
    assert len(_general_modules()) > 50
