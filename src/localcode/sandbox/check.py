"""`localcode check`: score a given solution file against a given test file, no model involved."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..extract import test_names
from ..task import import_solution, read_text_file
from .records import Limits, TestRun
from .runner import run_tests


def check_files(code_file: str, tests_file: str, limits: Limits | None = None) -> TestRun:
    """Run the tests in `tests_file` against `code_file`; UsageError for unusable input."""
    code = read_text_file(code_file, "--code file")
    tests = read_text_file(tests_file, "--tests file")
    try:
        compile(tests, tests_file, "exec")
    except SyntaxError as exc:
        raise UsageError(f"{tests_file} line {exc.lineno}: SyntaxError: {exc.msg}") from None
    if not test_names(tests):
        raise UsageError(f"{tests_file} has no test functions (module-level `def test_...`).")
    tests = import_solution(tests, code, modules={Path(code_file).stem})
    return run_tests(code, tests, limits)


def run_as_dict(run: TestRun) -> dict[str, Any]:
    """The JSON shape of `localcode check --json`."""
    return {
        "passed": run.passed,
        "total": run.total,
        "all_passed": run.all_passed,
        "error": run.error,
        "duration_s": round(run.duration_s, 3),
        "isolation": run.layers,
        "tests": [{"name": r.name, "passed": r.passed, "message": r.message} for r in run.results],
    }


def run_as_text(run: TestRun) -> str:
    """Per-test lines with indented failure messages, then a summary line."""
    lines = []
    for r in run.results:
        lines.append(f"{'PASS' if r.passed else 'FAIL'} {r.name}")
        if not r.passed and r.message:
            lines += ["    " + ln for ln in r.message.splitlines()]
    if run.error:
        lines.append(f"error: {run.error}")
    lines.append(f"{run.passed}/{run.total} passed in {run.duration_s:.2f}s")
    return "\n".join(lines)
