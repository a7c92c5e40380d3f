"""Shared by the prompt-wording A/B scripts (code_prompt_ab.py, fix_prompt_ab.py): one embedded
engine with one slot, each case's prompt sent in every wording greedily (one request at a time,
so a reply does not depend on what else is in flight), the order of the wordings turned round per
case so drift in the machine's speed falls on all, each reply judged on the problem's hidden
tests. Results are appended to a JSONL file as they come, and a rerun with the same file skips
the cases already there.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from localcode import models
from localcode.backends.local import LocalBackend
from localcode.bench.judge import judge
from localcode.bench.problems import Problem, load_problems
from localcode.errors import LocalCodeError
from localcode.extract import extract_code
from localcode.prompts import Message
from localcode.sandbox import Limits

Prompt = Callable[[str], list[Message]]  # a case's prompt, by wording name
# a script's cases: (problems, a bench run's results.jsonl) -> (id, problem, prompt) each
Cases = Callable[[list[Problem], Path], list[tuple[str, Problem, Prompt]]]


def measure(
    backend: LocalBackend, p: Problem, messages: list[Message], max_tokens: int
) -> dict[str, Any]:
    """One greedy reply, its code judged on the hidden tests."""
    t0 = time.perf_counter()
    reply = backend.complete(messages, n=1, temperature=0.0, seed=0, max_tokens=max_tokens)[0]
    seconds = time.perf_counter() - t0
    code = extract_code(reply.text, p.entry_point) if not reply.error else ""
    run = judge(p, code, Limits(timeout=5.0))
    return {
        "passed": run.all_passed,
        "seconds": round(seconds, 2),
        "tokens": reply.completion_tokens,
    }


def run_cases(
    cases: Sequence[tuple[str, Problem, Prompt]],
    wordings: Sequence[str],
    out: Path,
    model: str,
    max_tokens: int,
) -> list[dict[str, Any]]:
    """Every case (task id, problem, prompt by wording) measured in every wording, resumed from
    `out`; returns the rows of `cases`, in their order."""
    out.parent.mkdir(parents=True, exist_ok=True)
    done: dict[str, dict[str, Any]] = {}
    if out.exists():
        for line in out.read_text().splitlines():
            kept = json.loads(line)
            done[kept["task_id"]] = kept
    todo = [c for c in cases if c[0] not in done]
    if todo:
        backend = LocalBackend(models.installed_path(model), slots=1)
        try:
            backend.complete([{"role": "user", "content": "hi"}], n=1, max_tokens=4)  # warm
            with out.open("a") as f:
                for i, (key, problem, prompt) in enumerate(todo):
                    k = i % len(wordings)
                    row: dict[str, Any] = {"task_id": key}
                    for name in [*wordings[k:], *wordings[:k]]:
                        row[name] = measure(backend, problem, prompt(name), max_tokens)
                    f.write(json.dumps(row) + "\n")
                    f.flush()
                    done[key] = row
                    print(key, json.dumps({w: row[w] for w in wordings}), flush=True)
        finally:
            backend.close()
    return [done[c[0]] for c in cases]


def report(rows: Sequence[dict[str, Any]], wordings: Sequence[str], what: str) -> None:
    """Per wording: passes, seconds and tokens a reply; then the cases only one passed."""
    print(f"\n{len(rows)} {what}, greedy, one engine slot")
    print(f"  {'wording':<8} {'pass':>5} {'s/reply':>8} {'tokens':>7}")
    for name in wordings:
        got = [r[name] for r in rows]
        passed = sum(bool(g["passed"]) for g in got)
        secs = sum(float(g["seconds"]) for g in got) / max(1, len(got))
        toks = sum(int(g["tokens"] or 0) for g in got) / max(1, len(got))
        print(f"  {name:<8} {passed:>5} {secs:>8.1f} {toks:>7.0f}")
    for a in wordings:
        for b in wordings:
            if a == b:
                continue
            only = [
                str(r["task_id"]).split("/")[-1]
                for r in rows
                if r[a]["passed"] and not r[b]["passed"]
            ]
            print(f"  {a} passes, {b} fails: {len(only)} {', '.join(only)}")


def run_from_results(
    doc: str, cases: Cases, wordings: Sequence[str], none_found: str, what: str
) -> None:
    """The command line of a script whose cases come from a bench run: `--problems`, `--run`
    (its results.jsonl), `--out` (resumed), `--model`, `--max-tokens`; runs every case in
    every wording and prints the report. `none_found` is the error where `cases` finds none,
    with `{run}` and `{problems}` filled in."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--problems", required=True, type=Path)
    ap.add_argument("--run", required=True, type=Path, help="a bench run's results.jsonl")
    ap.add_argument("--out", required=True, type=Path, help="JSONL, appended to and resumed")
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--max-tokens", type=int, default=1024)
    args = ap.parse_args()
    try:
        problems = load_problems(args.problems)
        if not args.run.is_file():
            raise LocalCodeError(f"--run: no file {args.run} (a bench run's results.jsonl).")
        chosen = cases(problems, args.run)
    except LocalCodeError as e:  # one line, no traceback
        sys.exit(f"error: {e}")
    if not chosen:
        sys.exit("error: " + none_found.format(run=args.run, problems=args.problems))
    print(f"{len(chosen)} cases: {', '.join(c[0] for c in chosen)}", flush=True)
    rows = run_cases(chosen, wordings, args.out, args.model, args.max_tokens)
    report(rows, wordings, what.format(model=args.model))
