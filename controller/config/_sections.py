"""The configuration's sections as frozen dataclasses, and the keys each table may have.

Why apart from the reading (:mod:`controller.config._parse`): these are what the service
reads of its configuration, with their defaults; how a file's text becomes them, and how
its problems are worded, is the other module's concern.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from controller.controls import Mode
from controller.rules import VARIANTS as RULES_VARIANTS
from controller.rules import Rules, Variant
from hardware.pinmap import PINMAP_PATH

LedBackendName = Literal["board", "shift-register", "none"]

MODES: tuple[str, ...] = tuple(mode.value for mode in Mode)
#: The rules engine's variants, by name (``controller.rules.VARIANTS``).
VARIANTS: tuple[str, ...] = tuple(RULES_VARIANTS)
LED_BACKENDS: tuple[LedBackendName, ...] = ("board", "shift-register", "none")
PIN_FACTORY_NAMES = ("lgpio", "rpigpio", "pigpio", "native", "mock")
LOG_LEVELS = ("debug", "info", "warning", "error")
MOST_CONNECTIONS = 512
"""The most connections a page may be set to hold (``[web] max_connections``, ``tabula hub
--max-connections``): half of the 1,024 descriptors a service may open (systemd's default
soft limit), the rest its own (the sensor board, the camera, the journal, the broker)."""

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
BCM_PINS = 28  # GPIO0..GPIO27 on the 40-pin header


# The sections.


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
    max_connections: int = 128
    """Connections the page holds at most: each is a descriptor the service may need to
    reopen its board, camera or journal (``controller.web.server.MAX_CONNECTIONS``)."""
    per_client: int = 16
    """Connections the page holds at most from one address (a browser's six, and a few
    tabs). Behind a reverse proxy every client has the proxy's address: set it to
    ``max_connections``, and let the proxy limit each client."""


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
        return parts.port or MQTT_PORTS[parts.scheme]

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


MQTT_PORTS = {"mqtt": 1883, "mqtts": 8883, "ws": 80, "wss": 443}
SECTIONS: dict[str, tuple[str, ...]] = {
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
    "web": ("enabled", "host", "port", "token", "max_connections", "per_client"),
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
SCHEMA: dict[tuple[str, ...], tuple[str, ...]] = {
    (): ("mode", "journal", "log_level", *SECTIONS),
    **{(name,): keys for name, keys in SECTIONS.items()},
    ("gpio", "pins"): PIN_KEYS,
}
