"""How `fix` should ask for round 0's edits: the greedy edit beside the N-1 samples (two requests
at once, each processing the long prompt), or the greedy edit first and the samples after it,
when the engine finds the prompt already processed in the greedy request's slot.

Run: .venv/bin/python bench/fix_prompt_reuse.py [--model qwen2.5-coder-1.5b] [--repeat 2]

The prompt is `fix`'s real edit prompt for a planted bug in cachetools (tests/fixtures/projects,
the LRU bug the tests use): whole-class units, ~2k tokens. Each trial starts with a prompt no
slot has seen (a trial number leads the prompt), and the two orders alternate, so neither gains
from the other's cache. Prints seconds per round 0 for each order and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fix_projects import BUGS, make_project  # noqa: E402

from localcode.backends.local import LocalBackend  # noqa: E402
from localcode.fix import Workspace  # noqa: E402
from localcode.fix import outcomes as oc  # noqa: E402
from localcode.fix.units import choose, label, source  # noqa: E402
from localcode.models import resolve  # noqa: E402
from localcode.prompts import edit_prompt  # noqa: E402
from localcode.sandbox.project import run_command  # noqa: E402

N = 4


def prompt_for(trial: int) -> list[dict[str, str]]:
    bug = BUGS["cachetools"]
    project = make_project(Path(tempfile.mkdtemp()) / "cachetools", "cachetools")
    ws = Workspace.open(project)
    before = oc.read(run_command(bug.command, project, {}, report_arg=oc.JUNIT_ARG), True)
    units = choose(ws, before)
    code = [(label(u, ws.read(u.path)), source(ws.read(u.path), u) or "") for u in units]
    messages = edit_prompt(bug.command, oc.describe(before), code)
    messages[1]["content"] = f"Trial {trial}.\n{messages[1]['content']}"
    return messages


def round0(backend: LocalBackend, messages: list[dict[str, str]], together: bool) -> float:
    greedy: dict[str, Any] = dict(n=1, temperature=0.0, seed=0, max_tokens=256)
    samples: dict[str, Any] = dict(n=N - 1, temperature=0.8, seed=1, max_tokens=256)
    t0 = time.monotonic()
    if together:
        with ThreadPoolExecutor(2) as pool:
            jobs = [pool.submit(backend.complete, messages, **kw) for kw in (greedy, samples)]
            [j.result() for j in jobs]
    else:
        backend.complete(messages, **greedy)
        backend.complete(messages, **samples)
    return time.monotonic() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    backend = LocalBackend(resolve(args.model, None), slots=N)
    try:
        tokens = backend.count_tokens(prompt_for(0))
        times: dict[bool, list[float]] = {True: [], False: []}
        for trial in range(args.repeat * 2):
            together = trial % 2 == 0
            times[together].append(round0(backend, prompt_for(trial + 1), together))
            print(
                f"trial {trial + 1}: {'side by side' if together else 'greedy first'} "
                f"{times[together][-1]:.1f} s",
                flush=True,
            )
    finally:
        backend.close()
    a, b = statistics.mean(times[True]), statistics.mean(times[False])
    print(f"round 0 of fix, {N} edits, a {tokens}-token prompt ({args.model}):")
    print(f"  greedy beside the samples (two requests at once)  {a:6.1f} s")
    print(f"  greedy first, then the samples (prompt reused)    {b:6.1f} s   {a / b:.2f}x faster")
    return 0


if __name__ == "__main__":
    sys.exit(main())
