"""Sub-commands of the ``tabula`` command line (see :mod:`controller.cli`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Final

#: Where the service's configuration lives on a Pi (``hardware/SERVICE.md``).
SERVICE_CONFIG: Final = Path("/etc/tabula/tabula.toml")


def add_config_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """``--config PATH``, the service's configuration, :data:`SERVICE_CONFIG` by default."""
    parser.add_argument("--config", type=Path, default=SERVICE_CONFIG,
                        help=f"{what} ({SERVICE_CONFIG})")  # fmt: skip
