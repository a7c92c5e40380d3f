"""Which later rounds paid for themselves: a bench run's localcode lines, replayed without them.

Run: .venv/bin/python bench/rounds_replay.py runs/mbpp40/results.jsonl [more results.jsonl ...]

Reads the lines `localcode bench` wrote (their history records, per round, whether the best so
far passes the hidden tests: "best_hidden"). For each run: the problems that took more than one
round, which of them a later round turned from wrong to right or from right to wrong, and what
the run would have scored and cost had it stopped after round 0 (the best of round 0 is known,
and its time is the run's minus the later rounds'). Nothing is run; no model is needed.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def load_run(path: Path) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """A run's localcode lines (those with a history), and its greedy lines by task."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    mine = [r for r in rows if r["strategy"] == "localcode" and r.get("history")]
    return mine, {r["task_id"]: r for r in rows if r["strategy"] == "greedy"}


def replay(path: Path) -> None:
    mine, greedy = load_run(path)
    if not mine or "best_hidden" not in mine[0]["history"][0]:
        print(f"{path}: no localcode lines with best_hidden (runs before 58b40ad lack it)")
        return
    gained, lost, same = [], [], 0
    stop_pass = stop_seconds = 0.0
    for r in mine:
        hist = r["history"]
        first = hist[0]["best_hidden"]
        later = (r.get("spent") or {}).get("later rounds", {}).get("seconds", 0.0)
        stop_pass += bool(first)
        stop_seconds += r["seconds"] - later
        if len(hist) > 1:
            if first is False and r["hidden_passed"]:
                gained.append(r["task_id"])
            elif first and not r["hidden_passed"]:
                lost.append(r["task_id"])
            else:
                same += 1
    n = len(mine)
    g = [greedy[r["task_id"]] for r in mine if r["task_id"] in greedy]
    g_s = sum(x["seconds"] for x in g) / len(g) if g else 0.0
    now_s = sum(r["seconds"] for r in mine) / n
    multi = sum(len(r["history"]) > 1 for r in mine)
    print(f"{path}: {n} problems, {multi} took later rounds")
    print(f"  turned wrong to right: {len(gained)} {gained}")
    print(f"  turned right to wrong: {len(lost)} {lost}")
    print(f"  no change to the answer's verdict: {same}")
    print(f"  {'':22} {'pass':>5} {'s/problem':>10} {'x greedy':>9}")
    for name, p, s in (
        ("as run", sum(r["hidden_passed"] for r in mine), now_s),
        ("stopped after round 0", stop_pass, stop_seconds / n),
    ):
        ratio = f"{s / g_s:.1f}x" if g_s else "-"
        print(f"  {name:22} {int(p):5d} {s:10.1f} {ratio:>9}")
    if g:
        print(f"  {'greedy':22} {sum(x['hidden_passed'] for x in g):5d} {g_s:10.1f}")


def run_cli(doc: str, replay: Callable[[Path], None]) -> None:
    """`replay` on each results file the command line names."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("results", nargs="+", type=Path)
    for path in ap.parse_args().results:
        replay(path)


def main() -> None:
    run_cli(__doc__, replay)


if __name__ == "__main__":
    main()
