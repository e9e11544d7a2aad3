"""The base64 text of GNU Backgammon's keys, shared by the Position ID and the Match ID.

Both IDs are the standard base64 of a little-endian bit key (10 bytes for a position,
9 for a match) without the ``=`` padding; a key is handled here as one integer whose
bit 0 is the key's first bit.
"""

from __future__ import annotations

import binascii
from typing import Final

__all__ = ["KeyTextError", "key_from_text", "text_from_key"]

_ALPHABET: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
)  # base64's


class KeyTextError(ValueError):
    """Why a text is not the base64 of a key (the caller names the ID)."""


def text_from_key(bits: int, size: int) -> str:
    """The ID text of a ``size``-byte key."""
    return _encoded(bits.to_bytes(size, "little"))


def key_from_text(text: str, size: int) -> int:
    """The key an ID text encodes.

    Raises:
        KeyTextError: for a wrong length, a character outside base64, or padding bits set.
    """
    length = (size * 8 + 5) // 6
    if len(text) != length:
        raise KeyTextError(f"expected {length} characters, got {len(text)}")
    for char in text:
        if char not in _ALPHABET:
            raise KeyTextError(f"{char!r} is not a base64 character")
    try:
        key = binascii.a2b_base64(text + "=" * (-len(text) % 4), strict_mode=True)
    except binascii.Error as error:  # pragma: no cover - the checks above prevent it
        raise KeyTextError(str(error)) from None
    if _encoded(key) != text:
        raise KeyTextError("the last character has padding bits set")
    return int.from_bytes(key, "little")


def _encoded(key: bytes) -> str:
    """``key`` in base64 without padding (binascii: what the ``base64`` module wraps, without
    the modules it imports on every start of ``tabula plays``)."""
    return binascii.b2a_base64(key, newline=False).decode("ascii").rstrip("=")
