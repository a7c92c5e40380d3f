"""Run untrusted candidate code against tests: `run_tests(code, tests, limits) -> TestRun`."""

from __future__ import annotations

from .pool import WorkerPool, close_default_pool
from .records import IsolationStatus, Limits, TestResult, TestRun
from .runner import check_isolation, run_tests, sandbox_status

__all__ = [
    "IsolationStatus",
    "Limits",
    "TestResult",
    "TestRun",
    "WorkerPool",
    "check_isolation",
    "close_default_pool",
    "run_tests",
    "sandbox_status",
]
