"""The context-manager side of Tabula's edge objects, written once.

Why a base class: every device, link and socket holder has an idempotent ``close()``
and is used in ``with`` blocks (STYLE.md, convention 10); the ``__enter__``/``__exit__``
pair is the same for all of them.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self

__all__ = ["Closing"]


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
