"""A card the kernel turned read-only: the journals on it are read whole, and nothing that
cannot write there says they are damaged.

The file system is a real one remounted read-only, in a user and mount namespace of the
test's own (:mod:`tests.record.read_only_card`). Before the fix, SQLite refused to open a
closed journal there ("unable to open database file"), which the journal reported as
damage, with the advice to restore it or move it aside: ``tabula export`` and
``tabula review`` could not read the match off the card.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from typing import Any

import pytest

from tests.record.read_only_card import KILLED_AFTER

READ_ONLY = "is on a read-only file system"


def _namespace() -> list[str]:
    """The command prefix of a user and mount namespace, or a skip saying why there is none."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare (util-linux) to make a mount namespace")
    prefix = [unshare, "--user", "--map-root-user", "--mount"]
    tried = subprocess.run([*prefix, "true"], capture_output=True, text=True, check=False)
    if tried.returncode:
        pytest.skip(f"no user namespaces here: {tried.stderr.strip()}")
    return prefix


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    directory = tmp_path_factory.mktemp("card")
    done = subprocess.run(
        [*_namespace(), sys.executable, "-m", "tests.record.read_only_card", str(directory)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def test_a_closed_journal_is_read_whole(report: dict[str, Any]) -> None:
    assert report["read"]["whole"] == {"events": report["whole_events"], "as_written": True}


def test_a_journal_cut_off_mid_match_is_read_with_its_log(report: dict[str, Any]) -> None:
    """The power went (SIGKILL) with events in the write-ahead log only: they are read."""
    assert report["logs"]["killed"] > 0
    read = report["read"]["killed"]
    assert read["as_written"] and read["events"] >= report["acked"]["killed"] >= KILLED_AFTER


def test_a_log_without_its_index_is_refused_as_unreadable_there_not_damaged(
    report: dict[str, Any],
) -> None:
    """SQLite cannot read a log without its index where it cannot write: said so, with the
    way out, and not called damage (the advice to restore or move aside would be wrong)."""
    assert report["logs"]["unindexed"] > 0
    read = report["read"]["unindexed"]
    assert read["error"] == "JournalError", read
    assert READ_ONLY in read["message"] and "copy it" in read["message"]
    assert "damaged" not in read["message"]


def test_opening_to_write_says_the_card_is_read_only(report: dict[str, Any]) -> None:
    written = report["write"]
    assert written["error"] == "JournalError", written
    assert READ_ONLY in written["message"] and "the journal is unchanged" in written["message"]
    assert "damaged" not in written["message"]


def test_the_match_is_exported_off_the_card(report: dict[str, Any]) -> None:
    export = report["export"]
    assert export["status"] == 0, export["stderr"]
    assert "the match is over" in export["stdout"]


def test_the_service_stops_saying_why(report: dict[str, Any]) -> None:
    """``tabula run`` cannot record there: one line saying why (the status systemd's
    ``Restart=on-failure`` counts), no traceback; ``tabula demo`` the same for a new match,
    making no claim about a journal that is not there."""
    run, demo = report["run"], report["demo"]
    for done in (run, demo):
        assert done["status"] == 2, done["stderr"]
        assert done["stderr"].count("\n") == 1 and READ_ONLY in done["stderr"], done["stderr"]
    assert "the journal is unchanged" in run["stderr"] and "unchanged" not in demo["stderr"]
