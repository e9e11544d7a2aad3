"""The CPU throttle: the kernel really holds a process to its share of a core."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path

import pytest

from controller.service.throttle import CpuThrottle, ThrottleUnavailableError

_SPIN = """
import sys, time
sys.stdin.readline()  # joined the group: spin now
cpu, wall = time.process_time(), time.monotonic()
while time.process_time() - cpu < 0.3:
    pass
print(time.process_time() - cpu, time.monotonic() - wall)
"""


def test_a_process_in_the_group_gets_a_quarter_of_a_core() -> None:
    throttle = CpuThrottle(0.25)
    try:
        throttle.__enter__()
    except ThrottleUnavailableError as error:  # no cgroup v1 here: a missing kernel feature
        pytest.skip(str(error))
    with contextlib.closing(throttle):
        assert throttle.path is not None
        path = throttle.path
        child = subprocess.Popen(
            [sys.executable, "-c", _SPIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        throttle.join(child.pid)
        out, _ = child.communicate("go\n")
        cpu, wall = map(float, out.split())
        stats = throttle.stats()
    # The kernel's cap is hard: a busy machine gives less, never more.
    assert cpu / wall < 0.3, f"{cpu:.2f} s of CPU in {wall:.2f} s"
    assert stats.throttled > 0 and stats.throttled_s > 0
    assert not path.exists()  # removed, its process moved back first
    throttle.close()  # idempotent


def test_without_a_cgroup_v1_cpu_controller_the_throttle_says_why(tmp_path: Path) -> None:
    with pytest.raises(ThrottleUnavailableError, match=r"^cannot throttle the CPU: no cgroup v1"):
        CpuThrottle(root=tmp_path).__enter__()
    assert list(tmp_path.iterdir()) == []


def test_a_share_outside_one_core_is_refused() -> None:
    with pytest.raises(ValueError, match=r"^CPU share 1.5: expected more than 0 and at most 1$"):
        CpuThrottle(1.5)
