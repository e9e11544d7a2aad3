"""The ``tabula`` command: one sub-command per module of :mod:`controller.commands`.

Each command module defines ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``, and ``LOGS_TO_STDERR = True`` if its log is standard error (a
service's, which systemd keeps). Heavy dependencies (OpenCV, pyserial) are imported inside
``run`` so that ``tabula plays`` starts in milliseconds on a Pi.

Exit status, the same for every command: 0 done; 2 a mistake to fix, said in one line
naming it (the command line, as argparse says it, or the input it names: a position, a
file, a journal, a configuration, a board); 1 anything else: some lines of a batch
failed (each answered with its error), or an unexpected error, said in one line whose
traceback goes to a log file (to standard error with ``tabula --debug``, or for a command
that logs there); 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from hardware.board.errors import TabulaError

#: Sub-command name -> module implementing it.
COMMANDS: dict[str, str] = {
    "plays": "controller.commands.plays",
    "demo": "controller.commands.demo",
    "sim-board": "controller.commands.sim_board",
    "board": "controller.commands.board",
    "export": "controller.commands.export",
    "check-config": "controller.commands.check_config",
    "doctor": "controller.commands.doctor",
    "hint": "controller.commands.hint",
    "review": "controller.commands.review",
    "hub": "controller.commands.hub",
    "dice": "controller.commands.dice",
    "calibrate": "controller.commands.calibrate",
    "calibration-sheet": "controller.commands.calibration_sheet",
    "run": "controller.commands.run",
}


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, given the terminal's width as :mod:`shutil` would find it.

    Why: argparse makes a formatter for every argument added, and without a width it
    imports :mod:`shutil`, which brings three compression modules into every start of
    ``tabula plays`` (on a Pi, a start is mostly imports).
    """

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=_terminal_columns() - 2)  # argparse's own margin


def _terminal_columns() -> int:
    """``$COLUMNS``, or standard output's terminal width, or 80 (``shutil``'s order)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):  # no standard output, or not a terminal
        return 80


class _Parser(argparse.ArgumentParser):
    """argparse's parser, saying a mistake in one line like the commands do (status 2)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)  # sub-commands' parsers too
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of ``command``, or of every sub-command (for ``--help`` and a
    name that is not a command).

    Why one: a command's module imports what it needs, and importing every command's
    module (the service, OpenCV, the web) would cost ``tabula plays`` most of its start
    on a Pi.
    """
    parser = _Parser(prog="tabula", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--debug", action="store_true", help="print the traceback of an unexpected error"
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    names = [command] if command in COMMANDS else list(COMMANDS)
    for name in names:
        module = importlib.import_module(COMMANDS[name])
        sub = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run, logs_to_stderr=getattr(module, "LOGS_TO_STDERR", False))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tabula`` console script; returns the exit status."""
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        args = build_parser(_command_named(argv)).parse_args(argv)
    except SystemExit as stop:  # --help (0), or a mistake argparse has said (2)
        return stop.code if isinstance(stop.code, int) else 2
    try:
        status: int = args.run(args)
    except TabulaError as error:
        print(f"tabula {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        # Output's reader gone (`tabula demo | head`) is not an error; any other error is a
        # bug, said in one line with its traceback kept (a pipe to a child broken too).
        if isinstance(error, BrokenPipeError) and _reader_gone():
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # the final flush
            return 0
        return _report_unexpected(args.command, error, to_stderr=args.debug or args.logs_to_stderr)
    return status


def _reader_gone() -> bool:
    """Whether the reader of standard output went away: a pipe with no reader is in error."""
    import select  # only on a broken pipe

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
    except (OSError, ValueError):  # no descriptor: a stream of this process's own
        return False
    return any(events & select.POLLERR for _, events in poller.poll(0))


def _command_named(argv: Sequence[str]) -> str | None:
    """The sub-command ``argv`` names: its first word that is not an option (``--debug``,
    the only option before it, takes no value)."""
    return next((word for word in argv if not word.startswith("-")), None)


def _report_unexpected(command: str, error: Exception, *, to_stderr: bool) -> int:
    """Say what failed in one line, and where its traceback is; the exit status (1).

    The traceback goes to a new log file in the temporary directory, or to standard error
    if ``to_stderr`` (``--debug``, or a command that logs there: a service's temporary
    directory is private to it under systemd, and removed when it stops) or if no log
    file can be written: it is never lost.
    """
    import tempfile  # only on a bug: tabula plays starts without them
    import traceback

    details = "".join(traceback.format_exception(error))
    what = f"tabula {command}: unexpected {type(error).__name__}: {error}"
    if not to_stderr:
        try:
            handle, path = tempfile.mkstemp(prefix=f"tabula-{command}-", suffix=".log")
            with os.fdopen(handle, "w", encoding="utf-8") as log:
                log.write(details)
        except OSError as unwritable:
            what += f" (no log file: {unwritable}; the traceback follows)"
        else:
            print(f"{what}; the traceback is in {path} (tabula --debug prints it)", file=sys.stderr)
            return 1
    print(details + what, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
