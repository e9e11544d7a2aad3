"""What both GNU Backgammon adapters share: a child process, a default depth, a budget."""

from __future__ import annotations

from typing import Final, Self

from controller.engine._process import LineProcess
from hardware.board.json_types import is_integer

MAX_PLY: Final = 7
"""GNU Backgammon's deepest evaluation."""


def check_ply(ply: object) -> int:
    """Return ``ply`` if it is a depth GNU Backgammon knows (0 to 7).

    Raises:
        ValueError: naming the value.
    """
    if not is_integer(ply) or not 0 <= ply <= MAX_PLY:
        raise ValueError(f"ply is 0 to {MAX_PLY}, got {ply!r}")
    return ply


class ProcessEngine:
    """An engine living in one child process, with a default ply and a time budget.

    ``budget`` (seconds) may be changed between requests.
    """

    def __init__(self, process: LineProcess, *, ply: int, budget: float) -> None:
        if not budget > 0:
            raise ValueError(f"the budget is a positive number of seconds, got {budget!r}")
        self.ply = check_ply(ply)
        self.budget = budget
        self._process = process

    def _depth(self, ply: int | None) -> int:
        """The depth of a request: its own, or the engine's default."""
        return self.ply if ply is None else check_ply(ply)

    async def close(self) -> None:
        """Stop the child process; idempotent."""
        await self._process.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
