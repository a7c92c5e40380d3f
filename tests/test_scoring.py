"""The runner's scoring: partial credit, reasons for zeros, only trusted test names count."""

from __future__ import annotations

from localcode.sandbox import Limits, run_tests

TESTS = """
def test_case_1():
    assert add(1, 2) == 3

def test_case_2():
    assert add(2, 2) == 4

def test_case_3():
    assert add(0, 0) == 1
"""


def test_partial_credit_with_failure_messages() -> None:
    run = run_tests("def add(a, b):\n    return a + b\n", TESTS)
    assert (run.passed, run.total, run.error) == (2, 3, None)
    failed = run.failures()[0]
    assert failed.name == "test_case_3" and "0 == 1" in failed.message
    assert len(failed.message.splitlines()) <= 8


def test_syntax_error_scores_zero_with_its_reason() -> None:
    run = run_tests("def add(a, b)\n    return a + b\n", TESTS)
    assert run.passed == 0 and run.total == 3
    assert run.error and "SyntaxError" in run.error


def test_import_error_scores_zero_with_its_reason() -> None:
    run = run_tests("import no_such_module_xyz\ndef add(a, b):\n    return a + b\n", TESTS)
    assert run.passed == 0 and run.total == 3
    assert run.error and "no_such_module_xyz" in run.error


def test_timeout_scores_zero_and_says_so() -> None:
    run = run_tests("def add(a, b):\n    while True:\n        pass\n", TESTS, Limits(timeout=1.5))
    assert run.passed == 0 and run.error and "timed out" in run.error
    assert run.duration_s < 10


def test_candidate_defined_tests_never_add_credit() -> None:
    code = (
        "def add(a, b):\n    return a + b\n\n"
        "def test_case_4():\n    assert True\n\ndef test_extra():\n    assert True\n"
    )
    run = run_tests(code, TESTS)
    assert [r.name for r in run.results] == ["test_case_1", "test_case_2", "test_case_3"]
    assert run.passed == 2


def test_explicit_import_of_the_solution_works() -> None:
    tests = "from solution import add\n\ndef test_a():\n    assert add(1, 1) == 2\n"
    run = run_tests("def add(a, b):\n    return a + b\n", tests)
    assert run.all_passed


def test_tests_without_test_functions_are_an_error_not_a_pass() -> None:
    run = run_tests("def add(a, b):\n    return a + b\n", "x = 1\n")
    assert run.total == 0 and not run.all_passed and run.error
