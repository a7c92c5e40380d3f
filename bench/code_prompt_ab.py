"""The code prompt's wording, measured: today's shared-prefix wording against the one before it.

Run: .venv/bin/python bench/code_prompt_ab.py --problems ../shared/bench/humaneval_plus.jsonl
         --out runs/code-prompt-ab/heplus.jsonl [--ids A,B,...] [--model qwen2.5-coder-1.5b]

9bafddc moved every prompt's instruction after the task, behind one system line all of a task's
prompts share, so that a backend reads that beginning once ("shared"). Before it, the code
prompt's instruction was its own system message ("system"). Both ask for the same thing in
other words. On the first 132 HumanEval+ problems, one greedy reply passed 86 of them after the
change, 90 before, a hint worth a measurement of its own. This sends each problem's code prompt
in both wordings to one embedded engine, greedily (one request at a time, so the reply does not
depend on what else is in flight), the order turned round per problem, and judges each reply on
the problem's hidden tests in the sandbox. Prints, per wording: hidden passes, seconds and
generated tokens; and the problems on which the two differ. Each problem's result is appended to
--out as it comes, and a rerun with the same --out skips the problems already there.

Measured on 2026-12-07 (1.5B; HumanEval+ all 164, MBPP+ the 120 of $IDS120 in docs/BENCHMARKS.md):
    HumanEval+ 164   shared 102   system 109   only shared: 88, 157; only system: 9, 17, 20,
                                               39, 67, 68, 77, 98, 122
    MBPP+ 120        shared  69   system  71   only shared: 59, 599; only system: 432, 741, 742, 777
13 problems one way, 4 the other (a sign test: p = 0.05); "system" also wrote fewer tokens on
MBPP+ (52 against 60 a reply). The code prompt keeps its instruction in its own system message
since (prompts.CODE_SYSTEM, the "system" wording here).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wording_ab import report, run_cases

from localcode import prompts
from localcode.bench.problems import load_problems, select_problems
from localcode.errors import LocalCodeError
from localcode.prompts import Message


def wording(name: str, task: str, entry_point: str | None) -> list[Message]:
    """The wording by name. "system": today's code prompt; "shared": the task prefix the other
    prompts begin with, then the same request with the reply's form after it (9bafddc's)."""
    if name == "system":
        return prompts.code_prompt(task, entry_point)
    system, user = prompts.task_prefix(task)
    named = f" The function must be named `{entry_point}`." if entry_point else ""
    ask = f"Write the Python code.{named} {prompts.CODE_ASK}"
    return [system, {**user, "content": user["content"] + ask}]


WORDINGS = ("shared", "system")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--problems", required=True, type=Path)
    ap.add_argument("--ids", default="", help="comma-separated task ids (default: all)")
    ap.add_argument("--out", required=True, type=Path, help="JSONL, appended to and resumed")
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--max-tokens", type=int, default=1024)
    args = ap.parse_args()
    try:
        chosen = select_problems(
            load_problems(args.problems), [i for i in args.ids.split(",") if i]
        )
    except LocalCodeError as e:  # a wrong --problems path or --ids: one line, no traceback
        sys.exit(f"error: {e}")
    cases = [
        (p.task_id, p, lambda name, p=p: wording(name, p.prompt, p.entry_point)) for p in chosen
    ]
    rows = run_cases(cases, WORDINGS, args.out, args.model, args.max_tokens)
    report(rows, WORDINGS, f"problems, {args.model}")


if __name__ == "__main__":
    main()
