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

from controller.config._parse import load_config, parse_config
from controller.config._sections import (
    BUTTON_PINS,
    LED_BACKENDS,
    MODES,
    MOST_CONNECTIONS,
    PIN_FACTORY_NAMES,
    PIN_KEYS,
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

__all__ = [
    "BUTTON_PINS",
    "LED_BACKENDS",
    "MODES",
    "MOST_CONNECTIONS",
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
