"""``tabula dice``: read the dice in image files and print one JSON object per image."""

from __future__ import annotations

import argparse
import json
import sys

HELP = "read the dice in images (JSON per image: dice, values, boxes, verdict)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``tabula dice``."""
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files to read")
    parser.add_argument("--json", action="store_true",
                        help="print only the JSON lines (default adds nothing else either)")
    parser.add_argument("--config", metavar="PATH",
                        help="TOML config whose [camera.calibration] gives the board view")
    parser.add_argument("--dice", type=int, default=None, metavar="N",
                        help="how many dice a roll has (fewer is a reroll); default: any")
    parser.add_argument("--thrower", choices=("near", "far", "both"), default="near",
                        help="who threw, by where he sits (with --config: the dice must lie "
                        "in his right-hand half; both: the opening roll, one die each); "
                        "default: near")


def run(args: argparse.Namespace) -> int:
    """Read every image; an unreadable file gets an error line and the run goes on."""
    from vision import DiceReader, ImageError, load_calibration, read_image

    calibration = load_calibration(args.config) if args.config else None
    reader = DiceReader(calibration, expected_dice=args.dice)
    status = 0
    for path in args.images:
        try:
            reading = reader.read(read_image(path), args.thrower)
        except ImageError as error:
            print(f"tabula dice: {error}", file=sys.stderr)
            status = 1
            continue
        print(json.dumps({"image": path, **reading.to_json()}), flush=True)
    return status
