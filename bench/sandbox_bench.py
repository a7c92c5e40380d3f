"""Median per-candidate evaluation time: the warm, locked-down sandbox vs a fresh pytest process.

    .venv/bin/python bench/sandbox_bench.py [--candidates 20]

Same candidates (5-test tasks, half of them wrong), same machine, one run; prints the ratio.
The prototype's way is `python -m pytest --junitxml` in a fresh subprocess (sandbox/cold.py).
The two ways alternate candidate by candidate, so a change in the machine's load during the run
(other processes come and go) weighs on both alike instead of on whichever ran second.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from localcode.sandbox import Limits, TestRun, WorkerPool, run_tests
from localcode.sandbox.cold import run_tests_cold

TESTS = """
def test_empty():
    assert second_largest([]) is None

def test_one():
    assert second_largest([3]) is None

def test_basic():
    assert second_largest([1, 5, 3]) == 3

def test_duplicates():
    assert second_largest([5, 5, 4]) == 4

def test_negative():
    assert second_largest([-1, -2, -3]) == -2
"""
GOOD = (
    "def second_largest(xs):\n    u = sorted(set(xs))\n    return u[-2] if len(u) > 1 else None\n"
)
BAD = "def second_largest(xs):\n    u = sorted(xs)\n    return u[-2] if len(u) > 1 else None\n"

Score = Callable[[str], TestRun]


def timed(score: Score, code: str) -> tuple[float, TestRun]:
    t0 = time.perf_counter()
    run = score(code)
    return time.perf_counter() - t0, run


def side_by_side(
    warm: Score, cold: Score, candidates: list[str]
) -> tuple[list[float], list[float]]:
    """Seconds per candidate for each way, alternating which goes first; both must agree."""
    warm_s: list[float] = []
    cold_s: list[float] = []
    for i, code in enumerate(candidates):
        order = [(warm, warm_s), (cold, cold_s)]
        runs = []
        for score, times in order if i % 2 == 0 else order[::-1]:
            seconds, run = timed(score, code)
            times.append(seconds)
            runs.append(run.passed)
        if runs[0] != runs[1]:
            raise SystemExit(
                f"the two ways disagree on candidate {i}: {runs[0]} vs {runs[1]} passed"
            )
    return warm_s, cold_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=20)
    n = parser.parse_args().candidates
    candidates = [GOOD if i % 2 == 0 else BAD for i in range(n)]
    limits = Limits(timeout=10.0)
    load_before = os.getloadavg()[0]
    with WorkerPool(1) as pool:
        run_tests(GOOD, TESTS, limits, pool=pool)  # start and warm the worker (not timed)
        layers = pool.status().active
        warm_s, cold_s = side_by_side(
            lambda c: run_tests(c, TESTS, limits, pool=pool),
            lambda c: run_tests_cold(c, TESTS, limits),
            candidates,
        )
    warm, cold = (statistics.median(s) * 1000 for s in (warm_s, cold_s))
    print(f"candidates: {n} (5 tests each), layers: {', '.join(layers)}")
    print(f"load average (1 min): {load_before:.1f} at start, {os.getloadavg()[0]:.1f} at end")
    print(f"fresh `python -m pytest` per candidate: median {cold:7.1f} ms")
    print(f"warm sandbox worker:                    median {warm:7.1f} ms")
    print(f"ratio: {cold / warm:.1f}x")


if __name__ == "__main__":
    main()
