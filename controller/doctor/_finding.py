"""What one check found: a status, the facts, and what to do about a problem."""

from __future__ import annotations

import os
import pwd
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Finding", "Status", "current_user", "fail", "ok", "warn"]


class Status(StrEnum):
    """How a check went: only :attr:`FAIL` stops the first game (``tabula doctor`` exits 1)."""

    OK = "ok"
    WARN = "warn"
    """It works, but will bite later (a device name that changes at the next boot)."""
    FAIL = "fail"


@dataclass(frozen=True, slots=True)
class Finding:
    """The result of one check, for a person: ``tabula doctor`` prints it as one line.

    Why a value and not a printed line: the set-up page shows the same findings.

    Raises:
        ValueError: a problem (warn or fail) without the fix, or a fix on a pass.
    """

    check: str
    """The part checked, a few words (``serial device``, ``camera focus``)."""
    status: Status
    detail: str
    """What was seen: the device, the figure, the error."""
    fix: str = ""
    """What to do, for a warning or a failure."""

    def __post_init__(self) -> None:
        if (self.status is Status.OK) == bool(self.fix):
            raise ValueError(
                f"finding {self.check!r} ({self.status}): a fix goes with a problem, and only then"
            )

    @property
    def is_failure(self) -> bool:
        """Whether this finding stops the first game."""
        return self.status is Status.FAIL

    def line(self) -> str:
        """One line: status, check, detail and the fix.

        >>> Finding("journal", Status.WARN, "20 MiB free", "free some space").line()
        'warn  journal: 20 MiB free; to fix: free some space'
        """
        tag = "FAIL" if self.is_failure else self.status.value
        fix = f"; to fix: {self.fix}" if self.fix else ""
        return f"{tag:<5} {self.check}: {self.detail}{fix}"


def ok(check: str, detail: str) -> Finding:
    """A check that passed."""
    return Finding(check, Status.OK, detail)


def warn(check: str, detail: str, fix: str) -> Finding:
    """A check that passed with a problem to fix before it bites."""
    return Finding(check, Status.WARN, detail, fix)


def fail(check: str, detail: str, fix: str) -> Finding:
    """A check that failed, and what to do."""
    return Finding(check, Status.FAIL, detail, fix)


def current_user() -> str:
    """The user whose rights the checks test (not ``$USER``, which ``su`` may leave behind)."""
    return pwd.getpwuid(os.geteuid()).pw_name
