"""What runs inside the sandbox: the pytest side, and the solution side of a split run.

In a split run the tests and the solution live in two processes that exchange plain data only
(see wire.py): the test process holds pytest and the report descriptor, and no candidate code; the
solution process holds the candidate and serves calls. Neither an always-equal object nor a patched
pytest can cross that boundary. In an in-process run (tests that use the candidate's classes) the
candidate is imported next to pytest, and the report is only as honest as the candidate.
"""

from __future__ import annotations

import builtins
import os
import sys
import traceback
import types
from collections.abc import Iterable
from typing import Any, BinaryIO

from . import wire

MAX_MESSAGE = 4000
RAISED_NOTE = "raised in the solution: "  # added to an exception rebuilt from the solution side
# builtin pytest plugins that generated tests do not need; skipping them saves ~60 ms a run
# (the report comes from our own plugin, so the terminal reporter goes too; see Reporter)
UNUSED_PLUGINS = (
    "terminal",
    "cacheprovider",
    "stepwise",
    "logging",
    "junitxml",
    "doctest",
    "pastebin",
    "legacypath",
    "nose",
    "unittest",
    "debugging",
    "faulthandler",
    "setuponly",
    "setupplan",
    "warnings",
    "unraisableexception",  # turns unraisable errors into warnings (off above) after 5 gc passes
    "threadexception",
    "lsof",
    "pytester",
)
MAX_LINE = 64 << 20


class _Remote:
    """A callable or object that lives in the solution process."""

    def __init__(self, client: SolutionClient, target: dict[str, Any], label: str) -> None:
        object.__setattr__(self, "_lc_client", client)
        object.__setattr__(self, "_lc_target", target)
        object.__setattr__(self, "_lc_label", label)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        return self._lc_client.call(self._lc_target, args, kwargs)

    def __getattr__(self, name: str) -> Any:
        __tracebackhide__ = True
        if name in ("__name__", "__qualname__"):  # from the trusted side's own label
            return self._lc_label if name == "__qualname__" else self._lc_label.split(".")[-1]
        if name.startswith("__"):
            raise AttributeError(name)
        return self._lc_client.op(
            self._lc_target, "getattr", name, label=f"{self._lc_label}.{name}"
        )

    def __len__(self) -> int:
        return int(self._lc_client.op(self._lc_target, "len"))

    def __iter__(self) -> Any:
        return iter(self._lc_client.op(self._lc_target, "list"))

    def __getitem__(self, key: Any) -> Any:
        return self._lc_client.op(self._lc_target, "getitem", key)

    def __contains__(self, key: Any) -> bool:
        return bool(self._lc_client.op(self._lc_target, "contains", key))

    def __bool__(self) -> bool:
        return bool(self._lc_client.op(self._lc_target, "bool"))

    def __str__(self) -> str:
        return str(self._lc_client.op(self._lc_target, "str"))

    def __repr__(self) -> str:
        return self._lc_label


class SolutionClient:
    """The test process's end of the channel to the solution process."""

    def __init__(self, rfile: BinaryIO, wfile: BinaryIO) -> None:
        self.rfile, self.wfile = rfile, wfile
        self.dead: str | None = None

    def request(
        self,
        message: dict[str, Any],
        args: list[Any] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> Any:
        """Send one message and return the decoded reply; `args` and `kwargs` (the caller's own
        objects, never sent) receive the solution's in-place changes to them."""
        __tracebackhide__ = True
        self.send(message)
        return self.receive(args, kwargs)

    def send(self, message: dict[str, Any]) -> None:
        if self.dead:
            raise RuntimeError(self.dead)
        try:
            self.wfile.write(wire.dumps(message))
            self.wfile.flush()
        except OSError:
            pass  # the process is gone: receive() finds out and says so

    def receive(self, args: list[Any] | None = None, kwargs: dict[str, Any] | None = None) -> Any:
        __tracebackhide__ = True
        if self.dead:
            raise RuntimeError(self.dead)
        try:
            line = self.rfile.readline(MAX_LINE)
        except OSError:
            line = b""
        if not line.endswith(b"\n"):
            self.dead = "the solution process died (crashed, exited or was killed)"
            raise RuntimeError(self.dead)
        reply = wire.loads(line)
        if "raise" in reply:
            raise _rebuild_exception(reply["raise"])
        for index, value in reply.get("after", []):
            if args is not None and 0 <= index < len(args):
                _update_in_place(args[index], self._decode(value))
        for key, value in reply.get("after_kw", []):
            if kwargs is not None and isinstance(key, str) and key in kwargs:
                _update_in_place(kwargs[key], self._decode(value))
        return self._decode(reply.get("v"))

    def _decode(self, data: Any) -> Any:
        return wire.decode(data, lambda i, r: _Remote(self, {"id": i}, r))

    def _encode(self, value: Any) -> Any:
        def ref(v: Any) -> int:
            # a solution function the tests pass back goes by its handle too: otherwise a
            # candidate could make a name the tests pass (a constant) callable, to force the
            # in-process rerun
            if isinstance(v, _Remote) and "id" in v._lc_target:
                return int(v._lc_target["id"])
            raise wire.Unencodable(f"a {type(v).__name__} cannot be passed to the solution process")

        return wire.encode(value, ref)

    def call(self, target: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        __tracebackhide__ = True
        try:
            message = {
                "op": "call",
                "target": target,
                "args": [self._encode(a) for a in args],
                "kwargs": {k: self._encode(v) for k, v in kwargs.items()},
            }
        except wire.Unencodable as exc:
            raise SplitUnsupported(str(exc)) from None
        return self.request(message, list(args), kwargs)

    def op(self, target: dict[str, Any], op: str, arg: Any = None, label: str = "") -> Any:
        __tracebackhide__ = True
        try:
            encoded = self._encode(arg)
        except wire.Unencodable as exc:
            raise SplitUnsupported(str(exc)) from None
        value = self.request({"op": op, "target": target, "arg": encoded})
        if isinstance(value, _Remote) and label:
            object.__setattr__(value, "_lc_label", label)
        return value

    def lookup(self, names: list[str]) -> dict[str, Any]:
        return self.found(self.request(lookup_message(names)))

    def found(self, kinds: dict[str, Any]) -> dict[str, Any]:
        """The solution's answer to a lookup: proxies for its callables, copies of its values."""
        found: dict[str, Any] = {}
        for name, (kind, value) in kinds.items():
            if kind == "callable":
                value = _Remote(self, {"name": name, "id": value}, name)
            found[name] = value
        return found


def lookup_message(names: list[str]) -> dict[str, Any]:
    return {"op": "names", "names": names}


class SplitUnsupported(Exception):
    """The tests pass something that is not plain data (a function, an object): rerun in-process.

    Raised only here, in the test process, by the tests' own arguments; the run falls back to one
    process only on this very class (`is_unsupported`), never on an exception's name or text, which
    the candidate controls (exceptions from the solution process are rebuilt as builtin types).
    """


def is_unsupported(exc: BaseException | None) -> bool:
    """Whether `exc` is the harness's own SplitUnsupported."""
    return isinstance(exc, SplitUnsupported)


def _update_in_place(original: Any, new: Any) -> None:
    """Make the tests' own `original` hold what the solution left in its copy, `new`, keeping
    every object inside it that the call did not change (a test may hold on to an inner list
    and look at it, or at its identity, after the call)."""
    try:
        if original == new:
            return
    except Exception:  # a value that cannot be compared: take what came back
        pass
    if isinstance(original, list) and isinstance(new, list) and len(original) == len(new):
        _update_items(original, enumerate(new))
    elif isinstance(original, (list, bytearray)):
        original[:] = new
    elif isinstance(original, dict) and isinstance(new, dict) and original.keys() == new.keys():
        _update_items(original, new.items())
    elif isinstance(original, (dict, set)):
        original.clear()
        original.update(new)


def _update_items(original: Any, new: Iterable[tuple[Any, Any]]) -> None:
    """Each item of `original` (a list or dict of the same keys) as `new` has it: a container
    of the same type updated in place, any other value replaced where it differs."""
    for key, value in new:
        old = original[key]
        if type(old) is type(value) and isinstance(old, (list, dict, set, bytearray)):
            _update_in_place(old, value)
        elif not _same(old, value):
            original[key] = value


def _same(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def _rebuild_exception(info: dict[str, Any]) -> BaseException:
    cls = getattr(builtins, str(info.get("builtin")), None)
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        cls = RuntimeError
    message = str(info.get("message", ""))
    try:
        exc = cls(message)
    except Exception:
        exc = RuntimeError(message)
    if info.get("type") != cls.__name__:
        exc = _named(cls, str(info.get("type", "")))(message) if _ok_name(info) else exc
    where = str(info.get("where", ""))
    if where and hasattr(exc, "add_note"):
        exc.add_note(f"{RAISED_NOTE}{where}")
    return exc


def solution_raised(exc: BaseException) -> bool:
    """Whether the solution raised `exc` (a crash), as opposed to the test (a wrong value, or the
    test's own error): rebuilt from the solution's process, or, where both share one process,
    passed up through a line of solution.py. Only the exception that ended the test counts."""
    notes = getattr(exc, "__notes__", None) or ()
    if any(isinstance(n, str) and n.startswith(RAISED_NOTE) for n in notes):
        return True
    return any(  # walk_tb: the frames' files, without reading their source as extract_tb does
        os.path.basename(frame.f_code.co_filename) == "solution.py"
        for frame, _ in traceback.walk_tb(exc.__traceback__)
    )


def _ok_name(info: dict[str, Any]) -> bool:
    return str(info.get("type", "")).isidentifier()


def _named(base: type, name: str) -> type:
    try:
        return type(name, (base,), {})
    except TypeError:
        return base


class ProxyModule(types.ModuleType):
    """`solution` as the test process sees it: every attribute is fetched from the solution process."""

    def __init__(self, client: SolutionClient, found: dict[str, Any]) -> None:
        super().__init__("solution")
        self.__dict__.update(found)
        self.__all__ = list(found)
        self._lc_client = client

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        found = self._lc_client.lookup([name])
        if name not in found:
            raise AttributeError(f"module 'solution' has no attribute '{name}'")
        setattr(self, name, found[name])
        return found[name]


# ---------------------------------------------------------------- the solution process


def serve(rfile: BinaryIO, wfile: BinaryIO, solution_dir: str) -> None:
    """Import the candidate, then answer calls until the test process hangs up."""
    sys.path.insert(0, solution_dir)
    objects: dict[int, Any] = {}

    def ref(value: Any) -> int:
        objects[id(value)] = value
        return id(value)

    def send(message: dict[str, Any]) -> None:
        wfile.write(wire.dumps(message))
        wfile.flush()

    try:
        import solution
    except BaseException as exc:  # noqa: BLE001 - report anything, even SystemExit
        send(
            {
                "import_error": _describe(exc)["message"],
                "type": type(exc).__name__,
                "where": _describe(exc)["where"],
            }
        )
        return
    send({"ready": True})
    for line in rfile:
        try:
            message = wire.loads(line)
            reply = _handle(message, solution, objects, ref)
        except BaseException as exc:  # noqa: BLE001
            reply = {"raise": _describe(exc)}
        send(reply)


def _handle(
    message: dict[str, Any], module: Any, objects: dict[int, Any], ref: Any
) -> dict[str, Any]:
    def decode(data: Any) -> Any:
        return wire.decode(data, lambda i, r: objects[i])

    op = message.get("op")
    if op == "names":
        found = {}
        for name in message.get("names", []):
            if hasattr(module, name):
                value = getattr(module, name)
                found[name] = ("callable", ref(value)) if callable(value) else ("value", value)
        encoded = {n: [k, wire.encode(v, ref)] for n, (k, v) in found.items()}
        return {
            "v": {
                wire.TAG: "dict",
                "v": [[n, {wire.TAG: "tuple", "v": kv}] for n, kv in encoded.items()],
            }
        }
    target = message.get("target", {})
    obj = getattr(module, target["name"]) if "name" in target else objects[int(target["id"])]
    if op == "call":
        args = [decode(a) for a in message.get("args", [])]
        kwargs = {k: decode(v) for k, v in message.get("kwargs", {}).items()}
        result = obj(*args, **kwargs)
        value = wire.encode(result, ref)  # first: a generator changes its arguments as it runs
        after = [
            [i, wire.encode(a, ref)]
            for i, a in enumerate(args)
            if isinstance(a, (list, dict, set, bytearray))
        ]
        after_kw = [
            [k, wire.encode(a, ref)]
            for k, a in kwargs.items()
            if isinstance(a, (list, dict, set, bytearray))
        ]
        return {"v": value, "after": after, "after_kw": after_kw}
    arg = decode(message.get("arg"))
    ops = {
        "getattr": lambda: getattr(obj, arg),
        "len": lambda: len(obj),
        "list": lambda: list(obj),
        "getitem": lambda: obj[arg],
        "contains": lambda: arg in obj,
        "bool": lambda: bool(obj),
        "str": lambda: str(obj),
    }
    return {"v": wire.encode(ops[str(op)](), ref)}


def _describe(exc: BaseException) -> dict[str, Any]:
    builtin = next(
        (c.__name__ for c in type(exc).__mro__ if getattr(builtins, c.__name__, None) is c),
        "Exception",
    )
    frames = [
        f for f in traceback.extract_tb(exc.__traceback__) if f.filename.endswith("solution.py")
    ]
    where = f"solution.py line {frames[-1].lineno}: {frames[-1].line}" if frames else ""
    try:
        message = str(exc)[:MAX_MESSAGE]
    except Exception:
        message = "<exception with an unprintable message>"
    return {"type": type(exc).__name__, "builtin": builtin, "message": message, "where": where}


# ---------------------------------------------------------------- the test process


class Reporter:
    """pytest plugin: per-test outcome, keyed by the module-level function name."""

    def __init__(self) -> None:
        self.results: dict[str, list[Any]] = {}  # name -> [passed, message, solution raised]
        self.collect_errors: list[str] = []
        self.unsupported: str | None = None
        self._raised: set[str] = set()  # node ids whose test the solution's exception ended

    def pytest_configure(self, config: Any) -> None:
        config.option.tbstyle = "short"  # --tb=short, whose owner (the terminal plugin) is off

    def pytest_runtest_makereport(self, item: Any, call: Any) -> None:
        """Note a SplitUnsupported by its type; returns None, so pytest still makes the report."""
        if call.excinfo is not None and is_unsupported(call.excinfo.value):
            self.unsupported = call.excinfo.exconly()[:300]
        failed = call.excinfo is not None and call.when == "call"
        if failed and solution_raised(call.excinfo.value):
            self._raised.add(item.nodeid)

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            self.collect_errors.append(_text(report)[:MAX_MESSAGE])

    def pytest_runtest_logreport(self, report: Any) -> None:
        parts = report.nodeid.split("::")
        if len(parts) != 2:
            return  # a method of a test class: not in the trusted list
        name = parts[1].split("[")[0]
        entry = self.results.setdefault(name, [None, "", False])
        if report.when == "call" and report.passed and not hasattr(report, "wasxfail"):
            if entry[0] is None:
                entry[0] = True
        elif report.failed or report.skipped:
            if entry[0] is not False:
                entry[1] = _text(report)[:MAX_MESSAGE] if report.failed else "skipped"
                entry[2] = report.failed and report.nodeid in self._raised
            entry[0] = False


def _text(report: Any) -> str:
    try:
        return str(report.longreprtext)
    except Exception:
        return "failed"


def run_pytest(
    tests_dir: str,
    report: BinaryIO,
    solution: types.ModuleType | None,
    import_error: str | None,
    needed: list[str],
) -> None:
    """Run the test file with pytest and write one JSON report line; the caller exits after."""
    import pytest

    reporter = Reporter()
    install_solution(solution, needed)
    code = -1
    if import_error is None:
        args = [os.path.join(tests_dir, "test_solution.py"), "--capture=sys"]
        args += ["-c", os.path.join(tests_dir, "pytest.ini"), "--rootdir", tests_dir]
        args += ["--confcutdir", tests_dir]
        for plugin in UNUSED_PLUGINS:
            args += ["-p", f"no:{plugin}"]
        code = int(pytest.main(args, plugins=[reporter]))
    write_report(report, code, reporter, import_error)


def install_solution(solution: types.ModuleType | None, needed: list[str]) -> None:
    """Make `from solution import *` bind exactly the names the tests use, and nothing else."""
    sys.dont_write_bytecode = True
    if solution is not None:
        present = [n for n in needed if n in solution.__dict__]
        solution.__all__ = present  # type: ignore[attr-defined]
        sys.modules["solution"] = solution
    else:
        sys.modules.pop("solution", None)


def write_report(report: BinaryIO, code: int, reporter: Reporter, import_error: str | None) -> None:
    """The one line the trusted side reads: only a line with `done` counts."""
    body = {
        "done": True,
        "exit": code,
        "results": reporter.results,
        "collect_errors": reporter.collect_errors,
        "import_error": import_error,
        "unsupported": reporter.unsupported,
    }
    report.write(wire.dumps(body))
    report.flush()
