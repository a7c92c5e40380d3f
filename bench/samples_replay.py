"""Which of round 0's samples paid for themselves: a bench run's localcode lines, replayed with a
rule for stopping round 0 at its first two candidates.

Run: .venv/bin/python bench/samples_replay.py runs/mbpp40/results.jsonl [more results.jsonl ...]

Reads the per-candidate records `localcode bench` writes (each round's candidates with their
origin, generated tests passed, trusted verdict, behaviour group and hidden verdict; runs from
75f5a9c on). Round 0 writes the greedy reply and the brute-force reference first and draws its
samples only where the two do not agree. The rule replayed here stops there also when the two
behave alike on every probe and changed input and pass every trusted test (your tests, the
task's examples; vacuously when there are none), even if both fail the same generated tests,
provided they pass at least one of them: such a run returns the greedy reply as a best effort,
unclaimed. For each run: the problems where the rule would stop, and there whether a sample or
a later round turned the answer right (or wrong), and what the run would have scored, claimed
and cost. The cost of a stopped problem is estimated as its tests' and sandbox's seconds
(round 0's first step is written beside the tests). Nothing is run; no model is needed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rounds_replay import load_run, run_cli


def readings_agree(first: list[dict[str, Any]]) -> bool:
    """The greedy reply and the reference behave alike and pass every trusted test."""
    if [c["origin"] for c in first[:2]] != ["greedy", "reference"]:
        return False
    greedy, ref = first[:2]
    return (
        greedy["group"] is not None
        and greedy["group"] == ref["group"]
        and greedy["trusted"] in (True, None)
        and ref["trusted"] in (True, None)
        and greedy["passed"] > 0
    )


def replay(path: Path) -> None:
    mine, greedy = load_run(path)
    if not mine or "candidates" not in mine[0]["history"][0]:
        print(f"{path}: no per-candidate records (runs before 75f5a9c lack them)")
        return
    stopped, gained, lost = [], [], []
    passes = claims = false_claims = 0
    seconds = 0.0
    for r in mine:
        first = r["history"][0]["candidates"]
        drew = len(first) > 2
        if drew and readings_agree(first):
            stopped.append(r["task_id"])
            right = bool(first[0]["hidden"])
            if right and not r["hidden_passed"]:
                lost.append(r["task_id"])
            elif r["hidden_passed"] and not right:
                gained.append(r["task_id"])
            passes += right
            spent = r.get("spent") or {}
            seconds += sum(spent.get(k, {}).get("seconds", 0.0) for k in ("tests", "sandbox"))
            continue
        passes += r["hidden_passed"]
        claims += bool(r["self_reported"])
        false_claims += bool(r["self_reported"]) and not r["hidden_passed"]
        seconds += r["seconds"]
    n = len(mine)
    g = [greedy[r["task_id"]] for r in mine if r["task_id"] in greedy]
    g_s = sum(x["seconds"] for x in g) / len(g) if g else 0.0
    as_run = sum(r["hidden_passed"] for r in mine)
    run_claims = sum(bool(r["self_reported"]) for r in mine)
    run_false = sum(bool(r["self_reported"]) and not r["hidden_passed"] for r in mine)
    print(f"{path}: {n} problems; the rule stops round 0 at two on {len(stopped)} more")
    print(f"  {stopped}")
    print(f"  there, samples or later rounds turned the answer right: {len(gained)} {gained}")
    print(f"  there, they turned it wrong: {len(lost)} {lost}")
    print(f"  {'':22} {'pass':>5} {'claims':>7} {'false':>6} {'s/problem':>10} {'x greedy':>9}")
    for name, p, c, f, s in (
        ("as run", as_run, run_claims, run_false, sum(r["seconds"] for r in mine) / n),
        ("with the rule (est.)", passes, claims, false_claims, seconds / n),
    ):
        ratio = f"{s / g_s:.1f}x" if g_s else "-"
        print(f"  {name:22} {p:5d} {c:7d} {f:6d} {s:10.1f} {ratio:>9}")
    if g:
        print(f"  {'greedy':22} {sum(x['hidden_passed'] for x in g):5d} {'':7} {'':6} {g_s:10.1f}")


def main() -> None:
    run_cli(__doc__, replay)


if __name__ == "__main__":
    main()
