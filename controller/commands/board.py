"""``tabula board``: watch a sensor board (real or simulated) and print what it says.

The first thing a builder runs when wiring a board: every link-state change and every
stable observation as a JSON line, and the link's counters on SIGINT or SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import signal

HELP = "print a sensor board's link states and stable observations as JSON lines"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``tabula board``."""
    parser.add_argument(
        "--device", default="/dev/tabula-board", help="serial device (/dev/tabula-board)"
    )
    parser.add_argument(
        "--settle-ms", type=int, default=300, help="how long the board must rest (300)"
    )
    parser.add_argument("--baud", type=int, default=115200, help="UART speed (115200)")


def _emit(record: dict[str, object]) -> None:
    print(json.dumps(record), flush=True)


async def _watch(args: argparse.Namespace) -> int:
    from firmware_bridge import BoardLink, LinkState

    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stopped.set)
    async with BoardLink(args.device, settle_s=args.settle_ms / 1000, baudrate=args.baud) as link:

        async def follow() -> None:
            async for update in link.updates():
                if isinstance(update, LinkState):
                    # Why it is not live (a missing device, no answer) with the state.
                    problem = {"problem": link.problem} if link.problem else {}
                    _emit({"type": "link", "state": update.value, **problem})
                else:
                    _emit(
                        {
                            "type": "observation",
                            "board": list(update.board),
                            "inconsistent": update.inconsistent,
                        }
                    )

        follower = asyncio.create_task(follow(), name="board-follow")
        waiter = asyncio.create_task(stopped.wait(), name="board-signal")
        done, _ = await asyncio.wait({follower, waiter}, return_when=asyncio.FIRST_COMPLETED)
        for task in (follower, waiter):
            task.cancel()
        if follower in done:
            follower.result()  # re-raises why the link gave up (an incompatible board)
        _emit({"type": "counters", **dataclasses.asdict(link.counters)})
    return 0


def run(args: argparse.Namespace) -> int:
    """Watch the board until SIGINT or SIGTERM; 0 then, 2 on an incompatible board."""
    if args.settle_ms < 0:
        from firmware_bridge.errors import BridgeError

        raise BridgeError(f"--settle-ms {args.settle_ms!r}: must be >= 0")
    return asyncio.run(_watch(args))
