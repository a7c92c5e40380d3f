"""Tests and round 0 one after another, or side by side: what the overlap saves on this machine.

Run: .venv/bin/python bench/overlap.py [--problems ../shared/bench/humaneval_plus.jsonl] [--k 4]

For each of the first K problems, the loop's own requests go to one embedded engine with N + 1
slots: the tests prompt (greedy), then round 0 (the greedy reply and N - 1 samples); once in
sequence and once side by side, alternating which goes first so drift in the machine's speed
falls on both, after one untimed token of each prompt so the engine's prompt cache holds them
for either. Prints the wall seconds and generated tokens of each, and the ratio.

Measured at ac75f62 (2 cores, 1.5B, N=4; before the warm-up and the token counts were added):
HumanEval/0-4 in sequence 83.3, 59.0, 72.1, 32.9, 209.7 s; side by side 57.8, 82.6, 38.1, 57.9,
192.2 s. The second of each pair was 1.4-1.9x faster whichever it was (cause not isolated: the
prompt cache, or other replies); taking that factor out of pairs 0-3 leaves side by side at
0.97-0.99x of in sequence, within the noise, so the loop does not overlap them.

Measured again on 2026-12-02 (`--problems ../shared/bench/mbpp_plus_dev.jsonl --k 4`, with the
warm-up): Mbpp/3, 4, 6, 7 in sequence 19.2, 20.4, 20.1, 19.4 s; side by side 22.1, 21.5, 18.0,
18.0 s: 1.01x in all (median ratio 0.99). A version of the loop that overlapped them (2b230c9)
was reverted: on 2 cores the engine is compute-bound, and a fifth sequence costs what it saves.

Measured on 2026-12-02 with `--first-step` (round 0's first step since 38cefeb: the greedy reply
and the brute-force reference, both temperature 0, beside the tests), 1.5B, 2 cores:
`--problems ../shared/bench/mbpp_plus_dev.jsonl --k 4`: 110.6 s in sequence, 105.9 s side by
side (0.96x; median 0.92); `--k 4` (HumanEval/0-3): 52.6 s, 45.1 s (0.86x; median 0.86). Three
sequences still gain from batching where five did not; the loop does not overlap them yet (the
reference is asked only once the tests give inputs to compare on).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from localcode import models, prompts
from localcode.backends.local import LocalBackend
from localcode.bench.problems import load_problems
from localcode.task import parse_task


def round_0(
    backend: LocalBackend,
    code: list[prompts.Message],
    n: int,
    brute: list[prompts.Message] | None = None,
) -> int:
    """The greedy reply and n - 1 samples, as loop.py asks for them; tokens generated. With
    `brute`: round 0's first step instead, the greedy reply and the brute-force reference."""
    with ThreadPoolExecutor(2) as pool:
        greedy = pool.submit(backend.complete, code, n=1, temperature=0.0, seed=0)
        if brute is not None:
            others = pool.submit(backend.complete, brute, n=1, temperature=0.0, seed=1)
        else:
            others = pool.submit(backend.complete, code, n=n - 1, temperature=0.8, seed=1)
        replies = greedy.result() + others.result()
    return sum(r.completion_tokens or 0 for r in replies)


def tests(backend: LocalBackend, messages: list[prompts.Message]) -> int:
    reply = backend.complete(messages, n=1, temperature=0.0, seed=0)[0]
    return reply.completion_tokens or 0


def measure(
    backend: LocalBackend, task: str, n: int, overlap: bool, first_step: bool = False
) -> tuple[float, int]:
    parsed = parse_task(task)
    asked = prompts.tests_prompt(parsed.text, parsed.entry_point, 5)
    code = prompts.code_prompt(parsed.text, parsed.entry_point)
    brute = prompts.reference_prompt(parsed.text, parsed.entry_point) if first_step else None
    for messages in (asked, code, brute or []):  # the prompts in the engine's cache, for either
        if messages:
            backend.complete(messages, n=1, temperature=0.0, seed=0, max_tokens=1)
    t0 = time.perf_counter()
    if overlap:
        with ThreadPoolExecutor(1) as ahead:
            early = ahead.submit(round_0, backend, code, n, brute)
            made = tests(backend, asked) + early.result()
    else:
        made = tests(backend, asked) + round_0(backend, code, n, brute)
    return time.perf_counter() - t0, made


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--problems", default="../shared/bench/humaneval_plus.jsonl")
    ap.add_argument("--k", type=int, default=4, help="problems, from the file's start")
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--model", default=models.DEFAULT_MODEL)
    ap.add_argument(
        "--first-step",
        action="store_true",
        help="round 0's first step only (the greedy reply and the brute-force reference), as "
        "the loop asks for it since 38cefeb",
    )
    args = ap.parse_args()
    problems = load_problems(args.problems)[: args.k]
    backend = LocalBackend(models.installed_path(args.model), slots=args.n + 1)
    rows: list[tuple[str, float, int, float, int]] = []
    try:
        backend.complete([{"role": "user", "content": "hi"}], n=1, max_tokens=4)  # warm
        for i, p in enumerate(problems):
            order = (False, True) if i % 2 == 0 else (True, False)
            got = {o: measure(backend, p.prompt, args.n, o, args.first_step) for o in order}
            rows.append((p.task_id, *got[False], *got[True]))
            print(
                f"  {p.task_id}: {got[False][0]:.1f} s then {got[True][0]:.1f} s", file=sys.stderr
            )
    finally:
        backend.close()
    print(f"{args.model}, N={args.n}, {args.n + 1} slots; tests then round 0, or side by side")
    print(f"{'problem':<16} {'seq s':>7} {'tokens':>6} {'overlap s':>9} {'tokens':>6} {'ratio':>6}")
    for task_id, seq_s, seq_t, ov_s, ov_t in rows:
        print(f"{task_id:<16} {seq_s:>7.1f} {seq_t:>6} {ov_s:>9.1f} {ov_t:>6} {ov_s / seq_s:>6.2f}")
    seq = sum(r[1] for r in rows)
    ov = sum(r[3] for r in rows)
    ratios = [r[3] / r[1] for r in rows]
    print(f"total: {seq:.1f} s in sequence, {ov:.1f} s side by side: {ov / seq:.2f}x "
          f"(median ratio {statistics.median(ratios):.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
