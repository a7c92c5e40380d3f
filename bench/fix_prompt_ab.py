"""The fix prompt's wording, measured: its instruction after the shared task (today) against its
own system line, as the code prompt has had since c2c5d7b.

Run: .venv/bin/python bench/fix_prompt_ab.py --problems ../shared/bench/humaneval_plus.jsonl
         --run docs/bench/heplus164-qwen1.5b-f6a6daa/results.jsonl
         --out runs/fix-prompt-ab/heplus164.jsonl [--model qwen2.5-coder-1.5b]

The loop asks for fixes in later rounds of "fix" or "mixed" (`--code`, `--later-rounds`), with
the best candidate's code and its failures. Here the code to fix is a committed bench run's
greedy reply wherever it failed the hidden tests (real mistakes of the same model, not planted
ones), and its failures are what the hidden tests reported for it, as the loop reports a failed
test ("test_hidden failed:" and the message). Each case's fix prompt is sent in both wordings
(bench/wording_ab.py: one engine slot, greedy, the order turned round per case) and the reply is
judged on the hidden tests. "shared": prompts.fix_prompt, the task behind the system line every
prompt but the code prompt begins with, then the code, the failures and the instruction.
"system": the reply's form (prompts.FIX_ASK) in the system message, then the same task, code,
failures and request. The failure shown comes from the hidden tests, so a fix may pass more
often than in the loop, where only generated tests speak; both wordings see the same.

Measured (docs/bench/fix-prompt-ab/, the 60 wrong greedy replies of HumanEval+ 164 at f6a6daa):
"shared" fixed 0, "system" 2 (HumanEval/6, 70), at 1.2x the time a reply (19.3 s against 15.9)
and 1.5x the tokens (171 against 112). Not adopted: 2 cases in 60 is no evidence either way,
and the longer replies cost time in every fix round. Fixes of this model's own wrong replies
almost never pass, however worded: it bears out that a task alone gets fresh samples in later
rounds (`--code` still gets half fixes: fixes of your code were not measured here).
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

from wording_ab import Prompt, run_from_results

from localcode import prompts
from localcode.bench.problems import Problem
from localcode.prompts import Message
from localcode.task import parse_task

WORDINGS = ("shared", "system")


def wording(name: str, p: Problem, code: str, failures: str) -> list[Message]:
    """The fix prompt for `code` in the wording `name` (see the module's docstring)."""
    task = parse_task(p.prompt, p.entry_point).text
    shared = prompts.fix_prompt(task, p.entry_point, code, failures)
    if name == "shared":
        return shared
    ask = f" {prompts.FIX_ASK}"
    user = shared[-1]["content"]
    assert user.endswith(ask), "prompts.fix_prompt no longer ends with FIX_ASK"
    return [
        {"role": "system", "content": f"{prompts.SYSTEM} {prompts.FIX_ASK}"},
        {"role": "user", "content": user[: -len(ask)]},
    ]


def cases(problems: list[Problem], run: Path) -> list[tuple[str, Problem, Prompt]]:
    """One case per problem whose greedy reply in `run` failed the hidden tests."""
    by_id = {p.task_id: p for p in problems}
    out: list[tuple[str, Problem, Prompt]] = []
    for line in run.read_text().splitlines():
        r = json.loads(line)
        if r.get("strategy") != "greedy" or r.get("hidden_passed") or r["task_id"] not in by_id:
            continue
        code, detail = (r.get("final_code") or "").strip(), (r.get("hidden_detail") or "").strip()
        if not code or not detail:
            continue
        p = by_id[r["task_id"]]
        failures = f"test_hidden failed:\n{detail}"
        out.append((p.task_id, p, partial(wording, p=p, code=code, failures=failures)))
    return out


def main() -> None:
    run_from_results(
        __doc__ or "",
        cases,
        WORDINGS,
        "no greedy reply in {run} failed the hidden tests of {problems}.",
        "wrong greedy replies to fix, {model}",
    )


if __name__ == "__main__":
    main()
