"""The bridge against the simulated board over a real pseudo-terminal and pyserial."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest
import serial

from firmware_bridge import (
    Blink,
    BoardLink,
    Frame,
    IncompatibleProtocolError,
    Led,
    LedFrame,
    LinkState,
    encode_frame,
)
from hardware.board.geometry import board_from_cells
from hardware.runtimes import RUNTIMES
from hardware.simulator import START, BoardSimulator
from tests.firmware_bridge.conftest import (
    FAST,
    ON_EVERY_RUNTIME,
    PATIENCE_S,
    fast_link,
    watched,
)


def _run(body: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 5 * PATIENCE_S))


def _board(sim: BoardSimulator) -> tuple[int, ...]:
    return board_from_cells(sim.truth())


@ON_EVERY_RUNTIME
def test_handshake_then_the_starting_position(sim: BoardSimulator) -> None:
    async def body() -> None:
        async with watched(sim.path) as (link, watcher):
            observation = watcher.observations[-1]
            assert not observation.inconsistent and observation.problems == ()
            assert watcher.states[:3] == [LinkState.SEARCHING, LinkState.SYNCING, LinkState.LIVE]
            counters = link.counters
            assert counters.connects == 1 and counters.snapshots >= 1
            assert counters.bad_crc == counters.resyncs == 0

    _run(body)


def test_a_move_sequence_is_read_move_by_move(sim: BoardSimulator) -> None:
    async def body() -> None:
        async with watched(sim.path, settle_s=0.12) as (_link, watcher):
            expected = [START]
            # Gestures, legal or not (the bridge knows no rules): a slide 24/20, then 13/9,
            # a hit on 20 by player 1, and player 0 entering from the bar on 22.
            gestures = [
                lambda: sim.board.slide(23, 19, step_s=0.015),  # over points 23, 22, 21
                lambda: sim.board.move(12, 8),
                lambda: sim.board.hit(0, 19),  # player 1 from point 1 hits the blot on 20
                lambda: sim.board.move(24, 21),  # player 0 enters from the bar on point 22
            ]
            for gesture in gestures:
                await asyncio.to_thread(gesture)
                expected.append(_board(sim))
                await watcher.board(expected[-1])
            assert [o.board for o in watcher.observations] == expected
            assert not any(o.inconsistent for o in watcher.observations)
            assert expected[3][25] == 1 and expected[4][25] == 0  # hit, then entered

    _run(body)


@ON_EVERY_RUNTIME
def test_garbage_never_crashes_and_no_valid_frame_is_lost(sim: BoardSimulator) -> None:
    rng = random.Random(3)
    tapped: list[Frame] = []

    async def body() -> None:
        async with watched(sim.path, on_frame=tapped.append) as (link, watcher):
            first_sent = len(sim.sent)
            injected = 0
            moves = [(23, 19), (19, 23)] * 5
            for round_ in range(100):
                if round_ % 2:
                    garbage = rng.randbytes(1000)
                else:  # copies of real frames with bits flipped: corrupted frames, and
                    # intact old ones, which must not be applied twice
                    frame = bytearray()
                    while len(frame) < 1000:
                        frame += rng.choice(sim.sent[-20:])
                    del frame[1000:]
                    for _ in range(40):
                        frame[rng.randrange(len(frame))] ^= 1 << rng.randrange(8)
                    garbage = bytes(frame)
                sim.inject(garbage)
                injected += len(garbage)
                if round_ % 10 == 9:
                    source, destination = moves[round_ // 10]
                    await asyncio.to_thread(sim.board.move, source, destination)
                    await watcher.board(_board(sim))
                else:
                    await asyncio.sleep(0.002)
            assert injected == 100_000
            await asyncio.sleep(0.3)  # the last frames in flight arrive
            sent = sim.sent[first_sent : len(sim.sent) - 5]
            received = {encode_frame(frame) for frame in tapped}
            missing = [data for data in sent if data not in received]
            assert missing == [], f"{len(missing)} valid frames lost after garbage"
            assert received <= set(sim.sent), "a frame the board never sent was accepted"
            counters = link.counters
            assert counters.resyncs > 100 and counters.bad_crc + counters.bad_cobs > 0
            assert counters.frames_repeated > 0 and counters.frames_lost < 100
            assert counters.reconnects == 0 and link.state == LinkState.LIVE
            assert watcher.observations[-1].board == _board(sim) == START
            assert not any(o.inconsistent for o in watcher.observations)

    _run(body)


@ON_EVERY_RUNTIME
def test_twenty_unplugs_mid_game_lose_nothing_and_read_nothing_twice(
    sim: BoardSimulator,
) -> None:
    async def body() -> None:
        async with watched(sim.path) as (link, watcher):
            expected = [START]
            moves = [(23, 19), (12, 8), (7, 4), (5, 1)]
            for cycle in range(20):
                source, destination = moves[cycle % 4]
                if cycle % 8 >= 4:
                    source, destination = destination, source
                sim.disconnect()
                if cycle % 2 == 0:  # a move while unplugged: replayed on reconnect
                    await asyncio.to_thread(sim.board.move, source, destination)
                await asyncio.sleep(0.03)
                sim.reconnect(power_cycle=cycle % 5 == 4)
                await watcher.state(LinkState.SEARCHING)
                watcher.states.clear()
                await link.wait_for(LinkState.LIVE, PATIENCE_S)
                if cycle % 2 == 1:  # a move right after the replug
                    await asyncio.to_thread(sim.board.move, source, destination)
                expected.append(_board(sim))
                await watcher.board(expected[-1])
            assert [o.board for o in watcher.observations] == expected
            counters = link.counters
            # At least one reconnect a replug; a busy machine may add some, harmlessly.
            assert counters.reconnects >= 20 and counters.events_replayed >= 8
            assert counters.replays >= 10 and counters.board_reboots == 4
            assert counters.change_mismatches == counters.snapshot_mismatches == 0
            assert link.state == LinkState.LIVE

    _run(body)


@ON_EVERY_RUNTIME
def test_a_silent_board_goes_stale_then_the_link_reconnects(sim: BoardSimulator) -> None:
    async def body() -> None:
        async with watched(sim.path) as (link, watcher):
            watcher.states.clear()
            sim.mute()
            await watcher.state(LinkState.STALE)
            await watcher.state(LinkState.SEARCHING)
            sim.mute(False)
            await link.wait_for(LinkState.LIVE, PATIENCE_S)
            assert watcher.states[:3] == [LinkState.STALE, LinkState.SEARCHING, LinkState.SYNCING]
            counters = link.counters
            assert counters.heartbeat_timeouts >= 1 and counters.stale_periods >= 1
            assert len(watcher.observations) == 1  # the same board: not read again

    _run(body)


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_an_incompatible_board_is_refused(tmp_path: Path, runtime: str) -> None:
    async def body() -> None:
        with BoardSimulator(
            link=tmp_path / "b", settings=FAST, protocol=(2, 0), runtime=runtime
        ) as sim:
            async with fast_link(sim.path) as link:
                with pytest.raises(
                    IncompatibleProtocolError,
                    match=r"speaks protocol 2.0; this host speaks 1.1: update the firmware",
                ):
                    await link.wait_for(LinkState.LIVE, PATIENCE_S)
                with pytest.raises(IncompatibleProtocolError):
                    async for _ in link.updates():
                        pass

    _run(body)


def test_dropped_and_corrupted_bytes_are_recovered(sim: BoardSimulator) -> None:
    async def body() -> None:
        async with watched(sim.path) as (link, watcher):
            await asyncio.sleep(0.15)
            sim.corrupt(60)  # the next CHANGE and SNAPSHOT get a flipped bit per byte
            await asyncio.to_thread(sim.board.move, 23, 19)
            await watcher.board(_board(sim))
            sim.drop(61)
            await asyncio.to_thread(sim.board.move, 19, 23)
            await watcher.board(START)
            counters = link.counters
            assert counters.gaps >= 1 and counters.resyncs >= 2
            assert counters.reconnects == 0

    _run(body)


@ON_EVERY_RUNTIME
def test_sensor_faults_make_the_location_unknown(sim: BoardSimulator) -> None:
    async def body() -> None:
        async with watched(sim.path) as (link, watcher):
            sim.noise(5, 0, 2000)  # an occupied slot: stays a checker (hysteresis)
            sim.noise(6, 0, 3000)  # an empty slot: stays empty
            await asyncio.sleep(0.4)
            assert len(watcher.observations) == 1
            sim.stick(5, 2, 0)  # a dead sensor on point 6
            async with asyncio.timeout(PATIENCE_S):
                while not watcher.observations[-1].inconsistent:
                    await asyncio.sleep(0.01)
            observation = watcher.observations[-1]
            assert observation.unknown == frozenset({5})
            assert observation.problems == ("point 6 unknown",)
            sim.clear_faults()
            await watcher.board(START)
            assert not watcher.observations[-1].inconsistent
            assert link.counters.board_errors >= 2  # fault, then recovered

    _run(body)


@ON_EVERY_RUNTIME
def test_led_frames_reach_the_chain_and_survive_a_replug(sim: BoardSimulator) -> None:
    async def body() -> None:
        async with fast_link(sim.path) as link:
            await link.wait_for(LinkState.LIVE, PATIENCE_S)
            frame = LedFrame((Led(0, 255, 0),) * 3 + (Led(255, 0, 0, Blink.FAST),))
            link.send_leds(frame)
            async with asyncio.timeout(PATIENCE_S):
                while sim.leds.pixels[0] != (0, 255, 0):
                    await asyncio.sleep(0.01)
            sim.reconnect(power_cycle=True)  # the new board starts dark
            assert sim.leds.pixels[0] == (0, 255, 0)  # the chain keeps its light...
            async with asyncio.timeout(PATIENCE_S):
                while sim.led_frame[:1] != [(0, 255, 0, 0)]:
                    await asyncio.sleep(0.01)  # ...and the new firmware got the frame again
                while link.counters.acks < 2:  # its ack may still be on the wire
                    await asyncio.sleep(0.01)
            assert link.counters.leds_sent >= 2

    _run(body)


def test_close_is_idempotent_and_a_closed_link_refuses_use(sim: BoardSimulator) -> None:
    async def body() -> None:
        link = fast_link(sim.path)
        async with link:
            await link.wait_for(LinkState.LIVE, PATIENCE_S)
        await link.close()
        with pytest.raises(Exception, match=r"is closed"):
            link.send_leds(LedFrame())
        with pytest.raises(Exception, match=r"is closed"):
            link.start()
        assert isinstance(link, BoardLink)

    _run(body)


def test_close_ends_a_link_woken_by_a_frame_at_that_moment(sim: BoardSimulator) -> None:
    # Python 3.11's wait_for swallowed the cancellation that came with a frame's wake
    # while an observation settled: close() never returned (tabula demo hung after a match).
    async def body() -> None:
        link = fast_link(sim.path, settle_s=PATIENCE_S)  # the observation stays pending
        async with link:
            await link.wait_for(LinkState.LIVE, PATIENCE_S)
            await asyncio.to_thread(sim.board.stack, 3, 0, 1)
            while link._settler.deadline() is None:
                await asyncio.sleep(0.001)
            for _ in range(5):  # the settle loop now waits for the deadline
                await asyncio.sleep(0)
            link._settle_wake.set()  # a frame's wake, in the same turn as the close
            closing = asyncio.create_task(link.close())
            done, _ = await asyncio.wait([closing], timeout=PATIENCE_S)
            assert closing in done, "close() did not end the link"

    _run(body)


def test_a_cancelled_close_is_not_swallowed(sim: BoardSimulator) -> None:
    # One Ctrl-C cancels whoever is closing the link: close() swallowed it and they went on.
    async def body() -> None:
        link = fast_link(sim.path)
        await link.__aenter__()
        await link.wait_for(LinkState.LIVE, PATIENCE_S)
        closing = asyncio.create_task(link.close())
        while link._task is not None:  # until close() waits for the link's task to end
            await asyncio.sleep(0)
        closing.cancel()
        await asyncio.wait([closing], timeout=PATIENCE_S)
        assert closing.cancelled()

    _run(body)


@pytest.fixture(params=["simulator", "board"])
def device(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The simulated board, and the real one when it is plugged in."""
    if request.param == "board":
        path = os.environ.get("TABULA_BOARD", "/dev/tabula-board")
        if not os.path.exists(path):
            pytest.skip(f"no sensor board at {path} (set TABULA_BOARD to its device)")
        yield path
        return
    with BoardSimulator(link=tmp_path / "board", settings=FAST) as sim:
        yield sim.path


def test_any_board_shakes_hands_and_reports_a_stable_position(device: str) -> None:
    async def body() -> None:
        async with fast_link(device) as link:
            await link.wait_for(LinkState.LIVE, PATIENCE_S)
            async for update in link.updates():
                if not isinstance(update, LinkState):
                    assert len(update.board) == 26 and len(update.cells) == 28
                    break
            counters = link.counters
            assert counters.frames_ok >= 2 and counters.bad_crc == 0
            assert counters.snapshots >= 1 and counters.reconnects == 0

    _run(body)


def test_a_port_that_vanishes_between_the_open_and_the_flush_costs_a_reconnect(
    sim: BoardSimulator,
) -> None:
    """pyserial's tcflush raises ``termios.error`` (not an OSError) on a vanished pty."""
    vanished: list[str] = []

    def open_then_unplug(path: str, baudrate: int) -> Any:
        port = serial.serial_for_url(path, baudrate=baudrate, timeout=0, exclusive=True)
        if len(vanished) < 3:  # the cable is knocked right after the open, three times
            vanished.append(port.name)
            sim.reconnect(power_cycle=len(vanished) == 2)
        return port

    async def body() -> None:
        async with watched(sim.path, open_serial=open_then_unplug) as (link, watcher):
            assert len(vanished) == 3 and link.state == LinkState.LIVE
            await asyncio.to_thread(sim.board.move, 23, 19)
            await watcher.board(_board(sim))
            assert link.problem is None
        assert link.counters.connects + link.counters.reconnects >= 4

    _run(body)


def test_close_ends_the_link_even_when_the_board_vanishes_at_that_moment(
    sim: BoardSimulator,
) -> None:
    """A cancellation that meets a lost session is not swallowed (3.11's TaskGroup did)."""

    async def body() -> list[int]:
        hung = []
        for delay in range(40):
            link = fast_link(sim.path)
            link.start()
            await link.wait_for(LinkState.LIVE, PATIENCE_S)
            sim.disconnect()
            for _ in range(delay % 20):  # the loss is met at every step of the session's end
                await asyncio.sleep(0 if delay < 20 else 0.0005)
            closing = asyncio.ensure_future(link.close())
            # Progress, not time: a closing link ends within its loop's next turns; a
            # swallowed cancellation never ends at all, so any bound tells them apart.
            done, _ = await asyncio.wait({closing}, timeout=PATIENCE_S)
            if not done:
                hung.append(delay)
            sim.reconnect()
        return hung

    # A loop of its own, not asyncio.run: a swallowed cancellation must fail the test,
    # not hang it in asyncio.run's final cancellation of the leftover tasks.
    loop = asyncio.new_event_loop()
    try:
        assert loop.run_until_complete(body()) == []
    finally:
        loop.close()


def test_a_missing_device_is_named_with_why_the_link_waits(tmp_path: Path) -> None:
    async def body() -> None:
        link = fast_link(str(tmp_path / "no-board"))
        async with link:
            states = link.updates()
            assert await anext(states) == LinkState.SEARCHING
            assert await anext(states) == LinkState.SEARCHING  # again, now with its reason
            assert link.problem is not None
            assert "cannot open" in link.problem and "no-board" in link.problem

    _run(body)
