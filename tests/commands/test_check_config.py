"""``tabula check-config``: every key's value, secrets masked, or every problem and status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main

EXAMPLE = Path(__file__).parent.parent.parent / "hardware" / "tabula.example.toml"


def test_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", "--config", str(EXAMPLE)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [
        'mode = "referee"',
        'journal = "/var/lib/tabula/journal.sqlite3"',
        'log_level = "info"',
    ]
    assert "gpio.pins.button_done = 17" in lines
    assert "camera.calibration = (not set)" in lines
    assert "mqtt = (not set)" in lines
    assert lines[-1] == f"# {EXAMPLE}: every key is valid"


def test_secrets_are_masked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tabula.toml"
    path.write_text(
        "[web]\ntoken = 'abcdefghijklmnopq'\n"
        "[mqtt]\nbroker = 'mqtt://hub'\nboard_id = 't1'\nusername = 'u'\npassword = 'hunter22'\n"
    )
    assert main(["check-config", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    assert 'web.token = "***"' in out
    assert 'mqtt.password = "***"' in out
    assert 'mqtt.username = "u"' in out
    assert "hunter22" not in out and "abcdefghijklmnopq" not in out


def test_problems_go_to_stderr_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tabula.toml"
    path.write_text("[game]\nmatch_length = 'seven'\n[camera]\ncalibration = 'cal.json'\n")
    assert main(["check-config", "--config", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"tabula check-config: {path}:2: game.match_length: "
        "expected an integer from 0 to 64, got 'seven'",
        f"{path}:4: camera.calibration: no such file '{tmp_path / 'cal.json'}'",
    ]


def test_no_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tabula.toml"
    path.write_text("[camera]\ncalibration = 'cal.json'\n")
    assert main(["check-config", "--config", str(path), "--no-files"]) == 0
    assert f'camera.calibration = "{tmp_path / "cal.json"}"' in capsys.readouterr().out
