"""The error of a command line that cannot be carried out as given."""

from hardware.board.errors import TabulaError

__all__ = ["UsageError"]


class UsageError(TabulaError, ValueError):
    """A command line that asks for something impossible: an argument missing, out of range
    or conflicting with another. ``tabula`` prints it in one line and exits 2, as argparse
    does for the mistakes it finds itself."""
