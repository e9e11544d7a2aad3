"""The journal's file: its SQLite schema, its creation, what opening checks, the files beside.

Why apart from :mod:`~controller.record.journal`: the journal keeps a match's events (it
replays them, appends, rotates, refuses damage); this module knows how they lie on disk.
A Tabula journal is an SQLite database in write-ahead-log mode with ``synchronous=FULL``,
marked by its ``application_id`` and schema version (1 before the chained checksums, 2
with them), with its head file beside it (:mod:`~controller.record._chain`), a new
match's journal written whole beside it before it takes its place, and archives named by
date and sequence numbers.
"""

from __future__ import annotations

import fcntl
import os
import pwd
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from controller.record._chain import (
    ChainCheck,
    Head,
    Row,
    check_chain,
    create_head,
    head_path,
    read_head,
)
from controller.record.errors import JournalCorruptError, JournalDamagedError, JournalError
from hardware.files import sync

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "UNCHAINED_VERSION",
    "WriterLock",
    "add_digests",
    "archive_path",
    "check_database",
    "corrupt_error",
    "create_journal_file",
    "damaged_error",
    "emptied_error",
    "finish_rotation",
    "make_durable",
    "pending_path",
    "read_checked_head",
    "reader_uri",
    "refuse_gone",
    "refuse_unwritable",
    "remove_journal_files",
    "unreadable_error",
    "unwritable_error",
    "verify_rows",
]

APPLICATION_ID: Final = 0x54414231
"""SQLite ``application_id`` of a Tabula journal (``TAB1``), so another database is refused."""

UNCHAINED_VERSION: Final = 1
"""The schema before the chained checksums: read as it is, chained when opened to write."""
SCHEMA_VERSION: Final = 2
_SCHEMA: Final = """
CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    event TEXT NOT NULL,
    digest BLOB NOT NULL
)
"""
_ADVICE: Final = (
    "Restore it (with its .head file) from a backup, or move both aside to start a new match"
)


def make_durable(connection: sqlite3.Connection) -> None:
    """Write-ahead log, synced at every commit: a power cut loses nothing committed."""
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")


def create_journal_file(path: Path, head: Head, connect: Callable[..., sqlite3.Connection]) -> bool:
    """Create an empty journal whole beside ``path``, with its head; then rename it there.
    False, creating nothing, if another process made one there meanwhile.

    Why whole: a journal is then never seen empty or half made at its path, so an empty
    file there is damage, never a power cut during the creation. Why one at a time (a lock
    of the folder): two processes starting on a new journal at once (the service and a
    ``tabula run`` by hand) each made one and renamed it there, the second over the first,
    whose writer lock was then on a file gone: both wrote to the second.

    Raises:
        JournalError: naming the path, if a file cannot be written.
    """
    temporary = path.with_name(path.name + ".init")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            fcntl.flock(folder, fcntl.LOCK_EX)  # released with the descriptor
            if path.exists():
                return False
            remove_journal_files(temporary)
            connection = connect(str(temporary), isolation_level=None)
            try:
                make_durable(connection)
                connection.execute("BEGIN IMMEDIATE")
                connection.execute(_SCHEMA)
                connection.execute(f"PRAGMA application_id={APPLICATION_ID}")
                connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                connection.execute("COMMIT")
            finally:
                connection.close()  # the last connection: checkpointed into the one file
            sync(temporary)
            create_head(head_path(path), head)
            os.replace(temporary, path)
            sync(path.parent)
        finally:
            os.close(folder)
    except (sqlite3.Error, OSError) as error:
        raise JournalError(f"cannot create journal {str(path)!r}: {error}") from None
    return True


def check_database(path: Path, connection: sqlite3.Connection) -> int:
    """The schema version of the Tabula journal at ``path`` that SQLite finds sound.

    Raises:
        JournalError: for another kind of database, or a schema this program cannot read.
        JournalCorruptError: when SQLite's own check finds the file damaged.
    """
    application_id = connection.execute("PRAGMA application_id").fetchone()[0]
    if application_id != APPLICATION_ID:
        raise JournalError(
            f"{str(path)!r} is not a Tabula journal "
            f"(SQLite application_id {application_id:#x}, expected {APPLICATION_ID:#x})"
        )
    version: int = connection.execute("PRAGMA user_version").fetchone()[0]
    if version not in (UNCHAINED_VERSION, SCHEMA_VERSION):
        raise JournalError(
            f"journal {str(path)!r} has schema version {version}, "
            f"this program reads {UNCHAINED_VERSION} and {SCHEMA_VERSION}"
        )
    check = connection.execute("PRAGMA quick_check").fetchall()
    if check != [("ok",)]:
        raise corrupt_error(path, "; ".join(str(row[0]) for row in check[:3]))
    return version


def add_digests(
    connection: sqlite3.Connection, rows: Sequence[Row], digests: Sequence[bytes]
) -> None:
    """Give a journal written before the chain its digests, in one transaction.

    Raises:
        sqlite3.Error: if the change fails (it is rolled back).
    """
    try:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("ALTER TABLE events ADD COLUMN digest BLOB NOT NULL DEFAULT x''")
        connection.executemany(
            "UPDATE events SET digest = ? WHERE seq = ?",
            zip(digests, (row.seq for row in rows), strict=True),
        )
        connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        connection.execute("COMMIT")
    except sqlite3.Error:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def damaged_error(
    path: Path,
    problems: list[str],
    *,
    missing: tuple[tuple[int, int], ...] = (),
    changed: tuple[int, ...] = (),
) -> JournalDamagedError:
    """The refusal of the journal at ``path``, whose events were lost or changed."""
    return JournalDamagedError(
        f"journal {str(path)!r} is damaged: {'; '.join(problems)}; "
        f"it was left unchanged. {_ADVICE}",
        missing=missing,
        changed=changed,
    )


def corrupt_error(path: Path, detail: str) -> JournalCorruptError:
    """The refusal of the journal at ``path``, which SQLite cannot read."""
    return JournalCorruptError(
        f"journal {str(path)!r} is damaged ({detail}); it was left unchanged. {_ADVICE}"
    )


_DAMAGE: Final = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
"""SQLite's primary result codes that mean the file itself is damaged."""


def unreadable_error(path: Path, error: sqlite3.DatabaseError) -> JournalError:
    """The refusal of the journal at ``path`` that SQLite failed on with ``error``.

    Why not always :func:`corrupt_error`: only SQLite's codes of damage say the file is
    damaged. A file it cannot open or write (a read-only or failing card) is whole, and
    the advice to restore it or move it aside would be wrong.
    """
    code = getattr(error, "sqlite_errorcode", None)
    if code is None or code & 0xFF in _DAMAGE:
        return corrupt_error(path, str(error))
    note = read_only_note(path)
    if note:  # a write-ahead log without its index: SQLite reads it where it can write
        note += "; copy it with the files beside it to a writable place to read it"
    return JournalError(f"cannot read journal {str(path)!r}: {error}{note}")


def unwritable_error(path: Path, what: str, error: sqlite3.Error) -> JournalError:
    """The failure to write ``what`` (events) to the journal at ``path``."""
    return JournalError(
        f"cannot write {what} to journal {str(path)!r}: {error}{read_only_note(path)}"
    )


def read_only_note(path: Path) -> str:
    """What a failure at ``path`` then means if its file system is mounted read-only (as
    the kernel remounts an SD card after errors), else nothing."""
    if not _on_read_only_file_system(path):
        return ""
    return (
        f"; {str(path.parent)!r} is on a read-only file system (mounted so, or turned "
        "read-only by the kernel after errors on the card): nothing can be written there"
    )


def _on_read_only_file_system(path: Path) -> bool:
    try:
        flags = os.statvfs(path if path.exists() else path.parent).f_flag
    except (OSError, ValueError):  # no such directory either: a failure says so itself
        return False
    return bool(flags & os.ST_RDONLY)


class WriterLock:
    """The one writer of the journal at ``path``: an exclusive ``flock`` of the file, held
    from before its rows are read until the journal is closed.

    Why: SQLite lets two processes append in turn, each against the match as it replayed
    it on opening. Two services (or demos) on one journal then refused every input of
    one of them ("UNIQUE constraint failed"), or wrote events that no longer replay
    together. Readers (``tabula export``, ``tabula review``) take no lock. A process
    killed holds no lock: the kernel drops it with the descriptor.

    Raises:
        JournalError: if another process holds it (naming that process when the kernel
            says), or the file cannot be opened.
    """

    def __init__(self, path: Path) -> None:
        try:
            descriptor = os.open(path, os.O_RDONLY)
        except OSError as error:
            raise JournalError(f"cannot open journal {str(path)!r}: {error}") from None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _flock_holder(descriptor)
            os.close(descriptor)
            raise JournalError(
                f"journal {str(path)!r} is being written by {holder} (the service, or "
                "another tabula run or demo on it): stop it first"
            ) from None
        self._descriptor = descriptor

    def release(self) -> None:
        """Let another process write (idempotent).

        Only once the journal's SQLite connection is closed: closing any descriptor of the
        file drops the POSIX locks SQLite holds on it in this process.
        """
        if self._descriptor >= 0:
            os.close(self._descriptor)
            self._descriptor = -1


def _flock_holder(descriptor: int) -> str:
    """``process N`` holding a ``flock`` of the file open at ``descriptor``, as the kernel's
    ``/proc/locks`` names it, else ``another process``."""
    status = os.fstat(descriptor)
    file = f"{os.major(status.st_dev):02x}:{os.minor(status.st_dev):02x}:{status.st_ino}"
    try:
        lines = Path("/proc/locks").read_text(encoding="ascii").splitlines()
    except (OSError, ValueError):
        return "another process"
    for fields in map(str.split, lines):  # "1: FLOCK ADVISORY WRITE <pid> <dev:inode> ..."
        if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == file:
            return f"process {fields[4]}"
    return "another process"


def refuse_unwritable(path: Path) -> None:
    """Refuse to open the journal at ``path`` for writing where it cannot be written: on a
    read-only file system, or where this user may not write its files.

    Why before anything: SQLite opens a file it may not write for reading only, without a
    word, and fails on the first write, so the service would start and then refuse every
    input (files left by ``sudo tabula run``, killed: its write-ahead log and index
    belong to root). The journal is whole, and still read (``tabula review``,
    ``tabula export``).

    Raises:
        JournalError: saying which.
    """
    kept = ""
    if path.exists():
        kept = "; the journal is unchanged"
        if os.access(path, os.R_OK):
            kept += ", and tabula review and tabula export still read it"
    if _on_read_only_file_system(path):
        raise JournalError(f"cannot write journal {str(path)!r}{read_only_note(path)}{kept}")
    files = (path.parent, *_journal_files(path))
    barred = [file for file in files if file.exists() and not os.access(file, os.W_OK)]
    if barred:
        named = ", ".join(
            f"{str(file)!r} (owned by {_user(file.stat().st_uid)})" for file in barred
        )
        raise JournalError(
            f"cannot write journal {str(path)!r}: user {_user(os.geteuid())} may not write "
            f"{named}: give them to that user (chown), or run as their owner{kept}"
        )


def _user(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:  # a user the system does not name
        return f"uid {uid}"


def reader_uri(path: Path) -> str:
    """The SQLite URI that reads the journal at ``path`` and never writes it.

    ``mode=ro``; and ``immutable=1`` on a read-only file system where no write-ahead log
    waits beside the file. Why: a reader needs the log's index (``-shm``), which SQLite
    cannot create there, so it refuses ``mode=ro`` alone ("unable to open database
    file"); with no log, the file alone is the journal, and nothing can change it. A log
    with its index is read in place; a log without one cannot be, and SQLite says so.
    """
    uri = f"{path.resolve().as_uri()}?mode=ro"
    log = _log(path)
    if _on_read_only_file_system(path) and (not log.exists() or log.stat().st_size == 0):
        uri += "&immutable=1"
    return uri


def _log(path: Path) -> Path:
    """SQLite's write-ahead log beside the journal at ``path`` (its index: ``-shm``)."""
    return path.with_name(path.name + "-wal")


# What opening finds on disk: every loss is refused before anything is written.


def finish_rotation(path: Path) -> None:
    """Put a new match's journal in place if the power went before it took ``path``.

    Raises:
        JournalError: if the files cannot be renamed.
    """
    pending = pending_path(path)
    try:
        if path.exists() or not pending.exists():
            return
    except (OSError, ValueError) as error:  # a name too long, or with a NUL: not a path
        raise JournalError(f"cannot open journal {str(path)!r}: {error}") from None
    try:
        if head_path(pending).exists():
            os.replace(head_path(pending), head_path(path))
        os.replace(pending, path)
        sync(path.parent)
    except OSError as error:
        raise JournalError(
            f"cannot put the new journal {str(pending)!r} in place: {error}"
        ) from None


def read_checked_head(path: Path) -> Head | None:
    """The head of the journal at ``path``, or None if it has none.

    Raises:
        JournalDamagedError: when neither of its slots holds a head.
        JournalError: when it cannot be read.
    """
    try:
        return read_head(head_path(path))
    except ValueError as error:  # neither slot holds a head
        raise damaged_error(path, [str(error)]) from None
    except OSError as error:
        raise JournalError(f"cannot read the head of journal {str(path)!r}: {error}") from None


def refuse_gone(path: Path, head: Head | None) -> None:
    """A journal gone while its head or its write-ahead log remain is lost, not new.

    Raises:
        JournalDamagedError: naming what remains and the events lost.
    """
    log = Path(f"{path}-wal")
    if log.exists() and log.stat().st_size > 0:
        remains = f"the file is gone but its write-ahead log {str(log)!r} remains"
        raise damaged_error(path, [remains])
    if head is not None and head.last >= head.first:
        raise emptied_error(path, "the file is gone", head)


def emptied_error(path: Path, what: str, head: Head | None) -> JournalDamagedError:
    """The file is empty or gone: every event its head recorded is lost."""
    check = check_chain((), head)
    return damaged_error(path, [what, *check.problems()], missing=check.missing)


def verify_rows(path: Path, rows: Sequence[Row], head: Head | None, version: int) -> ChainCheck:
    """Check the rows' numbers, checksums and head; name every event lost or changed.

    Raises:
        JournalDamagedError: naming every event lost or changed.
    """
    check = check_chain(rows, head)
    problems = check.problems()
    if head is None and version == SCHEMA_VERSION and rows:
        problems.append(
            f"its head file {str(head_path(path))!r} is missing, so a lost tail cannot be ruled out"
        )
    if problems:
        raise damaged_error(path, problems, missing=check.missing, changed=check.changed)
    return check


# The files beside a journal.


def pending_path(path: Path) -> Path:
    """Where a new match's journal is written before it takes ``path``'s place."""
    return path.with_name(path.name + ".new")


def remove_journal_files(path: Path) -> None:
    """Remove the journal at ``path`` with the files beside it (:func:`_journal_files`)."""
    for name in _journal_files(path):
        name.unlink(missing_ok=True)


def _journal_files(path: Path) -> tuple[Path, ...]:
    """The journal at ``path``, SQLite's write-ahead log and its index, and the head."""
    return path, _log(path), path.with_name(path.name + "-shm"), head_path(path)


def archive_path(path: Path, when: float, first_seq: int, last_seq: int) -> Path:
    """Where the journal at ``path`` is kept once a new match starts: beside it, named by
    when it was archived (UTC) and its events' sequence numbers.

    >>> archive_path(Path("/var/lib/tabula/journal.sqlite3"), 0.0, 1, 87).name
    'journal-19700101-000000-seq1-87.sqlite3'
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(when))
    return path.with_name(f"{path.stem}-{stamp}-seq{first_seq}-{last_seq}{path.suffix}")
