"""Damage real journals at random places: each damaged one refused, named and left as it was.

Each round writes the start of a simulated match (:mod:`tests.record.crash_writer`'s, a
random number of events) to a journal and takes, from that one journal, a case of each kind:

* damaged, to be refused with exactly the events lost or changed and every file left byte
  for byte as it was: ``empty`` (the database truncated to 0 bytes), ``deleted row`` (any
  row, first and last included), ``edited row`` (a row changed so that it still replays),
  ``lost log tail`` (the power cut's image of the open journal, its write-ahead log spoiled
  or cut short somewhere among its commits: SQLite's recovery drops the committed events
  after the spot, which must then be named; if the spot held nothing committed, the journal
  must open whole);
* sound, to be opened with nothing lost: ``cut before head`` (the power went between the
  last commit and the head's write), ``torn commit`` (it went during the last commit: its
  log frames cut short, its head not written), ``torn head`` (it went during the head's
  write), and ``sigkill``: the writer process killed at random moments and restarted.

``python -m tests.soak journal --rounds 200 --kills 100`` prints the figures per kind and
exits 1 on any damage accepted or misnamed, any file changed, any false alarm or any event
lost; the suite runs a small version (:mod:`tests.soak.test_journal`).
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from controller.record import JournalDamagedError, JournalError
from controller.record.journal import Journal, head_path
from tests.record.crash_writer import expected_events, write_and_kill
from tests.record.damage import (
    contents,
    damage_log,
    delete_row,
    edit_row,
    empty_file,
    power_cut_image,
    rows_sqlite_keeps,
)

DAMAGED = ("empty", "deleted row", "edited row", "lost log tail")
SOUND = ("cut before head", "torn commit", "torn head", "sigkill")


@dataclass(slots=True)
class Tally:
    """The cases of one kind and what became of them."""

    cases: int = 0
    refused: int = 0
    named: int = 0
    """Refused with exactly the events lost or changed."""
    unchanged: int = 0
    """Refused with every file of the journal as it was."""
    whole: int = 0
    """Opened with every event acknowledged (a log spoiled where nothing committed was)."""
    false_alarms: int = 0
    """Sound journals refused."""
    lost: int = 0
    """Events committed, and acknowledged, that a sound journal opened without."""


@dataclass(slots=True)
class SoakReport:
    kinds: dict[str, Tally] = field(
        default_factory=lambda: {kind: Tally() for kind in (*DAMAGED, *SOUND)}
    )
    failures: list[str] = field(default_factory=list)
    """One line per case that went wrong, naming the round and the journal."""
    seconds: float = 0.0

    def lines(self) -> list[str]:
        """The figures, one line a kind."""
        lines = []
        for kind, tally in self.kinds.items():
            if kind in DAMAGED:
                accepted = tally.cases - tally.refused - tally.whole
                harmless = f", {tally.whole} opened whole (nothing committed hit)"
                lines.append(
                    f"{kind:16} {tally.cases:5} cases: {tally.refused} refused, "
                    f"{tally.named} named exactly, {tally.unchanged} left unchanged, "
                    f"{accepted} accepted{harmless if tally.whole else ''}"
                )
            else:
                lines.append(
                    f"{kind:16} {tally.cases:5} cases: {tally.false_alarms} false alarms, "
                    f"{tally.lost} events lost"
                )
        return lines


def _expect_refusal(
    report: SoakReport,
    kind: str,
    path: Path,
    missing: tuple[tuple[int, int], ...],
    changed: tuple[int, ...] = (),
) -> None:
    """Open the damaged journal at ``path`` as the service does: it must be refused, the
    events lost or changed named, and no file changed."""
    tally = report.kinds[kind]
    tally.cases += 1
    before = contents(path)
    try:
        with Journal(path) as journal:
            held = len(journal.events())
    except JournalDamagedError as error:
        tally.refused += 1
        if (error.missing, error.changed) == (missing, changed) and str(path) in str(error):
            tally.named += 1
        else:
            report.failures.append(
                f"{kind} {path.name}: expected missing {missing} changed {changed}: {error}"
            )
        if contents(path) == before:
            tally.unchanged += 1
        else:
            report.failures.append(f"{kind} {path.name}: refused, but a file changed")
    else:
        report.failures.append(f"{kind} {path.name}: accepted with {held} events")


def _expect_whole(
    report: SoakReport, kind: str, path: Path, expected: list[object], acked: int
) -> None:
    """Open the sound journal at ``path``: it must hold at least the ``acked`` first events
    of ``expected``, exactly as they were."""
    tally = report.kinds[kind]
    tally.cases += 1
    try:
        with Journal(path) as journal:
            events = journal.events()
    except JournalError as error:
        tally.false_alarms += 1
        report.failures.append(f"{kind} {path.name}: refused: {error}")
        return
    tally.lost += max(0, acked - len(events))
    if len(events) < acked or events != expected[: len(events)]:
        report.failures.append(f"{kind} {path.name}: {len(events)} events, {acked} acknowledged")
    else:
        tally.whole += 1


_match = functools.cache(expected_events)


def _closed_copy(source: Path, target: Path, damage: Callable[[Path], None]) -> Path:
    power_cut_image(source, target)
    damage(target)
    return target


def _round(report: SoakReport, folder: Path, number: int, rng: random.Random) -> None:
    """One journal of a random length, and a case of each kind (but ``sigkill``) from it."""
    expected = _match(number % 50 + 1)
    count = rng.randrange(2, len(expected) + 1)
    live = folder / f"live-{number}.sqlite3"

    def case(kind: str) -> Path:
        return folder / f"{kind.replace(' ', '-')}-{number}.sqlite3"

    with Journal(live) as journal:
        for event in expected[: count - 1]:
            journal.append(event)  # type: ignore[arg-type]
        head_before = head_path(live).read_bytes()
        log = Path(f"{live}-wal")
        log_before = log.stat().st_size
        journal.append(expected[count - 1])  # type: ignore[arg-type]
        log_after = log.stat().st_size
        # The power cut's images of the open journal.
        power_cut_image(live, case("cut before head"), head=head_before)
        if log_after > log_before:  # else a checkpoint began the log again in this commit
            torn = case("torn commit")
            power_cut_image(live, torn, head=head_before)
            with Path(f"{torn}-wal").open("r+b") as file:
                file.truncate(rng.randrange(log_before, log_after))
            _expect_whole(report, "torn commit", torn, expected, count - 1)
        torn_head = case("torn head")
        power_cut_image(live, torn_head)
        with head_path(torn_head).open("r+b") as file:
            file.seek(count % 2 * 64 + rng.randrange(44))
            file.write(bytes([rng.randrange(256)]))
        lost_tail = case("lost log tail")
        power_cut_image(live, lost_tail)
    _expect_whole(report, "cut before head", case("cut before head"), expected, count)
    _expect_whole(report, "torn head", torn_head, expected, count)
    size = Path(f"{lost_tail}-wal").stat().st_size
    if rng.random() < 0.5:
        damage_log(lost_tail, back=rng.randrange(64, size + 1))
    else:
        with Path(f"{lost_tail}-wal").open("r+b") as file:
            file.truncate(rng.randrange(size))
    kept = rows_sqlite_keeps(lost_tail, folder / f"scratch-{number}.sqlite3")
    if kept < count:
        _expect_refusal(report, "lost log tail", lost_tail, ((kept + 1, count),))
    else:  # the spot held nothing committed (a log begun again by a checkpoint)
        _expect_whole(report, "lost log tail", lost_tail, expected, count)
    # The closed journal, damaged by hand or by a bad copy.
    _expect_refusal(report, "empty", _closed_copy(live, case("empty"), empty_file), ((1, count),))
    seq = rng.randint(1, count)
    deleted = _closed_copy(live, case("deleted row"), lambda path: delete_row(path, seq))
    _expect_refusal(report, "deleted row", deleted, ((seq, seq),))
    edited = _closed_copy(live, case("edited row"), lambda path: edit_row(path, seq))
    _expect_refusal(report, "edited row", edited, (), (seq,))


def _kills(report: SoakReport, folder: Path, kills: int, rng: random.Random) -> None:
    """The writer killed ``kills`` times, the journal opened after each: nothing lost."""
    seed = 1
    while report.kinds["sigkill"].cases < kills:
        path = folder / f"killed-{seed}.sqlite3"
        kill = write_and_kill(path, seed, rng)
        if kill.finished:
            seed += 1
            continue
        _expect_whole(report, "sigkill", path, _match(seed), kill.acked)


def soak(folder: Path, rounds: int, kills: int, *, seed: int = 2026) -> SoakReport:
    """Run ``rounds`` rounds of every kind and ``kills`` kills of the writer in ``folder``."""
    rng = random.Random(seed)
    report = SoakReport()
    start = time.monotonic()
    for number in range(rounds):
        _round(report, folder, number, rng)
    _kills(report, folder, kills, rng)
    report.seconds = time.monotonic() - start
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak journal", description=__doc__)
    parser.add_argument("--rounds", type=int, default=200, help="journals damaged (200)")
    parser.add_argument("--kills", type=int, default=100, help="writer processes killed (100)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        report = soak(Path(folder), args.rounds, args.kills, seed=args.seed)
    print(f"{args.rounds} rounds and {args.kills} kills in {report.seconds:.0f} s")
    for line in report.lines():
        print(line)
    for failure in report.failures:
        print(f"FAILED {failure}")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
