"""How much of a code reply comes after its code: the tokens a stop at the closing fence would save.

Run: .venv/bin/python bench/reply_tail.py [--k 6] [--model qwen2.5-coder-1.5b]

For the first K problems of each fixed sample in docs/BENCHMARKS.md ($IDS, MBPP+; $HEIDS,
HumanEval+), round 0's requests are sent as the loop sends them to one embedded engine with as
many slots: the greedy reply and the brute-force reference (temperature 0) and N-2 samples (the
model's sampling settings). For each reply: its completion tokens, and how many of them come
after the first fenced block closes (an explanation, example calls, a second block), counted
with the engine's own tokenizer. Prints the totals per origin.
"""

from __future__ import annotations

import argparse
import re
from collections import defaultdict

from tests_format import sample_problems

from localcode import models, prompts
from localcode.backends.local import LocalBackend
from localcode.task import parse_task

CLOSED = re.compile(r"```[^\n]*\n.*?\n```", re.S)  # the first fenced block, closed


def tail_tokens(backend: LocalBackend, text: str) -> int:
    """Tokens after the first closed fenced block (0 when there is none)."""
    found = CLOSED.search(text)
    if not found or not text[found.end() :].strip():
        return 0
    resp = backend._http.post("/tokenize", json={"content": text[found.end() :]})
    return len(resp.json().get("tokens") or [])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--k", type=int, default=6, help="problems from each sample")
    ap.add_argument("--n", type=int, default=4, help="round 0's width, as --n-candidates")
    ap.add_argument("--model", default=models.DEFAULT_MODEL)
    args = ap.parse_args()
    chosen = sample_problems(args.k)
    model = models.get_model(args.model)
    backend = LocalBackend(
        models.installed_path(model), slots=args.n, sampling=dict(model.sampling)
    )
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # replies, tokens, tail
    try:
        for p in chosen:
            task = parse_task(p.prompt)
            code = prompts.code_prompt(task.text, task.entry_point)
            asks = {
                "greedy": (code, 1, 0.0),
                "reference": (prompts.reference_prompt(task.text, task.entry_point), 1, 0.0),
                "sample": (code, args.n - 2, 0.8),
            }
            row = []
            for origin, (messages, n, temperature) in asks.items():
                replies = backend.complete(
                    messages, n=n, temperature=temperature, seed=2, max_tokens=1024
                )
                for r in replies:
                    t = totals[origin]
                    tail = tail_tokens(backend, r.text)
                    t[0], t[1], t[2] = t[0] + 1, t[1] + (r.completion_tokens or 0), t[2] + tail
                    row.append(f"{origin} {r.completion_tokens}/{tail}")
            print(p.task_id, ", ".join(row), flush=True)
    finally:
        backend.close()
    print(f"\n{len(chosen)} problems ({args.model}): completion tokens, and those after the code")
    for origin, (k, tokens, tail) in totals.items():
        print(
            f"{origin:10} {k:3d} replies {tokens:6d} tokens {tail:6d} after ({tail / max(1, tokens):.0%})"
        )


if __name__ == "__main__":
    main()
