"""The demo's pool of rendered rolls, kept in a file that several boards may write at once."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from controller.service.simulation import PoolRoll, RollPool


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
