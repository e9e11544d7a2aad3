"""``tabula export``: match files and position IDs from a journal or a saved match."""

from __future__ import annotations

from pathlib import Path

from controller.record import event_to_json, replay
from controller.record.journal import Journal
from controller.record.matfile import write_mat
from controller.record.sgf import write_sgf
from controller.rules import Rules, gnubg_id, xgid
from tests.commands.test_plays import tabula
from tests.record.matches import irregular_events, selfplay_events

EVENTS = selfplay_events(11, 3)


def journal(tmp_path: Path, events: list[object]) -> Path:
    path = tmp_path / "match.db"
    with Journal(path) as writer:
        for event in events:
            writer.append(event)  # type: ignore[arg-type]
    return path


def test_export_mat_from_a_journal(tmp_path: Path) -> None:
    path = journal(tmp_path, EVENTS)
    out = tmp_path / "match.mat"
    run = tabula("export", "--journal", str(path), "--format", "mat", "--out", str(out))
    assert run.returncode == 0, run.stderr
    record = replay(EVENTS)
    assert out.read_text() == write_mat(record)
    assert run.stdout == f"wrote {out} ({len(record.games)} games, {record.state.describe()})\n"


def test_export_sgf_of_a_saved_match_to_stdout(tmp_path: Path) -> None:
    events = irregular_events(2, Rules(match_length=3))
    saved = tmp_path / "match.jsonl"
    saved.write_text("".join(event_to_json(e) + "\n" for e in events))
    run = tabula("export", "--match", str(saved), "--format", "sgf")
    assert run.returncode == 0, run.stderr
    assert run.stdout == write_sgf(replay(events))


def test_position_prints_xgid_and_gnubg_id_mid_turn(tmp_path: Path) -> None:
    path = journal(tmp_path, EVENTS[:40])
    run = tabula("export", "--journal", str(path), "--position")
    assert run.returncode == 0, run.stderr
    state = replay(EVENTS[:40]).state
    assert run.stdout.splitlines() == [
        xgid(state.position()),
        f"GNU Backgammon ID: {gnubg_id(state.position())}",
        state.describe(),
    ]


def test_errors_are_one_line_without_traceback(tmp_path: Path) -> None:
    run = tabula("export", "--journal", str(tmp_path / "none.db"), "--position")
    assert (run.returncode, run.stderr) == (
        2,
        f"tabula export: no journal at {str(tmp_path / 'none.db')!r}\n",
    )
    saved = tmp_path / "bad.jsonl"
    saved.write_text(event_to_json(EVENTS[0]) + "\n{oops\n")
    run = tabula("export", "--match", str(saved), "--format", "mat")
    assert run.returncode == 2
    assert run.stderr.startswith(f"tabula export: {saved}:2: invalid event '{{oops'")
    irregular = journal(tmp_path, irregular_events(2, Rules(match_length=3)))
    run = tabula("export", "--journal", str(irregular), "--format", "mat")
    assert run.returncode == 2
    assert "which a .mat file cannot hold: export .sgf instead" in run.stderr
    run = tabula("export", "--journal", str(irregular))
    assert run.returncode == 1
    assert run.stderr == "tabula export: give --format mat|sgf, or --position\n"
    assert "Traceback" not in run.stderr
