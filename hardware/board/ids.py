"""The names a board goes by beyond itself: its id (in MQTT topics, the hub's archive
folders, the names of files) and the prefix of its topics.

Why one rule among the shared words: the configuration checks a board's id, the MQTT codec
every topic it sends and reads, and the hub makes a folder of it. They had a pattern each,
and both let "." and ".." through: a board publishing as ".." had the hub archive its
match in the archive folder's parent.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["ID_PATTERN", "ID_RULE", "is_id"]

ID_PATTERN: Final = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}"
"""A board's id or a topic prefix: one MQTT topic level, and a folder name other than
"." or ".." (its first character a letter or a digit)."""

ID_RULE: Final = "1 to 64 letters, digits, '_', '.' or '-', the first a letter or a digit"
""":data:`ID_PATTERN` in words, for the messages that refuse a name."""

_ID: Final = re.compile(ID_PATTERN)


def is_id(value: object) -> bool:
    """Whether ``value`` can be a board's id or a topic prefix (:data:`ID_PATTERN`).

    >>> is_id("table-7"), is_id("hall.3"), is_id(".."), is_id("a/b")
    (True, True, False, False)
    """
    return isinstance(value, str) and _ID.fullmatch(value) is not None
