"""The systemd unit: systemd's own checker accepts it, and it runs what the service needs."""

from __future__ import annotations

import configparser
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path(__file__).parent.parent.parent / "hardware" / "tabula.service"
INSTALLED = "/opt/tabula/bin/tabula"


def _service() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(UNIT.read_text())
    return parser["Service"]


def verify(text: str, directory: Path) -> subprocess.CompletedProcess[str]:
    """``systemd-analyze verify`` of a unit's text, run from ``directory``.

    The installed path (SERVICE.md) does not exist here: ExecStart is pointed at this
    venv's tabula so that verify checks everything else, the command included.
    """
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: run `make system-deps`"
    assert text.count(INSTALLED) == 1
    unit = directory / "tabula.service"
    unit.write_text(text.replace(INSTALLED, str(Path(sys.prefix) / "bin" / "tabula")))
    return subprocess.run(
        [analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60, check=False
    )


def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    result = verify(UNIT.read_text(), tmp_path)
    # verify exits 0 on values it ignores: a clean unit prints nothing.
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_what_the_service_needs() -> None:
    service = _service()
    assert service["Type"] == "notify"
    assert service["NotifyAccess"] == "main"
    assert int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "on-failure"
    assert set(service["SupplementaryGroups"].split()) == {"dialout", "gpio", "video"}
    assert shlex.split(service["ExecStart"]) == [
        INSTALLED,
        "run",
        "--config",
        "/etc/tabula/tabula.toml",
    ]
    # /etc/tabula and /var/lib/tabula (the example's journal) are created by systemd.
    assert (service["ConfigurationDirectory"], service["StateDirectory"]) == ("tabula", "tabula")


def test_the_example_journal_is_in_the_state_directory() -> None:
    example = UNIT.with_name("tabula.example.toml").read_text()
    assert 'journal = "/var/lib/tabula/journal.sqlite3"' in example


@pytest.mark.parametrize("line", ["Type=notfy", "WatchdogSec=thirty"])
def test_verify_reports_a_wrong_value(tmp_path: Path, line: str) -> None:
    """The check above can fail: systemd-analyze names a wrong value on stderr."""
    key, value = line.split("=")
    rows = UNIT.read_text().splitlines()
    text = "\n".join(line if row.startswith(key + "=") else row for row in rows) + "\n"
    assert f"{value}" in verify(text, tmp_path).stderr
