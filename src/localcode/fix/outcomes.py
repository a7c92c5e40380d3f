"""What a run of the project's test command says: each test's outcome, read from pytest's JUnit
report when the command is pytest, else the exit status and the output as one outcome."""

from __future__ import annotations

import os
import re
import shlex
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import UsageError
from ..sandbox.project import CommandRun

WHOLE_COMMAND = "(the test command)"
JUNIT_ARG = "-o junit_family=xunit1 --junitxml="  # xunit1 names each test's file and line
MAX_FAILURE_CHARS = 1200
# what differs between two runs of one failing test that fails the same way: object addresses,
# and the sandbox's private temporary directory (TMPDIR and HOME, tmp_path under it)
_VARYING = re.compile(r"0x[0-9a-fA-F]+|localcode-fix-\w+")
_SITE = re.compile(r"^(?P<path>\S+):(?P<line>\d+): (?P<error>[\w.]+)$")
MAX_FAILURES_SHOWN = 3
# what a test that needs the network meets in the sandbox (no network namespace route, seccomp)
_OFFLINE = re.compile(
    r"Address family not supported by protocol|Network is unreachable|"
    r"Temporary failure in name resolution|Name or service not known|No address associated"
)


@dataclass(frozen=True)
class Outcome:
    """One test: passed or not, and (failed) pytest's report of it."""

    passed: bool
    message: str = ""
    file: str | None = None
    line: int | None = None


Outcomes = dict[str, Outcome]  # test id -> outcome


def is_pytest(command: str) -> bool:
    """`pytest ...`, `py.test ...` or `python -m pytest ...`: its report can be read per test."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"--test-cmd is not a valid shell command line: {exc}") from None
    if not words:
        raise UsageError(
            "--test-cmd is empty; give the command that runs the tests, e.g. 'pytest -x'."
        )
    while words and re.fullmatch(r"[A-Za-z_]\w*=.*", words[0]):  # VAR=value before the command
        words = words[1:]
    if not words:
        return False
    first = os.path.basename(words[0])
    if first in ("pytest", "py.test"):
        return True
    return bool(re.fullmatch(r"python[\d.]*", first)) and words[1:3] == ["-m", "pytest"]


def read(run: CommandRun, pytest: bool) -> Outcomes:
    """Each test's outcome; the whole command's when there is no report to read."""
    if pytest and run.report:
        found = _junit(run.report)
        if found:
            return found
    tail = "\n".join(run.output.strip().splitlines()[-40:])
    return {WHOLE_COMMAND: Outcome(run.returncode == 0 and not run.timed_out, tail)}


def _junit(report: str) -> Outcomes:
    try:
        root = ET.fromstring(report)
    except ET.ParseError:
        return {}
    found: Outcomes = {}
    for case in root.iter("testcase"):
        name = case.get("name", "?")
        classname = case.get("classname", "")
        test_id = f"{classname}::{name}" if classname else name
        problem = next((c for c in case if c.tag in ("failure", "error")), None)
        if any(c.tag == "skipped" for c in case) and problem is None:
            continue
        line = case.get("line")
        found[test_id] = Outcome(
            passed=problem is None,
            message="" if problem is None else (problem.text or problem.get("message") or ""),
            file=case.get("file"),
            line=int(line) + 1 if line and line.isdigit() else None,
        )
    return found


def failure_site(message: str) -> str:
    """Where and what a failure raised: pytest's report ends with `path:line: ExceptionType`
    (the line that raised, in the test or in the code it ran); else the report's last line."""
    lines = [ln.strip() for ln in message.strip().splitlines() if ln.strip()]
    return _VARYING.sub("?", lines[-1]) if lines else ""


def same_site(a: str, b: str, edited: Iterable[str] = ()) -> bool:
    """Two failure reports raised at the same place (failure_site): the same file and error, and the
    same line unless the file is one of the `edited` paths, where an edit moves lines."""
    fa, fb = failure_site(a), failure_site(b)
    if fa == fb:
        return True
    sa, sb = _SITE.match(fa), _SITE.match(fb)
    if not sa or not sb or (sa["path"], sa["error"]) != (sb["path"], sb["error"]):
        return False
    path = sa["path"]
    return any(path == e or e.endswith("/" + path) or path.endswith("/" + e) for e in edited)


def signature(message: str) -> str:
    """What two runs of one failing test, failing the same way, share: every `E ` line of
    pytest's report (object addresses and the sandbox's temporary paths masked) and where it
    raised."""
    errors = [ln.strip() for ln in message.splitlines() if ln.startswith("E ")]
    return _VARYING.sub("?", "\n".join(errors)) + "\n" + failure_site(message)


def failing(outcomes: Outcomes) -> list[str]:
    return [t for t, o in outcomes.items() if not o.passed]


def describe(outcomes: Outcomes) -> str:
    """The failures as the model sees them: a few, each cut to its last lines."""
    shown, failed = [], failing(outcomes)
    for test_id in failed[:MAX_FAILURES_SHOWN]:
        text = outcomes[test_id].message.strip()
        if len(text) > MAX_FAILURE_CHARS:
            text = "...\n" + text[-MAX_FAILURE_CHARS:].split("\n", 1)[-1]
        shown.append(f"{test_id}:\n{text}")
    more = len(failed) - len(shown)
    return "\n\n".join(shown) + (f"\n\n(and {more} more failing)" if more > 0 else "")


def needs_network(outcomes: Outcomes) -> str | None:
    """The first failure line that says the test wanted the network, if any."""
    for test_id in failing(outcomes):
        hit = _OFFLINE.search(outcomes[test_id].message)
        if hit:
            return f"{test_id}: {hit.group(0)}"
    return None
