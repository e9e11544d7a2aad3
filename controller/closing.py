"""The context-manager side of Tabula's edge objects, written once.

Why a base class: every device, link and socket holder has an idempotent ``close()``
and is used in ``with`` blocks (STYLE.md, convention 10); the ``__enter__``/``__exit__``
pair is the same for all of them. The asyncio side has its one way to stop a task.
"""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import Self

__all__ = ["Closing", "cancel_and_wait"]


async def cancel_and_wait(task: asyncio.Task[object]) -> None:
    """Cancel ``task`` and wait for its end; raise what it raised, unless cancelled.

    Why not ``task.cancel()`` then ``await task`` under ``suppress(CancelledError)``:
    that also swallows a cancellation of the caller (one Ctrl-C during a clean-up),
    which then carries on as if nothing had been asked.
    """
    task.cancel()
    await asyncio.wait([task])
    if not task.cancelled():
        task.result()


class Closing:
    """A base class whose ``with`` block ends with :meth:`close`."""

    __slots__ = ()

    def close(self) -> None:
        """Release what the object holds; subclasses override it, idempotently."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
