"""The heap soak, small: three passes of the board script and 4 s idle, on MicroPython.

It caught the driver leaking 30 bytes a step (run.mjs made a proxy of the bound method
at each call, which MicroPython kept until node's collector ran): with that back, this
run ends 83 KB above where it began ("heap grows: 83312 bytes more at most").
"""

from __future__ import annotations

import pytest

from tests.soak.heap import main


def test_the_soak_prints_its_figures_and_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--passes", "3", "--idle", "4000"]) == 0
    out = capsys.readouterr().out
    assert "3 passes of 700 steps, then 4000 idle: 6.1 s of board time" in out
    assert "garbage a second of the board's loop: " in out
    assert out.splitlines()[-1].startswith("heap steady: ")
