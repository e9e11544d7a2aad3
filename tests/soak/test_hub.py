"""The hub soak, small: 20 boards through one Mosquitto to ``tabula hub``.

``python -m tests.soak hub`` runs 500.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.soak.hub import hall, main


def test_twenty_boards_are_each_taken_exactly_once_and_archived(tmp_path: Path) -> None:
    report = hall(20, 2, tmp_path)
    assert report.problems == (), report.figures()
    assert report.is_whole, report.figures()
    assert report.taken == report.events == report.published > 20 * 10
    assert report.cpu_s[0] > 0 and report.peak_rss_mb[0] >= report.rss_mb[0] > 0


def test_two_hubs_share_the_boards_each_taken_exactly_once_by_one(tmp_path: Path) -> None:
    report = hall(20, 2, tmp_path, hubs=2)
    assert report.problems == (), report.figures()
    assert report.is_whole, report.figures()
    assert report.taken == report.events == report.published > 20 * 10
    assert len(report.cpu_s) == 2 and all(cpu > 0 for cpu in report.cpu_s), report.figures()
    archived = {path.name for path in (tmp_path / "archive").iterdir()}
    assert archived == {f"board-{n:03}" for n in range(20)}


def test_the_command_prints_its_figures_and_says_whole(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--boards", "3", "--matches", "1"]) == 0
    figures = capsys.readouterr().out
    assert "3 boards:" in figures and " 0 lost, 0 taken twice" in figures, figures


def test_a_hall_raises_the_open_files_limit_its_connections_need(tmp_path: Path) -> None:
    """Debian's default soft limit (1,024 files) is short of 500 boards' connections."""
    script = textwrap.dedent(f"""
        import resource
        from pathlib import Path
        from benchmarks.bench_mqtt import hall_broker
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        with hall_broker(500, Path({str(tmp_path)!r})):
            print(resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, cwd=Path(__file__).resolve().parents[2])  # fmt: skip
    soft = int(done.stdout)
    assert soft >= 8 * 500, done.stdout
