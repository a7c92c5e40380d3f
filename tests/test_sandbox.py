"""The sandbox scores candidates honestly: real worker processes running real pytest."""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from localcode.errors import SandboxError
from localcode.sandbox import Limits, WorkerPool, run_tests
from localcode.sandbox import TestRun as Run
from localcode.sandbox.records import HASH_SEED
from localcode.sandbox.runner import needed_names

ADD = "def add(a, b):\n    return a + b\n"
ADD_TESTS = """
def test_small():
    assert add(1, 2) == 3

def test_zero():
    assert add(0, 0) == 0
"""


@pytest.fixture(scope="module")
def pool():
    with WorkerPool(2) as p:
        yield p


def run(pool: WorkerPool, code: str, tests: str, **limits: object) -> Run:
    return run_tests(code, tests, Limits(**limits), pool=pool)  # type: ignore[arg-type]


def test_correct_solution_passes(pool):
    result = run(pool, ADD, ADD_TESTS)
    assert result.error is None
    assert [r.name for r in result.results] == ["test_small", "test_zero"]
    assert result.all_passed


def test_failure_message_shows_the_assertion_and_values(pool):
    result = run(pool, "def add(a, b):\n    return a - b\n", ADD_TESTS)
    assert result.passed == 1
    message = result.results[0].message
    assert "assert add(1, 2) == 3" in message and "-1 == 3" in message
    assert len(message.splitlines()) <= 8


def test_explicit_import_from_solution_works(pool):
    tests = "from solution import add\n\ndef test_a():\n    assert add(2, 3) == 5\n"
    assert run(pool, ADD, tests).all_passed


def test_syntax_error_is_reported(pool):
    result = run(pool, "def add(a, b)\n    return a + b\n", ADD_TESTS)
    assert result.error and "SyntaxError" in result.error
    assert result.passed == 0


def test_import_error_is_reported(pool):
    result = run(pool, "import no_such_module_xyz\n" + ADD, ADD_TESTS)
    assert result.error and "no_such_module_xyz" in result.error
    assert result.passed == 0


def test_exception_at_import_is_reported(pool):
    result = run(pool, "raise ValueError('broken at import')\n", ADD_TESTS)
    assert result.error and "broken at import" in result.error


def test_timeout_is_reported(pool):
    code = "import time\ndef add(a, b):\n    time.sleep(30)\n"
    result = run(pool, code, ADD_TESTS, timeout=1.0)
    assert result.error and "timed out" in result.error
    assert result.passed == 0 and result.duration_s < 5


def test_no_tests_is_an_error(pool):
    assert run(pool, ADD, "x = 1\n").error == "the tests contain no test functions"


def test_candidate_defined_tests_are_not_counted(pool):
    code = "def add(a, b):\n    return 0\n\ndef test_small():\n    pass\n\ndef test_bonus():\n    pass\n"
    result = run(pool, code, ADD_TESTS)
    assert [r.name for r in result.results] == ["test_small", "test_zero"]
    assert result.passed == 1  # only test_zero, which 0 == 0 honestly passes


RAISES = """def add(a, b):
    if a == 0:
        raise ValueError('x' * 5000)  # longer than any message kept
    if a == 2:
        import json
        return json.loads('{')  # raised in a library the solution called
    return a - b

class Box:
    def get(self, i):
        return [][i]
"""
RAISES_TESTS = (
    ADD_TESTS
    + """
def test_two():
    assert add(2, 2) == 4

def test_own():
    raise KeyError('the test itself')

def test_caught():
    try:
        add(0, 0)
    except ValueError as exc:
        raise AssertionError('the test says no') from exc

def test_value_looks_like_a_note():
    assert str(add(1, 1)) == 'raised in the solution: no'
"""
)


@pytest.mark.parametrize("in_process", [False, True])
def test_a_failure_says_whether_the_solution_raised(pool, in_process):
    """A crash is told from a wrong value or the test's own error, in a split run and where the
    solution shares the test's process (a task that is a class), whatever the message says."""
    tests = RAISES_TESTS + (
        "\ndef test_box():\n    assert Box().get(1) == 2\n" if in_process else ""
    )
    got = {r.name: r.raised for r in run(pool, RAISES, tests).results}
    assert got == {
        "test_small": False,  # a wrong value
        "test_zero": True,
        "test_two": True,
        "test_own": False,
        "test_caught": False,  # the test's own AssertionError ended it
        "test_value_looks_like_a_note": False,
        **({"test_box": True} if in_process else {}),
    }


def test_the_cold_runner_says_whether_the_solution_raised():
    from localcode.sandbox.cold import run_tests_cold

    got = {r.name: r.raised for r in run_tests_cold(RAISES, RAISES_TESTS).results}
    assert got == {
        "test_small": False,
        "test_zero": True,
        "test_two": True,
        "test_own": False,
        "test_caught": False,
        "test_value_looks_like_a_note": False,
    }


WORDS = "['apple', 'banana', 'cherry', 'date', 'elder', 'fig']"
HASH_CODE = f"def answer():\n    return hash('localcode'), list(set({WORDS}))\n"
HASH_TESTS = """
import sys

def test_strings_hash_as_with_the_pinned_seed():
    assert answer() == {expected!r}

def test_the_working_directory_is_not_on_the_import_path():
    assert "" not in sys.path
"""


def test_every_run_hashes_strings_alike(pool):
    # Set order of strings follows their hashes: with a seed of its own per worker process, the
    # same program would answer in another order (and pass other tests) on another worker.
    from localcode.sandbox.cold import run_tests_cold

    probe = f"print(repr((hash('localcode'), list(set({WORDS})))))"
    env = {"PYTHONHASHSEED": HASH_SEED}
    out = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    )
    tests = HASH_TESTS.format(expected=ast.literal_eval(out.stdout))
    with WorkerPool(1) as other:  # a second pool: surely another worker process
        runs = [run(p, HASH_CODE, tests) for p in (pool, other, pool, other)]
    for result in runs + [run_tests_cold(HASH_CODE, tests)]:
        assert result.error is None and result.all_passed, result


def test_the_worker_ignores_the_callers_python_variables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the worker starts without -I: only the environment it builds keeps these out
    (tmp_path / "sitecustomize.py").write_text("raise SystemExit('sitecustomize ran')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.setenv("PYTHONHASHSEED", "123")
    tests = f"import sys\n\ndef test_clean():\n    assert {str(tmp_path)!r} not in sys.path\n"
    with WorkerPool(1) as fresh:
        assert run(fresh, "x = 1\n", tests).all_passed


def test_exceptions_cross_with_their_builtin_type(pool):
    code = "class BadInput(ValueError):\n    pass\n\ndef check(x):\n    raise BadInput('no')\n"
    tests = "import pytest\n\ndef test_raises():\n    with pytest.raises(ValueError, match='no'):\n        check(1)\n"
    assert run(pool, code, tests).all_passed


def test_plain_data_round_trips(pool):
    code = """
def values():
    return (1, 2.5, None, True, "s", b"b", {1: "a"}, {3, 4}, frozenset([5]), [1, [2]], float("inf"))

def gen(n):
    return (i * i for i in range(n))

def sort_in_place(xs):
    xs.sort()

def total(rows):
    return sum(map(sum, rows))

def bump_second(rows, by=1):
    rows[1][0] += by

def clear_keyword(*, seen):
    seen.clear()
"""
    tests = """
def test_values():
    assert values() == (1, 2.5, None, True, "s", b"b", {1: "a"}, {3, 4}, frozenset([5]), [1, [2]], float("inf"))

def test_generator():
    assert list(gen(4)) == [0, 1, 4, 9]

def test_mutation_is_seen():
    xs = [3, 1, 2]
    sort_in_place(xs)
    assert xs == [1, 2, 3]

def test_what_a_call_leaves_alone_keeps_its_identity():
    first, second = [1], [2]
    rows = [first, second]
    assert total(rows) == 3
    assert rows[0] is first and rows[1] is second
    bump_second(rows)  # a change deep inside reaches the test's own inner list
    assert second == [3] and rows[1] is second and rows[0] is first

def test_a_keyword_argument_changed_in_place_is_seen():
    seen = {1, 2}
    clear_keyword(seen=seen)
    assert seen == set()
"""
    result = run(pool, code, tests)
    assert result.all_passed, result


def test_classes_run_in_process(pool):
    code = "class Stack:\n    def __init__(self):\n        self.items = []\n    def push(self, x):\n        self.items.append(x)\n    def pop(self):\n        return self.items.pop()\n"
    tests = "def test_stack():\n    s = Stack()\n    s.push(1)\n    assert s.pop() == 1\n"
    assert run(pool, code, tests).all_passed


def test_tests_passing_functions_fall_back_to_in_process(pool):
    code = "def apply(f, x):\n    return f(x)\n"
    tests = "def test_apply():\n    assert apply(lambda v: v + 1, 1) == 2\n"
    assert run(pool, code, tests).all_passed


def test_returned_function_is_callable(pool):
    code = "def adder(n):\n    return lambda x: x + n\n"
    tests = "def test_adder():\n    assert adder(2)(3) == 5\n"
    assert run(pool, code, tests).all_passed


def test_a_solution_function_has_its_name_for_messages(pool):
    # benchmark checks format `candidate.__name__` into their failure messages
    tests = (
        "def check(candidate):\n    got = candidate(1, 2)\n"
        "    assert got == 3, f'{candidate.__name__}(1, 2) returned {got!r}'\n\n"
        "def test_hidden():\n    check(add)\n"
    )
    assert run(pool, ADD, tests).all_passed
    wrong = run(pool, "def add(a, b):\n    return a - b\n", tests)
    assert "add(1, 2) returned -1" in wrong.results[0].message


def test_crash_is_reported(pool):
    code = "import ctypes\ndef add(a, b):\n    ctypes.string_at(0)\n"
    result = run(pool, code, ADD_TESTS)
    assert result.passed == 0
    assert "died" in result.results[0].message


def test_parallel_runs_from_threads(pool):
    results: list[Run] = []
    wrong = "def add(a, b):\n    return a * b\n"

    def score(code: str) -> None:
        results.append(run(pool, code, ADD_TESTS))

    threads = [threading.Thread(target=score, args=(c,)) for c in (ADD, wrong, ADD, wrong)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.passed for r in results) == [1, 1, 2, 2]  # a*b passes only add(0, 0)


def test_needed_names_skip_builtins_and_test_definitions():
    tests = "import math\nfrom solution import f\nK = 2\n\ndef helper():\n    pass\n\ndef test_a():\n    assert len(g(K)) == f(math.pi)\n"
    assert sorted(needed_names(tests)) == ["f", "g"]


FAILURES = """
import pytest

def check(v):
    assert twice(v) == 10

def test_where():
    assert twice(1) == 3

def test_list():
    assert sorted_desc([1, 2, 3]) == [1, 2, 3]

def test_raised_in_solution():
    assert boom(5) == 1

def test_no_raise():
    with pytest.raises(ValueError):
        twice(1)

def test_message():
    x = twice(1)
    assert x > 5, f"x was {x}"

def test_helper():
    check(1)

def test_skipped():
    pytest.skip("not today")

def test_approx():
    assert twice(0.1) == pytest.approx(0.3)

def test_passes():
    assert twice(2) == 4
"""
FAILURES_CODE = (
    "def twice(x):\n    return 2 * x\n\n"
    "def sorted_desc(xs):\n    return sorted(xs)[::-1]\n\n"
    "def boom(x):\n    raise KeyError(x)\n"
)


BOX = "\nclass Box:\n    def __init__(self, v):\n        self.v = v\n"
BOX_TEST = "\ndef test_box():\n    assert Box(1).v == 1\n"  # a class: tests and solution in-process


@pytest.mark.parametrize(
    ("code", "tests"), [(FAILURES_CODE, FAILURES), (FAILURES_CODE + BOX, FAILURES + BOX_TEST)]
)
def test_quick_runner_reports_exactly_what_pytest_reports(pool, code, tests):
    plain = run(pool, code, tests)
    # `pytestmark` makes the tests need a pytest session; the line numbers stay the same
    session = run(pool, code, tests + "\npytestmark = []\n")
    assert [(r.name, r.passed, r.message) for r in plain.results] == [
        (r.name, r.passed, r.message) for r in session.results
    ]
    assert plain.passed == (1 if tests == FAILURES else 2) and plain.error is None
    where = plain.results[0].message
    assert "assert twice(1) == 3" in where and "where 2 = twice(1)" in where
    assert "At index 0 diff: 3 != 1" in plain.results[1].message
    assert "KeyError" in plain.results[2].message


def test_quick_runner_collection_error_matches_pytest(pool):
    tests = "X = twice(1) + undefined_name\n\ndef test_a():\n    assert twice(1) == 2\n"
    plain = run(pool, FAILURES_CODE, tests)
    session = run(pool, FAILURES_CODE, tests + "\npytestmark = []\n")
    assert plain.error == session.error
    assert plain.error and "NameError" in plain.error and plain.passed == 0


def test_only_plain_tests_take_the_quick_runner():
    from localcode.sandbox.quick import is_plain

    assert is_plain(
        "import math\nK = 2\n\ndef helper(x):\n    return x\n\ndef test_a():\n    assert f(K)\n"
    )
    assert is_plain("from solution import *\n\nclass Point:\n    pass\n\ndef test_a():\n    pass\n")
    for tests in [
        "import pytest\n\n@pytest.mark.parametrize('x', [1])\ndef test_a(x):\n    pass\n",
        "import pytest\n\n@pytest.fixture\ndef v():\n    return 1\n\ndef test_a(v):\n    pass\n",
        "def test_a(tmp_path):\n    pass\n",
        "async def test_a():\n    pass\n",
        "class TestThings:\n    def test_a(self):\n        pass\n",
        "def setup_module():\n    pass\n\ndef test_a():\n    pass\n",
        "import pytest\npytestmark = pytest.mark.skip\n\ndef test_a():\n    pass\n",
        "if True:\n    def test_a(tmp_path):\n        pass\n",
        "def test_a():\n    yield 1\n",
        "import pytest\n\ndef helper():\n    pass\n\nauto = pytest.fixture(autouse=True)(helper)\n\ndef test_a():\n    pass\n",
    ]:
        assert not is_plain(tests), tests


def test_sets_bytes_and_tuples_cross_as_arguments(pool):
    code = "def size(x):\n    return len(x)\n"
    tests = "def test_set():\n    assert size({1, 2}) == 2\n\ndef test_bytes():\n    assert size((1, b'x', frozenset())) == 3\n"
    assert run(pool, code, tests).all_passed


def _within(seconds: float, action):
    """`action()`'s result, or a test failure if it blocks (a leaked pool slot blocks forever)."""
    out: list[object] = []
    thread = threading.Thread(target=lambda: out.append(action()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert out, f"blocked for {seconds}s"
    return out[0]


def test_a_failed_request_frees_its_worker_slot():
    with WorkerPool(1) as one:
        with pytest.raises(SandboxError):
            one.run({"code": object()})  # not JSON: the request fails before the worker sees it
        ctrl_c = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
        # Ctrl-C as Python handles it by default: in the full suite something earlier in the
        # process (not localcode, which sets no handler) leaves another SIGINT handler behind
        before = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            ctrl_c.start()  # while the pool waits for a slow candidate's answer
            with pytest.raises(KeyboardInterrupt):
                run(one, "import time\ntime.sleep(3)\n" + ADD, ADD_TESTS)
            ctrl_c.join()
        finally:
            signal.signal(signal.SIGINT, before)
        assert _within(60, lambda: run(one, ADD, ADD_TESTS)).all_passed


def test_status_is_read_once_per_pool():
    with WorkerPool(1) as one:
        first = one.status()
        busy = one._acquire()  # the only worker: status() must not need it again
        try:
            assert _within(5, one.status) == first
        finally:
            one._release(busy)
