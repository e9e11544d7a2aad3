from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import pytest

from controller.cli import main
from tests.vision.conftest import PHOTOS
from vision import load_calibration, render_roll


def test_dice_prints_one_json_per_image_and_goes_on_after_a_bad_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = PHOTOS / "images" / "IMG_20191208_111304.jpg"
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"garbage")
    status = main(["dice", "--json", str(good), str(broken), str(good)])
    out, err = capsys.readouterr()
    assert status == 1
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["image"] for line in lines] == [str(good), str(good)]
    assert lines[0]["verdict"] in ("ok", "reroll", "unreadable")
    assert lines[0]["dice"], "no die found on a photo with dice"
    for die in lines[0]["dice"]:
        assert 1 <= die["value"] <= 6 and 0 <= die["confidence"] <= 1 and len(die["box"]) == 4
    assert f"cannot read image {str(broken)!r}: not a decodable image" in err
    broken.write_bytes(b"")  # OpenCV's decoder asserts on no bytes: that was a traceback
    assert main(["dice", str(broken)]) == 1
    assert f"cannot read image {str(broken)!r}: not a decodable image" in capsys.readouterr().err


def test_calibrate_writes_config_and_annotated_image(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = tmp_path / "board.png"
    cv2.imwrite(str(image), render_roll(random.Random(2), markers=True).image)
    config = tmp_path / "tabula.toml"
    annotated = tmp_path / "seen.png"
    assert (
        main(
            [
                "calibrate",
                "--config",
                str(config),
                "--source",
                str(image),
                "--annotated",
                str(annotated),
            ]
        )
        == 0
    )
    assert "markers [0, 1, 2, 3] found" in capsys.readouterr().out
    assert load_calibration(config) is not None
    assert cv2.imread(str(annotated)) is not None
    # The calibrated reader flags the dice with the board view.
    assert main(["dice", "--config", str(config), "--dice", "2", str(image)]) == 0


def test_calibrate_without_markers_fails_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = tmp_path / "plain.png"
    cv2.imwrite(str(image), render_roll(random.Random(2)).image)
    status = main(
        [
            "calibrate",
            "--config",
            str(tmp_path / "c.toml"),
            "--source",
            str(image),
            "--annotated",
            str(tmp_path / "a.png"),
        ]
    )
    assert status == 2
    assert "found markers [], need at least 4" in capsys.readouterr().err
    assert not (tmp_path / "c.toml").exists()


def test_calibrate_on_the_service_configuration_writes_the_file_it_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The service's configuration names its calibration file: calibrating with it writes
    that file (before, the table clashed with the key: an unexpected TOML error)."""
    from controller.config import load_config

    image = tmp_path / "board.png"
    cv2.imwrite(str(image), render_roll(random.Random(2), markers=True).image)
    config = tmp_path / "tabula.toml"
    text = '[camera]\nenabled = true\ncalibration = "camera.toml"\n'
    config.write_text(text)
    annotated = str(tmp_path / "seen.png")
    status = main(["calibrate", "--config", str(config), "--source", str(image),
                   "--annotated", annotated])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0
    assert f"calibration written to {tmp_path / 'camera.toml'}" in out
    assert config.read_text() == text  # the service's file untouched
    calibration = load_calibration(tmp_path / "camera.toml")
    assert calibration is not None
    assert load_calibration(config) == calibration  # followed from the service's file
    service = load_config(config)
    assert service.camera.calibration == tmp_path / "camera.toml"
    assert main(["dice", "--config", str(config), "--dice", "2", str(image)]) == 0
