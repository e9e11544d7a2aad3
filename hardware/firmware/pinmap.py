"""Reads pinmap.toml on the board, where MicroPython has no TOML library.

Why a reader of our own: the pin map is data shared with the host (which uses tomllib);
this reads the subset the file uses: ``[table]`` headers, ``key = value`` with integers,
floats, strings, booleans and arrays of them (possibly over several lines), and comments.
"""

# Annotations are ignored by MicroPython and evaluated by CPython 3.11: names used only
# by the type checker stay in strings, and typing is imported for it alone.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NotRequired, TypedDict

    class SensorsTable(TypedDict):
        """``[sensors]``: the slots of each kind of location, the multiplexers' inputs."""

        point_slots: int
        bar_slots: int
        tray_slots: int
        mux_channels: int

    class Rp2040Table(TypedDict):
        """``[rp2040]``: the Pico's pins (multiplexers, ADCs, LED chain)."""

        mux_select: list[int]
        mux_enable: list[int]
        mux_adc: list[int]
        mux_settle_us: int
        led_data: int
        led_count: int
        status_led: NotRequired[int]

    class HallTable(TypedDict):
        """``[hall]``: the sensors' thresholds (raw ADC units)."""

        mid: int
        enter: int
        exit: int
        stack_enter: int
        stack_exit: int
        fault_low: int
        fault_high: int

    class FirmwareTable(TypedDict):
        """``[firmware]``: the firmware's timings and sizes."""

        scan_period_ms: int
        stable_scans: int
        heartbeat_ms: int
        ring_size: int

    class Pinmap(TypedDict):
        """The pin map (``hardware/pinmap.toml``); ``[pi]`` is the host's, read key by key."""

        version: NotRequired[int]
        sensors: SensorsTable
        rp2040: Rp2040Table
        hall: HallTable
        firmware: FirmwareTable
        pi: dict[str, int | str]


def _value(text: str) -> "Any":
    text = text.strip()
    if text.startswith("["):
        inner = text[1:-1].strip()
        if not inner:
            return []
        return [_value(item) for item in _split(inner)]
    if text.startswith('"'):
        return text[1:-1]
    if text in ("true", "false"):
        return text == "true"
    text = text.replace("_", "")
    if "." in text or "e" in text.lower():
        return float(text)
    return int(text)


def _split(inner: str) -> list[str]:
    items = []  # type: list[str]
    depth = 0
    quoted = False
    start = 0
    for index, char in enumerate(inner):
        if char == '"':
            quoted = not quoted
        elif not quoted and char == "[":
            depth += 1
        elif not quoted and char == "]":
            depth -= 1
        elif not quoted and depth == 0 and char == ",":
            items.append(inner[start:index])
            start = index + 1
    last = inner[start:]
    if last.strip():
        items.append(last)
    return items


def _strip_comment(line: str) -> str:
    quoted = False
    for index, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == "#" and not quoted:
            return line[:index]
    return line


def parse(text: str) -> "Pinmap":
    """Parse the TOML subset of pinmap.toml into nested dicts.

    Raises:
        ValueError: on a line that is not a header, a key/value pair or a comment.
    """
    if text.startswith("\ufeff"):  # a byte order mark, as an editor on Windows may save
        text = text[1:]
    root = {}  # type: Any
    table = root
    pending = ""
    for number, raw in enumerate(text.split("\n"), 1):
        line = _strip_comment(raw).strip()
        if pending:
            line = pending + " " + line
            if line.count("[") > line.count("]"):
                pending = line
                continue
            pending = ""
        if not line:
            continue
        if line.startswith("[") and "=" not in line:
            table = {}
            root[line[1:-1].strip()] = table
            continue
        if "=" not in line:
            raise ValueError(f"pinmap line {number}: {raw!r} is not 'key = value'")
        if line.count("[") > line.count("]"):
            pending = line
            continue
        key, value = line.split("=", 1)
        table[key.strip()] = _value(value)
    return root  # type: ignore[no-any-return]  # the board trusts its own file's tables


def load(path: str = "pinmap.toml") -> "Pinmap":
    """Read and parse the pin map file at ``path``."""
    with open(path) as handle:
        return parse(handle.read())


def slots_per_location(pinmap: "Pinmap") -> list[int]:
    """The number of sensor slots of each of the 28 locations."""
    sensors = pinmap["sensors"]
    slots = [sensors["point_slots"]] * 24 + [sensors["bar_slots"]] * 2  # type: list[int]
    return slots + [sensors["tray_slots"]] * 2
