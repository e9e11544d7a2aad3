"""The ``tabula`` command: one sub-command per module of :mod:`controller.commands`.

Each command module defines ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Heavy dependencies (OpenCV, pyserial) are imported inside ``run``
so that ``tabula plays`` starts in milliseconds on a Pi.

Exit status, the same for every command: 0 done; 2 a mistake to fix, said in one line
naming it (the command line, as argparse says it, or the input it names: a position, a
file, a journal, a configuration, a board); 1 when some lines of a batch failed (each
answered with its error); 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from controller.errors import TabulaError

#: Sub-command name -> module implementing it.
COMMANDS: dict[str, str] = {
    "plays": "controller.commands.plays",
    "demo": "controller.commands.demo",
    "sim-board": "controller.commands.sim_board",
    "board": "controller.commands.board",
    "export": "controller.commands.export",
    "check-config": "controller.commands.check_config",
    "hint": "controller.commands.hint",
    "review": "controller.commands.review",
    "hub": "controller.commands.hub",
    "dice": "controller.commands.dice",
    "calibrate": "controller.commands.calibrate",
    "run": "controller.commands.run",
}


class _Parser(argparse.ArgumentParser):
    """argparse's parser, saying a mistake in one line like the commands do (status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    parser = _Parser(prog="tabula", description=__doc__.splitlines()[0])
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(module_name)
        sub = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tabula`` console script; returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as stop:  # --help (0), or a mistake argparse has said (2)
        return stop.code if isinstance(stop.code, int) else 2
    try:
        status: int = args.run(args)
    except TabulaError as error:
        print(f"tabula {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`tabula demo | head`): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # for the final flush
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
