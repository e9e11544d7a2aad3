"""The files soak, small: mutated cases of each kind, each read or refused in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.soak import SOAKS
from tests.soak.files import KINDS, main, soak


def test_every_mutated_file_is_read_or_refused_in_tabulas_own_words() -> None:
    tallies = soak(cases=60, seed=2)
    assert {kind: tally.defects for kind, tally in tallies.items()} == {kind: {} for kind in KINDS}
    for kind in ("config", "match", "script"):  # the cases reach both ends
        assert tallies[kind].read and tallies[kind].refused, (kind, tallies[kind])
    assert tallies["batch"].read == tallies["hub"].read == 60


def test_the_soak_prints_each_kind_and_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert SOAKS["files"] == "tests.soak.files"
    assert main(["--cases", "5", "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(KINDS)
    assert all(line.endswith(", 0 defects") for line in lines)
