"""The demo's pool of rendered rolls, kept in a file that several boards may write at once."""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

import numpy as np
import pytest

from controller.simulated.camera import PoolRoll, RollPool, _reader_version
from controller.simulated.demo import roll_pool


def small_pool(shade: int) -> RollPool:
    pool = RollPool.__new__(RollPool)
    pool.empty = np.full((8, 8, 3), shade, np.uint8)
    pool.rolls = [
        PoolRoll(np.full((8, 8, 3), shade, np.uint8), (6, 5), False, "far"),
        PoolRoll(np.zeros((8, 8, 3), np.uint8), (1, 1), True, "near"),
    ]
    return pool


def test_boards_saving_the_same_pool_at_once_leave_one_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "tabula-rolls-1.npz"
    errors: list[BaseException] = []

    def save(shade: int) -> None:
        try:
            for _ in range(20):
                small_pool(shade).save(path)
        except Exception as error:  # whatever a thread raised, reported below
            errors.append(error)

    threads = [threading.Thread(target=save, args=(shade,)) for shade in (10, 20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no partial file left
    with np.load(path) as data:
        assert int(data["empty"][0, 0, 0]) in (10, 20)
        assert data["dice"].tolist() == [[6, 5], [1, 1]]
        assert data["cocked"].tolist() == [False, True]
        assert data["thrower"].tolist() == ["far", "near"]


def test_now_and_then_a_roll_is_lit_otherwise_than_the_empty_board(tmp_path: Path) -> None:
    """The demo's games meet the room's light changing between the empty board and the
    roll (lamps, daylight, a player's shadow): such rolls are read right too."""
    pool = RollPool(3, sizes={("near", False): 4, ("far", False): 2, ("near", True): 2},
                    relit=0.5)
    relit = [roll for roll in pool.rolls if roll.relit]
    assert relit, "no roll lit otherwise"
    assert any(not roll.relit for roll in pool.rolls if not roll.cocked)
    for roll in relit:
        # The dice cover a few hundredths of the board: the quantiles are the board's.
        ratio = (roll.image.astype(np.float32) + 8) / (pool.empty.astype(np.float32) + 8)
        low, middle, high = np.percentile(ratio, [5, 50, 95])
        assert low < 0.9 or high > 1.1 or abs(middle - 1) > 0.03, (low, middle, high)
    path = tmp_path / "pool.npz"
    pool.save(path)
    with np.load(path) as data:
        assert data["relit"].tolist() == [roll.relit for roll in pool.rolls]


def test_a_long_run_holds_the_pools_its_boards_use_not_one_for_each_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A pool is 35 MB, and a run of matches goes through four seeds.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    for seed in range(4):
        small_pool(seed).save(tmp_path / f"tabula-rolls-{seed}-{_reader_version()}.npz")
    roll_pool.cache_clear()
    try:
        pools = [roll_pool(seed) for seed in range(4)]
        assert roll_pool(3) is pools[3]  # the next match of the same board: not read again
        assert roll_pool.cache_info().currsize == 1
        assert [int(pool.empty[0, 0, 0]) for pool in pools] == [0, 1, 2, 3]
    finally:
        roll_pool.cache_clear()
