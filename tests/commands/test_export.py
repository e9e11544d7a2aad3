"""``tabula export``: match files and position IDs from a journal or a saved match."""

from __future__ import annotations

from pathlib import Path

from controller.record import event_from_json, event_to_json, replay
from controller.record.journal import Journal
from controller.record.matfile import write_mat
from controller.record.sgf import write_sgf
from controller.rules import Rules, gnubg_id, xgid
from tests.commands.test_plays import tabula
from tests.record.matches import irregular_events, selfplay_events
from tests.review.matches import short_match

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


def test_export_to_dev_stdout_writes_the_pipe(tmp_path: Path) -> None:
    """``--out /dev/stdout`` (a link to the process's pipe) is written, not replaced: a
    file beside it and renamed over it cannot be made there."""
    path = journal(tmp_path, EVENTS)
    run = tabula("export", "--journal", str(path), "--format", "mat", "--out", "/dev/stdout")
    assert run.returncode == 0, run.stderr
    record = replay(EVENTS)
    assert run.stdout.startswith(write_mat(record))
    assert Path("/dev/stdout").is_symlink()


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
    assert run.returncode == 2
    assert run.stderr == "tabula export: give --format mat|sgf|jsonl|txt, or --position\n"
    assert "Traceback" not in run.stderr


def test_a_jacquet_match_is_refused_as_sgf_and_exported_as_json_or_text(tmp_path: Path) -> None:
    import random

    from controller.simulated.players import jacquet_record_events

    events = list(jacquet_record_events(Rules(3), random.Random(7), games=1))
    path = journal(tmp_path, events)
    run = tabula("export", "--journal", str(path), "--format", "sgf")
    assert run.returncode != 0
    assert "a .sgf file holds backgammon, not jacquet-versailles" in run.stderr
    assert "Traceback" not in run.stderr
    saved = tmp_path / "match.jsonl"
    run = tabula("export", "--journal", str(path), "--format", "jsonl", "--out", str(saved))
    assert run.returncode == 0, run.stderr
    assert (
        replay([event_from_json(line) for line in saved.read_text().splitlines()]).state
        == replay(events).state
    )
    run = tabula("export", "--match", str(saved), "--format", "txt")
    assert run.returncode == 0 and "jacquet-versailles" in run.stdout.splitlines()[0]
    run = tabula("export", "--match", str(saved), "--position")
    assert run.stdout.startswith("jacquet-versailles: no XGID or GNU Backgammon ID")


def test_export_shows_the_journals_replay_on_stderr_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "match.db"
    with Journal(path) as journal:
        for event in short_match():
            journal.append(event)
    quiet = tabula("export", "--journal", str(path), "--format", "jsonl")
    run = tabula("export", "--journal", str(path), "--format", "jsonl", "--progress")
    assert run.returncode == 0, run.stderr
    assert run.stdout == quiet.stdout and quiet.stderr == ""  # the export itself untouched
    total = len(short_match())
    lines = run.stderr.splitlines()
    assert lines[0] == f"journal: 1/{total} events replayed ({100 // total}%)"
    assert lines[-1] == f"journal: {total}/{total} events replayed (100%)"
