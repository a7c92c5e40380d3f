"""Median per-candidate evaluation time: the warm, locked-down sandbox vs a fresh pytest process.

    .venv/bin/python bench/sandbox_bench.py [--candidates 20]

Same candidates (5-test tasks, half of them wrong), same machine, one run; prints the ratio.
The prototype's way is `python -m pytest --junitxml` in a fresh subprocess (sandbox/cold.py).
"""

from __future__ import annotations

import argparse
import statistics
import time

from localcode.sandbox import Limits, WorkerPool, run_tests
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


def median_ms(score, candidates: list[str]) -> float:  # type: ignore[no-untyped-def]
    times = []
    for code in candidates:
        t0 = time.perf_counter()
        score(code)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--candidates", type=int, default=20)
    n = parser.parse_args().candidates
    candidates = [GOOD if i % 2 == 0 else BAD for i in range(n)]
    limits = Limits(timeout=10.0)
    with WorkerPool(1) as pool:
        run_tests(GOOD, TESTS, limits, pool=pool)  # start and warm the worker (not timed)
        layers = pool.status().active
        warm = median_ms(lambda c: run_tests(c, TESTS, limits, pool=pool), candidates)
    cold = median_ms(lambda c: run_tests_cold(c, TESTS, limits), candidates)
    print(f"candidates: {n} (5 tests each), layers: {', '.join(layers)}")
    print(f"fresh `python -m pytest` per candidate: median {cold:7.1f} ms")
    print(f"warm sandbox worker:                    median {warm:7.1f} ms")
    print(f"ratio: {cold / warm:.1f}x")


if __name__ == "__main__":
    main()
