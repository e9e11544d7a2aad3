"""Board service on a slow CPU: latency board change -> LED and memory, at full speed and
throttled to 25% of one core (about a Raspberry Pi Zero 2 W), in one run.

Run ``python -m benchmarks.bench_slow [--changes N] [--games N]``. It runs
``benchmarks.bench_service`` twice in child processes with the same arguments: first as it
is, then moved into a cgroup v1 ``cpu`` group with a quarter of one core
(:class:`controller.service.throttle.CpuThrottle`; the whole child is throttled, the
simulated board and players with the service). A change that lit no LED within
``bench_service``'s wait is a miss: the latency line counts the changes measured out of
those asked. Without cgroup v1 (not root, a Pi) the throttled half says why and is skipped.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from controller.service.throttle import PI_ZERO_SHARE, CpuThrottle, ThrottleUnavailableError


def _bench(arguments: list[str], throttle: CpuThrottle | None) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.bench_service", *arguments],
        stdout=subprocess.PIPE,
        text=True,
    )
    if throttle is not None:
        throttle.join(child.pid)  # before it has imported the service: all of it is slow
    out, _ = child.communicate()
    print(out, end="", flush=True)
    if child.returncode:
        print(f"bench_service exited {child.returncode}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--games", type=int, default=1)
    args, _ = parser.parse_known_args()
    arguments = ["--changes", str(args.changes), "--games", str(args.games)]
    print(f"full speed ({args.changes} changes asked):", flush=True)
    _bench(arguments, None)
    try:
        with CpuThrottle(PI_ZERO_SHARE) as throttle:
            print(f"throttled to {PI_ZERO_SHARE:.0%} of one core:", flush=True)
            _bench(arguments, throttle)
            stats = throttle.stats()
    except ThrottleUnavailableError as error:
        print(f"throttled: skipped, {error}", flush=True)
        return
    print(
        f"the kernel held the child back in {stats.throttled} of {stats.periods} periods "
        f"of 0.1 s ({stats.throttled_s:.0f} s)",
        flush=True,
    )


if __name__ == "__main__":
    main()
