"""``tabula calibration-sheet``: the board's four ArUco markers as a PDF to print, to scale.

``tabula calibrate`` maps the centres of markers 0..3 to :data:`vision.MARKER_CENTRES` of
the board view (:data:`vision.BOARD_SIZE` units). The sheet prints that view at one
millimetre a unit: each marker on a square as wide as the board view's frame, to cut out
and lay in its corner of the board, flush with the board's outer edges, which puts the
marker's centre where the calibration expects it without measuring (exactly on a board of
640 x 480 mm; on another size the view's frame band is as much narrower or wider). A
50 mm bar shows whether the printer scaled the page. The four squares fit one page of A4
or US letter.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from controller.commands.errors import UsageError
from hardware.board.errors import os_reason

if TYPE_CHECKING:
    from fpdf import FPDF

HELP = "write the camera calibration's ArUco markers as a PDF to print, with a 50 mm scale bar"

#: Paper sizes (width, height) in millimetres, portrait.
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: Millimetres printed for one unit of the board view: its 640 x 480 units are a board of
#: 640 x 480 mm, and its markers 27 mm wide.
MM_PER_UNIT = 1.0
SCALE_BAR_MM = 50.0
#: An ArUco 4x4 marker is 6 modules wide (its black border included), and needs a white
#: quiet zone of a module around it.
_MARKER_MODULES = 6
_QUIET_MODULES = 1
# Where things lie on the page (mm): the title's baseline, the instructions, the bar, the
# squares and the gap between them.
_MARGIN = 15.0
_TITLE_BASELINE = 24.0
_TEXT_TOP = 30.0
_BAR_TOP = 58.0
_BAR_HEIGHT = 5.0
_SQUARES_TOP = 80.0
_GAP = 25.0
_INSTRUCTIONS = (
    f"Print at 100% (no 'fit to page') and check that the black bar measures {SCALE_BAR_MM:g} mm. "
    "Cut out the four squares along their outlines and lay each in the corner of the board it "
    "names, as the near player sees the board, its two thick edges flush with the board's "
    "outer edges; then run tabula calibrate."
)


@dataclass(frozen=True, slots=True)
class MarkerSquare:
    """One marker's square on the sheet, in millimetres from the page's top-left corner."""

    marker_id: int
    #: The board's corner it goes in, as the near player sees it ("far left"...).
    corner: str
    #: The square's top-left corner; it is ``side`` wide and tall.
    origin: tuple[float, float]
    side: float
    #: The marker's centre and the width of its black square.
    centre: tuple[float, float]
    marker_side: float
    #: Whether the square's outer (flush) edges are its left and top ones.
    outer_left: bool
    outer_top: bool


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """Where everything lies on the page, in millimetres from its top-left corner."""

    paper: str
    page: tuple[float, float]
    #: The scale bar's top-left corner; it is :data:`SCALE_BAR_MM` long.
    bar: tuple[float, float]
    squares: tuple[MarkerSquare, ...]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``tabula calibration-sheet``."""
    parser.add_argument("--out", required=True, type=Path, metavar="PATH",
                        help="the PDF file to write")
    parser.add_argument("--paper", choices=sorted(PAPERS), default="a4",
                        help="the paper it is printed on (default a4)")


def sheet_layout(paper: str) -> SheetLayout:
    """The sheet for ``paper`` (a key of :data:`PAPERS`): the calibration's geometry, to scale.

    Each marker's square is the board view's frame at its corner (the frame is where the
    reader searches no dice); the marker is the largest whose quiet zone stays on it.
    """
    from vision import BOARD_SIZE, MARKER_CENTRES, Calibration

    width, height = BOARD_SIZE
    frame = Calibration.identity().field[0]
    page = PAPERS[paper]
    places = {}
    for marker_id, (x, y) in MARKER_CENTRES.items():
        left, top = x < width / 2, y < height / 2
        local = (x if left else x - (width - frame), y if top else y - (height - frame))
        places[marker_id] = (left, top, local)
    room = min(min(v, frame - v) for _, _, local in places.values() for v in local)
    module = room / (_MARKER_MODULES / 2 + _QUIET_MODULES) * MM_PER_UNIT
    side = frame * MM_PER_UNIT
    grid_left = (page[0] - 2 * side - _GAP) / 2
    squares = []
    for marker_id, (left, top, (lx, ly)) in sorted(places.items()):
        origin = (grid_left + (0 if left else side + _GAP),
                  _SQUARES_TOP + (0 if top else side + _GAP))
        squares.append(MarkerSquare(
            marker_id=marker_id,
            corner=f"{'far' if top else 'near'} {'left' if left else 'right'}",
            origin=origin,
            side=side,
            centre=(origin[0] + lx * MM_PER_UNIT, origin[1] + ly * MM_PER_UNIT),
            marker_side=module * _MARKER_MODULES,
            outer_left=left,
            outer_top=top,
        ))
    return SheetLayout(paper, page, (_MARGIN, _BAR_TOP), tuple(squares))


def render_sheet(layout: SheetLayout) -> bytes:
    """The sheet as a one-page PDF (fpdf2; the markers drawn as vector squares)."""
    from fpdf import FPDF

    from vision import marker_image

    pdf = FPDF(unit="mm", format=layout.page)
    pdf.set_title("Tabula camera calibration markers")
    pdf.set_creator("tabula calibration-sheet")
    pdf.set_auto_page_break(auto=False)
    pdf.add_page()
    page_width = layout.page[0]
    pdf.set_font("helvetica", style="B", size=16)
    pdf.text(_MARGIN, _TITLE_BASELINE, "Tabula: the camera's calibration markers")
    pdf.set_font("helvetica", size=10)
    pdf.set_xy(_MARGIN, _TEXT_TOP)
    pdf.multi_cell(page_width - 2 * _MARGIN, 5, _INSTRUCTIONS, align="L")
    bar_x, bar_y = layout.bar
    pdf.set_fill_color(0)
    pdf.rect(bar_x, bar_y, SCALE_BAR_MM, _BAR_HEIGHT, style="F")
    pdf.text(bar_x + SCALE_BAR_MM + 4, bar_y + _BAR_HEIGHT - 1, f"{SCALE_BAR_MM:g} mm")
    for square in layout.squares:
        _draw_square(pdf, square, marker_image(square.marker_id, _MARKER_MODULES).tolist())
    pdf.set_font("helvetica", size=8)
    marker_mm = layout.squares[0].marker_side
    pdf.text(_MARGIN, layout.page[1] - _MARGIN, (
        f"ArUco DICT_4X4_50 ids 0-3, markers {marker_mm:g} mm wide on squares of "
        f"{layout.squares[0].side:g} mm: the board view at {MM_PER_UNIT:g} mm a unit."))
    return bytes(pdf.output())


def _draw_square(pdf: FPDF, square: MarkerSquare, modules: list[list[int]]) -> None:
    """One marker's square: its outline to cut, its two flush edges thick, its label."""
    x, y = square.origin
    side = square.side
    pdf.set_draw_color(150)
    pdf.set_line_width(0.2)
    pdf.rect(x, y, side, side)
    pdf.set_draw_color(0)
    pdf.set_line_width(0.8)
    edge_x = x if square.outer_left else x + side
    edge_y = y if square.outer_top else y + side
    pdf.line(edge_x, y, edge_x, y + side)
    pdf.line(x, edge_y, x + side, edge_y)
    # One path for the whole marker, so that its modules are filled without seams.
    module = square.marker_side / _MARKER_MODULES
    left = square.centre[0] - square.marker_side / 2
    top = square.centre[1] - square.marker_side / 2
    with pdf.new_path() as path:
        path.style.fill_color = "#000000"
        path.style.stroke_color = None
        for row, cells in enumerate(modules):
            for column, value in enumerate(cells):
                if value == 0:
                    path.rectangle(left + column * module, top + row * module, module, module)
    pdf.set_font("helvetica", style="B", size=11)
    pdf.text(x, y + side + 7, f"{square.marker_id}: {square.corner} corner")


def run(args: argparse.Namespace) -> int:
    """Write the sheet; an unwritable ``--out`` is a one-line error (status 2)."""
    layout = sheet_layout(args.paper)
    data = render_sheet(layout)
    try:
        args.out.write_bytes(data)
    except OSError as error:
        raise UsageError(f"cannot write {str(args.out)!r}: {os_reason(error)}") from None
    print(f"wrote {args.out}: the four markers on one {args.paper} page; print it at 100% "
          f"and check that its bar measures {SCALE_BAR_MM:g} mm")
    return 0
