"""The checks of ``tabula doctor``: every part of a board, before its first game.

Why one package: the command prints the findings, and the set-up page can show the same
ones. Each check is a small function returning :class:`Finding` values (the part, ok /
warn / fail, what was seen, what to do); :func:`diagnose` runs them all in the order a
person fixes things, and yields the findings of each as soon as it ends::

    async for finding in diagnose(Path("/etc/tabula/tabula.toml")):
        print(finding.line())

A check that needs another (the board's handshake needs the device file) is left out
after that one fails: the first failure is the one to fix.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

from controller.config import Config, ConfigError, load_config
from controller.doctor._camera import WARM_UP_FRAMES, check_camera
from controller.doctor._finding import Finding, Status, fail, ok
from controller.doctor._host import check_engine, check_gpio, check_journal, check_mqtt
from controller.doctor._sensors import CHECKERS, check_sensors
from controller.doctor._serial import BY_ID, check_board, check_device

__all__ = [
    "BY_ID",
    "CHECKERS",
    "WARM_UP_FRAMES",
    "Finding",
    "Status",
    "check_board",
    "check_camera",
    "check_config",
    "check_device",
    "check_engine",
    "check_gpio",
    "check_journal",
    "check_mqtt",
    "check_sensors",
    "diagnose",
]


def check_config(path: Path) -> tuple[Finding, Config | None]:
    """The configuration, read as the service reads it (``tabula check-config``'s check)."""
    try:
        config = load_config(path)
    except ConfigError as error:
        count = len(error.problems)
        return fail(
            "configuration",
            f"{count} problem{'s' if count > 1 else ''}: " + " | ".join(error.problems),
            f"fix the keys named (hardware/tabula.example.toml documents each); "
            f"tabula check-config --config {path} checks the file alone",
        ), None
    return ok("configuration", f"{path}: every key is valid"), config


async def diagnose(
    path: Path, *, timeout: float = 10.0, checkers: str = "start", by_id: Path = BY_ID
) -> AsyncIterator[Finding]:
    """Every check of the board configured in ``path``, each one's findings as it ends.

    Args:
        path: the service's configuration file.
        timeout: how long the board and the broker may take to answer (seconds).
        checkers: what lies on the board, a key of :data:`CHECKERS` (the starting position,
            none, or anything).
        by_id: udev's directory of stable serial names.
    """
    finding, config = check_config(path)
    yield finding
    if config is None:
        return  # the device, the camera and the pins are the configuration's
    device = check_device(config.board.serial_device, by_id=by_id)
    for finding in device:
        yield finding
    if not any(finding.is_failure for finding in device):
        for finding in await check_board(config.board, timeout=timeout, checkers=checkers):
            yield finding
    for finding in await asyncio.to_thread(check_camera, config.camera):
        yield finding
    for finding in check_gpio(config.gpio):
        yield finding
    yield await check_engine(config.engine)
    yield check_journal(config.journal)
    yield await check_mqtt(config.mqtt, timeout=timeout)
