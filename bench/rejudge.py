"""Judge the final codes of a committed results file on another problem file's hidden tests.

A run's answers, once committed, can be held to stronger tests without running the model again:
e.g. the HumanEval answers of an earlier commit on HumanEval+'s extra inputs.

    .venv/bin/python bench/rejudge.py docs/bench/humaneval164-qwen1.5b-bd750f4/results.jsonl \
        --problems ../shared/bench/humaneval_plus.jsonl [--ids HumanEval/0,HumanEval/2]

Prints, per strategy: problems, hidden passes, claimed passes, and claims the new tests refute.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

from localcode.bench.judge import judge
from localcode.bench.problems import load_problems
from localcode.sandbox import Limits


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("results", help="a results.jsonl of `localcode bench`")
    p.add_argument("--problems", required=True, help="JSONL problems whose tests judge")
    p.add_argument("--ids", default="", help="comma-separated task ids (default: all in both)")
    args = p.parse_args()
    problems = {q.task_id: q for q in load_problems(args.problems)}
    wanted = {i.strip() for i in args.ids.split(",") if i.strip()}
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    with open(args.results, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    for row in rows:
        problem = problems.get(row["task_id"])
        if problem is None or (wanted and row["task_id"] not in wanted):
            continue
        passed = judge(problem, row["final_code"], Limits()).all_passed
        t = tally[row["strategy"]]
        t[0] += 1
        t[1] += passed
        t[2] += row["self_reported"] is True
        t[3] += row["self_reported"] is True and not passed
    print(f"{'strategy':<12} {'problems':>8} {'pass':>6} {'claimed':>8} {'false claims':>13}")
    for name, (n, ok, claimed, false) in sorted(tally.items()):
        print(f"{name:<12} {n:>8} {ok:>6} {claimed:>8} {false:>13}")


if __name__ == "__main__":
    main()
