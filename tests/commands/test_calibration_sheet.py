"""``tabula calibration-sheet``: its PDF rendered by poppler's pdftoppm, measured, calibrated on."""

from __future__ import annotations

import subprocess
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from controller.commands.calibration_sheet import (
    MM_PER_UNIT,
    PAPERS,
    SCALE_BAR_MM,
    SheetLayout,
    sheet_layout,
)
from tests.commands.test_plays import tabula
from vision import BOARD_SIZE, MARKER_CENTRES, calibrate

DPI = 150
MM_PER_INCH = 25.4


def _px(mm: float) -> float:
    """Millimetres on the page as pixels of the rendering."""
    return mm * DPI / MM_PER_INCH


def _rendered(tmp_path: Path, paper: str) -> npt.NDArray[np.uint8]:
    """The sheet written by the command, rendered in grey by Debian's pdftoppm at DPI."""
    pdf = tmp_path / f"sheet-{paper}.pdf"
    run = tabula("calibration-sheet", "--out", str(pdf), "--paper", paper)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"wrote {pdf}: the four markers on one {paper} page")
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "-png", "-singlefile", str(pdf),
                    str(tmp_path / paper)], check=True)
    image = cv2.imread(str(tmp_path / f"{paper}.png"), cv2.IMREAD_GRAYSCALE)
    assert image is not None
    return np.asarray(image, dtype=np.uint8)


def _photo(page: npt.NDArray[np.uint8], seed: int
           ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]:
    """A camera's photo of the printed page on a table: seen at an angle (the far edge
    foreshortened), lit from one side, with sensor noise; and the page-to-photo homography."""
    rng = np.random.default_rng(seed)
    height, width = page.shape
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    seen = np.float32([[330, 140], [1000, 110], [1180, 1060], [140, 1030]])
    to_photo = cv2.getPerspectiveTransform(corners, seen)
    photo = cv2.warpPerspective(page, to_photo, (1280, 1152), flags=cv2.INTER_AREA,
                                borderValue=90).astype(np.float64)
    ys, xs = np.mgrid[0:photo.shape[0], 0:photo.shape[1]]
    light = 0.45 + 0.55 * xs / photo.shape[1] - 0.15 * ((ys / photo.shape[0] - 0.5) ** 2)
    photo = photo * light + rng.normal(0.0, 6.0, photo.shape)
    return np.clip(photo, 0, 255).astype(np.uint8), to_photo.astype(np.float64)


def _bar_length(page: npt.NDArray[np.uint8], layout: SheetLayout) -> int:
    """The length in pixels of the dark run through the middle of the scale bar."""
    x, y = layout.bar
    row = page[round(_px(y + 2.5))] < 128
    start = round(_px(x + SCALE_BAR_MM / 2))
    assert row[start]
    left, right = start, start
    while left > 0 and row[left - 1]:
        left -= 1
    while right < len(row) - 1 and row[right + 1]:
        right += 1
    return right - left + 1


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_the_printed_sheet_is_to_scale_and_calibrates_from_a_photo(
    tmp_path: Path, paper: str
) -> None:
    layout = sheet_layout(paper)
    page = _rendered(tmp_path, paper)
    width_mm, height_mm = PAPERS[paper]
    assert abs(page.shape[1] - _px(width_mm)) <= 1 and abs(page.shape[0] - _px(height_mm)) <= 1
    assert abs(_bar_length(page, layout) - _px(SCALE_BAR_MM)) <= 2, "the 50 mm bar is scaled"
    for square in layout.squares:  # every square and its label lies on the page
        x, y = square.origin
        assert 0 < x < width_mm - square.side and 0 < y < height_mm - square.side - 10

    photo, to_photo = _photo(page, seed=len(paper))
    said = {square.marker_id: square for square in layout.squares}
    assert sorted(said) == sorted(MARKER_CENTRES)
    calibration, detection = calibrate(
        photo, markers={i: s.centre for i, s in said.items()},
        board_size=(round(width_mm), round(height_mm)))
    assert sorted(detection.corners) == sorted(MARKER_CENTRES)
    # The fit uses the markers' centres only: their corners are an independent check.
    for marker_id, corners in detection.corners.items():
        (cx, cy), half = said[marker_id].centre, said[marker_id].marker_side / 2
        expected = np.float64([[cx - half, cy - half], [cx + half, cy - half],
                               [cx + half, cy + half], [cx - half, cy + half]])
        mapped = cv2.perspectiveTransform(np.float64([corners]), calibration.matrix)[0]
        error = np.abs(mapped - expected).max()
        assert error < 1.0, f"marker {marker_id} on {paper}: corners off by {error:.2f} mm"
    # Where the homography sends the photo of what else the page holds, drawn apart from
    # the markers: the bar's ends and the squares' corners.
    bar_x, bar_y = layout.bar
    drawn = [(bar_x, bar_y), (bar_x + SCALE_BAR_MM, bar_y)] + [
        (x + dx, y + dy) for x, y, side in ((*s.origin, s.side) for s in layout.squares)
        for dx, dy in ((0, 0), (side, 0), (side, side), (0, side))]
    expected = np.float64(drawn)
    in_photo = cv2.perspectiveTransform(np.float64([[_px(v) for v in p] for p in drawn])[None],
                                        to_photo)
    error = np.abs(cv2.perspectiveTransform(in_photo, calibration.matrix)[0] - expected).max()
    assert error < 1.0, f"the bar and squares on {paper} are off by {error:.2f} mm"


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_each_square_laid_in_its_corner_puts_its_marker_where_the_calibration_expects(
    paper: str,
) -> None:
    board_width, board_height = (size * MM_PER_UNIT for size in BOARD_SIZE)
    for square in sheet_layout(paper).squares:
        (x, y), (cx, cy) = square.origin, square.centre
        on_board = (cx - x if square.outer_left else board_width - (x + square.side - cx),
                    cy - y if square.outer_top else board_height - (y + square.side - cy))
        expected = tuple(v * MM_PER_UNIT for v in MARKER_CENTRES[square.marker_id])
        assert on_board == pytest.approx(expected), square
        assert square.corner == {0: "far left", 1: "far right", 2: "near right",
                                 3: "near left"}[square.marker_id]


def test_a_paper_it_does_not_know_is_refused_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    run = tabula("calibration-sheet", "--out", str(out), "--paper", "a3")
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr.startswith(
        "tabula calibration-sheet: argument --paper: invalid choice: 'a3' (choose from ")
    assert "a4" in run.stderr and "letter" in run.stderr and run.stderr.count("\n") == 1
    assert not out.exists()


@pytest.mark.parametrize("where", ["missing/sheet.pdf", "."])
def test_an_unwritable_out_is_one_line_and_status_2(tmp_path: Path, where: str) -> None:
    out = tmp_path / where
    run = tabula("calibration-sheet", "--out", str(out))
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr.startswith(f"tabula calibration-sheet: cannot write {str(out)!r}: ")
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []
