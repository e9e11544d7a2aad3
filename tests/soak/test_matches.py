"""The matches soak, small: one match of one point through the command line's path."""

from __future__ import annotations

import pytest

from tests.soak.matches import main


def test_the_soak_prints_its_figures_and_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--variants", "backgammon", "--matches", "1", "--length", "1"]) == 0
    out = capsys.readouterr().out
    assert "  backgammon                 seed    1: 1 games" in out and ": as played" in out
    assert out.endswith("1 of 1 matches ended and journalled as played\n")
