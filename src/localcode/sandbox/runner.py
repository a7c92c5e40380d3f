"""`run_tests`: score a candidate in a warm, locked-down worker; the trusted side does the counting."""

from __future__ import annotations

import ast
import builtins
import functools
import json
import os
import threading
import time
from typing import Any

from ..errors import SandboxError
from ..extract import test_names
from .cold import run_tests_cold
from .feedback import crash_reason, stopped_early, trim
from .pool import WorkerDied, WorkerPool, default_pool
from .quick import is_plain
from .records import ISOLATIONS, IsolationStatus, Job, Limits, TestResult, TestRun


def run_tests(
    code: str, tests: str, limits: Limits | None = None, pool: WorkerPool | None = None
) -> TestRun:
    """Score `code` against the pytest functions in `tests`; only tests parsed from `tests` count."""
    limits = limits or Limits()
    started = time.monotonic()
    expected, needed, plain = _read_tests(tests)
    if not expected:
        return TestRun(error="the tests contain no test functions")
    results = [TestResult(name, False, "no result") for name in expected]
    try:
        compile(code, "solution.py", "exec")
    except SyntaxError as exc:
        return TestRun(results, f"SyntaxError: {exc.msg} (line {exc.lineno})", _since(started))
    if not hasattr(os, "fork"):
        return run_tests_cold(code, tests, limits)
    pool = pool or default_pool()
    status = check_isolation(limits.isolation, pool)
    split = not any(_looks_like_class(n) for n in needed)
    try:
        reply = pool.run(_job(code, tests, needed, split, plain, limits))
        # the tests passed a function or object of their own to the solution: the test process
        # says so only for the harness's own SplitUnsupported, never for anything the solution raised
        if split and _report(reply).get("unsupported"):
            reply = pool.run(_job(code, tests, needed, False, plain, limits))
    except WorkerDied as exc:  # a worker that ran fine until this candidate: its score is 0
        run = _no_credit(results, f"sandbox: {exc} (the candidate killed it?)")
        run.duration_s = _since(started)
        return run
    run = _to_run(results, reply, limits)
    run.layers = list(reply.get("layers", [])) if limits.isolation != "none" else ["none"]
    if status.missing and limits.isolation == "auto":
        run.layers.append("missing: " + ", ".join(status.missing))
    run.duration_s = _since(started)
    return run


def sandbox_status(pool: WorkerPool | None = None) -> IsolationStatus:
    """The isolation layers this machine allows (starts a worker if none is running)."""
    if not hasattr(os, "fork"):
        return IsolationStatus(
            missing={
                "sandbox": "no fork() on this platform: tests run in a "
                "plain subprocess without isolation"
            }
        )
    return (pool or default_pool()).status()


def check_isolation(isolation: str, pool: WorkerPool | None = None) -> IsolationStatus:
    """The status; raise SandboxError when `strict` is asked for and a layer is missing."""
    if isolation not in ISOLATIONS:
        raise SandboxError(f"unknown sandbox mode {isolation!r}: use auto, strict or none")
    status = sandbox_status(pool)
    if isolation == "strict" and not status.complete:
        missing = "; ".join(f"{k}: {v}" for k, v in status.missing.items())
        raise SandboxError(
            f"--sandbox strict refused to run: {missing}. Fix the above, or use "
            "--sandbox auto to run with the layers available."
        )
    return status


def needed_names(tests: str) -> list[str]:
    """Names the tests use but do not define or import, minus builtins: what the solution supplies.

    Binding only these (never a builtin like `len`) keeps a candidate from redefining what the
    tests use to check it.
    """
    try:
        tree = ast.parse(tests)
    except SyntaxError:
        return []
    bound: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            if isinstance(node, ast.ImportFrom) and node.module == "solution":
                continue
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        else:
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    bound.add(sub.id)
    used = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
    used += [
        a.name
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom) and n.module == "solution"
        for a in n.names
    ]
    skip = bound | set(dir(builtins)) | {"pytest"}
    return list(dict.fromkeys(n for n in used if n not in skip and n != "*"))


_PARSING = threading.Lock()


def _read_tests(tests: str) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """Test names, the names the solution supplies, and whether the quick runner applies.

    One thread at a time: a round scores its candidates in threads, and CPython 3.11's ast.parse
    is not safe to run in several at once (a spurious "SystemError: AST constructor recursion
    depth mismatch", python/cpython#106905)."""
    with _PARSING:
        return _read_tests_once(tests)


@functools.lru_cache(maxsize=64)
def _read_tests_once(tests: str) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    """Read once per test text, as a round scores many candidates against the same tests."""
    return tuple(test_names(tests)), tuple(needed_names(tests)), is_plain(tests)


def _looks_like_class(name: str) -> bool:
    return name[:1].isupper() and not name.isupper()


def _job(
    code: str, tests: str, needed: tuple[str, ...], split: bool, plain: bool, limits: Limits
) -> dict[str, Any]:
    return Job(code, tests, list(needed), split, plain, limits).to_wire()


def _report(reply: dict[str, Any]) -> dict[str, Any]:
    """The test process's report: only its last line, and only when it says it finished."""
    lines = [ln for ln in str(reply.get("report", "")).splitlines() if ln.strip()]
    try:
        report = json.loads(lines[-1]) if lines else {}
    except ValueError:
        return {}
    return report if isinstance(report, dict) and report.get("done") is True else {}


def _to_run(expected: list[TestResult], reply: dict[str, Any], limits: Limits) -> TestRun:
    report = _report(reply)
    if reply.get("timed_out"):
        return _no_credit(
            expected, f"timed out after {limits.timeout:g}s (infinite loop or too slow?)"
        )
    if not report or reply.get("status") != 0:
        return _no_credit(
            expected, crash_reason(int(reply.get("status", -1)), str(reply.get("output", "")))
        )
    if report.get("import_error"):
        return _no_credit(expected, f"importing the solution failed: {report['import_error']}")
    if report.get("collect_errors"):
        return _no_credit(
            expected, "tests could not be collected: " + trim(report["collect_errors"][0], 4)
        )
    got: dict[str, Any] = report.get("results") or {}
    results = []
    for r in expected:
        passed, message, raised = [*(got.get(r.name) or [False, "no result"]), False][:3]
        ok = passed is True
        results.append(
            TestResult(r.name, ok, "" if ok else trim(message), raised is True and not ok)
        )
    error = None
    if report.get("exit") not in (0, 1):
        error = stopped_early(report.get("exit"))
    return TestRun(results, error)


def _no_credit(expected: list[TestResult], reason: str) -> TestRun:
    return TestRun([TestResult(r.name, False, reason) for r in expected], reason)


def _since(t0: float) -> float:
    return time.monotonic() - t0
