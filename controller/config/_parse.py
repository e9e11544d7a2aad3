"""Reading the configuration's TOML text into its sections, with every problem at once.

Why apart from the sections (:mod:`controller.config._sections`): this module checks the
service's own values (hosts, brokers, pins, names) and the rules between keys, and words
each problem with the key's line (:class:`controller.config._reader.Reader`).
"""

from __future__ import annotations

import ipaddress
import re
import urllib.parse
from collections.abc import Mapping
from pathlib import Path

from controller.config._reader import (
    BadValueError,
    Reader,
    Section,
    boolean,
    choice,
    file_problem,
    integer,
    number,
    text,
)
from controller.config._sections import (
    BCM_PINS,
    ENGINE_KINDS,
    LED_BACKENDS,
    LOG_LEVELS,
    MODES,
    MOST_CONNECTIONS,
    MQTT_PORTS,
    PIN_FACTORY_NAMES,
    PIN_KEYS,
    SCHEMA,
    VARIANTS,
    BoardConfig,
    CameraConfig,
    Config,
    EngineConfig,
    GameConfig,
    GpioConfig,
    MqttConfig,
    PiPins,
    PlayersConfig,
    WebConfig,
)
from controller.config.errors import ConfigError
from controller.controls import Mode
from controller.record import name_problem, names_clash
from controller.rules import MAX_MATCH_LENGTH
from hardware.board import toml_text
from hardware.board.ids import ID_PATTERN, ID_RULE
from hardware.board.json_types import is_integer
from hardware.pinmap import PinmapError, load_pinmap

__all__ = ["load_config", "parse_config"]


# Checks of the service's own values.


def _source(value: object) -> int | str:
    if is_integer(value) and value >= 0:
        return value
    if isinstance(value, str) and value:
        return value
    raise BadValueError(f"expected a device index >= 0 or a path or URL, got {value!r}")


_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST_NAME = rf"(?=.{{1,253}}$){_LABEL}(\.{_LABEL})*"


def _host(value: object) -> str:
    if isinstance(value, str):
        try:
            ipaddress.ip_address(value)
        except ValueError:
            if re.fullmatch(_HOST_NAME, value):
                return value
        else:
            return value
    raise BadValueError(f"expected an IP address or a host name, got {value!r}")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _broker(value: object) -> str:
    if isinstance(value, str):
        parts = urllib.parse.urlsplit(value)
        try:
            _ = parts.port  # raises ValueError for a port that is not 0..65535
        except ValueError:
            pass
        else:
            if parts.scheme in MQTT_PORTS and parts.hostname:
                return value
    raise BadValueError(
        f"expected a URL mqtt://host[:port] (or mqtts://, ws://, wss://), got {value!r}"
    )


_PIN = integer(0, BCM_PINS - 1, "a BCM pin number")
_TOPIC_WORD = text(64, ID_PATTERN, ID_RULE)


def _player_name(value: object) -> str:
    """A player's name, by the records' own rule (a .mat file holds 31 characters)."""
    problem = name_problem(value)
    if problem is not None:
        raise BadValueError(problem)
    return str(value)


_TOKEN = text(256, r"[\x21-\x7e]{16,}", "at least 16 printable characters, no spaces")
_EXAMPLE_TOKEN = "change-me-to-a-long-random-string"
"""The token ``hardware/tabula.example.toml`` shows: anyone can read it, so none may use it."""


# The sections.


def _pins(gpio: Section, pi: Mapping[str, int | str], leds: str) -> PiPins:
    overrides = gpio.section("pins")
    values: dict[str, int | None] = {}
    for key in PIN_KEYS:
        value = None
        if key in pi:
            try:
                value = _PIN(pi[key])
            except BadValueError as error:
                gpio.fail("pinmap", f"[pi] {key}: {error}")
        values[key] = overrides.get(key, _PIN, value)
    owner: dict[int, str] = {}
    for key, value in values.items():
        if value in owner:
            overrides.fail(key, f"pin {value} is also {owner[value]}")
        elif value is not None:
            owner[value] = key
    if leds == "shift-register":
        for key in ("shift_data", "shift_clock", "shift_latch"):
            if values[key] is None:
                gpio.fail("leds", f"'shift-register' needs gpio.pins.{key} (not in the pin map)")
    return PiPins(**values)


def _gpio(gpio: Section) -> tuple[GpioConfig, dict[str, int | str]]:
    """The ``[gpio]`` section, and the pin map's ``[pi]`` table (empty if unreadable)."""
    d = GpioConfig()
    pinmap_path = gpio.get("pinmap", gpio.reader.path(must_exist=True), d.pinmap)
    pi: dict[str, int | str] = {}
    if gpio.reader.check_files or file_problem(pinmap_path) is None:
        try:
            pi = load_pinmap(pinmap_path)["pi"]
        except PinmapError as error:
            gpio.fail("pinmap", str(error))
    leds = gpio.get("leds", choice(LED_BACKENDS), d.leds)
    config = GpioConfig(
        pin_factory=gpio.get("pin_factory", choice(PIN_FACTORY_NAMES), d.pin_factory),
        pinmap=pinmap_path,
        leds=leds,
        shift_registers=gpio.get("shift_registers", integer(7, 64), d.shift_registers),
        pins=_pins(gpio, pi, leds),
    )
    return config, pi


def _board(board: Section, pi: Mapping[str, int | str]) -> BoardConfig:
    d = BoardConfig()
    return BoardConfig(
        serial_device=board.get(
            "serial_device", text(), str(pi.get("serial_device", d.serial_device))
        ),
        settle_s=board.get("settle_s", number(0.0, 10.0, "seconds"), d.settle_s),
        baudrate=board.get("baudrate", integer(1200, 4_000_000), d.baudrate),
        flipped=board.get("flipped", boolean, d.flipped),
        confirm_orientation=board.get("confirm_orientation", boolean, d.confirm_orientation),
    )


def _camera(camera: Section) -> CameraConfig:
    d = CameraConfig()
    return CameraConfig(
        enabled=camera.get("enabled", boolean, d.enabled),
        source=camera.get("source", _source, d.source),
        calibration=camera.get("calibration", camera.reader.path(must_exist=True), None),
    )


_CUBE_KEYS = ("jacoby", "beavers", "automatic_doubles", "automatic_doubles_limit", "crawford")


def _game(game: Section) -> GameConfig:
    d = GameConfig()
    config = GameConfig(
        variant=game.get("variant", choice(VARIANTS), d.variant),
        match_length=game.get("match_length", integer(0, MAX_MATCH_LENGTH), d.match_length),
        jacoby=game.get("jacoby", boolean, d.jacoby),
        beavers=game.get("beavers", boolean, d.beavers),
        automatic_doubles=game.get("automatic_doubles", boolean, d.automatic_doubles),
        automatic_doubles_limit=game.get(
            "automatic_doubles_limit", integer(1, 16), d.automatic_doubles_limit
        ),
        crawford=game.get("crawford", boolean, d.crawford),
    )
    if not config.rules_variant().has_cube:
        for key in _CUBE_KEYS:
            if key in game:
                game.fail(key, f"{config.variant!r} is played without the doubling cube")
    elif config.match_length:
        for key, label in (
            ("jacoby", "the Jacoby rule"),
            ("beavers", "beavers"),
            ("automatic_doubles", "automatic doubles"),
        ):
            if getattr(config, key):
                game.fail(
                    key,
                    f"{label} belong to money play (match_length = 0), "
                    f"not to a {config.match_length}-point match",
                )
    return config


def _players(players: Section) -> PlayersConfig:
    d = PlayersConfig()
    config = PlayersConfig(
        player_0=players.get("player_0", _player_name, d.player_0),
        player_1=players.get("player_1", _player_name, d.player_1),
    )
    clash = names_clash(config.names)
    if clash is not None:
        players.fail("player_1", clash)
    return config


def _web(web: Section) -> WebConfig:
    d = WebConfig()
    config = WebConfig(
        enabled=web.get("enabled", boolean, d.enabled),
        host=web.get("host", _host, d.host),
        port=web.get("port", integer(1, 65535), d.port),
        token=web.get("token", _TOKEN, None),
        max_connections=web.get("max_connections", integer(1, MOST_CONNECTIONS), d.max_connections),
        per_client=web.get("per_client", integer(1), d.per_client),
    )
    if config.per_client > config.max_connections:
        web.fail(
            "per_client",
            f"{config.per_client} is more than web.max_connections ({config.max_connections})",
        )
    if config.enabled and "token" not in web and not _is_loopback(config.host):
        web.fail("host", f"{config.host!r} is reachable from the network: set web.token")
    if config.token == _EXAMPLE_TOKEN:
        web.fail("token", "the example's token is public: make one (openssl rand -hex 16)")
    return config


def _engine(engine: Section) -> EngineConfig:
    d = EngineConfig()
    return EngineConfig(
        kind=engine.get("kind", choice(ENGINE_KINDS), d.kind),
        ply=engine.get("ply", integer(0, 7), d.ply),
        budget=engine.get("budget", number(0.1, 600.0, "seconds"), d.budget),
        program=engine.get("program", engine.reader.path(must_exist=True), None),
    )


def _mqtt(mqtt: Section) -> MqttConfig:
    for key in ("broker", "board_id"):
        if key not in mqtt:
            mqtt.fail(key, "missing (required when [mqtt] is present)")
    file = mqtt.reader.path(must_exist=True)
    config = MqttConfig(
        broker=mqtt.get("broker", _broker, "mqtt://localhost"),
        board_id=mqtt.get("board_id", _TOPIC_WORD, "board"),
        topic_prefix=mqtt.get("topic_prefix", _TOPIC_WORD, "tabula"),
        username=mqtt.get("username", text(256), None),
        password=mqtt.get("password", text(256), None),
        ca_file=mqtt.get("ca_file", file, None),
        cert_file=mqtt.get("cert_file", file, None),
        key_file=mqtt.get("key_file", file, None),
    )
    if config.password is not None and config.username is None:
        mqtt.fail("password", "a password needs mqtt.username")
    if (config.cert_file is None) != (config.key_file is None):
        given, missing = ("cert_file", "key_file")[:: 1 if config.cert_file else -1]
        mqtt.fail(given, f"needs mqtt.{missing} too (a client certificate and its key)")
    tls_files = [key for key in ("ca_file", "cert_file", "key_file") if getattr(config, key)]
    if tls_files and "broker" in mqtt and not config.tls:
        mqtt.fail(
            tls_files[0], f"TLS files need an mqtts:// or wss:// broker, got {config.broker!r}"
        )
    return config


def parse_config(
    text: str,
    *,
    source: str = "<config>",
    base: Path | None = None,
    check_files: bool = True,
) -> Config:
    """The configuration in TOML ``text``; ``source`` names it in messages.

    Args:
        text: the file's content.
        source: the file's name, for messages.
        base: the directory relative paths start from; default the current one.
        check_files: whether the input files (pin map, calibration, TLS) must exist.

    Raises:
        ConfigError: naming every unknown key and wrong value, each with its line.
    """
    try:
        data = toml_text.loads(text)
    except ValueError as error:
        raise ConfigError([f"{source}: not valid TOML: {error}"]) from None
    reader = Reader(text, source, base or Path.cwd(), check_files, SCHEMA)
    top = reader.root(data)
    d = Config()
    gpio, pi = _gpio(top.section("gpio"))
    config = Config(
        mode=Mode(top.get("mode", choice(MODES), d.mode.value)),
        journal=top.get("journal", reader.path(must_exist=False), d.journal),
        log_level=top.get("log_level", choice(LOG_LEVELS), d.log_level),
        board=_board(top.section("board"), pi),
        camera=_camera(top.section("camera")),
        gpio=gpio,
        game=_game(top.section("game")),
        players=_players(top.section("players")),
        web=_web(top.section("web")),
        mqtt=_mqtt(top.section("mqtt")) if "mqtt" in top else None,
        engine=_engine(top.section("engine")),
        source=Path(source) if source != "<config>" else None,
    )
    if reader.problems:
        raise ConfigError(reader.problems)
    return config


def load_config(path: Path, *, check_files: bool = True) -> Config:
    """The configuration in the TOML file at ``path``.

    Raises:
        ConfigError: if the file cannot be read, or names every unknown key and wrong
            value with the file's name and the line.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError([f"{path}: cannot read the configuration: {error}"]) from None
    return parse_config(text, source=str(path), base=path.parent, check_files=check_files)
