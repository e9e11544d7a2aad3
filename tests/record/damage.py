"""Damage done to a journal's files, as power cuts, disks and people do it.

The journal's tests and its soak (:mod:`tests.soak.journal`) share these: a power cut's
image of a journal still open (its database, write-ahead log and head copied as they are on
disk), and each kind of damage the journal must refuse.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from controller.record.journal import head_path


def journal_files(path: Path) -> list[Path]:
    """The files that hold the journal at ``path``: database, write-ahead log, head."""
    return [path, Path(f"{path}-wal"), head_path(path)]


def contents(path: Path) -> dict[str, bytes | None]:
    """What each of the journal's files holds (``None`` for a database or head that is gone).

    A log that is absent holds what an empty one holds, nothing: a reader that opens a
    journal in WAL mode may leave an empty log (and SQLite's ``-shm`` index) behind.
    """
    held: dict[str, bytes | None] = {}
    for file in journal_files(path):
        if file.exists():
            held[file.name] = file.read_bytes()
        else:
            held[file.name] = b"" if file.name.endswith("-wal") else None
    return held


def power_cut_image(live: Path, copy: Path, *, head: bytes | None = None) -> None:
    """Copy the journal at ``live`` (open or not) to ``copy`` as its files are on disk now.

    Args:
        head: the head file's bytes to put instead of the live one's: the head as it was
            before the last commit (a cut between the commit and the head's write).
    """
    for source, target in zip(journal_files(live), journal_files(copy), strict=True):
        if source.exists():
            shutil.copyfile(source, target)
    if head is not None:
        head_path(copy).write_bytes(head)


def empty_file(path: Path) -> None:
    """Truncate the database to 0 bytes (a file system's repair, a bad copy)."""
    path.write_bytes(b"")


def delete_row(path: Path, seq: int) -> None:
    """Delete the event ``seq`` by hand."""
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM events WHERE seq = ?", (seq,))
    connection.close()


def edit_row(path: Path, seq: int) -> None:
    """Edit the event ``seq`` by hand so that it still parses and replays (a space added)."""
    with sqlite3.connect(path) as connection:
        connection.execute(
            "UPDATE events SET event = replace(event, ',', ', ') WHERE seq = ?", (seq,)
        )
    connection.close()


def damage_log(path: Path, back: int = 3 * 4096) -> None:
    """Spoil bytes of the write-ahead log ``back`` bytes before its end, among its commits.

    SQLite's recovery then drops the frame spoiled and every one after it, committed or not.
    """
    log = Path(f"{path}-wal")
    with log.open("r+b") as file:
        file.seek(log.stat().st_size - back)
        file.write(b"\xff" * 64)


def rows_sqlite_keeps(path: Path, scratch: Path) -> int:
    """How many events SQLite's own recovery keeps of the journal at ``path``.

    Read from a copy at ``scratch``, so that the journal itself is not touched.
    """
    power_cut_image(path, scratch)
    with sqlite3.connect(scratch) as connection:
        count: int = connection.execute("SELECT count(*) FROM events").fetchone()[0]
    connection.close()
    return count
