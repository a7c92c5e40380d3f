"""A pytest plugin that `localcode fix` places in a private view of the project (loaded with
`-p _localcode_trace`): how many failing and passing tests ran each line of the project's own
files. The project is the directory $LOCALCODE_TRACE_ROOT (relative to the directory pytest
starts in). The counts go to $LOCALCODE_REPORT_DIR/trace.json as
{"failed": [test id, ...], "passed": n, "lines": {path: {line: [failing, passing]}}}, paths
relative to the project, for fix/locate.py to rank the lines. They are summed as each test ends,
so the file grows with the project, not with the number of tests. Under pytest-xdist each
worker writes trace-<worker>.json and the controller, which ends last, adds them up.

It runs inside the project's own Python, which may be older than localcode's: standard library
and pytest only, nothing from localcode, Python 3.8 syntax.
"""

import glob
import json
import os
import sys
import threading

import pytest

_ROOT = os.path.realpath(os.environ.get("LOCALCODE_TRACE_ROOT") or ".") + os.sep
_SELF = os.path.realpath(__file__)
_OWN = {}  # type: dict[str, str | None]  # a code object's file name -> its project path
_FAILED = []  # type: list[str]
_PASSED = [0]
_COUNTS = {}  # type: dict[str, dict[int, list[int]]]  # path -> line -> [failing, passing]
_OUTCOME = {}  # type: dict[str, str]  # test id -> "failed" | "skipped", from its reports


def _own(code):
    """The project path of the file a frame runs; None for other code and for a module's
    top level (what an import runs is no test's doing)."""
    name = code.co_filename
    if name not in _OWN:
        real = os.path.realpath(name) if name[:1] not in ("<", "") else ""
        inside = real.startswith(_ROOT) and real != _SELF and "-packages" + os.sep not in real
        _OWN[name] = real[len(_ROOT) :] if inside else None
    return None if code.co_name == "<module>" else _OWN[name]


def _tracer(ran):
    def local(frame, event, arg):
        if event == "line":
            ran.setdefault(_OWN[frame.f_code.co_filename], set()).add(frame.f_lineno)
        return local

    def calls(frame, event, arg):
        return local if _own(frame.f_code) else None

    return calls


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    ran = {}  # type: dict[str, set[int]]
    tracer = _tracer(ran)
    before, before_threads = sys.gettrace(), getattr(threading, "_trace_hook", None)
    sys.settrace(tracer)
    threading.settrace(tracer)
    try:
        yield
    finally:
        sys.settrace(before)
        threading.settrace(before_threads)
    outcome = _OUTCOME.pop(item.nodeid, "passed")
    if outcome == "skipped":
        return
    failed = outcome == "failed"
    if failed:
        _FAILED.append(item.nodeid)
    else:
        _PASSED[0] += 1
    for path, lines in ran.items():
        counts = _COUNTS.setdefault(path, {})
        for line in lines:
            counts.setdefault(line, [0, 0])[0 if failed else 1] += 1


def pytest_runtest_logreport(report):
    if report.failed:
        _OUTCOME[report.nodeid] = "failed"
    elif report.skipped and _OUTCOME.get(report.nodeid) != "failed":
        _OUTCOME[report.nodeid] = "skipped"


def pytest_sessionfinish(session):
    out = os.environ.get("LOCALCODE_REPORT_DIR")
    if not out:
        return
    worker = getattr(session.config, "workerinput", None)
    if worker is not None:
        name = "trace-{}.json".format(worker.get("workerid", "w"))
        _write(os.path.join(out, name), _FAILED, _PASSED[0], _COUNTS)
        return
    failed, passed = list(_FAILED), _PASSED[0]
    for part in sorted(glob.glob(os.path.join(out, "trace-*.json"))):
        with open(part, encoding="utf-8") as f:
            more = json.load(f)
        failed += more["failed"]
        passed += more["passed"]
        for path, lines in more["lines"].items():
            counts = _COUNTS.setdefault(path, {})
            for line, (bad, good) in lines.items():
                both = counts.setdefault(int(line), [0, 0])
                both[0] += bad
                both[1] += good
    _write(os.path.join(out, "trace.json"), failed, passed, _COUNTS)


def _write(path, failed, passed, counts):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"failed": failed, "passed": passed, "lines": counts}, f)
