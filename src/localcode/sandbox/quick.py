"""The quick runner: plain test functions run with pytest's own assertion rewriting and failure
text, but without a pytest session (~1 ms instead of ~40-90 ms for `pytest.main` per candidate).

Only tests that `is_plain` accepts come here: top-level `def test*():` with no parameters and no
decorators, in a module without fixtures, marks, xunit setup functions or test classes. For those
a pytest session adds nothing but start-up cost; anything else goes to `harness.run_pytest`.
"""

from __future__ import annotations

import ast
import inspect
import os
import sys
import types
from collections.abc import Callable
from typing import Any, BinaryIO

from . import harness

# module-level names that make pytest do more than call the test functions
_PYTEST_NAMES = {
    "pytestmark",
    "pytest_plugins",
    "setup_module",
    "teardown_module",
    "setUpModule",
    "tearDownModule",
    "setup_function",
    "teardown_function",
    "setup",
    "teardown",
}
# pytest features that act from a plain statement too, e.g. `pytest.fixture(autouse=True)(f)`
_PYTEST_FEATURES = {"fixture", "usefixtures", "mark"}
EXIT_OK, EXIT_FAILED, EXIT_INTERRUPTED, EXIT_NO_TESTS = 0, 1, 2, 5


def is_plain(tests: str) -> bool:
    """Whether pytest would do nothing for `tests` but import them and call each test function."""
    try:
        tree = ast.parse(tests)
    except SyntaxError:
        return False
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if not _plain_definition(node):
                return False
        elif isinstance(node, ast.ImportFrom) and node.module == "solution":
            continue  # the star import binds only the names the tests use (see run_pytest)
        elif not all(_plain_statement(sub) for sub in ast.walk(node)):
            return False
    return True


def _plain_definition(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    if node.decorator_list or node.name in _PYTEST_NAMES or node.name.startswith("pytest_"):
        return False  # a fixture, a mark, a hook or a setup function
    if isinstance(node, ast.ClassDef):
        return not node.name.startswith("Test")
    return _plain_function(node) if node.name.startswith("test") else True


def _plain_function(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    if not isinstance(node, ast.FunctionDef):
        return False  # async tests need a plugin; pytest reports them as failed
    a = node.args
    if a.args or a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg:
        return False  # fixtures
    return not any(isinstance(sub, (ast.Yield, ast.YieldFrom)) for sub in ast.walk(node))


def _plain_statement(node: ast.AST) -> bool:
    """Inside a top-level statement: no definitions pytest might collect, no pytest settings."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
        return False
    if isinstance(node, ast.Name):
        return node.id not in _PYTEST_NAMES and node.id not in _PYTEST_FEATURES
    if isinstance(node, ast.Attribute):
        return node.attr not in _PYTEST_FEATURES
    if isinstance(node, ast.alias):
        name = node.asname or node.name
        return name != "*" and not name.startswith(("test", "Test", "pytest_"))
    return True


def run_plain(
    tests_dir: str,
    report: BinaryIO,
    solution: types.ModuleType | None,
    import_error: str | None,
    needed: list[str],
    config: Any,
    code: types.CodeType | None = None,
) -> None:
    """Run the test file's functions and write one JSON report line, as `harness.run_pytest` does.

    `config` is the worker's warm pytest config: the assertion plugin reads its settings (verbosity,
    truncation) when it explains a failed comparison, exactly as inside a session. `code` is the
    test file compiled ahead (CompiledTests), if it compiled."""
    reporter = harness.Reporter()
    harness.install_solution(solution, needed)
    exit_code = -1
    if import_error is None:
        exit_code = _run_module(tests_path(tests_dir), reporter, config, code)
    harness.write_report(report, exit_code, reporter, import_error)


class CompiledTests:
    """Test files compiled as pytest imports them (`assert`s rewritten to show their values on
    failure), once per distinct text: a round scores many candidates against the same tests, and
    only the file name differs between their runs."""

    def __init__(self, config: Any, keep: int = 8) -> None:
        self.config = config
        self.keep = keep
        self._codes: dict[str, types.CodeType] = {}

    def get(self, source: str, path: str) -> types.CodeType | None:
        """The compiled file at `path`; None if it does not compile (run_plain reports why)."""
        code = self._codes.pop(source, None)
        if code is None:
            try:
                code = _compile_rewritten(source.encode(), path, self.config)
            except Exception:
                return None
        self._codes[source] = code  # most recently used last
        while len(self._codes) > self.keep:
            del self._codes[next(iter(self._codes))]
        return _at_path(code, path)


def _at_path(code: types.CodeType, path: str) -> types.CodeType:
    """`code` and the functions in it, as if compiled from `path` (tracebacks read it there)."""
    if code.co_filename == path:
        return code
    consts = tuple(
        _at_path(c, path) if isinstance(c, types.CodeType) else c for c in code.co_consts
    )
    return code.replace(co_filename=path, co_consts=consts)


def tests_path(tests_dir: str) -> str:
    return os.path.join(tests_dir, "test_solution.py")


def _run_module(
    path: str, reporter: harness.Reporter, config: Any, code: types.CodeType | None
) -> int:
    import pytest

    sys.path.insert(0, os.path.dirname(path))  # as pytest's default import mode does
    try:
        module = _import(path, code or _read_and_compile(path, config))
    except pytest.skip.Exception:
        return EXIT_NO_TESTS  # a module-level skip: nothing ran
    except BaseException as exc:  # noqa: BLE001 - a collection error, whatever it is
        reporter.collect_errors.append(_collect_error(exc, path)[: harness.MAX_MESSAGE])
        return EXIT_INTERRUPTED
    tests = [(n, f) for n, f in vars(module).items() if n.startswith("test") and _function(f)]
    if not tests:
        return EXIT_NO_TESTS
    explain = _assertion_hook(config)
    next(explain)  # pytest's comparison explanations ("At index 0 diff: ...") from here on
    try:
        for name, func in tests:
            reporter.results[name] = _call(func, reporter)
    except (KeyboardInterrupt, pytest.exit.Exception):
        return EXIT_INTERRUPTED
    finally:
        explain.close()
    return EXIT_OK if all(r[0] for r in reporter.results.values()) else EXIT_FAILED


def _function(obj: Any) -> bool:
    return inspect.isfunction(obj)  # not a proxy of the solution's function: pytest skips those too


def _read_and_compile(path: str, config: Any) -> types.CodeType:
    with open(path, "rb") as f:
        return _compile_rewritten(f.read(), path, config)


def _compile_rewritten(source: bytes, path: str, config: Any) -> types.CodeType:
    """Compile a test file as pytest's import hook does, `assert`s rewritten."""
    from _pytest.assertion.rewrite import rewrite_asserts

    tree = ast.parse(source, filename=path)
    rewrite_asserts(tree, source, path, config)
    return compile(tree, path, "exec", dont_inherit=True)


def _import(path: str, code: types.CodeType) -> types.ModuleType:
    module = types.ModuleType("test_solution")
    module.__file__ = path
    sys.modules["test_solution"] = module
    _known_to_inspect(module, path)
    exec(code, module.__dict__)
    return module


def _known_to_inspect(module: types.ModuleType, path: str) -> None:
    """Tell inspect's file-to-module cache about the test file up front: otherwise the first
    failure text makes inspect.getmodule walk all ~700 modules of sys.modules, ~2 ms of
    copy-on-write page faults in a forked child. A private cache (named `modulesbyfile` up to
    Python 3.12): where neither name exists, inspect just walks."""
    by_file = getattr(inspect, "_filesbyabsname", getattr(inspect, "modulesbyfile", None))
    if isinstance(by_file, dict):
        by_file[os.path.normcase(os.path.abspath(path))] = module.__name__


class _Item:
    """What the assertion plugin reads from a test item to install its comparison hook."""

    def __init__(self, config: Any) -> None:
        self.config = config
        self.ihook = config.hook


def _assertion_hook(config: Any) -> Any:
    from _pytest import assertion

    return assertion.pytest_runtest_protocol(_Item(config))  # type: ignore[arg-type]


def _call(func: Callable[[], object], reporter: harness.Reporter) -> list[Any]:
    """[passed, message, solution raised] for one test, as the session's reporter would record it; a
    SplitUnsupported (by its type: the candidate writes any text it likes) is noted on `reporter`."""
    import pytest

    try:
        func()
    except (KeyboardInterrupt, pytest.exit.Exception):
        raise
    except (pytest.skip.Exception, pytest.xfail.Exception):
        return [False, "skipped", False]
    except BaseException as exc:  # noqa: BLE001 - SystemExit in a test is a failure in pytest too
        if harness.is_unsupported(exc):
            reporter.unsupported = f"SplitUnsupported: {exc}"[:300]
        return [False, _failure(exc, func)[: harness.MAX_MESSAGE], harness.solution_raised(exc)]
    return [True, "", False]


def _failure(exc: BaseException, func: Callable[[], object]) -> str:
    """pytest's `--tb=short` text for a failed test: its traceback cut to the test function."""
    import pytest

    excinfo = pytest.ExceptionInfo.from_exception(exc)
    style = "short"
    if isinstance(exc, pytest.fail.Exception) and not exc.pytrace:
        style = "value"
    repr_ = excinfo.getrepr(
        funcargs=True,
        abspath=False,
        showlocals=False,
        style=style,  # type: ignore[arg-type]
        tbfilter=lambda info: _cut_to(info, func),
        truncate_locals=True,
    )
    return _text(repr_)


def _cut_to(excinfo: Any, func: Callable[[], object]) -> Any:
    """The traceback from the test function on, hidden frames dropped (pytest's Function filter)."""
    from _pytest._code import Code
    from _pytest._code.code import filter_traceback

    code = Code.from_function(func)
    traceback = excinfo.traceback
    cut = traceback.cut(path=code.path, firstlineno=code.firstlineno)
    if cut == traceback:
        cut = cut.cut(path=code.path)
        if cut == traceback:
            cut = cut.filter(filter_traceback) or traceback
    return cut.filter(excinfo)


def _collect_error(exc: BaseException, path: str) -> str:
    """Why the test file could not be imported, worded as pytest's collection error."""
    import pytest

    excinfo = pytest.ExceptionInfo.from_exception(exc)
    text = _text(excinfo.getrepr(style="short", tbfilter=lambda info: _cut_to_file(info, path)))
    if isinstance(exc, ImportError):
        return f"ImportError while importing test module '{path}'.\nTraceback:\n{text}"
    return text


def _cut_to_file(excinfo: Any, path: str) -> Any:
    traceback = excinfo.traceback
    return traceback.cut(path=path).filter(excinfo)


def _text(repr_: Any) -> str:
    from io import StringIO

    from _pytest._io import TerminalWriter

    out = StringIO()
    writer = TerminalWriter(out)
    writer.hasmarkup = False
    repr_.toterminal(writer)
    return out.getvalue().strip()
