"""What reading a task's prompt prefix once saves: the first step of a run, shared and not.

Run: .venv/bin/python bench/prefix_sharing.py [--model qwen2.5-coder-1.5b] [--problems FILE]
     [--tasks 3] [--repeats 2] [--max-tokens 150]

The first step of a run sends its prompts at once, one per slot: the tests, the greedy code, the
brute-force reference and a sampled code. Every one begins with the task (prompts.task_prefix).
"unshared" sends them to idle slots as they are; "shared" first calls LocalBackend.share_prefix,
which reads the prefix in one slot and copies its state into the others. Each task is measured
in both ways, alternately, `--repeats` times; each measurement gets its own copy of the task (a
different last line), so no measurement reuses a cache that an earlier one filled. Figures are
wall seconds for the whole step, share_prefix included, and prompt tokens read as the server
reports them (the rest comes from a slot's cache).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from localcode import models, prompts
from localcode.backends.base import Message
from localcode.backends.local import LocalBackend
from localcode.cli import DEFAULT_TASK

DEFAULT_PROBLEMS = Path(__file__).resolve().parents[2] / "shared/bench/humaneval_plus.jsonl"


@dataclass
class Step:
    mode: str
    wall_s: float
    read: int  # prompt tokens the server processed, over all prompts
    total: int  # prompt tokens over all prompts


def load_tasks(path: Path, k: int) -> list[tuple[str, str | None]]:
    """The CLI's default task, then the first k-1 problems of `path` (when it exists)."""
    tasks: list[tuple[str, str | None]] = [(DEFAULT_TASK, None)]
    if path.is_file():
        with path.open() as fh:
            for line in fh:
                if len(tasks) >= k:
                    break
                row = json.loads(line)
                tasks.append((row["prompt"], row.get("entry_point")))
    return tasks[:k]


def first_step(task: str, entry: str | None) -> list[tuple[list[Message], float]]:
    code = prompts.code_prompt(task, entry)
    return [
        (prompts.tests_prompt(task, entry), 0.0),
        (code, 0.0),
        (prompts.reference_prompt(task, entry), 0.0),
        (code, 0.8),
    ]


def measure(
    backend: LocalBackend, task: str, entry: str | None, shared: bool, k: int, max_tokens: int
) -> Step:
    task = f"{task.rstrip()}\n# measurement {k}\n"  # a prefix no cache has seen
    step = first_step(task, entry)
    t0 = time.perf_counter()
    if shared:
        backend.share_prefix(prompts.task_prefix(task))
    with ThreadPoolExecutor(len(step)) as pool:
        replies = list(pool.map(lambda p: _ask(backend, p[0], p[1], k, max_tokens), step))
    wall = time.perf_counter() - t0
    read = sum(r["timings"]["prompt_n"] for r in replies)
    total = sum(r["usage"]["prompt_tokens"] for r in replies)
    return Step("shared" if shared else "unshared", wall, read, total)


def _ask(
    backend: LocalBackend, messages: list[Message], temperature: float, seed: int, max_tokens: int
) -> dict[str, Any]:
    body, _ = backend._body(messages, temperature, max_tokens)
    resp = backend._http.post("/v1/chat/completions", json={**body, "seed": seed})
    resp.raise_for_status()
    return resp.json()


def pick_model(name: str | None) -> str:
    for candidate in [name] if name else ["qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b"]:
        if models.status(candidate).installed:
            return candidate
    sys.exit("No model pulled: run `localcode models pull qwen2.5-coder-1.5b` first.")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=list(models.MODELS), default=None)
    ap.add_argument("--problems", type=Path, default=DEFAULT_PROBLEMS)
    ap.add_argument("--tasks", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--max-tokens", type=int, default=150)
    args = ap.parse_args()
    name = pick_model(args.model)
    print(f"model {name}; machine: {os.cpu_count()} CPUs, load average {_load()}")
    backend = LocalBackend(models.installed_path(name), slots=4)
    rows: list[tuple[int, Step]] = []
    k = 0
    try:
        for i, (task, entry) in enumerate(load_tasks(args.problems, args.tasks)):
            for rep in range(args.repeats):
                order = (False, True) if rep % 2 == 0 else (True, False)
                for shared in order:
                    k += 1
                    rows.append((i, measure(backend, task, entry, shared, k, args.max_tokens)))
                    s = rows[-1][1]
                    print(f"  task {i} {s.mode}: {s.wall_s:.1f} s", file=sys.stderr)
    finally:
        backend.close()
    print(f"\nFirst step (4 prompts at once), max_tokens {args.max_tokens}, {args.repeats} of each")
    print(
        f"{'task':>4} {'prompt tok':>10} {'read unshared':>13} {'read shared':>11} "
        f"{'s unshared':>10} {'s shared':>8} {'shared/unshared':>15}"
    )
    ratios = []
    for i in sorted({i for i, _ in rows}):
        un = [s for j, s in rows if j == i and s.mode == "unshared"]
        sh = [s for j, s in rows if j == i and s.mode == "shared"]
        u = sum(x.wall_s for x in un) / len(un)
        v = sum(x.wall_s for x in sh) / len(sh)
        ratios.append(v / u)
        print(
            f"{i:>4} {un[0].total:>10} {un[0].read:>13} {sh[0].read:>11} "
            f"{u:>10.1f} {v:>8.1f} {v / u:>15.2f}"
        )
    print(f"mean ratio {sum(ratios) / len(ratios):.2f}; load average after {_load()}")


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
