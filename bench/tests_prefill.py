"""The tests reply begun for the model: does starting it with the code fence save tokens?

Run: .venv/bin/python bench/tests_prefill.py [--k 8] [--model qwen2.5-coder-1.5b]

Asked for assert lines, the model sometimes writes something else first (the function, a
comment) and only then the asserts, and every later step of a run waits for the tests. A chat server that continues
a trailing assistant message (llama.cpp does) can be handed the reply's start. For the first K
problems of each fixed sample in docs/BENCHMARKS.md that a committed run solved (as
bench/tests_format.py chooses them), the loop's tests prompt is sent with each start below to one
embedded engine, streamed and ended at the fifth finished case as the loop ends it (greedy; the
order turns round per problem so drift in the machine's speed falls on all). Prints per start:
seconds, generated tokens, cases kept, how many the known-right program passes, and how many of
the committed runs' known-wrong programs the cases catch.
"""

from __future__ import annotations

import argparse
import time

from tests_format import Tally, committed_codes, print_table, sample_problems, score

from localcode import models, prompts
from localcode.backends.local import LocalBackend
from localcode.bench.problems import Problem
from localcode.extract import cases_written, extract_tests
from localcode.loop import ASSERT_TOKENS_PER_CASE, N_TESTS
from localcode.task import parse_task

STARTS = {"none": "", "fence": "```python\n", "assert": prompts.ASSERTS_START}


def measure(
    backend: LocalBackend, problem: Problem, start: str, right: str, wrong: set[str], t: Tally
) -> None:
    task = parse_task(problem.prompt)
    messages = prompts.tests_prompt(task.text, task.entry_point, N_TESTS, "asserts")
    t0 = time.perf_counter()
    reply = backend.complete_until(
        messages,
        until=lambda text: cases_written(text, task.entry_point, N_TESTS),
        start=start,
        temperature=0.0,
        seed=0,
        max_tokens=ASSERT_TOKENS_PER_CASE * N_TESTS,
    )
    t.seconds += time.perf_counter() - t0
    t.tokens += reply.completion_tokens or 0
    tests = extract_tests(reply.text, task.entry_point)
    if not tests:
        t.empty += 1
        t.rows.append(f"{reply.completion_tokens} tok, no tests")
        return
    t.rows.append(f"{reply.completion_tokens} tok, {score(tests, right, wrong, t)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=8, help="problems from each sample")
    ap.add_argument("--model", default=models.DEFAULT_MODEL)
    args = ap.parse_args()
    names = list(STARTS)
    right, wrong = committed_codes()
    chosen = sample_problems(args.k, right)
    backend = LocalBackend(models.installed_path(args.model), slots=1)
    tallies = {s: Tally() for s in names}
    try:
        backend.complete([{"role": "user", "content": "hi"}], n=1, max_tokens=4)  # warm
        for i, p in enumerate(chosen):
            turn = i % len(names)
            for s in names[turn:] + names[:turn]:
                measure(
                    backend, p, STARTS[s], right[p.task_id], wrong.get(p.task_id, set()), tallies[s]
                )
            print(p.task_id, " | ".join(f"{s}: {tallies[s].rows[-1]}" for s in names), flush=True)
    finally:
        backend.close()
    print(
        f"\n{len(chosen)} problems ({args.model}, greedy, one engine slot, ended at {N_TESTS} cases)"
    )
    print_table("start", tallies, "none")


if __name__ == "__main__":
    main()
