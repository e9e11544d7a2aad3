"""Frozen slotted dataclasses made or copied without their ``__init__``, for the hot paths.

Why: resuming a journal folds every event into a new match snapshot and a new cube, and
reads every event back; :func:`dataclasses.replace` reads the fields' descriptions at each
call, and ``__init__`` runs checks that were made already (the value copied was checked, a
journal row's checksum vouches for the event written). :class:`Unchecked` reads a class's
fields once and sets them through their slots' own setters (the member descriptors),
which a frozen dataclass's ``__init__`` reaches by name, looking each slot up again. The
caller vouches for the values: no check is run.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, slots=True)
... class Cube:
...     value: int
...     owner: int | None = None
>>> Unchecked(Cube).copy(Cube(2, 0), {"value": 4})
Cube(value=4, owner=0)
>>> Unchecked(Cube).make({"value": 8})
Cube(value=8, owner=None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, fields
from operator import attrgetter
from typing import Any, Generic, TypeVar

__all__ = ["Unchecked"]

T = TypeVar("T")

_set_field: Callable[[object, str, object], None] = object.__setattr__


class Unchecked(Generic[T]):
    """Instances of the frozen slotted dataclass ``cls`` made or copied without checks.

    Make one per class, once (at import), and keep it: it reads the class's fields.
    """

    def __init__(self, cls: type[T]) -> None:
        self._cls = cls
        described = fields(cls)  # type: ignore[arg-type]
        names = tuple(field.name for field in described)
        # A subclass's slot wins over its base's: the later in the reversed MRO.
        slots = {
            name: slot for klass in reversed(cls.__mro__) for name, slot in vars(klass).items()
        }
        getter = attrgetter(*names)
        self._values: Callable[[T], tuple[Any, ...]] = (
            getter if len(names) > 1 else lambda instance: (getter(instance),)
        )
        self._setters: tuple[Callable[[T, Any], None], ...] = tuple(
            slots[name].__set__ for name in names
        )
        self._defaults = {
            field.name: field.default for field in described if field.default is not MISSING
        }

    def copy(self, instance: T, changes: Mapping[str, object]) -> T:
        """``instance`` with ``changes`` (new values by field name):
        :func:`dataclasses.replace` without ``__init__``.

        Raises:
            AttributeError: for a change that names no field.
        """
        copy: T = object.__new__(self._cls)
        for set_slot, value in zip(self._setters, self._values(instance), strict=True):
            set_slot(copy, value)
        for name, value in changes.items():
            _set_field(copy, name, value)
        return copy

    def make(self, values: Mapping[str, object]) -> T:
        """An instance with ``values`` and the defaults of the fields not given (every
        field without a plain default must be given).

        Raises:
            AttributeError: for a value that names no field.
        """
        instance: T = object.__new__(self._cls)
        for name, value in self._defaults.items():
            _set_field(instance, name, value)
        for name, value in values.items():
            _set_field(instance, name, value)
        return instance
