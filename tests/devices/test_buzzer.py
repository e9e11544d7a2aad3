"""The buzzer's patterns, asserted on the mock pin's states, with an injected sleep."""

from __future__ import annotations

import asyncio

import pytest

from controller.devices import (
    ATTENTION,
    FAULT,
    ILLEGAL,
    BuzzPattern,
    DeviceClosedError,
    FaultBuzzer,
    SceneError,
)
from tests.devices.conftest import RecordingFactory

PIN = 18


class Sleeps:
    """An instant sleep recording (seconds, buzzer level while sleeping)."""

    def __init__(self, factory: RecordingFactory) -> None:
        self.factory = factory
        self.calls: list[tuple[float, bool]] = []

    async def __call__(self, seconds: float) -> None:
        self.calls.append((seconds, bool(self.factory.pin(PIN).state)))
        await asyncio.sleep(0)


def states(factory: RecordingFactory) -> list[bool]:
    return [s.state for s in factory.pin(PIN).states]


def test_fault_pattern(mock_factory: RecordingFactory) -> None:
    sleeps = Sleeps(mock_factory)
    with FaultBuzzer(PIN, sleep=sleeps) as buzzer:
        asyncio.run(buzzer.sound(FAULT))
        assert not buzzer.is_sounding
    assert states(mock_factory) == [False, True, False, True, False, True, False]
    assert sleeps.calls == [
        (0.08, True),
        (0.08, False),
        (0.08, True),
        (0.08, False),
        (0.08, True),
    ]


def test_attention_and_illegal(mock_factory: RecordingFactory) -> None:
    sleeps = Sleeps(mock_factory)
    with FaultBuzzer(PIN, sleep=sleeps) as buzzer:
        asyncio.run(buzzer.sound(ATTENTION))
        asyncio.run(buzzer.sound(ILLEGAL))
    assert states(mock_factory) == [False, True, False, True, False, True, False]
    assert sleeps.calls == [(0.04, True), (0.1, False), (0.04, True), (0.4, True)]


def test_a_new_pattern_cuts_the_old_one(mock_factory: RecordingFactory) -> None:
    gate = asyncio.Event()
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        if seconds == 0.4:
            await gate.wait()  # the long beep never ends by itself

    async def main() -> None:
        with FaultBuzzer(PIN, sleep=sleep) as buzzer:
            first = buzzer.play(ILLEGAL)
            await asyncio.sleep(0.01)
            assert buzzer.is_sounding
            second = buzzer.play(ATTENTION)
            await second
            assert first.cancelled()
            assert not buzzer.is_sounding

    asyncio.run(main())
    # On for the long beep, off when cut, then the two blips.
    assert states(mock_factory) == [False, True, False, True, False, True, False]
    assert sleeps == [0.4, 0.04, 0.1, 0.04]


def test_close_silences_a_playing_pattern(mock_factory: RecordingFactory) -> None:
    async def sleep(seconds: float) -> None:
        await asyncio.Event().wait()

    async def main() -> None:
        buzzer = FaultBuzzer(PIN, sleep=sleep)
        task = buzzer.play(ILLEGAL)
        await asyncio.sleep(0.01)
        buzzer.close()
        buzzer.close()
        await asyncio.gather(task, return_exceptions=True)
        assert task.cancelled()
        with pytest.raises(DeviceClosedError, match=r"^buzzer is closed$"):
            buzzer.play(FAULT)

    asyncio.run(main())
    assert states(mock_factory) == [False, True, False]


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ((), r"^buzz pattern 'x': no step$"),
        (((0.0, 0.1),), r"^buzz pattern 'x': step \(0\.0, 0\.1\) needs on > 0, off >= 0$"),
        (((0.1, -1.0),), r"^buzz pattern 'x': step \(0\.1, -1\.0\) needs on > 0, off >= 0$"),
        (((float("nan"), 0.0),), r"^buzz pattern 'x': step \(nan, 0\.0\)"),
        (((3.0, 2.5),), r"^buzz pattern 'x' lasts 5\.5 s: at most 5$"),
    ],
)
def test_bad_patterns(steps: tuple[tuple[float, float], ...], message: str) -> None:
    with pytest.raises(SceneError, match=message):
        BuzzPattern("x", steps)


def test_pattern_duration() -> None:
    assert (FAULT.duration, ILLEGAL.duration) == (pytest.approx(0.4), 0.4)
