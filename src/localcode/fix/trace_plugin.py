"""A pytest plugin that `localcode fix` places in a private view of the project (as
`_localcode_trace.py`, loaded with `-p`): for each test, whether it failed and which lines of the
project's own files it ran. The project is the directory $LOCALCODE_TRACE_ROOT (relative to the
directory pytest starts in); the result goes to $LOCALCODE_REPORT_DIR/trace.json as
{test id: {"failed": bool, "lines": {path relative to the project: [line, ...]}}}, for
fix/locate.py to rank the lines.

It runs inside the project's own Python, which may be older than localcode's: standard library
and pytest only, nothing from localcode, Python 3.8 syntax.
"""

import json
import os
import sys
import threading

import pytest

_ROOT = os.path.realpath(os.environ.get("LOCALCODE_TRACE_ROOT") or ".") + os.sep
_SELF = os.path.realpath(__file__)
# a code object's file name -> its path relative to the project, or None for other code
_OWN = {}  # type: dict[str, str | None]
_RAN = {}  # type: dict[str, dict[str, set[int]]]  # test id -> {path: lines}
_FAILED = set()  # type: set[str]


def _own(name):
    """The project-relative path of a file the project holds; None for any other code."""
    if name not in _OWN:
        real = os.path.realpath(name) if name[:1] not in ("<", "") else ""
        inside = real.startswith(_ROOT) and real != _SELF and "-packages" + os.sep not in real
        _OWN[name] = real[len(_ROOT) :] if inside else None
    return _OWN[name]


def _tracer(lines):
    def local(frame, event, arg):
        if event == "line":
            path = _OWN[frame.f_code.co_filename]
            if path:
                lines.setdefault(path, set()).add(frame.f_lineno)
        return local

    def calls(frame, event, arg):
        return local if _own(frame.f_code.co_filename) else None

    return calls


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    tracer = _tracer(_RAN.setdefault(item.nodeid, {}))
    before = sys.gettrace()
    sys.settrace(tracer)
    threading.settrace(tracer)
    try:
        yield
    finally:
        sys.settrace(before)
        threading.settrace(None)


def pytest_runtest_logreport(report):
    if report.failed:
        _FAILED.add(report.nodeid)


def pytest_sessionfinish(session):
    out = os.environ.get("LOCALCODE_REPORT_DIR")
    if not out:
        return
    data = {
        test: {"failed": test in _FAILED, "lines": {f: sorted(ls) for f, ls in lines.items()}}
        for test, lines in _RAN.items()
    }
    with open(os.path.join(out, "trace.json"), "w", encoding="utf-8") as f:
        json.dump(data, f)
