"""The first runner: pytest in a fresh subprocess per candidate, with rlimits and a group kill.

No isolation and forgeable; kept as the fallback where fork() is missing (Windows) and as the
baseline of bench/sandbox_bench.py.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from ..extract import test_names
from .feedback import crash_reason, last_error, stopped_early, trim
from .records import PYTHON_ENV, Limits, TestResult, TestRun

PRELUDE = "from solution import *  # noqa: F401,F403\n\n"
_SOLUTION_FRAME = re.compile(r"^solution\.py:\d+: in ", re.MULTILINE)
_CHAINED = re.compile(
    r"^(?:The above exception was the direct cause|During handling of the above)", re.M
)


def run_tests_cold(code: str, tests: str, limits: Limits | None = None) -> TestRun:
    """Score `code` against the pytest functions in `tests`; only tests parsed from `tests` count."""
    limits = limits or Limits()
    started = time.monotonic()
    expected = test_names(tests)
    if not expected:
        return TestRun(error="the tests contain no test functions", duration_s=0.0)
    results = [TestResult(name, False, "no result") for name in expected]
    try:
        compile(code, "solution.py", "exec")
    except SyntaxError as exc:
        return TestRun(results, f"SyntaxError: {exc.msg} (line {exc.lineno})", _since(started))
    with (
        tempfile.TemporaryDirectory(prefix="localcode-") as work,
        tempfile.TemporaryDirectory(prefix="localcode-report-") as report_dir,
    ):
        run = _run_pytest(Path(work), Path(report_dir), code, tests, limits)
    run.results = _merge(results, run.results)
    if run.error is None and any(r.message == "no result" for r in run.results):
        run.error = "some tests produced no result (the run ended early)"
    run.duration_s = _since(started)
    return run


def _run_pytest(work: Path, report_dir: Path, code: str, tests: str, limits: Limits) -> TestRun:
    (work / "solution.py").write_text(code)
    (work / "test_solution.py").write_text(PRELUDE + tests)
    report = report_dir / "report.xml"
    out_path = report_dir / "output.txt"
    cmd = [
        sys.executable,
        "-B",
        "-m",
        "pytest",
        "test_solution.py",
        "-q",
        "-p",
        "no:cacheprovider",
        "--tb=short",
        f"--junitxml={report}",
    ]
    with open(out_path, "wb") as out:
        proc = subprocess.Popen(
            cmd,
            cwd=work,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            env=_scrubbed_env(work),
            start_new_session=True,
            preexec_fn=_rlimits(limits) if os.name == "posix" else None,
        )
        try:
            rc = proc.wait(timeout=limits.timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc)
            return TestRun(
                error=f"timed out after {limits.timeout:g}s (infinite loop or too slow?)"
            )
        _kill_group(proc)  # grandchildren left behind
    output = _read_capped(out_path, limits.max_output_bytes)
    if not report.exists():
        return TestRun(error=_crash_reason(rc, output))
    results = _parse_junit(report)
    error = None
    if rc < 0 or rc in (2, 4):
        error = _crash_reason(rc, output)
    elif rc not in (0, 1):
        error = stopped_early(rc)
    return TestRun(results, error)


def _parse_junit(report: Path) -> list[TestResult]:
    try:
        root = ET.parse(report).getroot()
    except ET.ParseError:
        return []
    results = []
    for case in root.iter("testcase"):
        if case.get("classname", "").split(".")[-1] != "test_solution":
            continue  # a test inside a class or another module is not one we asked for
        bad = case.find("failure")
        if bad is None:
            bad = case.find("error")
        skipped = case.find("skipped")
        if bad is not None:
            text = bad.text or bad.get("message") or ""
            final = _CHAINED.split(text)[-1]  # the exception that ended the test, not its causes
            raised = _SOLUTION_FRAME.search(final) is not None  # --tb=short names each frame
            results.append(TestResult(case.get("name", ""), False, trim(text), raised))
        elif skipped is not None:
            results.append(TestResult(case.get("name", ""), False, "skipped"))
        else:
            results.append(TestResult(case.get("name", ""), True))
    return results


def _merge(expected: list[TestResult], got: list[TestResult]) -> list[TestResult]:
    """Keep only the expected names; a name reported twice must pass every time."""
    by_name: dict[str, TestResult] = {}
    for r in got:
        prev = by_name.get(r.name)
        if prev is None or (prev.passed and not r.passed):
            by_name[r.name] = r
    return [by_name.get(e.name, e) for e in expected]


def _crash_reason(rc: int, output: str) -> str:
    if rc == 2 or rc == 4:  # pytest's own codes: interrupted or usage error, at collection
        return f"tests could not be collected (import failed?): {last_error(output)}"
    return crash_reason(rc, output)


def _read_capped(path: Path, limit: int) -> str:
    with open(path, "rb") as f:
        return f.read(limit).decode("utf-8", "replace")


def _scrubbed_env(work: Path) -> dict[str, str]:
    env = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL", "SYSTEMROOT") if k in os.environ}
    env.update(
        PYTHON_ENV,
        HOME=str(work),
        TMPDIR=str(work),
    )
    return env


def _rlimits(limits: Limits):  # noqa: ANN202
    import resource

    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds))
        mem = limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        size = limits.max_file_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return apply


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def _since(t0: float) -> float:
    return time.monotonic() - t0
