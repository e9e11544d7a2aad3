"""The hands soak, small: one video of a scene through the command line's path."""

from __future__ import annotations

import pytest

from tests.soak.hands import main


def test_the_soak_prints_its_figures_and_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--seeds", "1", "--first", "11", "--scenes", "crossing"]) == 0
    out = capsys.readouterr().out
    assert "  crossing         1/1 as expected ('roll',)" in out
