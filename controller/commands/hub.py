"""``tabula hub``: every board of a hall live on one page, their matches archived."""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from controller.hub import Hub

HELP = "follow every board through an MQTT broker: one live page, matches archived"

LOGS_TO_STDERR = True
"""An unexpected error's traceback goes to standard error, with the hub's log."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", required=True, help="mqtt://host[:port] or mqtts://...")
    parser.add_argument(
        "--archive", required=True, type=Path, help="folder of the archived matches"
    )
    parser.add_argument("--host", default="127.0.0.1", help="the page's address")
    parser.add_argument("--port", type=int, default=8090, help="the page's port")
    parser.add_argument(
        "--config",
        type=Path,
        help="a tabula.toml whose [mqtt] gives the credentials, TLS files and topic prefix",
    )
    parser.add_argument("--client-id", default="tabula-hub", help="the hub's MQTT client id")
    parser.add_argument(
        "--max-connections",
        type=int,
        default=512,
        help="connections the page holds at most (1 to 512)",
    )
    parser.add_argument(
        "--per-client",
        type=int,
        default=16,
        help="connections the page holds at most from one address; behind a reverse proxy, "
        "where every client has the proxy's address, set it to --max-connections",
    )
    parser.add_argument(
        "--shard",
        default="1/1",
        help="NUMBER/COUNT: take only this share of the boards, by a hash of their ids, "
        "when COUNT hubs (each with its own --client-id) share a hall",
    )


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import sys

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    hub = hub_of(args)
    shard = hub.state.shard

    async def main() -> None:
        task = asyncio.create_task(hub.run())
        ready = asyncio.create_task(hub.ready.wait())
        await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if ready.done():
            print(
                f"tabula hub: {hub.web.url} following {hub.config.broker}, archive {args.archive}"
                + (f", shard {shard.text()}" if shard.count > 1 else "")
            )
            sys.stdout.flush()
        ready.cancel()
        await task

    asyncio.run(main())
    return 0


def hub_of(args: argparse.Namespace) -> Hub:
    """The hub the arguments describe, its archive folder made.

    Raises:
        ConfigError: naming each argument that is wrong.
        UsageError: for an archive that cannot be a folder.
    """
    from controller.commands.errors import make_directory
    from controller.config import MOST_CONNECTIONS, ConfigError, load_config, parse_config
    from controller.hub import Hub, Shard

    problems = []
    if not 0 <= args.port <= 65535:
        problems.append(f"--port: a TCP port 0..65535, got {args.port!r}")
    if not 1 <= args.max_connections <= MOST_CONNECTIONS:
        problems.append(f"--max-connections: 1 to {MOST_CONNECTIONS}, got {args.max_connections}")
    if not 1 <= args.per_client <= args.max_connections:
        problems.append(f"--per-client: 1 to --max-connections, got {args.per_client}")
    if problems:
        raise ConfigError(problems)
    checked = parse_config(
        f'[mqtt]\nbroker = {json.dumps(args.broker)}\nboard_id = "hub"\n',
        source="--broker",
        check_files=False,
    ).mqtt
    assert checked is not None
    mqtt = checked
    if args.config is not None:
        configured = load_config(args.config).mqtt
        if configured is None:
            raise ConfigError([f"{args.config}: no [mqtt] section"])
        mqtt = dataclasses.replace(configured, broker=checked.broker)
    shard = Shard.from_text(args.shard)
    make_directory(args.archive, "--archive")
    return Hub(
        mqtt,
        args.archive,
        host=args.host,
        port=args.port,
        identifier=args.client_id,
        shard=shard,
        max_connections=args.max_connections,
        per_client=args.per_client,
    )
