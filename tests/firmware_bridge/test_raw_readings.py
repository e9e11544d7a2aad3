"""Raw readings (protocol 1.1) through the real pty: broken slots found, old peers kept working."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
import serial

from firmware_bridge import (
    DiagnosticsUnsupportedError,
    Health,
    LinkState,
    MessageError,
    RawSetError,
    classify_slots,
    encode_frame,
)
from firmware_bridge.frames import Frame, FrameDecoder
from firmware_bridge.messages import (
    Diagnostic,
    DiagnosticRequest,
    ErrorCode,
    ErrorReport,
    HallThresholds,
    Hello,
    HelloRequest,
    Message,
    SlotClass,
    Snapshot,
    SnapshotRequest,
    pack,
    unpack,
)
from firmware_bridge.raw_requests import RawRequests
from hardware.board.geometry import cells_from_board
from hardware.simulator import START, BoardSimulator
from tests.firmware_bridge.conftest import FAST, ON_EVERY_RUNTIME, PATIENCE_S, fast_link

#: The message types of protocol 1.0: all a 1.0 host knows.
TYPES_1_0 = frozenset(range(0x01, 0x07))
LAYOUT = (5,) * 24 + (4, 4, 15, 15)
HALL = HallThresholds(32768, 4000, 2500, 11500, 10000, 1000, 64535)


def _run(body: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 5 * PATIENCE_S))


@ON_EVERY_RUNTIME
def test_every_kind_of_broken_slot_is_named_and_no_other(sim: BoardSimulator) -> None:
    broken = {(12, 1): "dead", (6, 0): "noisy", (2, 0): "stuck", (27, 3): "open"}
    for (location, slot), kind in broken.items():
        sim.fault(location, slot, kind)

    async def body() -> None:
        async with fast_link(sim.path) as link:
            sets = await link.read_raw_sets(10, timeout=PATIENCE_S)
        assert len({raw.scan for raw in sets}) == 10 and len(sets[0].readings) == 158
        verdicts = classify_slots(sets, expected=cells_from_board(START))
        found = {(v.location, v.slot): v for v in verdicts if v.health is not Health.OK}
        assert {place: v.health.value for place, v in found.items()} == broken, [
            v.reason for v in found.values()
        ]
        assert found[12, 1].reason == (
            "slot 13/2 (point 13, second sensor) reads 0 counts: no signal, check its wire and 3V3"
        )
        assert found[2, 0].reason.startswith(
            "slot 3/1 (point 3, first sensor) reads 41768 counts: a checker, but point 3 "
            "holds none: stuck"
        )
        assert "floating" in found[27, 3].reason and "noisy" in found[6, 0].reason

    _run(body)


def test_a_board_of_protocol_1_0_is_said_to_need_an_update_at_once(tmp_path: Path) -> None:
    with BoardSimulator(link=tmp_path / "b", settings=FAST, protocol=(1, 0)) as sim:

        async def body() -> None:
            async with fast_link(sim.path) as link:
                with pytest.raises(DiagnosticsUnsupportedError) as raised:
                    await link.read_raw(timeout=PATIENCE_S)
                assert str(raised.value) == (
                    "this board's firmware ('tabula-fw 1.0') does not send diagnostics "
                    "(protocol 1.0): update it"
                )
                assert link.state is LinkState.LIVE

        _run(body)


def _frames_1_0_host(port: serial.Serial, until: Callable[[list[Message]], bool]) -> list[Frame]:
    """Read frames as a 1.0 host does until ``until`` holds of the messages so far."""
    decoder = FrameDecoder()
    received: list[Frame] = []
    deadline = time.monotonic() + PATIENCE_S
    while time.monotonic() < deadline:
        received += [f for f in decoder.feed(port.read(4096)) if isinstance(f, Frame)]
        if until([unpack(f) for f in received if f.type in TYPES_1_0]):
            return received
    raise AssertionError(f"no progress after {len(received)} frames")


def test_a_host_of_protocol_1_0_never_sees_a_diagnostic_unasked(tmp_path: Path) -> None:
    """A 1.0 host (it knows types 1..6, says 1.0 in HELLO) follows a 1.1 board unchanged."""
    with (
        BoardSimulator(link=tmp_path / "b", settings=FAST, seed=3) as sim,
        serial.serial_for_url(str(sim.path), timeout=0.05, exclusive=True) as port,
    ):
        sim.fault(12, 1, "open")  # the board's own fault reports are 1.0 messages
        port.write(encode_frame(pack(HelloRequest(1, 0), 0)))
        port.write(encode_frame(pack(SnapshotRequest(), 1)))
        frames = _frames_1_0_host(port, lambda ms: any(isinstance(m, Snapshot) for m in ms))
        sim.board.move(23, 19)
        moved = cells_from_board(START)
        frames += _frames_1_0_host(
            port, lambda ms: any(isinstance(m, Snapshot) and m.cells != moved for m in ms)
        )
    assert {f.type for f in frames} <= TYPES_1_0
    hello = next(unpack(f) for f in frames if f.type == 0x01)
    assert isinstance(hello, Hello) and (hello.major, hello.minor) == (1, 1)  # 1.0 accepts it


def _part(first: int, count: int, set_number: int = 1, total: int = 158) -> Diagnostic:
    return Diagnostic(
        set_number, 9, 4, total, first, (32768,) * count, (SlotClass.EMPTY,) * count, HALL
    )


HELLO = Hello(1, 1, 31, 7, 4, 500, 64, LAYOUT, "tabula-fw 1.1")


def _answered(
    *answers: Message, timeout: float = PATIENCE_S
) -> Callable[[], Coroutine[Any, Any, None]]:
    """A request whose board answers ``answers``; what it raises, in its text."""

    async def body() -> None:
        requests = RawRequests()
        sent: list[Message] = []

        def send(message: Message) -> None:
            sent.append(message)
            for answer in answers:
                asyncio.get_running_loop().call_soon(requests.receive, answer)

        await requests.read(HELLO, send, timeout)
        assert sent == [DiagnosticRequest()]

    return body


SHORT = r"short raw set 1: slots 64..127 missing \(a frame was lost\)"
MIXED = r"mixed raw set: slots 64.. of set 2 after slots 0..63 of 158 from set 1"
OTHER_SIZE = r"corrupt raw set 1: 150 slots, but the board announced 158 in HELLO"
LATE = r"no whole raw set within 0.2 s: slots 0..63 of 158 from set 1 arrived"


@pytest.mark.parametrize(
    ("answers", "error", "timeout"),
    [
        ((_part(0, 64), _part(128, 30)), SHORT, PATIENCE_S),
        ((_part(0, 64), _part(64, 64, set_number=2)), MIXED, PATIENCE_S),
        ((_part(0, 64, total=150),), OTHER_SIZE, PATIENCE_S),
        ((_part(0, 64),), LATE, 0.2),  # the rest never comes: 0.2 s is only how long to wait
    ],
)
def test_a_short_or_mixed_set_is_an_error_never_half_a_set(
    answers: tuple[Message, ...], error: str, timeout: float
) -> None:
    with pytest.raises(RawSetError, match=error):
        _run(_answered(*answers, timeout=timeout))


def test_a_corrupt_frame_or_a_refusal_fails_the_request_with_why() -> None:
    async def corrupt() -> None:
        requests = RawRequests()

        def send(message: Message) -> None:
            bad = Frame(0x07, 0, bytes(27))
            with pytest.raises(MessageError) as caught:
                unpack(bad)
            requests.refuse(bad.type, caught.value)

        await requests.read(HELLO, send, PATIENCE_S)

    with pytest.raises(RawSetError, match=r"corrupt raw set: .*diagnostic of 0 readings"):
        _run(corrupt)
    refusal = ErrorReport(ErrorCode.UNKNOWN_TYPE, None, None, 0x85)
    with pytest.raises(
        DiagnosticsUnsupportedError,
        match=r"firmware \('tabula-fw 1.1'\) does not send diagnostics \(it refused the request\)",
    ):
        _run(_answered(refusal))
