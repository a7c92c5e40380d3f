"""The tests prompt in two styles: test_case functions written out, or one assert line per case.

Run: .venv/bin/python bench/tests_format.py [--k 10] [--model qwen2.5-coder-1.5b]

For the first K problems of each fixed sample in docs/BENCHMARKS.md ($IDS, MBPP+; $HEIDS,
HumanEval+) that a committed run solved (a final code that passed the hidden tests), the loop's
tests prompt is sent in both styles to one embedded engine (greedy, as the loop asks; the order
alternates per problem so drift in the machine's speed falls on both). Prints per style: seconds
and generated tokens, the test cases written, how many of them the known-right program passes
(a case it fails asserts a wrong value), and how many of the committed runs' known-wrong programs
fail at least one case (the tests catch them).

Measured on 2026-12-02 (`--k 8`: Mbpp/4 ... Mbpp/120 and HumanEval/0 ... HumanEval/28, 1.5B):
    style       seconds  tokens  cases        right     caught empty   time
    functions     472.4    4062     75    64/75 85%    6/8         1  1.00x
    asserts       274.8    1984     80    66/80 82%    8/10        0  1.72x
The loop asks a function's tests as assert lines since then.
"""

from __future__ import annotations

import argparse
import glob
import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from localcode import models, prompts
from localcode.backends.local import LocalBackend
from localcode.bench.problems import Problem, load_problems
from localcode.extract import extract_tests
from localcode.sandbox import Limits, run_tests
from localcode.task import parse_task

ROOT = Path(__file__).resolve().parent.parent
STYLES = ("functions", "asserts")


@dataclass
class Tally:
    seconds: float = 0.0
    tokens: int = 0
    cases: int = 0
    right: int = 0  # cases the known-right program passes
    wrong_programs: int = 0
    caught: int = 0  # known-wrong programs failing at least one case
    empty: int = 0  # replies with no test in them
    rows: list[str] = field(default_factory=list)


def sample_ids(name: str) -> list[str]:
    text = (ROOT / "docs" / "BENCHMARKS.md").read_text()
    found = re.search(rf"^{name}=(\S+)$", text, re.M)
    if not found:
        raise SystemExit(f"{name}= not found in docs/BENCHMARKS.md")
    return found.group(1).split(",")


def sample_problems(k: int, solved: Mapping[str, str] | None = None) -> list[Problem]:
    """The first k problems of each fixed sample ($IDS, MBPP+; $HEIDS, HumanEval+), only those
    in `solved` when it is given."""
    chosen: list[Problem] = []
    for file, name in (("mbpp_plus_dev.jsonl", "IDS"), ("humaneval_plus.jsonl", "HEIDS")):
        by_id = {p.task_id: p for p in load_problems(str(ROOT.parent / "shared" / "bench" / file))}
        ids = [i for i in sample_ids(name) if i in by_id and (solved is None or i in solved)]
        chosen += [by_id[i] for i in ids[:k]]
    return chosen


def committed_codes() -> tuple[dict[str, str], dict[str, set[str]]]:
    """Per task: one final code that passed the hidden tests, and every distinct one that did not."""
    right: dict[str, str] = {}
    wrong: dict[str, set[str]] = {}
    for path in sorted(glob.glob(str(ROOT / "docs" / "bench" / "*" / "results.jsonl"))):
        for line in Path(path).read_text().splitlines():
            row = json.loads(line)
            code = row.get("final_code") or ""
            if not code.strip():
                continue
            if row.get("hidden_passed"):
                right.setdefault(row["task_id"], code)
            else:
                wrong.setdefault(row["task_id"], set()).add(code)
    return right, wrong


def score(tests: str, right: str, wrong: set[str], t: Tally) -> str:
    """Tally the cases of one tests reply: those the known-right program passes, and the
    known-wrong programs they catch. Returns the row's text."""
    run = run_tests(right, tests, Limits())
    caught = sum(1 for code in wrong if not run_tests(code, tests, Limits()).all_passed)
    t.cases += run.total
    t.right += run.passed
    t.wrong_programs += len(wrong)
    t.caught += caught
    return f"{run.passed}/{run.total} right, caught {caught}/{len(wrong)}"


def print_table(column: str, tallies: Mapping[str, Tally], base: str, last: str = "empty") -> None:
    """One row per variant; time is the base variant's seconds over each one's."""
    print(
        f"{column:10} {'seconds':>8} {'tokens':>7} {'cases':>6} {'right':>12} {'caught':>10} "
        f"{last:>5} {'time':>6}"
    )
    for name, t in tallies.items():
        share = f"{t.right}/{t.cases} {100 * t.right / max(1, t.cases):.0f}%"
        ratio = tallies[base].seconds / t.seconds if t.seconds else 0.0
        print(
            f"{name:10} {t.seconds:8.1f} {t.tokens:7d} {t.cases:6d} {share:>12} "
            f"{t.caught:>4}/{t.wrong_programs:<5} {t.empty:5d} {ratio:5.2f}x"
        )


def measure(
    backend: LocalBackend, problem: Problem, style: str, right: str, wrong: set[str], t: Tally
) -> None:
    task = parse_task(problem.prompt)
    messages = prompts.tests_prompt(task.text, task.entry_point, 5, style)
    t0 = time.perf_counter()
    reply = backend.complete(messages, n=1, temperature=0.0, seed=0, max_tokens=1024)[0]
    t.seconds += time.perf_counter() - t0
    t.tokens += reply.completion_tokens or 0
    tests = extract_tests(reply.text, task.entry_point)
    if not tests:
        t.empty += 1
        t.rows.append(f"{problem.task_id}: no tests")
        return
    t.rows.append(
        f"{problem.task_id}: {reply.completion_tokens} tokens, {score(tests, right, wrong, t)}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=10, help="problems from each sample")
    ap.add_argument("--model", default=models.DEFAULT_MODEL)
    args = ap.parse_args()
    right, wrong = committed_codes()
    chosen = sample_problems(args.k, right)
    backend = LocalBackend(models.installed_path(args.model), slots=1)
    tallies = {s: Tally() for s in STYLES}
    try:
        backend.complete([{"role": "user", "content": "hi"}], n=1, max_tokens=4)  # warm
        for i, p in enumerate(chosen):
            order = STYLES if i % 2 == 0 else STYLES[::-1]
            for style in order:
                measure(
                    backend, p, style, right[p.task_id], wrong.get(p.task_id, set()), tallies[style]
                )
            print(p.task_id, " | ".join(f"{s}: {tallies[s].rows[-1]}" for s in STYLES), flush=True)
    finally:
        backend.close()
    print(f"\n{len(chosen)} problems ({args.model}, greedy, one engine slot)")
    print_table("style", tallies, "functions")


if __name__ == "__main__":
    main()
