"""``tabula check-config``: read a configuration file as the service would, and say what it means.

Why a command of its own: a key checked only when the service starts is found out from
``journalctl`` after a failed start; this one runs before ``systemctl restart`` and shows
the value the service will use for every key, defaults included.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path
from typing import Any

from controller.commands import add_config_argument

HELP = "check a configuration file and print the value of every key, defaults included"

#: Keys whose values are secrets: printed masked.
_SECRETS = ("web.token", "mqtt.password")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``tabula check-config``."""
    add_config_argument(parser, "the file to check")
    parser.add_argument(
        "--no-files",
        action="store_true",
        help="do not require the files it names (pin map, calibration, TLS) to exist here",
    )


def _flatten(value: Any, prefix: str) -> list[tuple[str, Any]]:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        rows = []
        for field in dataclasses.fields(value):
            name = f"{prefix}.{field.name}" if prefix else field.name
            rows += _flatten(getattr(value, field.name), name)
        return rows
    return [(prefix, value)]


def _shown(key: str, value: Any) -> str:
    if value is None:
        return "(not set)"
    if key in _SECRETS:
        return json.dumps("***")
    return json.dumps(str(value) if isinstance(value, Path) else value)


def run(args: argparse.Namespace) -> int:
    """Print ``key = value`` for every key, or raise the file's problems (exit status 2)."""
    from controller.config import load_config

    config = load_config(args.config, check_files=not args.no_files)
    for key, value in _flatten(dataclasses.replace(config, source=None), ""):
        if key != "source":
            print(f"{key} = {_shown(key, value)}")
    print(f"# {args.config}: every key is valid")
    return 0
