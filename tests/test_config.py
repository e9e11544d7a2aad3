"""The service's TOML configuration: defaults, the example file, and every wrong key named."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest

from controller.config import (
    Config,
    ConfigError,
    GameConfig,
    PiPins,
    load_config,
    parse_config,
)
from controller.rules import VARIANTS, Rules
from hardware.board.errors import TabulaError
from hardware.firmware import pinmap as firmware_pinmap
from hardware.pinmap import PINMAP_PATH, load_pinmap

EXAMPLE = Path(__file__).parent.parent / "hardware" / "tabula.example.toml"
#: The token the example shows (commented out), which the configuration refuses.
EXAMPLE_TOKEN = "change-me-to-a-long-random-string"
#: One wrong configuration a line: id (the key), TOML text, the exact message.
CASES = Path(__file__).parent / "data" / "config-errors.jsonl"
#: A commented-out example key or table: "# key = value" or "# [table]".
_COMMENTED = re.compile(r"^# ((?:\[[a-z_.]+\])|(?:[a-z_0-9]+ = .*))$")


def problems(text: str, **options: object) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="t.toml", **options)  # type: ignore[arg-type]
    return list(caught.value.problems)


def test_empty_file_is_the_defaults() -> None:
    config = parse_config("")
    assert config.mode == "referee"
    assert config.gpio.pinmap == PINMAP_PATH
    assert config.gpio.pins.buttons() == {
        "done": 17,
        "double": 5,
        "take": 6,
        "drop": 13,
        "accept": 19,
        "undo": 27,
        "hint": 26,
        "mode": 22,
        "decline": 20,
    }
    assert config.gpio.pins.status_pins() == (24, 23, 25)
    assert config.board.serial_device == "/dev/tabula-board"
    assert config.mqtt is None


def test_the_engine_section_is_checked() -> None:
    config = parse_config("[engine]\nkind = 'cli'\nply = 2\nbudget = 1.5\n")
    assert (config.engine.kind, config.engine.ply, config.engine.budget) == ("cli", 2, 1.5)
    assert parse_config("").engine.kind == "auto"
    with pytest.raises(ConfigError) as caught:
        parse_config("[engine]\nkind = 'gnu'\nply = 9\nbudget = 0\nprogram = '/no/gnubg'\n")
    message = str(caught.value)
    for key in ("engine.kind", "engine.ply", "engine.budget", "engine.program"):
        assert key in message, message
    assert "'/no/gnubg'" in message


def test_the_example_shows_the_defaults() -> None:
    config = load_config(EXAMPLE)
    assert config.source == EXAMPLE
    assert dataclasses.replace(config, source=None) == parse_config("")


def test_every_commented_example_key_is_valid(tmp_path: Path) -> None:
    lines = EXAMPLE.read_text().splitlines()
    uncommented = [_COMMENTED.sub(r"\1", line) for line in lines]
    assert sum(a != b for a, b in zip(lines, uncommented, strict=True)) == 14
    path = tmp_path / "tabula.toml"
    path.write_text("\n".join(uncommented))
    # Every key is valid, and the example's token is refused as public (below).
    with pytest.raises(ConfigError, match=r"web\.token: the example's token is public"):
        load_config(path, check_files=False)
    path.write_text("\n".join(uncommented).replace(EXAMPLE_TOKEN, "a-token-of-our-own-1234"))
    config = load_config(path, check_files=False)
    assert config.camera.calibration == Path("/etc/tabula/camera-calibration.json")
    assert config.gpio.pinmap == Path("/etc/tabula/pinmap.toml")
    assert config.gpio.pins.button_hint == 16
    assert config.web.token == "a-token-of-our-own-1234"
    mqtt = config.mqtt
    assert mqtt is not None
    assert (mqtt.host, mqtt.port, mqtt.tls, mqtt.topic) == (
        "hub.example.org",
        8883,
        True,
        "tabula/table-7",
    )
    assert (mqtt.username, mqtt.password) == ("table-7", "secret")
    assert mqtt.key_file == Path("/etc/tabula/table-7.key")


def test_a_file_saved_on_windows_reads_the_same(tmp_path: Path) -> None:
    """A byte order mark first and CRLF line ends, as Windows' editors may save a file
    on the card read on a PC: the same configuration, the same lines in messages; and
    a pin map saved so is read the same by the host and by the firmware's own reader."""
    text = '\ufeffmode = "learner"\r\n[game]\r\nmatch_length = 7\r\n'
    path = tmp_path / "tabula.toml"
    path.write_text(text, encoding="utf-8", newline="")
    assert path.read_bytes().startswith(b"\xef\xbb\xbfmode")
    assert dataclasses.replace(load_config(path), source=None) == parse_config(
        'mode = "learner"\n[game]\nmatch_length = 7\n'
    )
    path.write_text(text.replace("7", "'seven'"), encoding="utf-8", newline="")
    with pytest.raises(ConfigError, match=r":3: game.match_length: expected an integer"):
        load_config(path)
    pinmap = tmp_path / "pinmap.toml"
    plain = PINMAP_PATH.read_text(encoding="utf-8")
    pinmap.write_text("\ufeff" + plain.replace("\n", "\r\n"), encoding="utf-8", newline="")
    assert load_pinmap(pinmap) == load_pinmap(PINMAP_PATH)
    assert firmware_pinmap.load(str(pinmap)) == firmware_pinmap.parse(plain)


def test_the_example_token_is_refused_as_public() -> None:
    """Anyone on a club's network can read the example file: a board whose token is the
    example's would take anyone's actions. Any other token of 16 characters passes."""
    assert f'# token = "{EXAMPLE_TOKEN}"' in EXAMPLE.read_text()
    assert problems(f'[web]\nhost = "0.0.0.0"\ntoken = "{EXAMPLE_TOKEN}"') == [
        "t.toml:3: web.token: the example's token is public: make one (openssl rand -hex 16)"
    ]
    assert parse_config(f'[web]\ntoken = "{EXAMPLE_TOKEN}-2"').web.token == EXAMPLE_TOKEN + "-2"


def test_the_message_names_file_line_and_key(tmp_path: Path) -> None:
    path = tmp_path / "tabula.toml"
    path.write_text("mode = \"learner\"\n[game]\nmatch_length = 'seven'\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value) == (
        f"{path}:3: game.match_length: expected an integer from 0 to 64, got 'seven'"
    )
    assert isinstance(caught.value, TabulaError)
    assert isinstance(caught.value, ValueError)


def test_an_input_file_that_cannot_be_a_file_is_named(tmp_path: Path) -> None:
    """A directory, a name longer than the system takes or one with a NUL: a problem, not
    an OSError or a ValueError, whether input files are checked or not."""
    long_name = "x" * 300
    text = f"[camera]\ncalibration = '{tmp_path}'\n[gpio]\npinmap = '{long_name}'\n"
    assert problems(text) == [
        f"t.toml:2: camera.calibration: '{tmp_path}' is not a file",
        f"t.toml:4: gpio.pinmap: cannot read '{Path.cwd() / long_name}': File name too long",
    ]
    assert parse_config(text, check_files=False).gpio.pinmap == Path.cwd() / long_name
    (message,) = problems('[camera]\ncalibration = "a\\u0000b"\n')
    assert message.startswith("t.toml:2: camera.calibration: cannot read ")
    assert message.endswith("embedded null byte")
    # The journal may be missing (it is created), but not a directory nor no path at all.
    assert parse_config(f"journal = '{tmp_path / 'new.sqlite3'}'\n").journal.name == "new.sqlite3"
    (message,) = problems(f"journal = '{tmp_path}'\n")
    assert message == f"t.toml:1: journal: '{tmp_path}' is not a file"
    (message,) = problems(f"journal = '{tmp_path / long_name / 'j.sqlite3'}'\n")
    assert message.startswith("t.toml:1: journal: cannot read ") and "too long" in message


def _cases() -> list[Any]:
    lines = CASES.read_text().splitlines()
    cases = [json.loads(line) for line in lines if line.strip()]
    return [pytest.param(case["toml"], case["message"], id=case["id"]) for case in cases]


@pytest.mark.parametrize(("text", "message"), _cases())
def test_wrong_keys_are_named(text: str, message: str) -> None:
    # TLS files of the cases do not exist: their checks are about the broker's scheme.
    assert problems(text, check_files="pem" not in text) == [message]


def test_every_problem_at_once_in_file_order() -> None:
    text = "\n".join(
        [
            "[web]",
            "port = 'http'",
            "[game]",
            "match_length = 'seven'",
            "varient = 'backgammon'",
            "[gpio]",
            "leds = 'rgb'",
        ]
    )
    assert problems(text) == [
        "t.toml:2: web.port: expected an integer from 1 to 65535, got 'http'",
        "t.toml:4: game.match_length: expected an integer from 0 to 64, got 'seven'",
        "t.toml:5: game.varient: unknown key (did you mean 'variant'?)",
        "t.toml:7: gpio.leds: expected one of 'board', 'shift-register', 'none', got 'rgb'",
    ]


def test_lines_of_dotted_keys_and_multiline_strings() -> None:
    text = "\n".join(
        [
            'game.match_length = "x"',
            "[web]",
            'token = """',
            "port = 1",
            '"""',
            "port = 0",
        ]
    )
    assert problems(text) == [
        "t.toml:1: game.match_length: expected an integer from 0 to 64, got 'x'",
        "t.toml:3: web.token: expected at least 16 printable characters, no spaces, "
        "got 'port = 1\\n'",
        "t.toml:6: web.port: expected an integer from 1 to 65535, got 0",
    ]


def test_not_toml() -> None:
    (message,) = problems("[game\nmatch_length = 3")
    assert message.startswith("t.toml: not valid TOML: ")
    assert "line 1" in message
    # tomllib recurses into arrays: this was a RecursionError's traceback
    assert problems("x = " + "[" * 5000 + "]" * 5000) == [
        "t.toml: not valid TOML: arrays or inline tables nested deeper than tomllib reads"
    ]


def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.toml"
    with pytest.raises(ConfigError, match=r"^.*absent\.toml: cannot read the configuration: "):
        load_config(path)


def test_relative_paths_start_at_the_file(tmp_path: Path) -> None:
    (tmp_path / "cal.json").write_text("{}")
    (tmp_path / "ca.pem").write_text("")
    path = tmp_path / "tabula.toml"
    path.write_text(
        "journal = 'data/journal.sqlite3'\n"
        "[camera]\ncalibration = 'cal.json'\n"
        "[mqtt]\nbroker = 'mqtts://hub'\nboard_id = 'b'\nca_file = 'ca.pem'\n"
    )
    config = load_config(path)
    assert config.journal == tmp_path / "data" / "journal.sqlite3"
    assert config.camera.calibration == tmp_path / "cal.json"
    assert config.mqtt is not None
    assert config.mqtt.ca_file == tmp_path / "ca.pem"


def _pinmap(tmp_path: Path, old: str, new: str) -> Path:
    text = PINMAP_PATH.read_text()
    assert old in text
    path = tmp_path / "pinmap.toml"
    path.write_text(text.replace(old, new))
    return path


def test_a_custom_pin_map(tmp_path: Path) -> None:
    pinmap = _pinmap(
        tmp_path, 'serial_device = "/dev/tabula-board"', 'serial_device = "/dev/ttyACM9"'
    )
    config = parse_config(f"[gpio]\npinmap = '{pinmap}'\n[gpio.pins]\nbutton_hint = 16")
    assert config.board.serial_device == "/dev/ttyACM9"
    assert config.gpio.pins.button_hint == 16
    assert config.gpio.pins.button_done == 17


def test_a_wrong_pin_in_the_pin_map(tmp_path: Path) -> None:
    pinmap = _pinmap(tmp_path, "button_done = 17", "button_done = 99")
    assert problems(f"[gpio]\npinmap = '{pinmap}'") == [
        "t.toml:2: gpio.pinmap: [pi] button_done: expected a BCM pin number from 0 to 27, got 99"
    ]


def test_a_broken_pin_map(tmp_path: Path) -> None:
    pinmap = _pinmap(tmp_path, "button_done = 17", "")
    (message,) = problems(f"[gpio]\npinmap = '{pinmap}'")
    assert message == f"t.toml:2: gpio.pinmap: pin map {str(pinmap)!r}: missing [pi] button_done"


def test_shift_register_needs_its_pins(tmp_path: Path) -> None:
    pinmap = _pinmap(tmp_path, "shift_latch = 8\n", "")
    text = f"[gpio]\npinmap = '{pinmap}'\nleds = 'shift-register'"
    assert problems(text) == [
        "t.toml:3: gpio.leds: 'shift-register' needs gpio.pins.shift_latch (not in the pin map)"
    ]
    config = parse_config(text + "\n[gpio.pins]\nshift_latch = 12")
    assert config.gpio.pins.shift_latch == 12


def test_game_rules() -> None:
    game = parse_config("[game]\nmatch_length = 7\ncrawford = false").game
    assert game.rules() == Rules(match_length=7, crawford=False)
    money = GameConfig(jacoby=True, beavers=True, automatic_doubles=True, automatic_doubles_limit=2)
    assert money.rules() == Rules(
        jacoby=True, beavers=True, automatic_doubles=True, max_automatic_doubles=2
    )


def test_variants_of_the_rules_engine() -> None:
    config = parse_config("[game]\nvariant = 'jacquet-versailles'\nmatch_length = 5")
    assert (config.game.variant, config.game.match_length) == ("jacquet-versailles", 5)
    assert config.game.rules_variant() is VARIANTS["jacquet-versailles"]
    nack = parse_config("[game]\nvariant = 'nackgammon'\nbeavers = true").game
    assert nack.rules_variant().has_cube and nack.rules().beavers


def test_web_on_the_network_with_a_token() -> None:
    config = parse_config("[web]\nhost = '0.0.0.0'\ntoken = 'abcdefghijklmnop'")
    assert (config.web.host, config.web.token) == ("0.0.0.0", "abcdefghijklmnop")
    assert parse_config("[web]\nhost = 'localhost'").web.host == "localhost"
    assert parse_config("[web]\nhost = '::1'").web.host == "::1"
    assert not parse_config("[web]\nhost = '0.0.0.0'\nenabled = false").web.enabled


def test_the_page_s_connection_limits() -> None:
    """``[web]``'s limits: the web server's own by default, a reverse proxy's by choice."""
    from controller.web.server import MAX_CONNECTIONS, PER_CLIENT

    default = parse_config("").web
    assert (default.max_connections, default.per_client) == (MAX_CONNECTIONS, PER_CLIENT)
    proxied = parse_config("[web]\nmax_connections = 64\nper_client = 64").web
    assert (proxied.max_connections, proxied.per_client) == (64, 64)
    assert problems("[web]\nmax_connections = 0\nper_client = true") == [
        "t.toml:2: web.max_connections: expected an integer from 1 to 512, got 0",
        "t.toml:3: web.per_client: expected an integer >= 1, got True",
    ]
    assert problems("[web]\nmax_connections = 513") == [
        "t.toml:2: web.max_connections: expected an integer from 1 to 512, got 513"
    ]
    assert problems("[web]\nmax_connections = 8\nper_client = 9") == [
        "t.toml:3: web.per_client: 9 is more than web.max_connections (8)"
    ]


def test_mqtt_defaults() -> None:
    config = parse_config("[mqtt]\nbroker = 'mqtt://hub.local'\nboard_id = 'table-3'")
    assert config.mqtt is not None
    assert (config.mqtt.host, config.mqtt.port, config.mqtt.tls) == ("hub.local", 1883, False)
    assert config.mqtt.topic == "tabula/table-3"


def test_status_pins() -> None:
    assert PiPins(status_led_red=24, status_led_green=23).status_pins() == (24, 23)
    assert PiPins(status_led_red=24).status_pins() is None
    assert PiPins(button_undo=3, button_done=2).buttons() == {"done": 2, "undo": 3}


def test_config_is_frozen() -> None:
    config = Config()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.mode = "learner"  # type: ignore[misc]
    assert hash(config.game) == hash(GameConfig())


def test_doctests() -> None:
    import doctest

    import controller.config._reader

    result = doctest.testmod(controller.config._reader)
    assert (result.failed, result.attempted) == (0, 1)
