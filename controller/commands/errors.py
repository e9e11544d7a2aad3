"""The error of a command line that cannot be carried out as given."""

from pathlib import Path

from hardware.board.errors import TabulaError, os_reason

__all__ = ["UsageError", "make_directory"]


class UsageError(TabulaError, ValueError):
    """A command line that asks for something impossible: an argument missing, out of range
    or conflicting with another. ``tabula`` prints it in one line and exits 2, as argparse
    does for the mistakes it finds itself."""


def make_directory(path: Path, option: str) -> None:
    """Make the directory ``option`` names (and its parents), or say why it cannot be.

    Raises:
        UsageError: ``path`` is a file, or cannot be made (a name too long, no permission).
    """
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UsageError(f"{option} {str(path)!r} is not a directory") from None
    except OSError as error:
        raise UsageError(f"{option} {str(path)!r}: {os_reason(error)}") from None
