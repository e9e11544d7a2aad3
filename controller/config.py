"""The service's configuration: one TOML file, every key checked before anything starts.

Why so strict: the service runs unattended on a Pi, so a typo must stop it at start-up
with the key's name, its line, what was expected and, for an unknown key, the closest
known one, never run with a silent default. Every problem of the file is reported at
once (one per line of the :class:`ConfigError` message), so one edit fixes them all.

The file's keys, with their defaults, are documented in ``hardware/tabula.example.toml``.
The result is a tree of frozen dataclasses rooted at :class:`Config`::

    config = load_config(Path("/etc/tabula/tabula.toml"))
    config.game.rules()          # a controller.rules.Rules
    config.gpio.pins.buttons()   # {"done": 17, "undo": 27, ...}

Relative paths in the file are relative to the file's directory. Input files (pin map,
camera calibration, TLS files) must exist unless ``check_files=False``; the journal's
directory is the service's to create (systemd's ``StateDirectory``).
"""

from __future__ import annotations

import ipaddress
import re
import tomllib
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from controller._config_reader import (
    BadValueError,
    Reader,
    Section,
    boolean,
    choice,
    integer,
    number,
    text,
)
from controller.controls import Mode
from controller.record import name_problem, names_clash
from controller.rules import MAX_MATCH_LENGTH, Rules, Variant
from controller.rules import VARIANTS as RULES_VARIANTS
from hardware.board.errors import TabulaError
from hardware.pinmap import PINMAP_PATH, PinmapError, load_pinmap

__all__ = [
    "BUTTON_PINS",
    "LED_BACKENDS",
    "MODES",
    "PIN_FACTORY_NAMES",
    "PIN_KEYS",
    "VARIANTS",
    "BoardConfig",
    "CameraConfig",
    "Config",
    "ConfigError",
    "EngineConfig",
    "GameConfig",
    "GpioConfig",
    "MqttConfig",
    "PiPins",
    "PlayersConfig",
    "WebConfig",
    "load_config",
    "parse_config",
]

LedBackendName = Literal["board", "shift-register", "none"]

MODES: tuple[str, ...] = tuple(mode.value for mode in Mode)
#: The rules engine's variants, by name (``controller.rules.VARIANTS``).
VARIANTS: tuple[str, ...] = tuple(RULES_VARIANTS)
LED_BACKENDS: tuple[LedBackendName, ...] = ("board", "shift-register", "none")
PIN_FACTORY_NAMES = ("lgpio", "rpigpio", "pigpio", "native", "mock")
LOG_LEVELS = ("debug", "info", "warning", "error")

#: Buttons (``button_<name>`` keys of the pin map's ``[pi]`` table).
BUTTON_PINS = ("done", "double", "take", "drop", "accept", "undo", "hint", "mode", "decline")
#: Every GPIO key of ``[gpio.pins]`` and of the pin map's ``[pi]`` table.
PIN_KEYS = (
    *(f"button_{name}" for name in BUTTON_PINS),
    "status_led_red",
    "status_led_green",
    "status_led_blue",
    "buzzer",
    "shift_data",
    "shift_clock",
    "shift_latch",
    "shift_enable",
)
_BCM_PINS = 28  # GPIO0..GPIO27 on the 40-pin header


class ConfigError(TabulaError, ValueError):
    """The configuration file cannot be read, or has unknown keys or wrong values.

    Attributes:
        problems: one line per problem: ``file:line: key.path: what is wrong``.
    """

    def __init__(self, problems: list[str] | tuple[str, ...]) -> None:
        super().__init__("\n".join(problems))
        self.problems = tuple(problems)


# The result.


@dataclass(frozen=True, slots=True)
class BoardConfig:
    """``[board]``: the sensor board on the serial link."""

    serial_device: str = "/dev/tabula-board"
    """Device path or pyserial URL; default the pin map's ``[pi] serial_device``."""
    settle_s: float = 0.3
    """How long the board must stay unchanged before an observation counts."""
    baudrate: int = 115200
    flipped: bool = False
    """The board's orientation: player 0 sits at the far side and plays colour B."""
    confirm_orientation: bool = True
    """Before a match's first opening roll, propose the orientation the set-up shows and
    wait for the players' confirmation (Done) or swap (Undo); false: ``flipped`` holds."""


@dataclass(frozen=True, slots=True)
class CameraConfig:
    """``[camera]``: the dice camera."""

    enabled: bool = True
    source: int | str = 0
    """A V4L2 device index, a device path, a video file or a stream URL."""
    calibration: Path | None = None
    """The calibration file of the dice area, None until calibrated."""


@dataclass(frozen=True, slots=True)
class PiPins:
    """BCM numbers of the Pi's GPIO devices: the pin map's ``[pi]`` with ``[gpio.pins]`` over it.

    A pin that is None is not wired.
    """

    button_done: int | None = None
    button_double: int | None = None
    button_take: int | None = None
    button_drop: int | None = None
    button_accept: int | None = None
    button_undo: int | None = None
    button_hint: int | None = None
    button_mode: int | None = None
    button_decline: int | None = None
    """Jacquet's rule 11: decline the numbers handed over (backgammon ignores it)."""
    status_led_red: int | None = None
    status_led_green: int | None = None
    status_led_blue: int | None = None
    buzzer: int | None = None
    shift_data: int | None = None
    shift_clock: int | None = None
    shift_latch: int | None = None
    shift_enable: int | None = None

    def buttons(self) -> dict[str, int]:
        """The wired buttons: name (``done``, ``undo``...) to pin, in :data:`BUTTON_PINS` order."""
        pins = {name: getattr(self, f"button_{name}") for name in BUTTON_PINS}
        return {name: pin for name, pin in pins.items() if pin is not None}

    def status_pins(self) -> tuple[int, int] | tuple[int, int, int] | None:
        """(red, green) or (red, green, blue) of the status LED; None if not wired."""
        if self.status_led_red is None or self.status_led_green is None:
            return None
        if self.status_led_blue is None:
            return self.status_led_red, self.status_led_green
        return self.status_led_red, self.status_led_green, self.status_led_blue


@dataclass(frozen=True, slots=True)
class GpioConfig:
    """``[gpio]``: the Pi's own pins, through gpiozero."""

    pin_factory: str = "lgpio"
    """gpiozero's pin factory: ``lgpio`` on a Pi, ``mock`` for the simulators."""
    pinmap: Path = PINMAP_PATH
    leds: LedBackendName = "board"
    """Which LEDs show the scene: the sensor board's chain, 74HC595s on the Pi, or none."""
    shift_registers: int = 7
    pins: PiPins = field(default_factory=PiPins)


@dataclass(frozen=True, slots=True)
class GameConfig:
    """``[game]``: what is played, and the optional rules."""

    variant: str = "backgammon"
    """A name of ``controller.rules.VARIANTS``: backgammon, nackgammon, Jacquet de Versailles."""
    match_length: int = 0
    """Points to win, at most ``controller.rules.MAX_MATCH_LENGTH`` (64); 0 is money play."""
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: bool = False
    automatic_doubles_limit: int = 1
    crawford: bool = True

    def rules_variant(self) -> Variant:
        """The rules engine's description of the variant."""
        return RULES_VARIANTS[self.variant]

    def rules(self) -> Rules:
        """The rules engine's cube and match settings."""
        return Rules(
            match_length=self.match_length,
            jacoby=self.jacoby,
            beavers=self.beavers,
            automatic_doubles=self.automatic_doubles,
            max_automatic_doubles=self.automatic_doubles_limit,
            crawford=self.crawford,
        )


@dataclass(frozen=True, slots=True)
class PlayersConfig:
    """``[players]``: the names shown and recorded."""

    player_0: str = "Player 0"
    player_1: str = "Player 1"

    @property
    def names(self) -> tuple[str, str]:
        """Both names, player 0 first."""
        return self.player_0, self.player_1


@dataclass(frozen=True, slots=True)
class WebConfig:
    """``[web]``: the live view and its small API."""

    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 8080
    token: str | None = None
    """Bearer token of the API; required when the host is not a loopback address."""


@dataclass(frozen=True, slots=True)
class MqttConfig:
    """``[mqtt]``: publishing the board's events to a broker (absent: no MQTT)."""

    broker: str
    """``mqtt://host[:port]``, ``mqtts://`` (TLS), ``ws://`` or ``wss://``."""
    board_id: str
    topic_prefix: str = "tabula"
    username: str | None = None
    password: str | None = None
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None

    @property
    def host(self) -> str:
        """The broker's host name."""
        return urllib.parse.urlsplit(self.broker).hostname or ""

    @property
    def port(self) -> int:
        """The broker's port, or the scheme's default."""
        parts = urllib.parse.urlsplit(self.broker)
        return parts.port or _MQTT_PORTS[parts.scheme]

    @property
    def tls(self) -> bool:
        """Whether the connection is encrypted."""
        return urllib.parse.urlsplit(self.broker).scheme in ("mqtts", "wss")

    @property
    def topic(self) -> str:
        """The topic prefix of this board's messages: ``tabula/<board_id>``."""
        return f"{self.topic_prefix}/{self.board_id}"


EngineKindName = Literal["auto", "bindings", "cli", "none"]
ENGINE_KINDS: tuple[EngineKindName, ...] = ("auto", "bindings", "cli", "none")


@dataclass(frozen=True, slots=True)
class EngineConfig:
    """``[engine]``: the teacher of learner mode (hints, verdicts on plays, reviews)."""

    kind: EngineKindName = "auto"
    """``auto``: the bindings where they install, else the ``gnubg`` program, else none;
    ``none``: hints off."""
    ply: int = 0
    """Depth of hints and verdicts (0 = the neural net alone, GNU Backgammon's own is 2)."""
    budget: float = 5.0
    """Seconds an answer may take before the engine is stopped (and restarted)."""
    program: Path | None = None
    """The ``gnubg`` program of ``cli`` and ``auto`` (default: on the PATH or /usr/games)."""


@dataclass(frozen=True, slots=True)
class Config:
    """The whole configuration; :func:`load_config` builds it."""

    mode: Mode = Mode.REFEREE
    journal: Path = Path("/var/lib/tabula/journal.sqlite3")
    log_level: str = "info"
    board: BoardConfig = field(default_factory=BoardConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    game: GameConfig = field(default_factory=GameConfig)
    players: PlayersConfig = field(default_factory=PlayersConfig)
    web: WebConfig = field(default_factory=WebConfig)
    mqtt: MqttConfig | None = None
    engine: EngineConfig = field(default_factory=EngineConfig)
    source: Path | None = None
    """The file read, for messages."""


_MQTT_PORTS = {"mqtt": 1883, "mqtts": 8883, "ws": 80, "wss": 443}
_SECTIONS: dict[str, tuple[str, ...]] = {
    "board": ("serial_device", "settle_s", "baudrate", "flipped", "confirm_orientation"),
    "camera": ("enabled", "source", "calibration"),
    "gpio": ("pin_factory", "pinmap", "leds", "shift_registers", "pins"),
    "game": (
        "variant",
        "match_length",
        "jacoby",
        "beavers",
        "automatic_doubles",
        "automatic_doubles_limit",
        "crawford",
    ),
    "players": ("player_0", "player_1"),
    "web": ("enabled", "host", "port", "token"),
    "engine": ("kind", "ply", "budget", "program"),
    "mqtt": (
        "broker",
        "board_id",
        "topic_prefix",
        "username",
        "password",
        "ca_file",
        "cert_file",
        "key_file",
    ),
}
_SCHEMA: dict[tuple[str, ...], tuple[str, ...]] = {
    (): ("mode", "journal", "log_level", *_SECTIONS),
    **{(name,): keys for name, keys in _SECTIONS.items()},
    ("gpio", "pins"): PIN_KEYS,
}


# Checks of the service's own values.


def _source(value: Any) -> int | str:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str) and value:
        return value
    raise BadValueError(f"expected a device index >= 0 or a path or URL, got {value!r}")


_LABEL = r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST_NAME = rf"(?=.{{1,253}}$){_LABEL}(\.{_LABEL})*"


def _host(value: Any) -> str:
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


def _broker(value: Any) -> str:
    if isinstance(value, str):
        parts = urllib.parse.urlsplit(value)
        try:
            _ = parts.port  # raises ValueError for a port that is not 0..65535
        except ValueError:
            pass
        else:
            if parts.scheme in _MQTT_PORTS and parts.hostname:
                return value
    raise BadValueError(
        f"expected a URL mqtt://host[:port] (or mqtts://, ws://, wss://), got {value!r}"
    )


_PIN = integer(0, _BCM_PINS - 1, "a BCM pin number")
_TOPIC_WORD = text(64, r"[A-Za-z0-9_.-]+", "letters, digits, '_', '.' or '-'")


def _player_name(value: Any) -> str:
    """A player's name, by the records' own rule (a .mat file holds 31 characters)."""
    problem = name_problem(value)
    if problem is not None:
        raise BadValueError(problem)
    return str(value)


_TOKEN = text(256, r"[\x21-\x7e]{16,}", "at least 16 printable characters, no spaces")


# The sections.


def _pins(gpio: Section, pinmap: Mapping[str, Any], leds: str) -> PiPins:
    overrides = gpio.section("pins")
    values: dict[str, int | None] = {}
    for key in PIN_KEYS:
        value = pinmap.get("pi", {}).get(key)
        if value is not None:
            try:
                value = _PIN(value)
            except BadValueError as error:
                gpio.fail("pinmap", f"[pi] {key}: {error}")
                value = None
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


def _gpio(gpio: Section) -> tuple[GpioConfig, dict[str, Any]]:
    d = GpioConfig()
    pinmap_path = gpio.get("pinmap", gpio.reader.path(must_exist=True), d.pinmap)
    pinmap: dict[str, Any] = {}
    if gpio.reader.check_files or pinmap_path.is_file():
        try:
            pinmap = load_pinmap(pinmap_path)
        except PinmapError as error:
            gpio.fail("pinmap", str(error))
    leds = gpio.get("leds", choice(LED_BACKENDS), d.leds)
    config = GpioConfig(
        pin_factory=gpio.get("pin_factory", choice(PIN_FACTORY_NAMES), d.pin_factory),
        pinmap=pinmap_path,
        leds=leds,
        shift_registers=gpio.get("shift_registers", integer(7, 64), d.shift_registers),
        pins=_pins(gpio, pinmap, leds),
    )
    return config, pinmap


def _board(board: Section, pinmap: Mapping[str, Any]) -> BoardConfig:
    d = BoardConfig()
    return BoardConfig(
        serial_device=board.get(
            "serial_device", text(), pinmap.get("pi", {}).get("serial_device", d.serial_device)
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
    )
    if config.enabled and "token" not in web and not _is_loopback(config.host):
        web.fail("host", f"{config.host!r} is reachable from the network: set web.token")
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
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError([f"{source}: not valid TOML: {error}"]) from None
    reader = Reader(text, source, base or Path.cwd(), check_files, _SCHEMA)
    top = reader.root(data)
    d = Config()
    gpio, pinmap = _gpio(top.section("gpio"))
    config = Config(
        mode=Mode(top.get("mode", choice(MODES), d.mode.value)),
        journal=top.get("journal", reader.path(must_exist=False), d.journal),
        log_level=top.get("log_level", choice(LOG_LEVELS), d.log_level),
        board=_board(top.section("board"), pinmap),
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
