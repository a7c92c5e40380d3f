"""Speculative decoding on the embedded engine: llama.cpp's n-gram decoders, or a smaller model
of the same family as the draft, against none, on the agent's own prompts (tests, greedy code, a
round of N samples).

Run: .venv/bin/python bench/speculative.py [--model qwen2.5-coder-1.5b] [--tasks 3] [--n 4]
         [--decoders ngram_simple,draft16,draft4] [--draft qwen2.5-coder-0.5b]

A decoder named `draftK` drafts with the `--draft` model, up to K tokens a step. Each task sends
its tests, its greedy code, the loop's first step (the tests begun as assert lines, the greedy
code and the brute-force reference, side by side) and a round of N samples (the model makers'
sampling advice, as the loop samples).

One server per setting, the same prompts and seeds in each; the prompt cache is off, so every
request pays its prompt as a fresh run of the agent does. Greedy replies must come out the same
with and without speculation (it only drafts; the model still decides), and the script says so.
Nothing else should run on the machine: the figures are ratios within one run.

Measured on 2026-12-04 (`--tasks 5 --decoders draft16,draft4`, stopped in the third setting;
the 14 requests every setting completed): none 214.1 s, draft16 409.9 s (0.52x), draft4
467.7 s (0.46x) -- slower on every kind of request (docs/BENCHMARKS.md). Not adopted.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from localcode import models, prompts
from localcode.backends.llama_server import SPECULATIVE, start_server
from localcode.cpus import usable_cpus
from localcode.task import parse_task

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench" / "mbpp_plus_dev.jsonl"


def tasks(k: int) -> list[tuple[str, str | None]]:
    """The first k MBPP+ sentence tasks of the development file, with their entry points."""
    out = []
    with BENCH.open() as f:
        for line in f:
            prompt = json.loads(line)["prompt"]
            out.append((prompt, parse_task(prompt).entry_point))
            if len(out) == k:
                break
    return out


def chat(client: httpx.Client, messages: Any, n: int, temperature: float) -> tuple[list[str], int]:
    body = {
        "messages": messages,
        "n": n,
        "seed": 0,
        "temperature": temperature,
        "max_tokens": 1024,
        "cache_prompt": False,
    }
    if temperature > 0:  # as the loop samples: the model makers' advice
        body.update(dict(models.QWEN_SAMPLING))
    resp = client.post("/v1/chat/completions", json=body)
    resp.raise_for_status()
    data = resp.json()
    texts = [c["message"]["content"] or "" for c in data["choices"]]
    return texts, int(data["usage"]["completion_tokens"])


def measure(
    path: Path, spec: str | None, work: list[tuple[str, list[Any], int, float]], n: int, draft: Path
) -> dict[str, Any]:
    drafted = spec is not None and spec.startswith("draft")
    server = start_server(
        path,
        slots=n,
        ctx_per_slot=4096,
        threads=usable_cpus(),
        speculative=None if drafted else spec,
        draft=draft if drafted else None,
        draft_max=int(spec[len("draft") :] or 16) if drafted and spec else 16,
    )
    seconds: dict[str, float] = {}
    tokens: dict[str, int] = {}
    greedy: list[str] = []
    with server, httpx.Client(base_url=server.root_url, timeout=1800) as client:
        chat(client, work[0][1][0], 1, 0.0)  # first-request overheads out of the timings
        for kind, asks, count, temperature in work:
            t0 = time.perf_counter()
            with ThreadPoolExecutor(len(asks)) as pool:  # side by side, as the loop sends them
                futures = [pool.submit(chat, client, m, count, temperature) for m in asks]
                replies = [f.result() for f in futures]
            seconds[kind] = seconds.get(kind, 0.0) + time.perf_counter() - t0
            tokens[kind] = tokens.get(kind, 0) + sum(generated for _, generated in replies)
            if temperature == 0.0:
                greedy.extend(text for texts, _ in replies for text in texts)
            print(f"  {spec or 'none'}: {kind} {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return {"seconds": seconds, "tokens": tokens, "greedy": greedy}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=list(models.MODELS), default=models.DEFAULT_MODEL)
    ap.add_argument("--tasks", type=int, default=3)
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--decoders", default=",".join(SPECULATIVE[:2]))
    ap.add_argument("--draft", choices=list(models.MODELS), default="qwen2.5-coder-0.5b")
    args = ap.parse_args()
    path = models.installed_path(args.model)
    draft = models.installed_path(args.draft)
    work: list[tuple[str, list[Any], int, float]] = []
    for text, entry in tasks(args.tasks):
        tests = prompts.tests_prompt(text, entry)
        begun = [*tests, {"role": "assistant", "content": prompts.ASSERTS_START}]
        code, reference = prompts.code_prompt(text, entry), prompts.reference_prompt(text, entry)
        work.append(("tests", [tests], 1, 0.0))
        work.append(("greedy code", [code], 1, 0.0))
        work.append(("first step (3 at once)", [begun, code, reference], 1, 0.0))
        work.append((f"{args.n} samples", [code], args.n, 0.8))
    settings: list[str | None] = [None, *args.decoders.split(",")]
    found = {s: measure(path, s, work, args.n, draft) for s in settings}
    base = found[None]
    print(f"{args.model}, {args.tasks} MBPP+ tasks, N={args.n}; seconds (tokens), ratio to none")
    kinds = list(base["seconds"])
    print(f"{'decoder':<14}" + "".join(f"{k:>24}" for k in kinds) + "   greedy replies")
    for s, r in found.items():
        cells = "".join(
            f"{r['seconds'][k]:>9.1f} s ({r['tokens'][k]:>4}) {base['seconds'][k] / r['seconds'][k]:>4.2f}x"
            for k in kinds
        )
        same = "same" if r["greedy"] == base["greedy"] else "DIFFER"
        print(f"{s or 'none':<14}{cells}   {same}")


if __name__ == "__main__":
    main()
