"""Host side of the serial link to Tabula's sensor board.

The board (``hardware/``) reports, per location, how many checkers of each colour it
senses; this package turns its frames (``hardware/PROTOCOL.md``) into stable
observations of the position, and survives garbage, unplugs and silent boards.

The service uses one class::

    from firmware_bridge import BoardLink, LinkState, Observation

    async with BoardLink("/dev/tabula-board", settle_s=0.3) as link:
        async for update in link.updates():
            if isinstance(update, Observation):
                print(update.board, update.inconsistent, update.problems)
            else:  # a LinkState: searching, syncing, live or stale
                print("board link", update)
        link.send_leds(LedFrame((Led(255, 0, 0, Blink.SLOW),)))

- :class:`BoardLink` ``(path, *, settle_s, open_serial, clock, ...)``: an async context
  manager; :attr:`~BoardLink.state`, :attr:`~BoardLink.counters` (a frozen
  :class:`Counters`), :attr:`~BoardLink.observation` (the latest),
  :meth:`~BoardLink.updates` (state changes and observations, in order),
  :meth:`~BoardLink.wait_for` (a state), :meth:`~BoardLink.send_leds`.
- :class:`Observation`: ``board`` (26 integers, the XGID layout of
  ``shared/data/backgammon-golden/README.md``), ``inconsistent``, ``unknown`` and
  ``mixed`` location sets, ``cells`` (28 per-location colour counts), ``problems``.
- The pure parts, for tools and tests: :mod:`~firmware_bridge.frames` (COBS + CRC-16),
  :mod:`~firmware_bridge.messages`, :mod:`~firmware_bridge.layout` (the cells' bytes
  and the observation; the locations themselves are :mod:`hardware.board.geometry`'s),
  :class:`Settler`, :class:`BoardSync`.
"""

from __future__ import annotations

from firmware_bridge.errors import (
    BridgeError,
    FrameError,
    IncompatibleProtocolError,
    LinkClosedError,
    MessageError,
)
from firmware_bridge.frames import Frame, FrameDecoder, decode_frame, encode_frame
from firmware_bridge.layout import Observation, observe
from firmware_bridge.leds import led_frame
from firmware_bridge.link import BoardLink, Counters, LinkState, LinkUpdate, SerialPort
from firmware_bridge.messages import (
    PROTOCOL_VERSION,
    Blink,
    Led,
    LedFrame,
    Message,
    pack,
    unpack,
)
from firmware_bridge.settle import Settler
from firmware_bridge.sync import BoardSync

__all__ = [
    "PROTOCOL_VERSION",
    "Blink",
    "BoardLink",
    "BoardSync",
    "BridgeError",
    "Counters",
    "Frame",
    "FrameDecoder",
    "FrameError",
    "IncompatibleProtocolError",
    "Led",
    "LedFrame",
    "LinkClosedError",
    "LinkState",
    "LinkUpdate",
    "Message",
    "MessageError",
    "Observation",
    "SerialPort",
    "Settler",
    "decode_frame",
    "encode_frame",
    "led_frame",
    "observe",
    "pack",
    "unpack",
]
