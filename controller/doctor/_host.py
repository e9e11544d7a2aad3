"""The Pi's own parts: the GPIO pins, the engine, the journal's directory, the MQTT broker."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import aiomqtt

from controller.config import EngineConfig, GpioConfig, MqttConfig
from controller.devices import DevicesError, PiDevices, make_pin_factory
from controller.doctor._finding import Finding, current_user, fail, ok, warn
from controller.engine import EngineError, configured_engine
from controller.mqtt import client_options, connected
from controller.rules import Xgid
from firmware_bridge import LedFrame

__all__ = ["check_engine", "check_gpio", "check_journal", "check_mqtt"]

MIB = 1 << 20
#: Free space under which the journal's directory fails, and under which it warns: a
#: match's journal is a few hundred KiB, but SQLite needs room for its log and checkpoints.
FREE_FAIL, FREE_WARN = 10 * MIB, 100 * MIB


def _drop_frame(frame: LedFrame) -> None:
    """The LED frames of ``leds = "board"`` go nowhere: the check claims the Pi's pins only."""


def check_gpio(gpio: GpioConfig) -> list[Finding]:
    """The pin factory starts and every configured pin can be claimed (then released).

    Runs in the event loop: the buttons attach to the running loop.
    """
    try:
        factory = make_pin_factory(gpio.pin_factory)
    except DevicesError as error:
        return [
            fail(
                "gpio",
                str(error),
                "on a Raspberry Pi: install lgpio (the pi extra, or Debian's python3-lgpio) and "
                "add the user to group 'gpio'; elsewhere: [gpio] pin_factory = \"mock\"",
            )
        ]
    findings = [ok("gpio", f"pin factory {gpio.pin_factory!r} started")]
    try:
        with PiDevices.open(gpio, send_leds=_drop_frame, pin_factory=factory) as devices:
            buttons = ", ".join(f"{name} {pin}" for name, pin in gpio.pins.buttons().items())
            detail = f"buttons {buttons}; LEDs {gpio.leds!r}" + (
                "; buzzer" if devices.buzzer is not None else ""
            )
        findings.append(ok("gpio pins", f"claimed and released: {detail}"))
    # gpiozero's back-ends raise their own library's errors for a pin in use or missing.
    except Exception as error:
        findings.append(
            fail(
                "gpio pins",
                f"{type(error).__name__}: {error}",
                "check the pins of [gpio.pins] and the pin map against the wiring "
                "(hardware/pinmap.toml), and that no other program uses them",
            )
        )
    finally:
        factory.close()
    return findings


async def check_engine(engine: EngineConfig) -> Finding:
    """GNU Backgammon, as ``[engine]`` names it, answers a hint within its budget."""
    program = str(engine.program) if engine.program is not None else None
    choice = configured_engine(engine.kind, ply=engine.ply, budget=engine.budget, program=program)
    if choice.engine is None:
        if engine.kind == "none":
            return ok("engine", choice.message)
        fix = (
            "install Debian's gnubg (apt-get install gnubg) or set [engine] program; "
            '[engine] kind = "none" turns hints off'
        )
        if engine.kind == "auto":  # the service referees on without hints
            return warn("engine", choice.message, fix)
        return fail("engine", f"{choice.message} ([engine] kind = {engine.kind!r})", fix)
    try:
        hint = await choice.engine.hint(Xgid(), (3, 1))
    except EngineError as error:
        return fail("engine", str(error), "check that the gnubg program runs: gnubg --tty")
    finally:
        await choice.engine.close()
    return ok(
        "engine", f"{choice.engine.name} answers: 31 from the start, {hint.best.play.notation}"
    )


def check_journal(
    journal: Path, *, free_fail: int = FREE_FAIL, free_warn: int = FREE_WARN
) -> Finding:
    """The journal's directory can be written (or made), with room to spare."""
    directory = journal.parent
    # os.path.exists, not Path.exists: a directory the user may not enter is not an error.
    existing = next(path for path in (directory, *directory.parents) if os.path.exists(path))
    user = current_user()
    present = os.path.exists(journal)
    if not os.access(existing, os.W_OK | os.X_OK) or (
        present and not os.access(journal, os.R_OK | os.W_OK)
    ):
        denied = journal if present else existing
        return fail(
            "journal",
            f"{user} may not write {str(denied)!r}",
            f"run as the service's user (sudo -u tabula tabula doctor), whose directory systemd "
            f"makes (StateDirectory=tabula), or: sudo install -d -o {user} {directory}",
        )
    free = shutil.disk_usage(existing).free
    where = f"{str(directory)!r}" + ("" if existing == directory else " (to be made)")
    detail = f"{where} is writable, {free / MIB:,.0f} MiB free"
    if free < free_warn:
        fix = f"free some space on the disk of {str(existing)!r} (df -h {existing})"
        return (fail if free < free_fail else warn)("journal", detail, fix)
    return ok("journal", detail)


async def check_mqtt(mqtt: MqttConfig | None, *, timeout: float) -> Finding:
    """The broker of ``[mqtt]`` accepts this board's connection (its address, credentials, TLS)."""
    if mqtt is None:
        return ok("mqtt", "not configured: no events published ([mqtt] absent)")
    broker = f"broker {mqtt.broker!r}"
    try:
        async with asyncio.timeout(timeout):
            client = aiomqtt.Client(
                **client_options(mqtt), identifier=f"tabula-doctor-{mqtt.board_id}", timeout=timeout
            )
            async with connected(client):
                pass
    except aiomqtt.MqttCodeError as error:
        return fail(
            "mqtt",
            f"{broker} refused the connection: {error}",
            "check [mqtt] username and password against the broker's users "
            "(mosquitto's password_file) and its ACL",
        )
    except (aiomqtt.MqttError, TimeoutError, OSError) as error:  # OSError: TLS files too
        why = str(error) or f"no answer within {timeout:g} s"
        return fail(
            "mqtt",
            f"cannot reach {broker}: {why}",
            "check [mqtt] broker (scheme, host, port), that the broker runs, and "
            "the network; for mqtts://, [mqtt] ca_file",
        )
    return ok("mqtt", f"{broker} accepts the board as {mqtt.username or 'anonymous'}")
