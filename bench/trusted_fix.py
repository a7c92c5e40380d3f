"""Fixes where the loop's answer fails the task's own examples: would a fix round mend it?

Run: .venv/bin/python bench/trusted_fix.py --problems ../shared/bench/humaneval_plus.jsonl
         --run docs/bench/heplus164-qwen1.5b-7c96169/results.jsonl
         --out runs/trusted-fix/heplus164.jsonl [--model qwen2.5-coder-1.5b]

A task alone gets fresh samples in later rounds (--later-rounds auto): fixes of this model's own
wrong code almost never passed (bench/fix_prompt_ab.py: 0 of 60 wrong greedy replies of
HumanEval+, fed their hidden failures). That measured code that was wrong in ways the task's
examples do not show. Here the cases are a committed bench run's localcode answers that were
already failing one of the task's own examples after round 0, and still wrong at the end (so the
loop's fresh rounds did not mend them): the examples are the task's words, and a failure of one
("expected [5, 2, 0, 2], got 2") says what to change. Each case's final code, with the failures
of the task's examples (as the loop labels them, "task example test_example_1 failed:"), goes to
prompts.fix_prompt; one greedy reply (bench/wording_ab.py, one engine slot) is judged on the
hidden tests. Prints which cases the fix passed.

Measured (docs/bench/trusted-fix/, 1.5B): 0 of 18 fixed - HumanEval+ 164 at 7c96169, 11 cases
(19.7 s, 67 tokens a reply); MBPP+ 120 at c2c5d7b, 6 (11.3 s, 38); the 28 user-style tasks at
1fc22c2, 1 (clamp_balance: the task's example wants the list of running balances, the code
returns the last one; the fix reply gave back the same code, unchanged). A round of fixes where
the best fails the task's own example would not have mended one of these: later rounds stay
fresh samples for a task alone.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

from wording_ab import Prompt, run_from_results

from localcode import prompts
from localcode.bench.problems import Problem
from localcode.examples import example_tests
from localcode.prompts import Message
from localcode.sandbox import Limits, run_tests
from localcode.task import parse_task, with_preamble

WORDINGS = ("fix",)


def fix(name: str, p: Problem, code: str, failures: str) -> list[Message]:
    """The loop's fix prompt for `code` (one wording: `name` is "fix")."""
    return prompts.fix_prompt(
        parse_task(p.prompt, p.entry_point).text, p.entry_point, code, failures
    )


def example_failures(p: Problem, code: str) -> str:
    """What the task's examples report for `code`, labelled as the loop labels them."""
    task = parse_task(p.prompt, p.entry_point)
    tests = example_tests(task)
    run = run_tests(with_preamble(task, code), tests, Limits(timeout=5.0)) if tests else None
    parts = [f"task example {r.name} failed:\n{r.message}" for r in run.failures()] if run else []
    if run is not None and run.error:
        parts.insert(0, f"Error: {run.error}")
    return prompts.trim_feedback("\n\n".join(parts), prompts.MAX_FEEDBACK_CHARS)


def cases(problems: list[Problem], run: Path) -> list[tuple[str, Problem, Prompt]]:
    """One case per problem whose localcode answer in `run` failed a task example after round
    0 and the hidden tests at the end."""
    by_id = {p.task_id: p for p in problems}
    out: list[tuple[str, Problem, Prompt]] = []
    for line in run.read_text().splitlines():
        r = json.loads(line)
        history = r.get("history") or []
        if (
            r.get("strategy") != "localcode"
            or r.get("hidden_passed")
            or r["task_id"] not in by_id
            or not history
            or history[0].get("trusted") is not False
        ):
            continue
        p, code = by_id[r["task_id"]], (r.get("final_code") or "").strip()
        failures = example_failures(p, code) if code else ""
        if failures:
            out.append((p.task_id, p, partial(fix, p=p, code=code, failures=failures)))
    return out


def main() -> None:
    run_from_results(
        __doc__ or "",
        cases,
        WORDINGS,
        "no localcode answer in {run} failed a task example and stayed wrong.",
        "answers failing a task example, fixed by {model}",
    )


if __name__ == "__main__":
    main()
