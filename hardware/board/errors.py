"""The root of every exception Tabula raises on purpose, and how a message shows its input.

Each package has its own ``errors`` module whose classes derive from :class:`TabulaError`
and from the builtin that fits (``ValueError`` for bad input, ``OSError`` for I/O), so a
caller can catch either "anything Tabula refused" or the usual builtin.
"""

from typing import Final

__all__ = ["ECHO_LIMIT", "LayoutError", "SceneError", "TabulaError", "clipped_repr", "os_reason"]

ECHO_LIMIT: Final = 40
"""The most characters of its input a refusal shows."""


class TabulaError(Exception):
    """Base class of all errors raised by Tabula."""


class LayoutError(TabulaError, ValueError):
    """A board in the 26-integer layout, a list of cells or a location that cannot be."""


class SceneError(TabulaError, ValueError):
    """An LED scene that cannot be shown: wrong number of lamps, unknown location."""


def clipped_repr(value: object, limit: int = ECHO_LIMIT) -> str:
    """``repr(value)``, cut to its first ``limit`` characters followed by ``...``.

    Why: a message names the input it refuses, but an answer to a web request must not
    echo a whole request body (or a 5,000-character path) back.

    >>> clipped_repr("Ann")
    "'Ann'"
    >>> clipped_repr(list(range(100)), 12)
    '[0, 1, 2, 3,...'
    """
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def os_reason(error: OSError) -> str:
    """Why the system refused, as a message says it: the error's own words
    (``strerror``), or its text when it has none (an OSError a library raised itself,
    which a message showed as ``None``).

    >>> os_reason(FileNotFoundError(2, "No such file or directory"))
    'No such file or directory'
    >>> os_reason(BrokenPipeError("the child went away"))
    'the child went away'
    """
    return error.strerror or str(error)
