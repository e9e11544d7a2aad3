"""Reading a TOML file key by key, collecting every problem with its key path and line.

Why apart from :mod:`controller.config._sections` and :mod:`._parse`: those say *what* the
service's keys are; this one knows how to check a key (:class:`Check` functions), where a
key is in the text (:func:`key_lines`, since :mod:`tomllib` forgets lines) and how to word
a problem (``file:line: key.path: what is wrong``).
"""

from __future__ import annotations

import difflib
import math
import re
import stat
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar, cast

from hardware.board.errors import os_reason
from hardware.board.json_types import is_integer

__all__ = [
    "BadValueError",
    "Check",
    "Reader",
    "Section",
    "boolean",
    "choice",
    "file_problem",
    "integer",
    "key_lines",
    "number",
    "text",
]

T = TypeVar("T")
#: Checks a raw TOML value: returns it (or its normal form) or raises :class:`BadValueError`.
Check = Callable[[object], T]
#: Table path -> the keys (and sub-tables) it may have.
Schema = Mapping[tuple[str, ...], tuple[str, ...]]

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_PART = r"""[A-Za-z0-9_-]+|"[^"]*"|'[^']*'"""
_KEY = re.compile(rf"^\s*((?:{_PART})(?:\s*\.\s*(?:{_PART}))*)\s*=")


def _split_key(key: str) -> tuple[str, ...]:
    return tuple(part.strip("\"'") for part in re.findall(_PART, key))


def key_lines(toml: str) -> dict[tuple[str, ...], int]:
    """The first line of each table header and key, by key path (a close reading of TOML).

    >>> key_lines('a = 1\\n[b.c]\\nd.e = 2')
    {('a',): 1, ('b', 'c'): 2, ('b', 'c', 'd', 'e'): 3}
    """
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    in_string = False
    for number, line in enumerate(toml.splitlines(), start=1):
        if not in_string:
            header = _HEADER.match(line)
            key = _KEY.match(line)
            if header:
                table = _split_key(header.group(1))
                lines.setdefault(table, number)
            elif key:
                lines.setdefault(table + _split_key(key.group(1)), number)
        # Lines inside a multi-line string are not keys.
        if line.count('"""') % 2 or line.count("'''") % 2:
            in_string = not in_string
    return lines


class BadValueError(Exception):
    """A value is not what its key needs; the message completes ``key.path: ...``."""


class Reader:
    """One file's problems, in the order of its lines.

    Args:
        toml: the file's text, for the lines of keys.
        source: the file's name in messages.
        base: the directory relative paths start from.
        check_files: whether input files must exist.
        schema: the keys each table may have.
    """

    def __init__(
        self, toml: str, source: str, base: Path, check_files: bool, schema: Schema
    ) -> None:
        self.lines = key_lines(toml)
        self.source = source
        self.base = base
        self.check_files = check_files
        self.schema = schema
        self._problems: list[tuple[float, int, str]] = []

    @property
    def problems(self) -> list[str]:
        """Every problem found, in the order of the file's lines."""
        return [problem for _, _, problem in sorted(self._problems)]

    def fail(self, path: tuple[str, ...], message: str) -> None:
        """Record a problem of the key at ``path`` (at its line, or its table's)."""
        line = None
        for end in range(len(path), 0, -1):
            line = self.lines.get(path[:end])
            if line is not None:
                break
        where = self.source if line is None else f"{self.source}:{line}"
        problem = f"{where}: {'.'.join(path)}: {message}"
        self._problems.append((math.inf if line is None else line, len(self._problems), problem))

    def root(self, data: Mapping[str, object]) -> Section:
        """The file's top-level table."""
        return Section(self, (), data)

    def path(self, must_exist: bool) -> Check[Path]:
        """A check of a file path, relative to :attr:`base`; input files must exist, and
        any file given must be one that can be opened (checked with :attr:`check_files`)."""

        def check(value: object) -> Path:
            path = Path(text()(value)).expanduser()
            if not path.is_absolute():
                path = self.base / path
            problem = file_problem(path, missing_ok=not must_exist) if self.check_files else None
            if problem is not None:
                raise BadValueError(problem)
            return path

        return check


def file_problem(path: Path, *, missing_ok: bool = False) -> str | None:
    """Why ``path`` is not a file that can be opened, or None if it is one (or, with
    ``missing_ok``, if it is missing: a file to create).

    Why not ``Path.is_file()``: it raises for a name longer than the system takes, or one
    holding a NUL, which a configuration may give.
    """
    try:
        if stat.S_ISREG(path.stat().st_mode):
            return None
    except FileNotFoundError:
        return None if missing_ok else f"no such file {str(path)!r}"
    except OSError as error:  # a name too long, a directory it may not search
        return f"cannot read {str(path)!r}: {os_reason(error)}"
    except ValueError as error:  # a NUL in the name
        return f"cannot read {str(path)!r}: {error}"
    return f"{str(path)!r} is not a file"


class Section:
    """One table of the file; its unknown keys are reported on construction."""

    def __init__(self, reader: Reader, path: tuple[str, ...], table: Mapping[str, object]) -> None:
        self.reader = reader
        self.path = path
        self.table = table
        known = reader.schema.get(path, ())
        for key in table:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                what = "section" if not path and isinstance(table[key], dict) else "key"
                self.fail(key, f"unknown {what}{hint}")

    def __contains__(self, key: str) -> bool:
        return key in self.table

    def fail(self, key: str, message: str) -> None:
        """Record a problem of ``key`` in this table."""
        self.reader.fail((*self.path, key), message)

    def get(self, key: str, check: Check[T], default: T) -> T:
        """The checked value of ``key``, or ``default`` if absent or wrong."""
        if key not in self.table:
            return default
        try:
            return check(self.table[key])
        except BadValueError as error:
            self.fail(key, str(error))
            return default

    def section(self, key: str) -> Section:
        """The sub-table ``key`` (empty if absent or not a table)."""
        value = self.table.get(key, {})
        if not isinstance(value, dict):
            self.fail(key, f"expected a table, got {value!r}")
            value = {}
        return Section(self.reader, (*self.path, key), value)


def integer(
    low: int | None = None, high: int | None = None, what: str = "an integer"
) -> Check[int]:
    """A check of an integer (not a boolean) within ``low``..``high``."""
    if low is not None and high is not None:
        expected = f"{what} from {low} to {high}"
    else:
        expected = what if low is None else f"{what} >= {low}"

    def check(value: object) -> int:
        if (
            not is_integer(value)
            or (low is not None and value < low)
            or (high is not None and value > high)
        ):
            raise BadValueError(f"expected {expected}, got {value!r}")
        return value

    return check


def number(low: float, high: float, unit: str) -> Check[float]:
    """A check of a finite number of ``unit`` within ``low``..``high``."""

    def check(value: object) -> float:
        if (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not math.isfinite(value)
            or not low <= value <= high
        ):
            raise BadValueError(
                f"expected a number of {unit} from {low:g} to {high:g}, got {value!r}"
            )
        return float(value)

    return check


def boolean(value: object) -> bool:
    """Check a boolean."""
    if not isinstance(value, bool):
        raise BadValueError(f"expected true or false, got {value!r}")
    return value


def text(max_length: int = 4096, pattern: str | None = None, what: str = "") -> Check[str]:
    """A check of a non-empty string, matching ``pattern`` (described as ``what``) if given."""

    def check(value: object) -> str:
        if not isinstance(value, str) or not value or len(value) > max_length:
            raise BadValueError(
                f"expected a non-empty string of at most {max_length} characters, got {value!r}"
            )
        if pattern is not None and not re.fullmatch(pattern, value):
            raise BadValueError(f"expected {what}, got {value!r}")
        return value

    return check


def choice(options: tuple[T, ...]) -> Check[T]:
    """A check of one of the strings ``options``, suggesting the closest one."""
    names = cast(tuple[str, ...], options)

    def check(value: object) -> T:
        if isinstance(value, str) and value in names:
            return cast(T, value)
        listed = ", ".join(repr(option) for option in names)
        close = difflib.get_close_matches(value, names, n=1) if isinstance(value, str) else []
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise BadValueError(f"expected one of {listed}, got {value!r}{hint}")

    return check
