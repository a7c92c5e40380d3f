"""The tests reply begun for the model: what starting it for the model saves, and costs.

Run: .venv/bin/python bench/tests_prefill.py [--k 8] [--model qwen2.5-coder-1.5b]
         [--variants none,fence,assert,small,examples]

Asked for assert lines, the model sometimes writes something else first (the function, a
comment) and only then the asserts, and every later step of a run waits for the tests. A chat
server that continues a trailing assistant message (llama.cpp does) can be handed the reply's
start. For the first K problems of each fixed sample in docs/BENCHMARKS.md that a committed run
solved (as bench/tests_format.py chooses them), the loop's tests prompt is sent in each variant
to one embedded engine, streamed and ended at the fifth finished case as the loop ends it
(greedy; the order turns round per problem so drift in the machine's speed falls on all).
"small" also asks for small inputs; "examples" begins the reply with the task's own examples as
assert lines (the loop trusts them already) and asks for at least 3 cases beside them, and only
the model's cases are scored. Prints per variant: seconds, generated tokens, cases kept, how
many the known-right program passes, and how many of the committed runs' known-wrong programs
the cases catch.

Measured on 2026-12-04 (`--k 8`: Mbpp/4 ... Mbpp/120 and HumanEval/0 ... HumanEval/28, 1.5B):
    start     seconds  tokens  cases        right     caught empty   time
    none        103.4    1968     80    67/80 84%    9/11        0  1.00x
    fence        96.5    1920     80    68/80 85%    9/11        0  1.07x
    assert       92.5    1769     80    70/80 88%    9/11        0  1.12x
The fence alone saves its own 3 tokens; "assert" after it also saves what 5 of the 8 MBPP+
replies wrote before their first assert (20-50 tokens each), and no case got worse. The loop
begins the reply with prompts.ASSERTS_START since then, where the backend can.

`--variants assert,examples`, the same day and problems:
    variant     seconds  tokens  cases        right     caught empty   time
    assert         99.4    1768     80    70/80 88%    9/11        0  1.00x
    examples       84.5    1414     60    52/60 87%    7/11        0  1.18x
Faster and as often right, but weaker: on HumanEval/20 the model's cases after the examples no
longer caught the two known-wrong programs, which pass the examples (and HumanEval/18 and 25
ended after 2 cases of the model's). Not adopted.

`--variants assert,small`, 2026-12-07, the same problems (a slower machine):
    variant     seconds  tokens  cases        right     caught empty   time
    assert        194.6    1812     80    64/80 80%   27/29        0  1.00x
    small         196.1    1767     80    66/80 82%   23/29        0  0.99x
The model mostly ignores the words (7 of 16 replies the same length, 6 more within 10
tokens); where it heeds them it catches fewer known-wrong programs (HumanEval/20: 1 of 5
against 5). Not adopted.
"""

from __future__ import annotations

import argparse
import time

from tests_format import Tally, committed_codes, print_table, sample_problems, score

from localcode import models, prompts
from localcode.backends.local import LocalBackend
from localcode.bench.problems import Problem
from localcode.examples import example_tests
from localcode.extract import cases_written, extract_tests
from localcode.loop import ASSERT_TOKENS_PER_CASE, N_TESTS
from localcode.task import Task, parse_task

SMALL = " Keep every input small: a few elements, short strings, small numbers."
# name -> (the reply's start, words added to the tests prompt)
VARIANTS = {
    "none": ("", ""),
    "fence": ("```python\n", ""),
    "assert": (prompts.ASSERTS_START, ""),
    "small": (prompts.ASSERTS_START, SMALL),
    "examples": ("", ""),  # begun with the task's examples: see measure()
}


def example_lines(task: Task) -> list[str]:
    """The task's own examples (those the loop trusts) as one-line asserts."""
    source = example_tests(task) or ""
    lines = [line.strip() for line in source.splitlines()]
    return [line for line in lines if line.startswith("assert ") and "approx" not in line]


def measure(
    backend: LocalBackend, problem: Problem, variant: str, right: str, wrong: set[str], t: Tally
) -> None:
    task = parse_task(problem.prompt)
    if variant == "examples":  # the reply begins with the task's own examples, then new cases
        shown = example_lines(task)
        start, more = "```python\n" + "".join(f"{line}\n" for line in shown) + "assert", ""
        total = max(N_TESTS, len(shown) + 3)
    else:
        (start, more), shown, total = VARIANTS[variant], [], N_TESTS
    messages = prompts.tests_prompt(task.text, task.entry_point, N_TESTS, "asserts")
    messages[-1] = {**messages[-1], "content": messages[-1]["content"] + more}
    t0 = time.perf_counter()
    reply = backend.complete_until(
        messages,
        until=lambda text: cases_written(text, task.entry_point, total),
        start=start,
        temperature=0.0,
        seed=0,
        max_tokens=ASSERT_TOKENS_PER_CASE * N_TESTS,
    )
    t.seconds += time.perf_counter() - t0
    t.tokens += reply.completion_tokens or 0
    written = reply.text  # only the cases the model wrote are scored
    for line in shown:
        written = written.replace(f"{line}\n", "", 1)
    tests = extract_tests(written, task.entry_point)
    if not tests:
        t.empty += 1
        t.rows.append(f"{reply.completion_tokens} tok, no tests")
        return
    t.rows.append(f"{reply.completion_tokens} tok, {score(tests, right, wrong, t)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=8, help="problems from each sample")
    ap.add_argument("--model", default=models.DEFAULT_MODEL)
    ap.add_argument("--variants", default="none,fence,assert", help=f"of {', '.join(VARIANTS)}")
    args = ap.parse_args()
    names = args.variants.split(",")
    right, wrong = committed_codes()
    chosen = sample_problems(args.k, right)
    backend = LocalBackend(models.installed_path(args.model), slots=1)
    tallies = {s: Tally() for s in names}
    try:
        backend.complete([{"role": "user", "content": "hi"}], n=1, max_tokens=4)  # warm
        for i, p in enumerate(chosen):
            turn = i % len(names)
            for s in names[turn:] + names[:turn]:
                measure(backend, p, s, right[p.task_id], wrong.get(p.task_id, set()), tallies[s])
            print(p.task_id, " | ".join(f"{s}: {tallies[s].rows[-1]}" for s in names), flush=True)
    finally:
        backend.close()
    print(
        f"\n{len(chosen)} problems ({args.model}, greedy, one engine slot, ended at {N_TESTS} cases)"
    )
    print_table("variant", tallies, names[0])


if __name__ == "__main__":
    main()
