"""Judging final code on a problem's hidden tests, in the sandbox, the same way for every strategy."""

from __future__ import annotations

from ..sandbox import Limits, TestRun, run_tests
from ..task import parse_task, with_preamble
from .problems import Problem


def hidden_tests(problem: Problem) -> str:
    """The problem's test text plus one pytest function that calls `check(entry_point)`."""
    return f"{problem.test.rstrip()}\n\n\ndef test_hidden():\n    check({problem.entry_point})\n"


def judged_code(problem: Problem, code: str) -> str:
    """The final code with what the prompt defines around the entry point (imports, helpers)
    in front where the code lacks it: the same completion the agent itself applies."""
    return with_preamble(parse_task(problem.prompt, problem.entry_point), code)


def judge(problem: Problem, code: str, limits: Limits) -> TestRun:
    """Run `code` against the problem's hidden tests; no code is a failed run, not an error."""
    if not code.strip():
        return TestRun(error="no code to judge")
    return run_tests(judged_code(problem, code), hidden_tests(problem), limits)
