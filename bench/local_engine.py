"""How to send one best-of-N round to the embedded llama.cpp engine: one "n" request, N concurrent, or N in a row; and which engine settings make the agent's steps faster.

Run: .venv/bin/python bench/local_engine.py [--model qwen2.5-coder-1.5b] [--n 4] [--max-tokens 200]
     .venv/bin/python bench/local_engine.py --settings no-poll,ubatch-128 [--repeats 3]

Same prompts, same seeds, same max_tokens in every mode; the server's prompt cache is off for these
requests, so each round pays its prompt processing as a fresh round of the agent would.

--settings: each named engine setting (llama_server.TUNING) against llama.cpp's defaults, a fresh
server for every measurement, the two sides alternated `--repeats` times. Two steps of a run are
timed: the first step (the tests, the greedy code and the reference, three requests at once at
temperature 0) and a round of N samples (one "n" request at 0.8). Figures are median wall
seconds and their ratio to the defaults'; "same" says whether the replies' text is the defaults'
(a setting that changes the numerics may change what the model writes).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import httpx

from localcode import models, prompts
from localcode.backends.llama_server import TUNING, start_server
from localcode.backends.mock import NO_DEDUPE
from localcode.cli import DEFAULT_TASK
from localcode.cpus import usable_cpus

FEEDBACK = """test_case_2 failed:
    assert second_largest_unique([5, 5, 5, 5]) is None
AssertionError: assert 5 is None
 +  where 5 = second_largest_unique([5, 5, 5, 5])"""

PROMPTS = {
    "code": prompts.code_prompt(DEFAULT_TASK, "second_largest_unique"),
    "fix": prompts.fix_prompt(DEFAULT_TASK, "second_largest_unique", NO_DEDUPE, FEEDBACK),
}


@dataclass
class Result:
    mode: str
    prompt: str
    wall_s: float
    generated: int  # tokens over all N replies
    prompt_tokens: int
    distinct: int


def pick_model(name: str | None) -> tuple[str, str]:
    """The requested model, else 1.5B when pulled, else 0.5B; and a note saying which."""
    if name:
        return name, ""
    for candidate in ("qwen2.5-coder-1.5b", "qwen2.5-coder-0.5b"):
        if models.status(candidate).installed:
            note = (
                ""
                if candidate == models.DEFAULT_MODEL
                else (f"NOTE: {models.DEFAULT_MODEL} is not pulled; measuring {candidate} instead.")
            )
            return candidate, note
    sys.exit("No model pulled: run `localcode models pull qwen2.5-coder-1.5b` first.")


def chat(client: httpx.Client, messages: Any, n: int, seed: int, max_tokens: int) -> list[str]:
    body = {
        "messages": messages,
        "n": n,
        "seed": seed,
        "temperature": 0.8,
        "max_tokens": max_tokens,
        "cache_prompt": False,
    }
    resp = client.post("/v1/chat/completions", json=body)
    resp.raise_for_status()
    return [c["message"]["content"] or "" for c in resp.json()["choices"]]


def count(client: httpx.Client, text: str) -> int:
    return len(client.post("/tokenize", json={"content": text}).json()["tokens"])


def run_mode(client: httpx.Client, mode: str, name: str, n: int, max_tokens: int) -> Result:
    messages = PROMPTS[name]
    t0 = time.perf_counter()
    if mode == "one n request":
        texts = chat(client, messages, n, 0, max_tokens)
    elif mode == "concurrent":
        with ThreadPoolExecutor(n) as pool:
            texts = [
                t
                for ts in pool.map(lambda s: chat(client, messages, 1, s, max_tokens), range(n))
                for t in ts
            ]
    else:
        texts = [chat(client, messages, 1, s, max_tokens)[0] for s in range(n)]
    wall = time.perf_counter() - t0
    ptoks = client.post("/v1/chat/completions/input_tokens", json={"messages": messages})
    return Result(
        mode,
        name,
        wall,
        sum(count(client, t) for t in texts),
        int(ptoks.json()["input_tokens"]),
        len(set(texts)),
    )


def first_step(client: httpx.Client, max_tokens: int) -> list[str]:
    """The tests, the greedy code and the reference, at once, greedily (a run's first step)."""
    asks = [
        prompts.tests_prompt(DEFAULT_TASK, "second_largest_unique"),
        PROMPTS["code"],
        prompts.reference_prompt(DEFAULT_TASK, "second_largest_unique"),
    ]

    def one(messages: Any) -> str:
        body = {"messages": messages, "temperature": 0.0, "seed": 0, "max_tokens": max_tokens}
        resp = client.post("/v1/chat/completions", json={**body, "cache_prompt": False})
        resp.raise_for_status()
        return str(resp.json()["choices"][0]["message"]["content"] or "")

    with ThreadPoolExecutor(len(asks)) as pool:
        return list(pool.map(one, asks))


def compare_settings(path: Any, names: list[str], args: argparse.Namespace, threads: int) -> None:
    steps: dict[str, Any] = {
        "first step": lambda c: first_step(c, args.max_tokens),
        f"{args.n} samples": lambda c: chat(c, PROMPTS["code"], args.n, 0, args.max_tokens),
    }
    walls: dict[tuple[str, str], list[float]] = {}
    texts: dict[tuple[str, str], list[str]] = {}
    for rep in range(args.repeats):
        order = ["default", *names]
        for side in order if rep % 2 == 0 else order[::-1]:  # drift falls on both sides
            tuning = None if side == "default" else side
            server = start_server(
                path, slots=args.n, ctx_per_slot=2048, threads=threads, tuning=tuning
            )
            with server, httpx.Client(base_url=server.root_url, timeout=1800) as client:
                chat(client, PROMPTS["code"], 1, 99, 8)  # first-request overheads out
                for step, run in steps.items():
                    t0 = time.perf_counter()
                    got = run(client)
                    walls.setdefault((side, step), []).append(time.perf_counter() - t0)
                    texts[side, step] = got
            print(f"  repeat {rep + 1}: {side} measured", file=sys.stderr)
    print(
        f"Engine settings against llama.cpp's defaults, {threads} threads, {args.n} slots, "
        f"max_tokens {args.max_tokens}, {args.repeats} alternated repeats, median wall s"
    )
    print(f"{'setting':<16} {'step':<12} {'default s':>9} {'setting s':>9} {'ratio':>6} same")
    for name in names:
        for step in steps:
            base = statistics.median(walls["default", step])
            mine = statistics.median(walls[name, step])
            same = "yes" if texts[name, step] == texts["default", step] else "no"
            print(f"{name:<16} {step:<12} {base:>9.1f} {mine:>9.1f} {mine / base:>6.2f} {same}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=list(models.MODELS), default=None)
    ap.add_argument("--n", type=int, default=4)
    ap.add_argument("--max-tokens", type=int, default=200)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--prompts", default="code,fix", help="comma list of: code, fix")
    ap.add_argument("--settings", default="", help=f"comma list of: {', '.join(TUNING)}")
    ap.add_argument("--repeats", type=int, default=3, help="with --settings: measurements a side")
    args = ap.parse_args()
    name, note = pick_model(args.model)
    path = models.installed_path(name)
    threads = args.threads or usable_cpus()
    if note:
        print(note)
    if args.settings:
        names = [s.strip() for s in args.settings.split(",") if s.strip()]
        unknown = [s for s in names if s not in TUNING]
        if unknown:
            sys.exit(f"Unknown setting {unknown[0]!r}: choose from {', '.join(TUNING)}.")
        print(f"model {name}, machine: {os.cpu_count()} CPUs, load average {_load()}")
        compare_settings(path, names, args, threads)
        print(f"load average after the run {_load()} (other processes skew every figure)")
        return
    t0 = time.perf_counter()
    server = start_server(path, slots=args.n, ctx_per_slot=2048, threads=threads)
    load_s = time.perf_counter() - t0
    print(
        f"model {name} ({path.stat().st_size / 1e9:.2f} GB), {threads} threads, "
        f"{args.n} slots; load {load_s:.2f} s"
    )
    print(f"machine: {os.cpu_count()} CPUs, load average before the run {_load()}\n")
    modes = ("one n request", "concurrent", "sequential")
    rows: list[Result] = []
    with server, httpx.Client(base_url=server.root_url, timeout=1800) as client:
        chat(client, PROMPTS["code"], 1, 99, 8)  # first-request overheads out of the timings
        for prompt_name in args.prompts.split(","):
            for mode in modes:
                rows.append(run_mode(client, mode, prompt_name, args.n, args.max_tokens))
                r = rows[-1]
                print(f"  measured {prompt_name}/{mode}: {r.wall_s:.1f} s", file=sys.stderr)
    print_table(rows, args.n, args.max_tokens)
    print(f"load average after the run {_load()} (other processes on the CPUs skew every figure)")


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


def print_table(rows: list[Result], n: int, max_tokens: int) -> None:
    print(
        f"One round of N={n} candidates, max_tokens={max_tokens}, temperature 0.8, seeds 0..{n - 1}"
    )
    print(
        f"{'prompt':<6} {'tokens':>6}  {'mode':<14} {'wall s':>7} {'gen tok':>7} "
        f"{'tok/s':>6} {'distinct':>8} {'vs n':>5}"
    )
    for r in rows:
        base = next(x for x in rows if x.prompt == r.prompt and x.mode == "one n request")
        print(
            f"{r.prompt:<6} {r.prompt_tokens:>6}  {r.mode:<14} {r.wall_s:>7.1f} {r.generated:>7} "
            f"{r.generated / r.wall_s:>6.1f} {r.distinct:>5}/{n:<2} {r.wall_s / base.wall_s:>5.2f}"
        )


if __name__ == "__main__":
    main()
