"""``tabula doctor``: check every part of a board before its first game, one line each.

Why a command: a builder who has just wired the sensors, mounted the camera and written
the configuration needs to know what does not work yet, and what to do about it, without
reading the code or the service's log. Each line says ``ok``, ``warn`` or ``FAIL``, the
part, what was seen and, for a problem, the fix.
"""

from __future__ import annotations

import argparse
import asyncio

from controller.commands import add_config_argument

HELP = "check the configuration, board, camera, pins, engine, journal and broker, one line each"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``tabula doctor``."""
    add_config_argument(parser, "the service's configuration")
    parser.add_argument(
        "--checkers",
        choices=("start", "none", "any"),
        default="start",
        help="what lies on the board, for stuck sensors: the starting position (default), "
        "no checker, or anything (stuck sensors not sought)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        help="seconds the board and the broker may take to answer (10)",
    )


async def _report(args: argparse.Namespace) -> int:
    from controller.doctor import diagnose

    failures = 0
    async for finding in diagnose(args.config, timeout=args.timeout, checkers=args.checkers):
        print(finding.line(), flush=True)
        failures += finding.is_failure
    print(
        f"# {failures} check{'s' if failures != 1 else ''} failed"
        if failures
        else "# every check passed"
    )
    return 1 if failures else 0


def run(args: argparse.Namespace) -> int:
    """Print one line per check; 0 when none failed (warnings allowed), else 1."""
    if not args.timeout > 0:
        from controller.commands.errors import UsageError

        raise UsageError(f"--timeout {args.timeout!r}: must be > 0")
    return asyncio.run(_report(args))
