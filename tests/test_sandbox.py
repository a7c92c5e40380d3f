"""The sandbox scores candidates honestly: real worker processes running real pytest."""

from __future__ import annotations

import threading

import pytest

from localcode.sandbox import Limits, WorkerPool, run_tests
from localcode.sandbox import TestRun as Run
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
