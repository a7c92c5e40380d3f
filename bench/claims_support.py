"""Where the false claims sit: a bench run's claimed passes, by what the claim rested on.

Run: .venv/bin/python bench/claims_support.py runs/mbpp120/results.jsonl [more results.jsonl ...]

Reads the per-candidate records `localcode bench` writes (runs from 75f5a9c on) and sorts each
claimed pass by its support: how many of the run's candidates (every round; those that pass the
trusted tests the winner passes, as the loop counts them) share the winner's behaviour group, and whether the model was asked to judge (a "judged:" note). A claim that
stopped round 0 at two (the greedy reply and the reference agreed) is its own kind. For each
kind: claims, false claims (the hidden tests refute them), and the share. Nothing is run; no
model is needed. It tells a rule for claims where it would cut false claims and what it would
cost in right ones, before a run is spent on it.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path
from typing import Any

from rounds_replay import load_run

_VERDICT = re.compile(r": (r\d+c\d+) is right$")
_TEST_SIDE = re.compile(r"; test\w* expects |: test\w* expects ")


def support(r: dict[str, Any]) -> str | None:
    """The claim's kind: "stopped at two", or "k of n agree" plus "judged" where it was."""
    cands = [c for rnd in r["history"] for c in rnd.get("candidates", [])]
    best = r["history"][-1]["best"]
    mine = [c for c in cands if c["label"] == best]
    if not mine:
        return None  # a run before the per-candidate records
    if len(cands) == 2 and [c["origin"] for c in cands] == ["greedy", "reference"]:
        return "stopped at two"
    # as the loop counts them: those that pass the trusted tests the winner passes (ranking.anchored)
    grouped = [c for c in cands if c["group"] is not None and c["trusted"] == mine[0]["trusted"]]
    agree = sum(c["group"] == mine[0]["group"] for c in grouped)
    groups = {c["label"]: c["group"] for c in cands}
    won = [groups.get(_verdict_for(n) or "") for n in r["notes"]]
    judged = mine[0]["group"] is not None and mine[0]["group"] in won
    if len(grouped) < 3:
        share = "fewer than 3 ran"
    elif agree == 1:
        share = "alone"
    else:
        share = "half or less" if 2 * agree <= len(grouped) else "most"
    return f"{share}, {'judged' if judged else 'not judged'}"


def _outvoted(kind: str) -> bool:
    """The judge put first a behaviour at most half of the programs share."""
    return kind in ("alone, judged", "half or less, judged")


def _false(mine: list[dict[str, Any]], kinds: dict[str, str]) -> int:
    return sum(not r["hidden_passed"] for r in mine if r["task_id"] in kinds)


def _verdict_for(note: str) -> str | None:
    """The candidate a "judged:" note gives the verdict to over another candidate (not over a
    generated test's value); the loop matches it to the winner by behaviour, as done here."""
    found = _VERDICT.search(note) if note.startswith("judged:") else None
    return found.group(1) if found and not _TEST_SIDE.search(note) else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="+", type=Path)
    args = parser.parse_args()
    claims: Counter[str] = Counter()
    false: Counter[str] = Counter()
    where: dict[str, list[str]] = {}
    per_run = []
    for path in args.results:
        mine, _ = load_run(path)
        kinds = {r["task_id"]: k for r in mine if r["self_reported"] and (k := support(r))}
        kept = [r for r in mine if kinds.get(r["task_id"]) and not _outvoted(kinds[r["task_id"]])]
        per_run.append(
            f"  {path.parent.name}: {len(kinds)} claims, {_false(mine, kinds)} false; "
            f"without those the judge decided for with at most half behind them: {len(kept)} claims, "
            f"{sum(not r['hidden_passed'] for r in kept)} false"
        )
        for r in mine:
            kind = kinds.get(r["task_id"])
            if kind is None:
                continue
            claims[kind] += 1
            if not r["hidden_passed"]:
                false[kind] += 1
                where.setdefault(kind, []).append(r["task_id"].split("/")[-1])
    print(f"{sum(claims.values())} claims in {len(args.results)} runs")
    for line in per_run:
        print(line)
    print(f"  {'the winner':<28} {'claims':>6} {'false':>6} {'share':>6}")
    for kind in sorted(claims, key=lambda k: (-claims[k], k)):
        share = false[kind] / claims[kind]
        print(
            f"  {kind:<28} {claims[kind]:>6} {false[kind]:>6} {share:>6.0%}  {where.get(kind, [])}"
        )


if __name__ == "__main__":
    main()
