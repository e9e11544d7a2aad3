"""What start-up made is kept out of the collector's full passes (``tabula run`` does it
once ready); garbage made before is freed first, and what comes later is collected."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_freeze_start_up_frees_garbage_first_and_freezes_the_rest() -> None:
    # In a child: freezing is for the service's own process, not a test run's.
    program = textwrap.dedent(
        """
        import gc, weakref
        import controller.service.service  # the service's modules, as after start-up
        from controller.service.memory import freeze_start_up

        class Node:
            pass

        garbage = Node()
        garbage.itself = garbage  # a cycle: only the collector frees it
        freed = []
        weakref.finalize(garbage, freed.append, True)
        del garbage
        tracked = len(gc.get_objects())
        frozen = freeze_start_up()
        later = Node()
        later.itself = later
        print(freed == [True], frozen >= 0.9 * tracked, tracked, len(gc.get_objects()) < 100)
        """
    )
    command = [sys.executable, "-c", program]
    child = subprocess.run(command, capture_output=True, text=True, check=False)
    assert child.returncode == 0, child.stderr  # a failure names itself, not only its code
    freed, most_frozen, tracked, few_left = child.stdout.split()
    assert freed == "True", "the cycle made before start-up ended was freed, not frozen"
    assert int(tracked) > 10_000 and most_frozen == "True"
    assert few_left == "True", "a full pass walks only what came after"
