"""The configuration's one exception, a :class:`hardware.board.errors.TabulaError`."""

from __future__ import annotations

from hardware.board.errors import TabulaError

__all__ = ["ConfigError"]


class ConfigError(TabulaError, ValueError):
    """The configuration file cannot be read, or has unknown keys or wrong values.

    Attributes:
        problems: one line per problem: ``file:line: key.path: what is wrong``.
    """

    def __init__(self, problems: list[str] | tuple[str, ...]) -> None:
        super().__init__("\n".join(problems))
        self.problems = tuple(problems)
