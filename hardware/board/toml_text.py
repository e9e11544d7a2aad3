"""TOML from outside (the configuration, the pin map, the calibration): every text that
is not TOML raises one ``ValueError``.

Why not ``tomllib.loads`` alone: it recurses into arrays and inline tables, so a line of
``x = [[[[...`` raised ``RecursionError`` out of ``tabula check-config``, a traceback where
a wrong file must get one line saying what is wrong. And a file saved by an editor that
starts it with a byte order mark (Windows' editors may, on a card read on a PC) is read as
the file it is: ``tomllib`` refused it as "Invalid statement (at line 1, column 1)".
"""

from __future__ import annotations

import tomllib

__all__ = ["loads"]

_BYTE_ORDER_MARK = "\ufeff"
"""What an editor may put first in a UTF-8 file, and TOML does not allow."""


def loads(text: str) -> dict[str, object]:
    """The tables of TOML ``text``: each value an ``object``, checked where it is read.

    Raises:
        ValueError: naming what is wrong: ``tomllib.TOMLDecodeError`` (its reason and
            line), or arrays and inline tables nested deeper than ``tomllib`` follows.
    """
    try:
        return tomllib.loads(text.removeprefix(_BYTE_ORDER_MARK))
    except RecursionError:
        raise ValueError("arrays or inline tables nested deeper than tomllib reads") from None
