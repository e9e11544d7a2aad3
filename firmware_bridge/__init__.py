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
        sets = await link.read_raw_sets(5)    # raw readings (protocol 1.1)
        for verdict in classify_slots(sets, expected=START_CELLS):
            if verdict.health is not Health.OK:
                print(verdict.reason)

- :class:`BoardLink` ``(path, *, settle_s, open_serial, clock, ...)``: an async context
  manager; :attr:`~BoardLink.state`, :attr:`~BoardLink.counters` (a frozen
  :class:`Counters`), :attr:`~BoardLink.observation` (the latest),
  :meth:`~BoardLink.updates` (state changes and observations, in order),
  :meth:`~BoardLink.wait_for` (a state), :meth:`~BoardLink.send_leds`,
  :meth:`~BoardLink.read_raw` (one :class:`RawSet` of every slot's reading and class) and
  :meth:`~BoardLink.read_raw_sets` (several, from distinct scans).
- :func:`classify_slots`: each slot's :class:`SlotHealth` (ok, dead, noisy, stuck, open)
  and a one-line reason, from raw sets (:mod:`~firmware_bridge.slot_health`).
- :class:`Observation`: ``board`` (26 integers, the XGID layout of
  ``shared/data/backgammon-golden/README.md``), ``inconsistent``, ``unknown`` and
  ``mixed`` location sets, ``cells`` (28 per-location colour counts), ``problems``.
- The pure parts, for tools and tests: :mod:`~firmware_bridge.frames` (COBS + CRC-16),
  :mod:`~firmware_bridge.messages`, :mod:`~firmware_bridge.layout` (the cells' bytes
  and the observation; the locations themselves are :mod:`hardware.board.geometry`'s),
  :class:`Settler`, :class:`BoardSync`.
"""

from __future__ import annotations

from firmware_bridge.diagnostics import RawSet, RawSetAssembler, SlotReading
from firmware_bridge.errors import (
    BridgeError,
    DiagnosticsUnsupportedError,
    FrameError,
    IncompatibleProtocolError,
    LinkClosedError,
    MessageError,
    RawSetError,
)
from firmware_bridge.frames import Frame, FrameDecoder, decode_frame, encode_frame
from firmware_bridge.layout import Observation, observe
from firmware_bridge.leds import led_frame
from firmware_bridge.link import BoardLink, Counters, LinkState, LinkUpdate, SerialPort
from firmware_bridge.messages import (
    PROTOCOL_VERSION,
    Blink,
    HallThresholds,
    Led,
    LedFrame,
    Message,
    SlotClass,
    pack,
    unpack,
)
from firmware_bridge.settle import Settler
from firmware_bridge.slot_health import (
    SLOT_FAULTS,
    Health,
    SlotHealth,
    classify_slots,
    describe_slot,
    parse_slot,
    slot_label,
)
from firmware_bridge.sync import BoardSync

__all__ = [
    "PROTOCOL_VERSION",
    "SLOT_FAULTS",
    "Blink",
    "BoardLink",
    "BoardSync",
    "BridgeError",
    "Counters",
    "DiagnosticsUnsupportedError",
    "Frame",
    "FrameDecoder",
    "FrameError",
    "HallThresholds",
    "Health",
    "IncompatibleProtocolError",
    "Led",
    "LedFrame",
    "LinkClosedError",
    "LinkState",
    "LinkUpdate",
    "Message",
    "MessageError",
    "Observation",
    "RawSet",
    "RawSetAssembler",
    "RawSetError",
    "SerialPort",
    "Settler",
    "SlotClass",
    "SlotHealth",
    "SlotReading",
    "classify_slots",
    "decode_frame",
    "describe_slot",
    "encode_frame",
    "led_frame",
    "observe",
    "pack",
    "parse_slot",
    "slot_label",
    "unpack",
]
