"""The tests reply's token budget: what a smaller one saves, and what it costs in cases.

Run: .venv/bin/python bench/tests_budget.py [--k 8] [--budgets 300,500] [--model qwen2.5-coder-1.5b]

A function's tests are asked as assert lines with a budget of tokens a case (loop.py,
ASSERT_TOKENS_PER_CASE); a reply cut there keeps its finished lines. The model often lists more
cases than the 5 asked for, and those extra lines are most of a long reply's time. For the first
K problems of each fixed sample in docs/BENCHMARKS.md that a committed run solved (as
bench/tests_format.py chooses them), the loop's tests prompt is sent once per budget to one
embedded engine (greedy, as the loop asks; the order of the budgets turns round per problem so
drift in the machine's speed falls on all), and the reply goes through the loop's own extraction.
Prints per budget: seconds and generated tokens, replies cut, the cases kept, how many the
known-right program passes, and how many of the committed runs' known-wrong programs fail at
least one case (the tests catch them).
"""

from __future__ import annotations

import argparse
import time

from tests_format import Tally, committed_codes, print_table, sample_problems, score

from localcode import models, prompts
from localcode.backends.local import LocalBackend
from localcode.bench.problems import Problem
from localcode.extract import extract_tests
from localcode.loop import N_TESTS
from localcode.task import parse_task


def measure(
    backend: LocalBackend, problem: Problem, budget: int, right: str, wrong: set[str], t: Tally
) -> None:
    """One tests reply at `budget` tokens, scored as tests_format scores a style."""
    task = parse_task(problem.prompt)
    messages = prompts.tests_prompt(task.text, task.entry_point, N_TESTS, "asserts")
    t0 = time.perf_counter()
    reply = backend.complete(messages, n=1, temperature=0.0, seed=0, max_tokens=budget)[0]
    t.seconds += time.perf_counter() - t0
    t.tokens += reply.completion_tokens or 0
    cut = reply.finish_reason == "length"
    t.empty += cut  # here: replies cut at the budget
    tests = extract_tests(reply.text, task.entry_point)
    if not tests:
        t.rows.append(f"{budget}: no tests")
        return
    mark = " cut" if cut else ""
    t.rows.append(f"{budget}: {reply.completion_tokens} tok{mark}, {score(tests, right, wrong, t)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=8, help="problems from each sample")
    ap.add_argument("--budgets", default="300,500", help="comma-separated token budgets")
    ap.add_argument("--model", default=models.DEFAULT_MODEL)
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    right, wrong = committed_codes()
    chosen = sample_problems(args.k, right)
    backend = LocalBackend(models.installed_path(args.model), slots=1)
    tallies = {b: Tally() for b in budgets}
    try:
        backend.complete([{"role": "user", "content": "hi"}], n=1, max_tokens=4)  # warm
        for i, p in enumerate(chosen):
            turn = i % len(budgets)
            for b in budgets[turn:] + budgets[:turn]:
                measure(backend, p, b, right[p.task_id], wrong.get(p.task_id, set()), tallies[b])
            print(p.task_id, " | ".join(tallies[b].rows[-1] for b in budgets), flush=True)
    finally:
        backend.close()
    print(f"\n{len(chosen)} problems ({args.model}, greedy, one engine slot)")
    print_table("budget", {str(b): t for b, t in tallies.items()}, str(max(budgets)), "cut")


if __name__ == "__main__":
    main()
