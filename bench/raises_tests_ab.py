"""Tests for a task that says a call raises: the tests prompt with its pytest.raises clause
(prompts.RAISES_TESTS, today) against the same prompt without it.

Run: .venv/bin/python bench/raises_tests_ab.py docs/bench/task-trials/tasks
         [--model qwen2.5-coder-1.5b] [--out runs/raises-tests-ab.jsonl]

A folder of tasks: NAME.txt (the task as a user writes it) and NAME_solution.py (a program
that does what it says); those whose text names no exception are left out (the same prompt).
Each task's tests are written as the loop writes them (assert lines begun for the model, or
test functions for a class; greedy, one engine slot, stopped at the fifth case), once per
prompt, the order turned round per task. Each reply is read as the loop reads it and its cases
run against the right program: a case that fails it is wrong. Prints per prompt the cases, the
cases right, the cases that check a raise (and right), how many asserts compare a call with an
exception class (`== ValueError`, read as the raise: each would fail the right program read
literally), and the replies' seconds. Replies are appended to --out as they come; a rerun with
the same file skips the tasks there.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from localcode import extract, models, prompts
from localcode.backends.local import LocalBackend
from localcode.config import AgentConfig
from localcode.extract import cases_written, extract_tests, looping, without_unfinished_test
from localcode.loop import ASSERT_TOKENS_PER_CASE, N_TESTS
from localcode.sandbox import Limits, run_tests
from localcode.task import parse_task

PROMPTS = ("raises", "plain")


def messages(name: str, text: str, entry: str | None, style: str) -> list[prompts.Message]:
    asked = prompts.tests_prompt(text, entry, N_TESTS, style)
    if name == "raises":
        return asked
    clause = prompts.RAISES_TESTS.format(where=", on one line" if style == "asserts" else "")
    content = asked[-1]["content"]
    assert clause in content, "the task names no exception, or RAISES_TESTS is not asked"
    return [*asked[:-1], {**asked[-1], "content": content.replace(clause, "")}]


def write(
    backend: LocalBackend, msgs: list[prompts.Message], entry: str | None, style: str
) -> dict[str, Any]:
    budget = AgentConfig().max_test_tokens
    if style == "asserts":
        budget = min(budget, ASSERT_TOKENS_PER_CASE * N_TESTS)
    t0 = time.perf_counter()
    reply = backend.complete_until(
        msgs,
        until=lambda text: cases_written(text, entry, N_TESTS) or looping(text),
        start=prompts.ASSERTS_START if style == "asserts" else "",
        temperature=0.0,
        seed=0,
        max_tokens=budget,
    )
    text = reply.text
    if style == "functions" and (reply.finish_reason == "length" or looping(text)):
        text = without_unfinished_test(text)
    return {"reply": text, "seconds": round(time.perf_counter() - t0, 2)}


def row_of(task: Any) -> tuple[str | None, str]:
    """The entry point and the tests style the loop uses for a task."""
    return task.entry_point, "functions" if task.is_class else "asserts"


def write_rows(
    keys: list[str],
    out: Path,
    model: str,
    row: Callable[[LocalBackend, int, str], dict[str, Any]],
) -> dict[str, dict[str, Any]]:
    """`row(backend, i, key)` for each key, on one warm engine slot, each appended to `out` as
    it comes; the rows by key."""
    rows: dict[str, dict[str, Any]] = {}
    if not keys:
        return rows
    out.parent.mkdir(parents=True, exist_ok=True)
    backend = LocalBackend(models.installed_path(model), slots=1)
    try:
        backend.complete([{"role": "user", "content": "hi"}], n=1, max_tokens=4)  # warm
        with out.open("a") as f:
            for i, key in enumerate(keys):
                rows[key] = row(backend, i, key)
                f.write(json.dumps(rows[key]) + "\n")
                f.flush()
                print(key, "written", flush=True)
    finally:
        backend.close()
    return rows


def cases(reply: str, entry: str | None, solution: str) -> dict[str, int]:
    """The reply's cases, read as the loop reads them, run on the right program; and how many
    of its asserts compare a call with an exception class (`== ValueError`: read as the raise
    they mean, each would fail every program that raises)."""
    tests = extract_tests(reply, entry)
    sources = [t for t in map(extract.parse, extract._test_sources(reply)) if t is not None]
    tree = sources[0] if sources else None
    written = sum(
        isinstance(n, ast.Assert)
        and isinstance(n.test, ast.Compare)
        and any(extract._names_an_exception(side) for side in [n.test.left, *n.test.comparators])
        for n in (ast.walk(tree) if tree else ())
    )
    out = {"cases": 0, "right": 0, "raises": 0, "raises_right": 0, "as_equals": written}
    if not tests:
        return out
    run = run_tests(solution, tests, Limits(timeout=20))
    module = extract.parse(tests)
    raising = {
        fn.name
        for fn in (module.body if module else [])
        if isinstance(fn, ast.FunctionDef) and any(map(extract._expects_raise, ast.walk(fn)))
    }
    return {
        **out,
        "cases": run.total,
        "right": run.passed,
        "raises": len(raising),
        "raises_right": sum(r.passed for r in run.results if r.name in raising),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks", type=Path)
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--out", type=Path, default=Path("runs/raises-tests-ab.jsonl"))
    args = ap.parse_args()
    names = sorted(  # a task that names no exception gets the same prompt either way
        p.stem
        for p in args.tasks.glob("*.txt")
        if (args.tasks / f"{p.stem}_solution.py").is_file()
        and prompts.names_exceptions(p.read_text())
    )
    if not names:
        sys.exit(f"error: no NAME.txt with a NAME_solution.py in {args.tasks}")
    done: dict[str, dict[str, Any]] = {}
    if args.out.exists():
        done = {r["task"]: r for r in map(json.loads, args.out.read_text().splitlines())}
    todo = [n for n in names if n not in done]

    def both(backend: LocalBackend, i: int, name: str) -> dict[str, Any]:
        task = parse_task((args.tasks / f"{name}.txt").read_text())
        style = "functions" if task.is_class else "asserts"
        row: dict[str, Any] = {"task": name, "entry": task.entry_point}
        k = i % len(PROMPTS)
        for p in [*PROMPTS[k:], *PROMPTS[:k]]:
            row[p] = write(backend, messages(p, task.text, task.entry_point, style), *row_of(task))
        return row

    done.update(write_rows(todo, args.out, args.model, both))
    print(f"\n{len(names)} tasks, greedy, one engine slot")
    for p in PROMPTS:
        tally = {"cases": 0, "right": 0, "raises": 0, "raises_right": 0, "as_equals": 0}
        for name in names:
            solution = (args.tasks / f"{name}_solution.py").read_text()
            got = cases(done[name][p]["reply"], done[name]["entry"], solution)
            tally = {k: tally[k] + got[k] for k in tally}
            print(f"    {p:<7} {name:<10} {json.dumps(got)}")
        secs = sum(float(done[n][p]["seconds"]) for n in names) / len(names)
        print(
            f"  {p:<7} {tally['right']} of {tally['cases']} cases right; {tally['raises']} check "
            f"a raise ({tally['raises_right']} right); {tally['as_equals']} written "
            f"`== SomeError` (read as the raise); {secs:.1f} s a reply"
        )


if __name__ == "__main__":
    main()
