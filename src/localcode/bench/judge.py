"""Judging final code on a problem's hidden tests, in the sandbox, the same way for every strategy."""

from __future__ import annotations

import re

from ..sandbox import Limits, TestRun, run_tests
from .problems import Problem

_IMPORT = re.compile(r"^(?:import\s+\S.*|from\s+\S+\s+import\s+\S.*)$")


def hidden_tests(problem: Problem) -> str:
    """The problem's test text plus one pytest function that calls `check(entry_point)`."""
    return f"{problem.test.rstrip()}\n\n\ndef test_hidden():\n    check({problem.entry_point})\n"


def prompt_imports(prompt: str) -> list[str]:
    """The prompt's top-level import lines (HumanEval's `from typing import List`)."""
    return [line.strip() for line in prompt.splitlines() if _IMPORT.match(line)]


def judged_code(problem: Problem, code: str) -> str:
    """The final code with the prompt's imports in front, so annotations resolve."""
    imports = "\n".join(prompt_imports(problem.prompt))
    return f"{imports}\n\n{code}" if imports else code


def judge(problem: Problem, code: str, limits: Limits) -> TestRun:
    """Run `code` against the problem's hidden tests; no code is a failed run, not an error."""
    if not code.strip():
        return TestRun(error="no code to judge")
    return run_tests(judged_code(problem, code), hidden_tests(problem), limits)
