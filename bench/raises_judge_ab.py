"""The judge's question for a task that says a call raises: the value-only question every task
gets (prompts.JUDGE_ASK, today) against one that goes on "If the task says the call raises an
exception here, answer with the exception's name instead." (RAISES, below; tried, not adopted).

Run: .venv/bin/python bench/raises_judge_ab.py docs/bench/task-trials/judge_questions.jsonl
         docs/bench/task-trials/tasks [--model qwen2.5-coder-1.5b]

Each line of the questions file names a task of the tasks folder (NAME.txt), a call (for a
class, its statements joined by "; ", as the probes write a sequence) and what it does by the
task: a value, or "raises SomeError". Each question is asked both ways, greedy, one engine slot,
JUDGE_TOKENS, the order turned round per question. An answer is right as disputes.judge would
count it for a side with that output (a value that compares equal; for a raise, the exception's
name as a word). Prints, per way, the answers right on calls that raise and on calls that
return, and the seconds a question.

Measured (docs/bench/task-trials/raises-judge-ab.log, 22 questions, 11 on calls that raise):
"raises" right on 3 raising calls and 7 returning ones, "value" on 2 and 7, at 2.6 s a question
against 1.3. Not adopted: the 1.5B answers None, 0 or a value for most calls the task says
raise, however asked.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from localcode import models, prompts
from localcode.backends.local import LocalBackend
from localcode.disputes import _loosely_equal, _matches
from localcode.loop import JUDGE_TOKENS

WAYS = ("raises", "value")
RAISES = (
    " If the task says the call raises an exception here, answer with the exception's name instead."
)


def question(way: str, task: str, call: str) -> list[prompts.Message]:
    asked = prompts.judge_prompt(task, call)
    if way == "value":
        return asked
    content = asked[-1]["content"]
    assert content.endswith(prompts.JUDGE_ASK), "prompts.judge_prompt no longer ends with JUDGE_ASK"
    return [*asked[:-1], {**asked[-1], "content": content + RAISES}]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("questions", type=Path)
    ap.add_argument("tasks", type=Path)
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    args = ap.parse_args()
    rows = [json.loads(line) for line in args.questions.read_text().splitlines() if line.strip()]
    tally = {w: {"raise": 0, "value": 0, "seconds": 0.0} for w in WAYS}
    n_raise = sum(r["right"].startswith("raises ") for r in rows)
    backend = LocalBackend(models.installed_path(args.model), slots=1)
    try:
        backend.complete([{"role": "user", "content": "hi"}], n=1, max_tokens=4)  # warm
        for i, r in enumerate(rows):
            task = (args.tasks / f"{r['task']}.txt").read_text()
            k = i % len(WAYS)
            answers = {}
            for way in [*WAYS[k:], *WAYS[:k]]:
                t0 = time.perf_counter()
                reply = backend.complete(
                    question(way, task, r["call"]),
                    n=1,
                    temperature=0.0,
                    seed=0,
                    max_tokens=JUDGE_TOKENS,
                )[0]
                tally[way]["seconds"] += time.perf_counter() - t0
                answer = reply.text.strip()
                right = _matches(answer, r["right"], _loosely_equal)
                kind = "raise" if r["right"].startswith("raises ") else "value"
                tally[way][kind] += right
                answers[way] = (right, " ".join(answer.split())[:60])
            print(f"{r['call'][:50]:<50} {r['right']:<20} {json.dumps(answers)}", flush=True)
    finally:
        backend.close()
    print(f"\n{len(rows)} questions ({n_raise} on calls that raise), greedy, one engine slot")
    for way in WAYS:
        t = tally[way]
        print(
            f"  {way:<7} right on raising calls {t['raise']} of {n_raise}, on returning calls "
            f"{t['value']} of {len(rows) - n_raise}; {t['seconds'] / len(rows):.1f} s a question"
        )


if __name__ == "__main__":
    main()
