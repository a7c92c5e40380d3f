"""Run untrusted candidate code against tests: `run_tests(code, tests, limits) -> TestRun`."""

from __future__ import annotations

from .records import Limits, TestResult, TestRun
from .runner import run_tests

__all__ = ["Limits", "TestResult", "TestRun", "run_tests"]
