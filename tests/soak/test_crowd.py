"""The crowd soak, small: 5 spectators and 60 connections of a nuisance, a one-point match."""

from __future__ import annotations

import re

import pytest

from controller.web.server import PER_CLIENT
from tests.soak.crowd import main


def test_the_soak_prints_its_figures_and_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--spectators", "5", "--attack", "60", "--length", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("5 spectators followed ")
    held = re.search(r"the nuisance opened 60 connections: \d+ refused, (\d+) held at most", out)
    assert held and 1 <= int(held[1]) <= PER_CLIENT, out
    assert out.endswith("1 refusal line(s) logged\n")
