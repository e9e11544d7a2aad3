"""Files written whole on a card that may lose power: the journal's head, the hub's archived
matches, the camera's calibration, an export.

Why one writer: a file written in place and cut by a power cut is half a file; one written
beside and renamed, but not synced, may be an empty file after the cut (ext4 allocates a new
file's blocks long after the rename is on the card). Each of these writers had its own
copy, and two of the four did not sync.

Why here, a leaf of ``hardware`` beside :mod:`hardware.board`: the journal, the hub, the
commands and the dice reader all write such files, and none may depend on another for it;
``hardware.board`` computes without I/O, so this has its own unit, importing nothing but
the standard library (``tests/test_layering.py``).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

__all__ = ["sync", "write_whole"]


def write_whole(path: Path, data: bytes) -> None:
    """Replace the file at ``path`` by ``data``, durably and whole: written beside it, synced,
    renamed over it, then its directory synced. A power cut leaves the old file or the new
    one, never a part of it nor an empty file.

    An existing file keeps its permissions, and its owner where this process may give it
    (root): a configuration kept readable by the service's user alone stays so when
    ``sudo tabula calibrate`` writes it. A new file is made as ``open`` makes it (0o666 less
    the umask). A symbolic link is followed, and stays. What is not a file (``/dev/stdout``,
    a pipe) has nothing to replace: it is written as it is.

    Raises:
        OSError: if it cannot be written; the file at ``path`` is then as it was.
    """
    try:
        before: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        before = None
    if before is not None and not stat.S_ISREG(before.st_mode):
        with open(path, "wb") as stream:
            stream.write(data)
        return
    path = Path(os.path.realpath(path))  # a link's file is replaced, and the link stays
    temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
    try:
        try:
            if before is not None:
                _keep_mode_and_owner(descriptor, before)
            view = memoryview(data)
            while view:
                view = view[os.write(descriptor, view) :]
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    sync(path.parent)


def _keep_mode_and_owner(descriptor: int, before: os.stat_result) -> None:
    """Give the new file the old one's mode and owner, as far as the file system and this
    process allow: a FAT stick takes no mode it cannot hold, and only root gives a file
    away. Either refusal leaves the new file as made, written all the same."""
    with contextlib.suppress(PermissionError):
        os.fchmod(descriptor, stat.S_IMODE(before.st_mode))
    if (before.st_uid, before.st_gid) != (os.geteuid(), os.getegid()):
        with contextlib.suppress(PermissionError):
            os.fchown(descriptor, before.st_uid, before.st_gid)


def sync(path: Path) -> None:
    """Make the file at ``path`` durable against a power cut; for a directory, the names
    created and renamed in it."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
