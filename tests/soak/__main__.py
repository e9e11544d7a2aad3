"""``python -m tests.soak NAME [options]``: run one long proof and print its figures."""

from __future__ import annotations

import importlib
import sys

from tests.soak import SOAKS


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in SOAKS:
        print("usage: python -m tests.soak NAME [options]; NAME is one of:", file=sys.stderr)
        for name, target in SOAKS.items():
            module = target.partition(":")[0]
            doc = (importlib.import_module(module).__doc__ or "").strip().splitlines()
            print(f"  {name:10} {doc[0] if doc else ''}", file=sys.stderr)
        return 2
    module, _, function = SOAKS[argv[0]].partition(":")
    result: int = getattr(importlib.import_module(module), function or "main")(argv[1:])
    return result


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
