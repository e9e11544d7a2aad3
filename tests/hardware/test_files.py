"""Files written whole: synced before the rename and the directory after, the old file's
permissions and owner kept, and nothing changed when the write fails.

A power cut itself cannot be made here; what makes a file survive one can be seen: the
order of the calls that reach the card, recorded as they run (each one still made).
"""

from __future__ import annotations

import errno
import os
import stat
import threading
from pathlib import Path

import pytest

from hardware.files import write_whole


def test_the_file_is_synced_before_its_rename_and_its_directory_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, str]] = []
    fsync, replace = os.fsync, os.replace

    def synced(descriptor: int) -> None:
        calls.append(("fsync", os.readlink(f"/proc/self/fd/{descriptor}")))
        fsync(descriptor)

    def renamed(source: str | Path, target: str | Path) -> None:
        calls.append(("rename", f"{Path(source).name} -> {Path(target).name}"))
        replace(source, target)

    monkeypatch.setattr(os, "fsync", synced)
    monkeypatch.setattr(os, "replace", renamed)
    path = tmp_path / "match.sgf"
    path.write_text("the old match")
    write_whole(path, b"(;FF[4]GM[6])\n")
    part = f".match.sgf.{os.getpid()}.part"
    assert calls == [
        ("fsync", str(tmp_path / part)),
        ("rename", f"{part} -> match.sgf"),
        ("fsync", str(tmp_path)),
    ]
    assert path.read_bytes() == b"(;FF[4]GM[6])\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["match.sgf"]


def test_an_existing_file_keeps_its_permissions_and_owner(tmp_path: Path) -> None:
    """As root (``sudo tabula calibrate``), the service's configuration stays the service's
    user's: a file written as root and renamed over it was root's, readable by root alone."""
    path = tmp_path / "camera.toml"
    path.write_text("[camera]\n")
    path.chmod(0o640)
    owner = (65534, 65534) if os.geteuid() == 0 else (os.getuid(), os.getgid())
    os.chown(path, *owner)
    write_whole(path, b"[camera]\nindex = 1\n")
    after = path.stat()
    assert stat.S_IMODE(after.st_mode) == 0o640
    assert (after.st_uid, after.st_gid) == owner
    assert path.read_text() == "[camera]\nindex = 1\n"


def test_a_write_that_fails_leaves_the_old_file_and_no_part(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "head"
    path.write_bytes(b"old")

    def failing(descriptor: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing)
    with pytest.raises(OSError, match="Input/output error"):
        write_whole(path, b"new")
    assert path.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["head"]


def test_a_link_is_followed_and_stays(tmp_path: Path) -> None:
    real = tmp_path / "real.toml"
    real.write_text("old")
    link = tmp_path / "tabula.toml"
    link.symlink_to(real)
    write_whole(link, b"new")
    assert link.is_symlink() and real.read_text() == "new"


def test_what_is_not_a_file_is_written_as_it_is(tmp_path: Path) -> None:
    """``tabula export --out /dev/stdout``: a pipe (or a device) is written, not replaced."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()))
    reader.start()
    write_whole(pipe, b"(;FF[4])\n")
    reader.join()
    assert got == [b"(;FF[4])\n"]
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_mode_the_file_system_refuses_still_writes_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A FAT stick refuses a mode it cannot hold (EPERM): the export is written all the
    same, as the file system makes it."""
    path = tmp_path / "match.mat"
    path.write_text("old")

    def refused(descriptor: int, mode: int) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "fchmod", refused)
    write_whole(path, b"new")
    assert path.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["match.mat"]
