"""The cheap parts of ``make pi-check`` and ``make systemd-check``, run natively.

The emulated arm64 run and the booted container are on demand (they download Debian
roots); what they run is tested here: the lines they take from SERVICE.md, their
arguments, their configurations, and the memory measurement of ``tabula run``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config import parse_config
from hardware.pi import memory, pi_check, systemd_check


def test_the_checks_run_the_lines_service_md_gives_a_user() -> None:
    text = pi_check.SERVICE_MD.read_text()
    assert "pip wheel --no-deps -w dist ." in pi_check.marked_block(text, "wheel")
    install = pi_check.marked_block(text, "install")
    assert "apt-get install -y adduser python3-venv gnubg" in install
    assert '/opt/tabula/bin/pip install "$(echo /tmp/tabula-*-py3-none-any.whl)[pi]"' in install
    config = pi_check.marked_block(text, "config")
    assert "hardware/tabula.example.toml /etc/tabula/tabula.toml" in config
    assert "systemctl enable --now tabula" in pi_check.marked_block(text, "unit")


def test_a_missing_block_is_named() -> None:
    with pytest.raises(pi_check.CheckError, match=r"no ```sh block after <!-- pi-check: x -->"):
        pi_check.marked_block("<!-- pi-check: x -->\ntext\n```sh\nls\n```\n", "x")


def test_pi_check_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    args = pi_check.parse_args(["--steps", "plays,hint", "--root", "/tmp/r"])
    assert (args.steps, args.root, args.games) == (["plays", "hint"], Path("/tmp/r"), 1)
    assert pi_check.parse_args([]).steps == list(pi_check.STEPS)
    for bad in (["--steps", "plays,fly"], ["--steps", ","], ["--games", "0"]):
        with pytest.raises(SystemExit) as exit_:
            pi_check.parse_args(bad)
        assert exit_.value.code == 2
    errors = capsys.readouterr().err
    assert "--steps 'plays,fly': expected some of install, config" in errors
    assert "--games 0: expected at least 1" in errors


def test_the_summary_gives_each_step_its_time_and_the_total() -> None:
    report = pi_check.Report([("root", 1.0, "/r"), ("plays", 2.5, "ok")], ["idle: 50 MiB"])
    assert report.lines() == [
        "pi-check: root         1.0 s  /r",
        "pi-check: plays        2.5 s  ok",
        "pi-check: memory   idle: 50 MiB",
        "pi-check: total        3.5 s",
    ]


def test_the_systemd_check_configures_the_simulated_board() -> None:
    config = parse_config(systemd_check.CONFIG, check_files=False)
    assert str(config.board.serial_device) == "/run/tabula-board/board"
    assert (config.camera.enabled, config.gpio.pin_factory) == (False, "mock")


def test_memory_of_tabula_run_after_a_game_with_the_board_in_another_process(
    tmp_path: Path,
) -> None:
    lines = memory.measure(1, tmp_path)
    assert lines[0].startswith("idle after start (")
    assert lines[1].startswith("after 1 game(s): VmRSS ")
    assert lines[2].startswith("the bare interpreter: VmRSS ")
    assert lines[3].endswith("events journalled, as played; stopped cleanly")


def test_systemd_check_arguments() -> None:
    assert systemd_check.parse_args([]).root == systemd_check.CACHE / "systemd-root-amd64"
    arm = systemd_check.parse_args(["--arch", "arm64"])
    assert (arm.arch, arm.root) == ("arm64", systemd_check.CACHE / "systemd-root-arm64")
    assert systemd_check.parse_args(["--root", "/r"]).root == Path("/r")
    with pytest.raises(SystemExit) as exit_:
        systemd_check.parse_args(["--arch", "armhf"])
    assert exit_.value.code == 2
