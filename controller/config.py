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

import difflib
import ipaddress
import math
import re
import tomllib
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

from controller.errors import TabulaError
from controller.rules import Rules
from hardware.pinmap import PINMAP_PATH, PinmapError, load_pinmap

__all__ = [
    "BUTTON_PINS",
    "PIN_KEYS",
    "BoardConfig",
    "CameraConfig",
    "Config",
    "ConfigError",
    "GameConfig",
    "GpioConfig",
    "MqttConfig",
    "PiPins",
    "PlayersConfig",
    "WebConfig",
    "load_config",
    "parse_config",
]

Mode = Literal["referee", "learner", "recorder"]
Variant = Literal["backgammon", "jacquet-versailles", "jacquet-versailles-ludii"]
LedBackendName = Literal["board", "shift-register", "none"]

MODES: tuple[Mode, ...] = ("referee", "learner", "recorder")
VARIANTS: tuple[Variant, ...] = ("backgammon", "jacquet-versailles", "jacquet-versailles-ludii")
LED_BACKENDS: tuple[LedBackendName, ...] = ("board", "shift-register", "none")
PIN_FACTORY_NAMES = ("lgpio", "rpigpio", "pigpio", "native", "mock")
LOG_LEVELS = ("debug", "info", "warning", "error")

#: Buttons (``button_<name>`` keys of the pin map's ``[pi]`` table).
BUTTON_PINS = ("done", "double", "take", "drop", "accept", "undo", "hint", "mode")
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

    variant: Variant = "backgammon"
    match_length: int = 0
    """Points to win; 0 is money play."""
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: bool = False
    automatic_doubles_limit: int = 1
    crawford: bool = True

    def rules(self) -> Rules:
        """The rules engine's settings for backgammon."""
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


@dataclass(frozen=True, slots=True)
class Config:
    """The whole configuration; :func:`load_config` builds it."""

    mode: Mode = "referee"
    journal: Path = Path("/var/lib/tabula/journal.sqlite3")
    log_level: str = "info"
    board: BoardConfig = field(default_factory=BoardConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    game: GameConfig = field(default_factory=GameConfig)
    players: PlayersConfig = field(default_factory=PlayersConfig)
    web: WebConfig = field(default_factory=WebConfig)
    mqtt: MqttConfig | None = None
    source: Path | None = None
    """The file read, for messages."""


_MQTT_PORTS = {"mqtt": 1883, "mqtts": 8883, "ws": 80, "wss": 443}
_TOP_KEYS = ("mode", "journal", "log_level")
_SECTIONS: dict[str, tuple[str, ...]] = {
    "board": ("serial_device", "settle_s", "baudrate"),
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


# Where each key is in the text, for file:line in messages.

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(
    r"""^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*="""
)


def _split_key(text: str) -> tuple[str, ...]:
    parts = re.findall(r"""[A-Za-z0-9_-]+|"[^"]*"|'[^']*'""", text)
    return tuple(part.strip("\"'") for part in parts)


def _key_lines(text: str) -> dict[tuple[str, ...], int]:
    """The first line of each table header and key, by key path (a close reading of TOML)."""
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    in_string = False
    for number, line in enumerate(text.splitlines(), start=1):
        if not in_string:
            header = _HEADER.match(line)
            key = _KEY.match(line)
            if header:
                table = _split_key(header.group(1))
                lines.setdefault(table, number)
            elif key:
                lines.setdefault(table + _split_key(key.group(1)), number)
        # Lines inside a multi-line string are not keys.
        if line.count('"""') % 2 or line.count("'''") % 2:
            in_string = not in_string
    return lines


# Checking.


class _InvalidError(Exception):
    """A value is not what its key needs; the message completes ``key: ...``."""


T = TypeVar("T")
Check = Callable[[Any], T]


class _Reader:
    """Collects every problem of one file, each with its key path and line."""

    def __init__(self, text: str, source: str, base: Path, check_files: bool) -> None:
        self.lines = _key_lines(text)
        self.source = source
        self.base = base
        self.check_files = check_files
        self._problems: list[tuple[float, int, str]] = []

    @property
    def problems(self) -> list[str]:
        """Every problem found, in the order of the file's lines."""
        return [text for _, _, text in sorted(self._problems)]

    def fail(self, path: tuple[str, ...], message: str) -> None:
        line = None
        for end in range(len(path), 0, -1):
            line = self.lines.get(path[:end])
            if line is not None:
                break
        where = self.source if line is None else f"{self.source}:{line}"
        order = math.inf if line is None else line
        text = f"{where}: {'.'.join(path)}: {message}"
        self._problems.append((order, len(self._problems), text))

    def table(self, data: Mapping[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
        """The sub-table at ``path`` of ``data`` (empty if absent), its unknown keys reported."""
        value = data.get(path[-1], {}) if path else data
        if not isinstance(value, dict):
            self.fail(path, f"expected a table, got {value!r}")
            return {}
        known = _TOP_KEYS + tuple(_SECTIONS) if not path else _SECTIONS.get(path[0], ())
        if path == ("gpio", "pins"):
            known = PIN_KEYS
        for key in value:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                what = "section" if not path and isinstance(value[key], dict) else "key"
                self.fail((*path, key), f"unknown {what}{hint}")
        return value

    def get(
        self, table: Mapping[str, Any], path: tuple[str, ...], check: Check[T], default: T
    ) -> T:
        """The checked value of ``path[-1]`` in ``table``, or ``default`` if absent or wrong."""
        if path[-1] not in table:
            return default
        try:
            return check(table[path[-1]])
        except _InvalidError as error:
            self.fail(path, str(error))
            return default

    def path(self, must_exist: bool) -> Check[Path]:
        def check(value: Any) -> Path:
            text = _text()(value)
            path = Path(text).expanduser()
            if not path.is_absolute():
                path = self.base / path
            if must_exist and self.check_files and not path.is_file():
                raise _InvalidError(f"no such file {str(path)!r}")
            return path

        return check


def _integer(
    low: int | None = None, high: int | None = None, what: str = "an integer"
) -> Check[int]:
    if low is not None and high is not None:
        expected = f"{what} from {low} to {high}"
    elif low is not None:
        expected = f"{what} >= {low}"
    else:
        expected = what

    def check(value: Any) -> int:
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or (low is not None and value < low)
            or (high is not None and value > high)
        ):
            raise _InvalidError(f"expected {expected}, got {value!r}")
        return value

    return check


def _number(low: float, high: float, unit: str) -> Check[float]:
    def check(value: Any) -> float:
        if (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not math.isfinite(value)
            or not low <= value <= high
        ):
            raise _InvalidError(
                f"expected a number of {unit} from {low:g} to {high:g}, got {value!r}"
            )
        return float(value)

    return check


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _InvalidError(f"expected true or false, got {value!r}")
    return value


def _text(max_length: int = 4096, pattern: str | None = None, what: str = "") -> Check[str]:
    def check(value: Any) -> str:
        if not isinstance(value, str) or not value or len(value) > max_length:
            raise _InvalidError(
                f"expected a non-empty string of at most {max_length} characters, got {value!r}"
            )
        if pattern is not None and not re.fullmatch(pattern, value):
            raise _InvalidError(f"expected {what}, got {value!r}")
        return value

    return check


def _choice(options: tuple[T, ...]) -> Check[T]:
    def check(value: Any) -> T:
        if value in options and isinstance(value, str):
            return cast(T, value)
        listed = ", ".join(repr(option) for option in options)
        close = (
            difflib.get_close_matches(value, cast(tuple[str, ...], options), n=1)
            if isinstance(value, str)
            else []
        )
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise _InvalidError(f"expected one of {listed}, got {value!r}{hint}")

    return check


def _source(value: Any) -> int | str:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str) and value:
        return value
    raise _InvalidError(f"expected a device index >= 0 or a path or URL, got {value!r}")


def _host(value: Any) -> str:
    if isinstance(value, str):
        try:
            ipaddress.ip_address(value)
            return value
        except ValueError:
            if re.fullmatch(
                r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*",
                value,
            ):
                return value
    raise _InvalidError(f"expected an IP address or a host name, got {value!r}")


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
            parts.port  # noqa: B018 - raises ValueError for a bad port
        except ValueError:
            pass
        else:
            if parts.scheme in _MQTT_PORTS and parts.hostname:
                return value
    raise _InvalidError(
        f"expected a URL mqtt://host[:port] (or mqtts://, ws://, wss://), got {value!r}"
    )


_TOPIC_WORD = r"[A-Za-z0-9_.-]+"


# The sections.


def _gpio(r: _Reader, data: Mapping[str, Any]) -> tuple[GpioConfig, dict[str, Any]]:
    section = r.table(data, ("gpio",))
    d = GpioConfig()
    factory = r.get(section, ("gpio", "pin_factory"), _choice(PIN_FACTORY_NAMES), d.pin_factory)
    pinmap_path = r.get(section, ("gpio", "pinmap"), r.path(must_exist=True), d.pinmap)
    leds = r.get(section, ("gpio", "leds"), _choice(LED_BACKENDS), d.leds)
    registers = r.get(section, ("gpio", "shift_registers"), _integer(7, 64), d.shift_registers)
    overrides = r.table(section, ("gpio", "pins"))
    pinmap: dict[str, Any] = {}
    if r.check_files or pinmap_path.is_file():
        try:
            pinmap = load_pinmap(pinmap_path)
        except PinmapError as error:
            r.fail(("gpio", "pinmap"), str(error))
    defaults = pinmap.get("pi", {})
    pin = _integer(0, _BCM_PINS - 1, "a BCM pin number")
    values: dict[str, int | None] = {}
    for key in PIN_KEYS:
        value = defaults.get(key)
        if value is not None:
            try:
                value = pin(value)
            except _InvalidError as error:
                r.fail(("gpio", "pinmap"), f"[pi] {key}: {error}")
                value = None
        values[key] = r.get(overrides, ("gpio", "pins", key), pin, value)
    owner: dict[int, str] = {}
    for key, value in values.items():
        if value is None:
            continue
        if value in owner:
            r.fail(("gpio", "pins", key), f"pin {value} is also {owner[value]}")
        else:
            owner[value] = key
    if leds == "shift-register":
        for key in ("shift_data", "shift_clock", "shift_latch"):
            if values[key] is None:
                r.fail(
                    ("gpio", "leds"), f"'shift-register' needs gpio.pins.{key} (not in the pin map)"
                )
    config = GpioConfig(factory, pinmap_path, leds, registers, PiPins(**values))
    return config, pinmap


def _board(r: _Reader, data: Mapping[str, Any], pinmap: Mapping[str, Any]) -> BoardConfig:
    section = r.table(data, ("board",))
    d = BoardConfig()
    device_default = pinmap.get("pi", {}).get("serial_device", d.serial_device)
    return BoardConfig(
        serial_device=r.get(section, ("board", "serial_device"), _text(), device_default),
        settle_s=r.get(section, ("board", "settle_s"), _number(0.0, 10.0, "seconds"), d.settle_s),
        baudrate=r.get(section, ("board", "baudrate"), _integer(1200, 4_000_000), d.baudrate),
    )


def _camera(r: _Reader, data: Mapping[str, Any]) -> CameraConfig:
    section = r.table(data, ("camera",))
    d = CameraConfig()
    return CameraConfig(
        enabled=r.get(section, ("camera", "enabled"), _boolean, d.enabled),
        source=r.get(section, ("camera", "source"), _source, d.source),
        calibration=r.get(section, ("camera", "calibration"), r.path(must_exist=True), None),
    )


def _game(r: _Reader, data: Mapping[str, Any]) -> GameConfig:
    section = r.table(data, ("game",))
    d = GameConfig()
    game = GameConfig(
        variant=r.get(section, ("game", "variant"), _choice(VARIANTS), d.variant),
        match_length=r.get(section, ("game", "match_length"), _integer(0), d.match_length),
        jacoby=r.get(section, ("game", "jacoby"), _boolean, d.jacoby),
        beavers=r.get(section, ("game", "beavers"), _boolean, d.beavers),
        automatic_doubles=r.get(section, ("game", "automatic_doubles"), _boolean, False),
        automatic_doubles_limit=r.get(
            section, ("game", "automatic_doubles_limit"), _integer(1, 16), d.automatic_doubles_limit
        ),
        crawford=r.get(section, ("game", "crawford"), _boolean, d.crawford),
    )
    cube_keys = ("jacoby", "beavers", "automatic_doubles", "automatic_doubles_limit", "crawford")
    if game.variant != "backgammon":
        for key in cube_keys:
            if key in section:
                r.fail(
                    ("game", key), f"Jacquet de Versailles has no doubling cube ({game.variant})"
                )
    elif game.match_length:
        for key, label in (
            ("jacoby", "the Jacoby rule"),
            ("beavers", "beavers"),
            ("automatic_doubles", "automatic doubles"),
        ):
            if getattr(game, key):
                r.fail(
                    ("game", key),
                    f"{label} belong to money play (match_length = 0), "
                    f"not to a {game.match_length}-point match",
                )
    return game


def _players(r: _Reader, data: Mapping[str, Any]) -> PlayersConfig:
    section = r.table(data, ("players",))
    d = PlayersConfig()
    name = _text(40, r"[^\x00-\x1f\x7f]+", "a name of printable characters")
    players = PlayersConfig(
        player_0=r.get(section, ("players", "player_0"), name, d.player_0),
        player_1=r.get(section, ("players", "player_1"), name, d.player_1),
    )
    if players.player_0 == players.player_1:
        r.fail(("players", "player_1"), f"the same name as player_0 ({players.player_1!r})")
    return players


def _web(r: _Reader, data: Mapping[str, Any]) -> WebConfig:
    section = r.table(data, ("web",))
    d = WebConfig()
    token_check = _text(256, r"[\x21-\x7e]{16,}", "at least 16 printable characters, no spaces")
    web = WebConfig(
        enabled=r.get(section, ("web", "enabled"), _boolean, d.enabled),
        host=r.get(section, ("web", "host"), _host, d.host),
        port=r.get(section, ("web", "port"), _integer(1, 65535), d.port),
        token=r.get(section, ("web", "token"), token_check, None),
    )
    if web.enabled and "token" not in section and not _is_loopback(web.host):
        r.fail(("web", "host"), f"{web.host!r} is reachable from the network: set web.token")
    return web


def _mqtt(r: _Reader, data: Mapping[str, Any]) -> MqttConfig | None:
    if "mqtt" not in data:
        return None
    section = r.table(data, ("mqtt",))
    word = _text(64, _TOPIC_WORD, "letters, digits, '_', '.' or '-'")
    broker = r.get(section, ("mqtt", "broker"), _broker, "")
    board_id = r.get(section, ("mqtt", "board_id"), word, "")
    for key in ("broker", "board_id"):
        if key not in section:
            r.fail(("mqtt", key), "missing (required when [mqtt] is present)")
    config = MqttConfig(
        broker=broker or "mqtt://localhost",
        board_id=board_id or "board",
        topic_prefix=r.get(section, ("mqtt", "topic_prefix"), word, "tabula"),
        username=r.get(section, ("mqtt", "username"), _text(256), None),
        password=r.get(section, ("mqtt", "password"), _text(256), None),
        ca_file=r.get(section, ("mqtt", "ca_file"), r.path(must_exist=True), None),
        cert_file=r.get(section, ("mqtt", "cert_file"), r.path(must_exist=True), None),
        key_file=r.get(section, ("mqtt", "key_file"), r.path(must_exist=True), None),
    )
    if config.password is not None and config.username is None:
        r.fail(("mqtt", "password"), "a password needs mqtt.username")
    if (config.cert_file is None) != (config.key_file is None):
        given = "cert_file" if config.cert_file is not None else "key_file"
        missing = "key_file" if given == "cert_file" else "cert_file"
        r.fail(("mqtt", given), f"needs mqtt.{missing} too (a client certificate and its key)")
    tls_files = [key for key in ("ca_file", "cert_file", "key_file") if getattr(config, key)]
    if tls_files and broker and not config.tls:
        r.fail(
            ("mqtt", tls_files[0]), f"TLS files need an mqtts:// or wss:// broker, got {broker!r}"
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
    r = _Reader(text, source, base or Path.cwd(), check_files)
    top = r.table(data, ())
    d = Config()
    gpio, pinmap = _gpio(r, top)
    config = Config(
        mode=r.get(top, ("mode",), _choice(MODES), d.mode),
        journal=r.get(top, ("journal",), r.path(must_exist=False), d.journal),
        log_level=r.get(top, ("log_level",), _choice(LOG_LEVELS), d.log_level),
        board=_board(r, top, pinmap),
        camera=_camera(r, top),
        gpio=gpio,
        game=_game(r, top),
        players=_players(r, top),
        web=_web(r, top),
        mqtt=_mqtt(r, top),
        source=Path(source) if source != "<config>" else None,
    )
    if r.problems:
        raise ConfigError(r.problems)
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
