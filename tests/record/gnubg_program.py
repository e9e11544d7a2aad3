"""The real GNU Backgammon (Debian's ``gnubg``), driven headless, for the records' tests.

Per STYLE.md, gnubg is installed by ``make system-deps`` and never skipped: without it
these tests fail and say how to install it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"

SCORE = re.compile(r"The score \(after (\d+) games?\) is: (\S+) (\d+), (\S+) (\d+)")
POSITION_ID = re.compile(r"Position ID: (\S{14})")
MATCH_ID = re.compile(r"Match ID\s*: (\S{12})")
# What GNU Backgammon prints when it drops or doubts something it imports.
COMPLAINTS = re.compile(r"WARNING|Unrecognised|garbage|not a valid|error", re.IGNORECASE)


def run_gnubg(commands: list[str], *, timeout: float = 120) -> str:
    """GNU Backgammon's output for ``commands``, both players human (it plays nothing)."""
    if not Path(GNUBG).exists():
        raise AssertionError(f"GNU Backgammon is not installed ({GNUBG}): run `make system-deps`")
    script = "\n".join(["set player 0 human", "set player 1 human", *commands]) + "\n"
    run = subprocess.run(
        [GNUBG, "-t", "-q", "-r"],
        input=script,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout + run.stderr


def scores(output: str) -> list[tuple[int, int]]:
    """Every ``show score`` answer in ``output``, in order, as (player 0, player 1)."""
    return [(int(m.group(3)), int(m.group(5))) for m in SCORE.finditer(output)]
