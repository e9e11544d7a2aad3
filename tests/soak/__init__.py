"""Long proofs run on demand: ``python -m tests.soak NAME [options]``.

Each soak is a module here with ``main(argv) -> int`` that prints its figures and exits
non-zero on any loss; the suite runs a small version of each (its ``test_*`` beside it), so
the code path is always tested. ``python -m tests.soak`` lists them.
"""

from __future__ import annotations

#: Soak name -> the module that runs it (its ``main(argv: list[str]) -> int``), or
#: ``module:function`` where one module holds several soaks.
SOAKS: dict[str, str] = {
    "kills": "tests.service.crash",
    "http": "tests.soak.http",
    "crowd": "tests.soak.crowd",
    "replug": "tests.soak.replug",
    "replug-service": "tests.soak.replug:main_service",
    "slow": "tests.service.slow",
    "journal": "tests.soak.journal",
    "hands": "tests.soak.hands",
    "resume": "tests.soak.resume",
    "hub": "tests.soak.hub",
    "files": "tests.soak.files",
    "matches": "tests.soak.matches",
    "heap": "tests.soak.heap",
}
