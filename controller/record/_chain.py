"""The journal's chained checksums and its head file: damage is named on opening.

Each event row carries a digest of its own content (sequence number, time, JSON) chained
with the previous row's digest, so a row edited since it was written no longer matches its
digest, and a row deleted leaves a gap in the sequence numbers. A lost tail leaves a chain
that is shorter but whole: so the chain's head (first and last sequence numbers, the last
digest) is also written after each commit to a small file beside the database,
``<journal>.head``, which SQLite's recovery of its write-ahead log cannot roll back with the
tail. A journal behind its head has lost events. The head is written after the commit, so a
power cut between the two leaves it one event behind the journal, never ahead.

The head file holds two fixed slots, written in turn (slot ``last % 2``) in place and then
``fdatasync``-ed: a write torn by a power cut spoils only its own slot, and the other one
still holds the head before it. The file itself is created whole (written beside, synced,
renamed), so it is never seen half made.
"""

from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, NamedTuple

from hardware.files import write_whole

DIGEST_SIZE: Final = 16
GENESIS: Final = bytes(DIGEST_SIZE)
"""The digest before a journal's first event."""

_PERSON: Final = b"tabula journal"
_NUMBERS: Final = struct.Struct(">qd")
_MAGIC: Final = b"TBH1"
_RECORD: Final = struct.Struct(f">4sQQ{DIGEST_SIZE}s")
_CHECK_SIZE: Final = 8
_SLOT_SIZE: Final = 64


class Row(NamedTuple):
    """One stored event row; ``digest`` is ``None`` in a journal written before the chain."""

    seq: int
    at: float
    event: str
    digest: bytes | None


def chain_digest(previous: bytes, seq: int, at: float, event: str) -> bytes:
    """The digest of one event row after the row whose digest is ``previous``.

    >>> chain_digest(GENESIS, 1, 0.0, "{}").hex()
    '7947169ea7d4941808d91e92725d4475'
    """
    digest = hashlib.blake2b(previous, digest_size=DIGEST_SIZE, person=_PERSON)
    digest.update(_NUMBERS.pack(seq, float(at)))
    digest.update(event.encode())
    return digest.digest()


@dataclass(frozen=True, slots=True)
class Head:
    """Where a journal's chain stood at its last commit.

    ``last == first - 1`` and ``digest == GENESIS`` while the journal holds no event.
    """

    first: int
    last: int
    digest: bytes

    def _slot(self) -> bytes:
        record = _RECORD.pack(_MAGIC, self.first, self.last, self.digest)
        check = hashlib.blake2b(record, digest_size=_CHECK_SIZE).digest()
        return (record + check).ljust(_SLOT_SIZE, b"\0")

    @classmethod
    def _from_slot(cls, slot: bytes) -> Head | None:
        """The head in ``slot``, or ``None`` for a slot never written or torn."""
        record, check = slot[: _RECORD.size], slot[_RECORD.size : _RECORD.size + _CHECK_SIZE]
        if (
            len(record) < _RECORD.size
            or hashlib.blake2b(record, digest_size=_CHECK_SIZE).digest() != check
        ):
            return None
        magic, first, last, digest = _RECORD.unpack(record)
        return cls(first, last, digest) if magic == _MAGIC else None


def head_path(path: Path) -> Path:
    """The head file of the journal at ``path``."""
    return path.with_name(path.name + ".head")


def read_head(path: Path) -> Head | None:
    """The head recorded in the file at ``path`` (the later of its two slots).

    Returns ``None`` when there is no such file.

    Raises:
        ValueError: if neither slot holds a head.
        OSError: if the file cannot be read.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    heads = [Head._from_slot(data[start : start + _SLOT_SIZE]) for start in (0, _SLOT_SIZE)]
    found = [head for head in heads if head is not None]
    if not found:
        raise ValueError(f"its head file {str(path)!r} is damaged (no valid record)")
    return max(found, key=lambda head: head.last)


def create_head(path: Path, head: Head) -> None:
    """Write a new head file at ``path`` whole (:func:`~hardware.files.write_whole`).

    Raises:
        OSError: if it cannot be written.
    """
    slots = [bytes(_SLOT_SIZE), bytes(_SLOT_SIZE)]
    slots[head.last % 2] = head._slot()
    write_whole(path, b"".join(slots))


class HeadWriter:
    """The head file of a journal open for writing: one record per commit, synced.

    Args:
        path: an existing head file (see :func:`create_head`).

    Raises:
        OSError: if it cannot be opened.
    """

    def __init__(self, path: Path) -> None:
        self._descriptor = os.open(path, os.O_RDWR)

    def write(self, head: Head) -> None:
        """Record ``head`` durably, in the slot that does not hold the head before it.

        Raises:
            OSError: if it cannot be written (the journal itself is already committed).
        """
        os.pwrite(self._descriptor, head._slot(), (head.last % 2) * _SLOT_SIZE)
        os.fdatasync(self._descriptor)

    def close(self) -> None:
        """Close the file (idempotent); writing then fails."""
        if self._descriptor >= 0:
            os.close(self._descriptor)
            self._descriptor = -1


@dataclass(frozen=True, slots=True)
class ChainCheck:
    """What checking a journal's rows against their digests and their head found."""

    digests: tuple[bytes, ...]
    """The chain: each row's digest (as stored, or computed for a journal before the chain)."""
    held: tuple[tuple[int, int], ...]
    """The runs ``(first, last)`` of sequence numbers the file holds."""
    head: Head | None
    """The head the rows were checked against."""
    missing: tuple[tuple[int, int], ...]
    """The runs of sequence numbers missing: gaps, and a tail behind the head."""
    changed: tuple[int, ...]
    """The rows whose content no longer matches their digest, or the head's."""

    def problems(self) -> list[str]:
        """Each kind of damage found, in words naming the events (empty: intact).

        >>> head = Head(1, 43, GENESIS)
        >>> check = ChainCheck((), ((1, 16), (18, 40)), head, ((17, 17), (41, 43)), (5,))
        >>> for problem in check.problems():
        ...     print(problem)
        events 17, 41-43 are missing (the file holds 1-16, 18-40, its head says 1-43)
        event 5 was changed since written (checksum mismatch)
        """
        problems = []
        if self.missing:
            held = _spans(self.held) or "none"
            head = self.head
            said = "" if head is None else f", its head says {_span(head.first, head.last)}"
            problems.append(f"{_events(self.missing)} missing (the file holds {held}{said})")
        if self.changed:
            changed = _events([(seq, seq) for seq in self.changed], past=True)
            problems.append(f"{changed} changed since written (checksum mismatch)")
        return problems


def check_chain(rows: Sequence[Row], head: Head | None) -> ChainCheck:
    """Check ``rows`` (in order of ``seq``) against their digests and ``head``.

    Why each row is checked against the stored digest of the row before it, not the one
    recomputed: an edited row is then named alone, not with every row after it; and the first
    row after a gap cannot be checked (what it was chained to is gone), so it is not named.
    """
    digests: list[bytes] = []
    held: list[tuple[int, int]] = []
    missing: list[tuple[int, int]] = []
    changed: list[int] = []
    expected = head.first if head is not None else (rows[0].seq if rows else 1)
    previous = GENESIS
    for row in rows:
        if row.seq > expected:
            missing.append((expected, row.seq - 1))
        if held and held[-1][1] == row.seq - 1:
            held[-1] = (held[-1][0], row.seq)
        else:
            held.append((row.seq, row.seq))
        computed = chain_digest(previous, row.seq, row.at, row.event)
        stored = computed if row.digest is None else row.digest
        if stored != computed and row.seq == expected:
            changed.append(row.seq)
        if head is not None and row.seq == head.last and stored != head.digest:
            changed.append(row.seq)
        digests.append(stored)
        previous = stored
        expected = row.seq + 1
    if head is not None and expected <= head.last:
        missing.append((expected, head.last))
    return ChainCheck(
        tuple(digests), tuple(held), head, tuple(missing), tuple(sorted(set(changed)))
    )


def _span(first: int, last: int) -> str:
    """``first-last``, or one number.

    >>> _span(41, 43), _span(7, 7)
    ('41-43', '7')
    """
    return str(first) if first == last else f"{first}-{last}"


def _spans(runs: Sequence[tuple[int, int]]) -> str:
    return ", ".join(_span(first, last) for first, last in runs)


def _events(runs: Sequence[tuple[int, int]], *, past: bool = False) -> str:
    """The events of ``runs`` as the subject of a sentence, with its verb.

    >>> _events([(17, 17)]), _events([(41, 43)]), _events([(2, 2), (5, 5)], past=True)
    ('event 17 is', 'events 41-43 are', 'events 2, 5 were')
    """
    one = len(runs) == 1 and runs[0][0] == runs[0][1]
    verb = ("was" if one else "were") if past else ("is" if one else "are")
    return f"event{'' if one else 's'} {_spans(runs)} {verb}"
