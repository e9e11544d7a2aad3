from __future__ import annotations

import os
import random
import stat
import tomllib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import (
    BOARD_SIZE,
    Calibration,
    CalibrationError,
    annotate,
    calibrate,
    load_calibration,
    render_roll,
    save_calibration,
)


def _camera_view() -> tuple[np.ndarray, np.ndarray]:
    """A board with markers seen by a tilted camera, and the board-to-camera homography."""
    board = render_roll(random.Random(4), markers=True).image
    w, h = BOARD_SIZE
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    seen = np.float32([[80, 60], [880, 50], [900, 650], [70, 630]])
    to_camera = cv2.getPerspectiveTransform(corners, seen)
    frame = cv2.warpPerspective(board, to_camera, (960, 720), borderValue=(200, 200, 200))
    return frame, to_camera


def test_calibration_recovers_the_board_view() -> None:
    frame, to_camera = _camera_view()
    calibration, detection = calibrate(frame)
    assert sorted(detection.corners) == [0, 1, 2, 3]
    point = np.float64([[[400.0, 300.0]]])
    in_camera = cv2.perspectiveTransform(point, to_camera)
    back = cv2.perspectiveTransform(in_camera, calibration.matrix)
    assert np.allclose(back, point, atol=2.0)
    assert calibration.warp(frame).shape == (BOARD_SIZE[1], BOARD_SIZE[0], 3)
    assert annotate(frame, detection, calibration).shape == frame.shape


def test_calibration_without_markers_names_what_it_found() -> None:
    frame = render_roll(random.Random(4)).image
    with pytest.raises(CalibrationError, match=r"found markers \[\], need at least 4 of \[0, 1"):
        calibrate(frame)


def test_save_keeps_other_tables_and_replaces_only_calibration(tmp_path: Path) -> None:
    config = tmp_path / "tabula.toml"
    config.write_text(
        '[game]\nvariant = "backgammon"\n\n[camera]\nindex = 0\n\n'
        '[camera.calibration]\nhomography = 1\n\n[leds]\nbackend = "mcu"\n'
    )
    calibration = Calibration(((2.0, 0.0, 1.0), (0.0, 2.0, 3.0), (0.0, 0.0, 1.0)), (640, 480))
    save_calibration(config, calibration)
    data = tomllib.loads(config.read_text())
    assert data["game"] == {"variant": "backgammon"}
    assert data["leds"] == {"backend": "mcu"}
    assert data["camera"]["index"] == 0
    assert load_calibration(config) == calibration
    save_calibration(tmp_path / "new.toml", calibration)
    assert load_calibration(tmp_path / "new.toml") == calibration
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_calibrating_as_root_leaves_the_file_to_the_service(tmp_path: Path) -> None:
    """``sudo tabula calibrate`` writes the calibration into a file kept readable by the
    service's user alone: it stays so. It was made anew as root's, mode 0600, and the
    service could no longer read its camera's calibration."""
    config = tmp_path / "camera.toml"
    config.write_text("[camera]\nindex = 0\n")
    config.chmod(0o640)
    os.chown(config, 65534, 65534)  # the service's user: nobody here
    save_calibration(config, Calibration.identity())
    after = config.stat()
    assert (stat.S_IMODE(after.st_mode), after.st_uid, after.st_gid) == (0o640, 65534, 65534)
    assert load_calibration(config) == Calibration.identity()


def test_bad_config_files_are_clear_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[camera\n")
    with pytest.raises(CalibrationError, match=r"config '.*bad\.toml' is not valid TOML"):
        save_calibration(bad, Calibration.identity())
    assert bad.read_text() == "[camera\n"  # nothing lost
    with pytest.raises(CalibrationError, match=r"cannot read config '.*missing\.toml'"):
        load_calibration(tmp_path / "missing.toml")
    for content in (b"[camera]\n\xff\n", b"x = " + b"[" * 5000 + b"]" * 5000):
        bad.write_bytes(content)  # not UTF-8; nested deeper than tomllib recurses
        for reading in (load_calibration, lambda p: save_calibration(p, Calibration.identity())):
            with pytest.raises(CalibrationError, match=r"config '.*bad\.toml' is not valid TOML"):
                reading(bad)
        assert bad.read_bytes() == content  # nothing lost
    wrong = tmp_path / "wrong.toml"
    wrong.write_text("[camera.calibration]\nhomography = [[1, 2]]\n")
    with pytest.raises(CalibrationError, match=r"invalid calibration in '.*wrong\.toml'"):
        load_calibration(wrong)
    empty = tmp_path / "empty.toml"
    empty.write_text("[camera]\nindex = 1\n")
    assert load_calibration(empty) is None


IDENTITY = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]


@pytest.mark.parametrize(
    "table",
    [
        {},
        {"homography": 1},
        {"homography": [[1, 0], [0, 1, 0], [0, 0, 1]]},
        {"homography": [{"a": 1}, [0, 1, 0], [0, 0, 1]]},
        {"homography": [[1, 0, "x"], [0, 1, 0], [0, 0, 1]]},
        {"homography": [[1, 0, [0]], [0, 1, 0], [0, 0, 1]]},
        {"homography": IDENTITY, "board_size": 640},
        {"homography": IDENTITY, "board_size": [640, {}]},
        {"homography": IDENTITY, "frame_size": 1280},
    ],
)
def test_malformed_calibration_tables_are_named_errors(table: dict[str, object]) -> None:
    with pytest.raises(CalibrationError, match=r"^invalid calibration in \[camera.calibration\]: "):
        Calibration.from_mapping(table)


def test_a_table_of_numbers_as_toml_writes_them_reads_back() -> None:
    table = {"homography": [[1.0, "0", 0], [0, 1, 0.0], [0, 0, True]],
             "board_size": ["640", 480.0], "frame_size": [1280, 720]}
    calibration = Calibration.from_mapping(table)
    assert calibration == Calibration.from_mapping(calibration.to_mapping())
    assert calibration.board_size == (640, 480) and calibration.frame_size == (1280, 720)
    assert calibration.homography == ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


@pytest.mark.parametrize("text", ["camera = 5\n", "[camera]\ncalibration = 5\n"])
def test_a_camera_key_that_is_no_table_is_a_named_error(tmp_path: Path, text: str) -> None:
    config = tmp_path / "odd.toml"
    config.write_text(text)
    with pytest.raises(CalibrationError, match=r"invalid calibration in '.*odd\.toml'"):
        load_calibration(config)
