"""The root of every exception Tabula raises on purpose.

Each package has its own ``errors`` module whose classes derive from :class:`TabulaError`
and from the builtin that fits (``ValueError`` for bad input, ``OSError`` for I/O), so a
caller can catch either "anything Tabula refused" or the usual builtin.
"""

__all__ = ["TabulaError"]


class TabulaError(Exception):
    """Base class of all errors raised by Tabula."""
