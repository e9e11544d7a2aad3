"""The sensor board's serial link: the device, its name, its permissions, the handshake.

Why in this order: each check needs the one before (a device that is missing has no
permissions to check), so the first failure is the one to fix, and the checks after it
are left out rather than failing for the same reason.
"""

from __future__ import annotations

import grp
import os
from pathlib import Path

from controller.config import BoardConfig
from controller.doctor._finding import Finding, current_user, fail, ok, warn
from controller.doctor._sensors import FIRMWARE, check_sensors
from firmware_bridge import (
    PROTOCOL_VERSION,
    BoardLink,
    Frame,
    IncompatibleProtocolError,
    LinkState,
    unpack,
)
from firmware_bridge.messages import Hello, MessageType
from hardware.board.errors import os_reason

__all__ = ["BY_ID", "check_board", "check_device"]

#: Where udev names each USB serial device after its make and serial number.
BY_ID = Path("/dev/serial/by-id")
_INSTALL_RULE = (
    'install the udev rule hardware/99-tabula-board.rules (hardware/README.md, "The udev rule")'
)
_UDEV_RULE = f'{_INSTALL_RULE} and set [board] serial_device = "/dev/tabula-board"'


def check_device(path: str, *, by_id: Path = BY_ID) -> list[Finding]:
    """The device file: it exists, has a name that survives a reboot, and the user may open it.

    A pyserial URL (``socket://``, ``rfc2217://``) has no device file: nothing to check.
    """
    if "://" in path:
        return [ok("serial device", f"{path!r} is a pyserial URL, not a device file")]
    device = Path(path)
    try:
        device.stat()
    except FileNotFoundError:
        return [
            fail(
                "serial device",
                f"no such device {path!r}",
                "plug the sensor board's USB cable in (ls /dev/ttyACM* lists the serial ports), "
                f"and check [board] serial_device; for /dev/tabula-board, {_INSTALL_RULE}",
            )
        ]
    except OSError as error:  # a directory on the way the user may not enter
        return [
            fail(
                "serial device",
                f"{current_user()} cannot reach {path!r}: {os_reason(error)}",
                "name the port where the user may reach it ([board] serial_device), "
                "or run as the service's user (sudo -u tabula tabula doctor)",
            )
        ]
    real = os.path.realpath(device)
    return [
        ok("serial device", f"{path!r} is {real!r}"),
        _name(device, real, by_id),
        _access(device),
    ]


def _name(device: Path, real: str, by_id: Path) -> Finding:
    if device.is_symlink():
        how = "udev's by-id name" if device.parent == by_id else "a symlink to the port"
        return ok("serial name", f"{str(device)!r} is {how}: it survives a reboot or a replug")
    stable = sorted(
        str(link)
        for link in (by_id.iterdir() if by_id.is_dir() else ())
        if os.path.realpath(link) == real
    )
    instead = f'set [board] serial_device = "{stable[0]}", or ' if stable else ""
    return warn(
        "serial name",
        f"{str(device)!r} is the kernel's name of the port: it may change at the next boot "
        "or replug (another USB serial device may take it)",
        instead + _UDEV_RULE,
    )


def _access(device: Path) -> Finding:
    if os.access(device, os.R_OK | os.W_OK):
        return ok("serial access", f"{current_user()} may read and write {str(device)!r}")
    group = grp.getgrgid(device.stat().st_gid).gr_name
    user = current_user()
    return fail(
        "serial access",
        f"{user} may not open {str(device)!r} (group {group!r}, mode "
        f"{device.stat().st_mode & 0o777:o})",
        f"add {user} to group {group!r}: sudo usermod -aG {group} {user}, then log in again "
        "(the service's user, tabula, is in it: hardware/SERVICE.md)",
    )


async def check_board(board: BoardConfig, *, timeout: float, checkers: str) -> list[Finding]:
    """The board answers HELLO, speaks this host's protocol, and every sensor slot reads right.

    ``checkers`` says what lies on the board (a key of :data:`~controller.doctor.CHECKERS`).

    It opens the port as the service does (:class:`~firmware_bridge.BoardLink`), so the
    service must not be running: the port is opened exclusively.
    """
    hellos: list[Hello] = []

    def note_hello(frame: Frame) -> None:
        if frame.type == MessageType.HELLO:
            message = unpack(frame)
            assert isinstance(message, Hello)
            hellos.append(message)

    link = BoardLink(
        board.serial_device, settle_s=board.settle_s, baudrate=board.baudrate, on_frame=note_hello
    )
    async with link:
        try:
            await link.wait_for(LinkState.LIVE, timeout)
        except IncompatibleProtocolError as error:
            return [_answered(hellos[-1]), fail("protocol", str(error), FIRMWARE)]
        except TimeoutError:
            why = link.problem or f"no answer to HELLO within {timeout:g} s"
            return [
                fail(
                    "board",
                    why,
                    "is it the sensor board, running its firmware (its LED blinks)? is another "
                    "program holding the port (tabula run: sudo systemctl stop tabula)?",
                )
            ]
        hello = hellos[-1]
        sensors = await check_sensors(link, checkers, timeout=timeout)
        return [_answered(hello), _protocol(hello), *sensors]


def _answered(hello: Hello) -> Finding:
    return ok("board", f"{hello.name!r} answers HELLO ({sum(hello.slots)} sensor slots)")


def _protocol(hello: Hello) -> Finding:
    host = "{}.{}".format(*PROTOCOL_VERSION)
    if hello.minor == PROTOCOL_VERSION[1]:
        return ok("protocol", f"the board and this host speak protocol {host}")
    older = "the board's firmware" if hello.minor < PROTOCOL_VERSION[1] else "this host"
    return ok(
        "protocol",
        f"the board speaks {hello.major}.{hello.minor}, this host {host}: "
        f"compatible ({older} lacks the newer messages)",
    )
