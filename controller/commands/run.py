"""``tabula run --config FILE``: the board service on real hardware.

The serial device, camera, GPIO pins, journal, rules, players and mode all come from the
configuration (``hardware/tabula.example.toml``); logs go to standard error, which
systemd keeps in its journal (``journalctl -u tabula``); under systemd (``Type=notify``)
the service reports ready once the journal is open and pings the watchdog from its loop.
SIGTERM and SIGINT stop it cleanly: every event is already in the journal.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import socket
from typing import TYPE_CHECKING, Any

from controller.commands import add_config_argument

if TYPE_CHECKING:
    from controller.config import Config
    from controller.service.camera_bench import CameraBench
    from controller.service.edges import DiceSource
    from controller.service.setup_desk import BoardSetup

HELP = "run the board service with the hardware of a configuration file"

LOGS_TO_STDERR = True
"""An unexpected error's traceback goes to standard error: the log, systemd's journal."""

_log = logging.getLogger("tabula.run")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``tabula run``."""
    add_config_argument(parser, "the configuration file")


def run(args: argparse.Namespace) -> int:
    """Run until SIGTERM or SIGINT; bad configuration exits 2 with every problem named."""
    from controller.config import load_config

    config = load_config(args.config)
    logging.basicConfig(
        level=config.log_level.upper(), format="%(levelname)s %(name)s: %(message)s"
    )
    from controller.service.errors import first_error

    try:
        asyncio.run(_serve(config))
    except BaseExceptionGroup as group:
        raise first_error(group) from None
    return 0


async def _serve(config: Config) -> None:
    from controller.devices import PiDevices, make_pin_factory
    from controller.service import Service
    from controller.service.memory import freeze_start_up
    from controller.service.service import open_journal
    from controller.service.setup_desk import BoardSetup
    from controller.systemd import SystemdNotifier, watchdog_loop
    from firmware_bridge import BoardLink

    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, task.cancel)
    board_id = config.mqtt.board_id if config.mqtt is not None else socket.gethostname()
    async with contextlib.AsyncExitStack() as stack:
        journal = stack.enter_context(open_journal(config.journal))
        engine = _engine(config)
        if engine is not None:
            stack.push_async_callback(engine.close)
        service = Service(
            board_id,
            journal,
            names=config.players.names,
            rules=config.game.rules(),
            mode=config.mode,
            flipped=config.board.flipped,
            variant=config.game.rules_variant(),
            confirm_orientation=config.board.confirm_orientation,
            engine=engine,
        )

        def close_journal() -> None:
            service.journal.close()  # the journal now: a new match's, if one was started

        stack.callback(close_journal)
        _log.info("%s", service.resumed)
        side = "far side, colour B" if config.board.flipped else "near side, colour A"
        _log.info("player 0 (%s) sits at the %s", config.players.player_0, side)
        link = await stack.enter_async_context(
            BoardLink(
                config.board.serial_device,
                settle_s=config.board.settle_s,
                baudrate=config.board.baudrate,
            )
        )

        devices = stack.enter_context(
            PiDevices.open(
                config.gpio,
                send_leds=link.send_leds,
                pin_factory=make_pin_factory(config.gpio.pin_factory),
            )
        )
        service.leds = devices.leds
        camera: DiceSource | None = None
        bench = None
        if config.camera.enabled:
            camera, bench = _camera(config)
        desk = BoardSetup(service, camera=bench, sensors=link)
        extra = await _web_and_mqtt(config, service, desk, stack)
        systemd = stack.enter_context(SystemdNotifier())
        frozen = freeze_start_up()
        _log.info("start-up done: %d objects kept out of the collector's full passes", frozen)
        systemd.ready(service.resumed)
        with contextlib.suppress(asyncio.CancelledError):
            await service.run(
                board=link,
                camera=camera,
                buttons=devices.buttons,
                extra=[("watchdog", watchdog_loop(systemd)), *extra],
            )
        systemd.stopping("stopping: every event is in the journal")
        _log.info("stopped")


async def _web_and_mqtt(
    config: Config, service: Any, desk: BoardSetup, stack: contextlib.AsyncExitStack
) -> list[tuple[str, Any]]:
    """Serve the board's web view and its set-up page (``[web]``), and name the MQTT
    publisher's task (``[mqtt]``)."""
    extra: list[tuple[str, Any]] = []
    if config.web.enabled:
        from controller.web import WebServer, add_setup_routes, create_app

        app = create_app(service, token=config.web.token)
        add_setup_routes(app, desk)
        server = WebServer(
            app,
            config.web.host,
            config.web.port,
            max_connections=config.web.max_connections,
            per_client=config.web.per_client,
        )
        web = await stack.enter_async_context(server)
        _log.info("web view on %s%s", web.url, "" if config.web.token else " (read-only)")
    if config.mqtt is not None:
        from controller.mqtt import MqttPublisher, journal_events

        board_id = config.mqtt.board_id
        publisher = MqttPublisher(
            service,
            config.mqtt,
            # The journal now: a new match replaces the one opened at the start.
            backlog=lambda: journal_events(board_id, service.journal.entries()),
        )
        extra.append(("mqtt", publisher.run()))
        _log.info("publishing to %s as %s", config.mqtt.broker, config.mqtt.topic)
    return extra


def _engine(config: Config) -> Any:
    """The configured engine (``[engine]``), or None with the reason logged: play on."""
    from controller.engine import configured_engine

    settings = config.engine
    program = str(settings.program) if settings.program is not None else None
    choice = configured_engine(
        settings.kind, ply=settings.ply, budget=settings.budget, program=program
    )
    _log.info("%s", choice.message)
    return choice.engine


def _camera(config: Config) -> tuple[DiceSource, CameraBench]:
    """The dice reader, and the set-up page's view of the same camera (opened once)."""
    from controller.service.camera_bench import CameraBench, FrameTap
    from vision import DiceReader, RollWatcher, load_calibration, open_source

    calibration = None
    if config.camera.calibration is not None:
        calibration = load_calibration(config.camera.calibration)
    reader = DiceReader(calibration, expected_dice=2)
    source = str(config.camera.source)
    tap = FrameTap(lambda: open_source(source))
    assert config.source is not None  # read from a file
    return RollWatcher(tap.open, reader), CameraBench(tap.latest, config.source)
