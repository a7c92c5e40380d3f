"""How often the judge's verdicts are right: the value-only question against one that lets the
model work the call out first, on disputes the committed runs really judged.

Run: .venv/bin/python bench/judge_prompt.py [--limit 40] [--seed 0] docs/bench/*/results.jsonl

Reads every `judged:` note of the localcode rows (a call, what each side returned or a generated
test expects, the model's answer). The right value of the call comes from a program that
passes the problem's hidden tests (a final code of any strategy in the files read), run in the
sandbox on that call alone; a dispute with no such program, or where it raises, is left out.
Each dispute is asked of the 1.5B model both ways, one after the other, alternating which goes
first:
- value: the loop's question (prompts.judge_prompt), greedy, JUDGE_TOKENS (48): "Answer with
  the value only";
- worked: the same question, but the model works the call out by hand in up to 5 short lines
  ("Do not write any code": asked only to work it out, the 1.5B wrote a solution) and ends with
  `Answer: <value>` (greedy, 256 tokens); what follows the last `Answer:` is the answer.
A verdict is right when the answer matches the side that returns the right value, wrong when it
matches the other side, none otherwise (as disputes.judge decides). Prints the tallies and the
seconds a question, per way.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from collections import Counter, defaultdict
from functools import partial
from pathlib import Path

from localcode import AgentConfig, disputes, prompts
from localcode.backends import Backend, Message, create_backend, provider
from localcode.bench.problems import Problem, load_problems
from localcode.loop import JUDGE_TOKENS
from localcode.probes import probe_tests, shown
from localcode.sandbox import Limits, run_tests

_NOTE = re.compile(
    r"^judged: (?P<call>.+?): (?P<a>r\d+c\d+|test\w*) (?:returns|expects) (?P<x>.+?); "
    r"(?P<b>r\d+c\d+|test\w*) (?:returns|expects) (?P<y>.+?); the model says .*$"
)
# the other way to ask: the model works the call out before it answers; asked only to "work
# it out", the 1.5B wrote a solution instead, hence "Do not write any code"
WORK = (
    "Do not write any code. Compute the result of this one call by hand, in at most 5 short "
    "lines, then end with one line `Answer: <the value>`."
)
WORK_TOKENS = 256
FILES = {
    "Mbpp": "../shared/bench/mbpp_plus_dev.jsonl",
    "HumanEval": "../shared/bench/humaneval_plus.jsonl",
}


def disputes_in(paths: list[Path]) -> tuple[list[tuple[str, str, str, str]], dict[str, str]]:
    """(task id, call, one side's output, the other's) of every judged note, once each, and a
    program per task id that passes the hidden tests."""
    found: dict[tuple[str, str], tuple[str, str, str, str]] = {}
    oracle: dict[str, str] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else None
            if not row:
                continue
            if row.get("hidden_passed") and row.get("final_code"):
                oracle.setdefault(row["task_id"], row["final_code"])
            for note in row.get("notes") or []:
                m = _NOTE.match(note)
                if m and row["strategy"] == "localcode":
                    key = (row["task_id"], m["call"])
                    found.setdefault(key, (row["task_id"], m["call"], m["x"], m["y"]))
    return sorted(found.values()), oracle


def truth(problem: Problem, code: str, call: str) -> str | None:
    """What the right program returns for the call (as the probes show it), or None."""
    source = probe_tests([call], problem.entry_point)
    if source is None:
        return None
    run = run_tests(code, source, Limits(timeout=5.0))
    got = shown(run).get("test_probe_1")
    return None if got is None or got.startswith("raises ") else got


def ask_value(backend: Backend, messages: list[Message]) -> str:
    reply = backend.complete(messages, n=1, temperature=0.0, max_tokens=JUDGE_TOKENS)[0]
    return reply.text


def ask_worked(backend: Backend, messages: list[Message]) -> str:
    """The reply after its last `Answer:` (nothing where it has none)."""
    content = messages[-1]["content"]
    assert content.endswith(prompts.JUDGE_ASK), "a task that names an exception: another ask"
    last = {**messages[-1], "content": content.replace(prompts.JUDGE_ASK, WORK)}
    reply = backend.complete([*messages[:-1], last], n=1, temperature=0.0, max_tokens=WORK_TOKENS)
    *before, answer = re.split(r"\bAnswer\s*:", reply[0].text, flags=re.I)
    return answer.strip() if before else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", type=Path)
    parser.add_argument("--limit", type=int, default=40, help="disputes asked (a fixed sample)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--show", action="store_true", help="print each answer")
    args = parser.parse_args()
    found, oracle = disputes_in(args.results)
    problems = {p.task_id: p for f in FILES.values() for p in load_problems(f)}
    known: list[tuple[Problem, str, str, str, str]] = []
    for task_id, call, x, y in found:
        p, code = problems.get(task_id), oracle.get(task_id)
        if p is None or code is None:
            continue
        want = truth(p, code, call)
        if want is not None and any(
            disputes._matches(want, side, disputes._loosely_equal) for side in (x, y)
        ):
            known.append((p, call, x, y, want))
    random.Random(args.seed).shuffle(known)
    print(f"{len(found)} judged disputes, {len(known)} with the right value known and one side's")
    known = known[: args.limit]
    backend = create_backend(AgentConfig(options=provider("local").options({"model": args.model})))
    tally: dict[str, Counter[str]] = {way: Counter() for way in ("value", "worked")}
    seconds: dict[str, float] = defaultdict(float)
    try:
        for i, (p, call, x, y, want) in enumerate(known):
            right = "a" if disputes._matches(want, x, disputes._loosely_equal) else "b"
            order = [("value", ask_value), ("worked", ask_worked)]
            for way, ask in order if i % 2 == 0 else order[::-1]:
                t0 = time.monotonic()
                d = disputes.judge(p.prompt, call, "a", x, "b", y, partial(ask, backend))
                seconds[way] += time.monotonic() - t0
                tally[way][
                    "none" if d.winner is None else "right" if d.winner == right else "wrong"
                ] += 1
                if args.show:
                    print(f"    {way}: {d.answer[:100]!r} (right: {want[:60]})")
            print(
                f"  {p.task_id} {call[:60]}: value {tally['value']}, worked {tally['worked']}",
                flush=True,
            )
    finally:
        backend.close()
    for way, t in tally.items():
        n = sum(t.values()) or 1
        print(
            f"{way:7s} right {t['right']:3d}  wrong {t['wrong']:3d}  none {t['none']:3d}  "
            f"({t['right'] / n:.0%} right, {t['wrong'] / n:.0%} wrong)  {seconds[way] / n:.1f} s a question"
        )


if __name__ == "__main__":
    main()
