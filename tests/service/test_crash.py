"""Crash safety of the whole service: SIGKILL at random moments, restart, nothing lost.

The harness is :mod:`tests.service.crash` (``python -m tests.service.crash --kills 100``
runs the issue's hundred); the suite runs a dozen kills.
"""

from __future__ import annotations

from pathlib import Path

from tests.service.crash import kill_and_resume

KILLS = 12


def test_sigkill_at_random_moments_loses_nothing_and_resumes(tmp_path: Path) -> None:
    report = kill_and_resume(tmp_path, KILLS)
    assert report.kills == KILLS
    assert report.events > KILLS  # the match went on across the restarts
