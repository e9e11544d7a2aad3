from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.soak.hands import VideoSource, check, hand_over, watch
from vision import (
    Calibration,
    DiceReader,
    Die,
    RollReading,
    RollWatcher,
    SettleDetector,
    SyntheticSource,
    Verdict,
    WatchState,
    frame_change,
    leaning_over,
    render_roll,
    shadow_video,
    with_noise,
)
from vision._reader import BoardView
from vision._synth import _checker_stack, _draw_checkers, with_clutter


def _noisy(image: np.ndarray, seed: int, sigma: float = 3.0) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0, sigma, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


class Frames:
    """A frame source over a list of frames (a recorded video)."""

    def __init__(self, frames: list[np.ndarray]) -> None:
        self._frames = frames

    def read(self) -> np.ndarray | None:
        return self._frames.pop(0) if self._frames else None

    def close(self) -> None:
        self._frames = []


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_threshold_derives_from_measured_noise() -> None:
    still = render_roll(random.Random(1)).image
    quiet = SettleDetector(noise_factor=3.0, floor=0.0)
    loud = SettleDetector(noise_factor=3.0, floor=0.0)
    quiet_noise = quiet.measure_noise([_noisy(still, i, 1.0) for i in range(6)])
    loud_noise = loud.measure_noise([_noisy(still, i, 8.0) for i in range(6)])
    assert 0 < quiet_noise < loud_noise
    assert loud.threshold == pytest.approx(3.0 * loud_noise)


def test_settles_after_n_still_frames_and_not_while_dice_move() -> None:
    clock = FakeClock()
    detector = SettleDetector(frames=3, min_still=0.75, clock=clock)
    detector.measure_noise([_noisy(render_roll(random.Random(0)).image, i) for i in range(4)])
    for k in range(5):  # dice tumbling: a different picture each frame
        clock.now += 0.25
        assert not detector.update(_noisy(render_roll(random.Random(10 + k)).image, k))
    still = render_roll(random.Random(99)).image
    results = []
    for k in range(6):
        clock.now += 0.25
        results.append(detector.update(_noisy(still, 100 + k)))
    # Frame 0 still differs from the last moving frame; then 3 still frames and 0.75 s.
    assert results == [False, False, False, False, True, True]


def test_watcher_reads_settled_rolls_by_vote_and_sees_dice_lifted() -> None:
    source = SyntheticSource(random.Random(7), count=3, moving=3, settled=6, empty=4)
    reader = DiceReader(Calibration.identity(), expected_dice=2)
    reader.set_background(source.empty_board())
    watcher = RollWatcher(lambda: source, reader, settle=SettleDetector(frames=2), votes=3,
                          reopen_s=0.0)  # past the end at once
    events = []
    states = set()
    for _ in range(3 * 13 + 4):
        event = watcher.step()
        states.add(watcher.state)
        if event is not None:
            events.append(event)
    kinds = [e.kind for e in events]
    assert kinds.count("lifted") >= 2
    rolls = [e for e in events if e.kind == "roll"]
    assert len(rolls) == 3
    right = 0
    for event, roll in zip(rolls, source.rolls, strict=True):
        assert event.reading is not None and event.votes == 3
        truth = tuple(sorted((d.value for d in roll.dice), reverse=True))
        right += event.reading.verdict is Verdict.OK and event.reading.values == truth
    assert right >= 2
    assert {WatchState.MOVING, WatchState.SETTLED, WatchState.EMPTY} <= states
    for _ in range(4):
        watcher.step()
    assert watcher.state is WatchState.SEARCHING


@pytest.mark.parametrize("seed", [1, 2])
def test_watcher_reads_one_roll_under_a_changed_light_and_a_moving_shadow(seed: int) -> None:
    # The empty board was learnt under another light. A shadow crossing fast is motion
    # (as a hand is): the watcher waits. Resting or creeping (5 pixels a frame, under the
    # camera's noise), it is still: the roll is read under it, once, and right.
    roll = render_roll(random.Random(seed), light_change=0.3, cast_shadow=True)
    tumbling = [render_roll(random.Random(100 * seed + k)).image for k in range(3)]
    video = [*tumbling, *shadow_video(roll, 8, end=0.45), *shadow_video(roll, 6, start=0.45,
                                                                         end=0.45)]
    video += shadow_video(roll, 20, start=0.45, end=0.55)
    hand = video[-1].copy()
    hand[:, hand.shape[1] // 2 :] //= 3  # a hand picks the dice up
    video += [hand, *shadow_video(roll, 12, start=0.55, end=0.6, empty=True)]
    frames = [_noisy(image, k, 2.0) for k, image in
              enumerate([roll.background] * 10 + video)]
    reader = DiceReader(Calibration.identity(), expected_dice=2)
    watcher = RollWatcher(lambda: Frames(frames), reader, settle=SettleDetector(frames=2),
                          votes=3)
    events = [event for _ in range(len(frames)) if (event := watcher.step()) is not None]
    truth = tuple(sorted((d.value for d in roll.dice), reverse=True))
    kinds = [(e.kind, e.reading.values if e.reading else (),
              e.reading.verdict if e.reading else None) for e in events]
    assert kinds == [("roll", truth, Verdict.OK), ("lifted", (), None)], (roll.light, events)


def test_a_cluttered_frame_is_said_and_not_learnt_as_the_empty_board() -> None:
    roll = render_roll(random.Random(5))
    clutter = with_clutter(replace(roll, image=roll.background), random.Random(5), 30).image
    # The first frames are the board alone: the watcher learns the camera's noise on them.
    frames = [_noisy(image, k) for k, image in
              enumerate([roll.background] * 10 + [clutter] * 6 + [roll.image] * 6)]
    reader = DiceReader(Calibration.identity(), expected_dice=2)
    watcher = RollWatcher(lambda: Frames(frames), reader, settle=SettleDetector(frames=2),
                          votes=3)
    events = [event for _ in range(len(frames)) if (event := watcher.step()) is not None]
    readings = [e.reading for e in events if e.reading is not None]
    assert [(r.verdict, r.values) for r in readings] == [
        (Verdict.UNREADABLE, ()), (Verdict.OK, tuple(sorted((d.value for d in roll.dice),
                                                            reverse=True)))], events
    assert "cluttered" in readings[0].reason


def test_frame_change_is_zero_for_equal_frames() -> None:
    image = render_roll(random.Random(2)).image
    from vision import frame_change

    assert frame_change(image, image) == 0.0
    assert frame_change(image, cv2.GaussianBlur(image, (9, 9), 3)) > 0.5


# Hands over dice that stayed put (rendered video, see tests/soak/hands.py): a roll is new
# only when the dice were lifted in between or moved.


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader(Calibration.identity(), expected_dice=2)


@pytest.mark.parametrize(
    ("scene", "seed"),
    [
        ("crossing", 1),
        ("leaning-both", 2),
        ("leaning-one", 3),
        ("leaning-board", 4),
        ("nudged", 9),
        ("rolled-again", 6),
        ("one-lifted-first", 7),
    ],
)
def test_a_roll_is_new_only_when_the_dice_were_lifted_or_moved(
    scene: str, seed: int, reader: DiceReader
) -> None:
    # Before the fix: a second roll after each hand, and a third after a lean.
    assert check(scene, seed, reader) is None


def test_a_player_leaning_over_the_dice_is_covered_and_never_learnt_as_the_board(
    reader: DiceReader,
) -> None:
    rng = random.Random(8)
    roll = render_roll(random.Random(8), board_seed=8)
    boxes = [die.box for die in roll.dice]
    still = [with_noise(roll.image, rng) for _ in range(5)]
    frames = still + leaning_over(roll.image, boxes, rng, cover="both")
    reader.set_background(roll.background)
    settle = SettleDetector(frames=2)
    settle.measure_noise(still)
    source = VideoSource(frames)
    watcher = RollWatcher(lambda: source, reader, settle=settle, votes=2)
    kinds = [event.kind for event in (watcher.step() for _ in frames) if event is not None]
    assert kinds == ["roll"]
    assert watcher.state is WatchState.COVERED
    # The board learnt is still the empty one: the dice are read against it.
    assert len(reader.read(roll.image).dice) == 2


@pytest.mark.xfail(strict=True, reason=(
    "known (python -m tests.soak hands, new seeds): rolled-again 4175, the hand that lifted "
    "the dice was learnt with the empty board and, gone, hides it for good (3.4% of the "
    "view): the watcher stays covered and the roll thrown again is never read; nudged "
    "4225, the die pushed is not read as a new roll"
))  # fmt: skip
@pytest.mark.parametrize(("scene", "seed"), [("rolled-again", 4175), ("nudged", 4225)])
def test_rolls_lost_in_rendered_videos_found_by_the_soak(
    scene: str, seed: int, reader: DiceReader
) -> None:
    assert check(scene, seed, reader) is None


def _checkers_moved(seed: int, points: int, reader: DiceReader) -> list[str]:
    """The events of a rendered turn: the empty board learnt, a roll thrown, four checkers
    moved ``points`` points on along the far row of the left half, the dice lifted, and a
    new roll thrown, each change made by a hand."""

    def with_checkers(image: np.ndarray, point: int) -> np.ndarray:
        out = image.copy()
        _draw_checkers(out, _checker_stack(point, 4, right=False), random.Random(1))
        return out

    roll = render_roll(random.Random(seed), board_seed=seed)
    again = render_roll(random.Random(seed + 500), board_seed=seed)
    boxes = [die.box for die in roll.dice]
    rng = random.Random(seed)
    board, thrown = with_checkers(roll.background, 1), with_checkers(roll.image, 1)
    moved = with_checkers(roll.image, 1 + points)
    cleared = with_checkers(roll.background, 1 + points)
    frames = [with_noise(board, rng) for _ in range(5)] + hand_over(board, thrown, boxes, rng)
    frames += hand_over(thrown, moved, boxes, rng) + hand_over(moved, cleared, boxes, rng)
    frames += hand_over(cleared, with_checkers(again.image, 1 + points), boxes, rng)
    return watch(frames, board, reader).kinds


@pytest.mark.parametrize("seed", [0, 7, 11])
def test_four_checkers_moved_two_points_on_are_no_cover(seed: int, reader: DiceReader) -> None:
    # A 2-2 played 13/11(4): two columns of four checkers, 3.2% of the view, a point
    # apart. Joining pieces that hide the board a point's width apart (6bca86d, reverted)
    # made them a cover here, and the lift and the next roll went unseen.
    assert _checkers_moved(seed, 2, reader) == ["roll", "lifted", "roll"]


@pytest.mark.xfail(strict=True, reason=(
    "known: four checkers moved to the next point (a 1-1 played 6/5(4)) are one part of "
    "3.2% of the view that hides the learnt board, a cover, which the reader also takes "
    "for a leaning die; the watcher stays covered and reads no roll again (0 of 20 "
    "rendered turns right). No share of the view tells them from an arm (leans hide 1.7 "
    "to 15%): the sensor board, which knows the checkers moved, must tell the camera."
))  # fmt: skip
@pytest.mark.parametrize("seed", [4, 6])
def test_four_checkers_moved_to_the_next_point_leave_the_rolls_read(
    seed: int, reader: DiceReader
) -> None:
    assert _checkers_moved(seed, 1, reader) == ["roll", "lifted", "roll"]


def test_the_board_is_seen_uncovered_again_without_movement(reader: DiceReader) -> None:
    # A watcher that never sees movement (the arm drawn back too slowly, or a settle
    # threshold not yet fitted to the camera) must still read the roll once the arm is gone.
    rng = random.Random(10)
    roll = render_roll(random.Random(10), board_seed=10)
    boxes = [die.box for die in roll.dice]
    empty = [with_noise(roll.background, rng) for _ in range(3)]
    leaning = leaning_over(roll.image, boxes, rng, cover="both", frames=4)
    frames = empty + leaning + [with_noise(roll.image, rng) for _ in range(3)]
    reader.set_background(roll.background)
    source = VideoSource(frames)
    watcher = RollWatcher(lambda: source, reader, settle=SettleDetector(frames=1, floor=1e9))
    states, kinds = [], []
    for _ in frames:
        event = watcher.step()
        states.append(watcher.state)
        kinds += [event.kind] if event is not None else []
    assert WatchState.COVERED in states
    assert kinds == ["roll"]


def _die(value: int, x: int, confidence: float = 0.95) -> Die:
    return Die(value, (x, 100, x + 30, 130), confidence)


def test_dice_that_stayed_put_are_the_same_dice_even_read_unsure_or_fewer() -> None:
    from vision._settle import _same_dice

    last = RollReading((_die(5, 400), _die(2, 500)), Verdict.OK)
    same = RollReading((_die(2, 505), _die(5, 396)), Verdict.OK)
    assert _same_dice(same, last, 0.8)
    assert _same_dice(RollReading((_die(2, 500),), Verdict.REROLL), last, 0.8)  # one lifted
    # A face read unsure on either reading is no proof that the die was turned.
    assert _same_dice(RollReading((_die(5, 400), _die(3, 500, 0.6)), Verdict.UNREADABLE), last, 0.8)
    assert not _same_dice(RollReading((_die(5, 400), _die(3, 500)), Verdict.OK), last, 0.8)
    assert not _same_dice(RollReading((_die(5, 400), _die(2, 515)), Verdict.OK), last, 0.8)
    three = RollReading((_die(5, 400), _die(2, 500), _die(2, 500)), Verdict.UNREADABLE)
    assert not _same_dice(three, last, 0.8)


def test_a_hand_coming_in_at_start_up_is_movement_not_the_camera_noise() -> None:
    # The noise was the low quantile of the changes seen: after one change (a hand coming
    # in), three times that change, so the hand counted as still and was learnt as the
    # empty board.
    board = render_roll(random.Random(3)).background
    hand = board.copy()
    hand[:, : hand.shape[1] // 8] //= 3
    settle = SettleDetector(frames=1)
    assert not settle.update(board)
    assert not settle.update(hand)
    assert not settle.update(board)
    assert settle.update(board)  # the still board, at last


def test_a_settled_frame_is_warped_to_the_board_view_once() -> None:
    """A settled frame is asked whether the board is covered, which dice it shows, and
    (dice gone) whether the board is seen where they lay before it is learnt: a real
    camera's frame is warped once for all of these (each warp costs about what reading
    two dice does)."""
    from vision import calibrate
    from vision._scene3d import render_oblique

    class CountedCalibration(Calibration):
        warps = 0

        def warp(self, frame: np.ndarray) -> np.ndarray:
            CountedCalibration.warps += 1
            return super().warp(frame)

    roll = render_oblique(random.Random(21), tilt=30)
    found, _markers = calibrate(roll.background)
    calibration = CountedCalibration(found.homography, found.board_size, found.frame_size)
    reader = DiceReader(calibration, expected_dice=2)
    reader.set_background(roll.background)
    rng = random.Random(21)
    hand = np.full_like(roll.image, 90)  # the dice lifted: a hand over the whole view
    frames = [with_noise(image, rng)
              for image in [roll.image] * 3 + [hand] + [roll.background] * 3]
    settle = SettleDetector(frames=1)
    settle.measure_noise(frames[:3])
    source = Frames(list(frames))
    watcher = RollWatcher(lambda: source, reader, settle=settle, votes=1)
    CountedCalibration.warps = 0
    kinds = [event.kind for event in (watcher.step() for _ in frames) if event is not None]
    assert kinds == ["roll", "lifted"]
    warps, count = CountedCalibration.warps, len(frames)
    assert warps <= count, f"{warps} warps for {count} frames"


class CountedReader(DiceReader):
    """The real reader, counting the settled frames it is asked about."""

    looks = 0

    def look(self, frame: np.ndarray) -> BoardView:
        self.looks += 1
        return super().look(frame)


@pytest.mark.parametrize("seed", [0, 2])
def test_an_idle_board_is_read_once_and_again_when_a_die_appears_unseen_moving(seed: int) -> None:
    """Issue 18 (a Pi): each frame of an idle board was read (about 7 ms here, a Pi's
    whole frame rate). It is read once, then only when the scene changes from it: even by
    one die, which the settle detector's mean over the frame does not see move."""
    roll = render_roll(random.Random(seed), board_seed=seed)
    rng = random.Random(seed)
    empty = [with_noise(roll.background, rng) for _ in range(30)]
    dice = [with_noise(roll.image, rng) for _ in range(3)]
    settle = SettleDetector(frames=1)
    settle.measure_noise(empty[:4])
    assert frame_change(empty[-1], dice[0]) < settle.threshold  # no movement seen
    reader = CountedReader(Calibration.identity(), expected_dice=2)
    reader.set_background(roll.background)
    source = VideoSource(empty + dice)
    watcher = RollWatcher(lambda: source, reader, settle=settle, votes=2)
    for _ in empty:
        assert watcher.step() is None
    assert watcher.state is WatchState.EMPTY
    assert reader.looks <= 2  # the first settled frame or two, not the 29
    events = [watcher.step() for _ in dice]
    assert [event.kind for event in events if event is not None] == ["roll"]
    read = next(event.reading for event in events if event is not None)
    assert read is not None
    assert sorted(die.value for die in read.dice) == sorted(die.value for die in roll.dice)


def test_an_idle_board_under_a_slowly_changing_light_is_read_again() -> None:
    """A change too slow to be movement still adds up to a read (the board learnt again)."""
    roll = render_roll(random.Random(4), board_seed=4)
    rng = random.Random(4)
    frames = [with_noise(roll.background, rng) for _ in range(6)]
    # Brighter by a fifth of a grey level a frame: 20 levels in 100 frames.
    frames += [
        with_noise(cv2.add(roll.background, np.full_like(roll.background, step // 5)), rng)
        for step in range(100)
    ]
    settle = SettleDetector(frames=1)
    settle.measure_noise(frames[:4])
    reader = CountedReader(Calibration.identity(), expected_dice=2)
    reader.set_background(roll.background)
    source = VideoSource(frames)
    watcher = RollWatcher(lambda: source, reader, settle=settle)
    states = []
    for _ in frames:
        assert watcher.step() is None
        states.append(watcher.state)
    assert set(states[1:]) == {WatchState.EMPTY}  # settled from the second frame on
    assert 2 < reader.looks < 50
