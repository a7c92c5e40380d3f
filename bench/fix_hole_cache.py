"""What reading the text above nearby holes from the same line (fix/holes.py, SPAN) saves the
line round of `localcode fix`: its model requests alone (greedy for each hole, best-ranked
first, then N-1 samples a hole, as fix/loop.py asks), with the holes' windows shared against
each hole's own window (span 0), on planted bugs of bench/fix_mutants.py's packages. Each side
gets a fresh model server, so no cache carries over; the sides alternate which goes first.
Wall time of whole requests: the lines written may differ between the sides (the windows do),
so generation adds noise. Whether the longer windows write better lines: each side's writings of
the mutated line (when it is a hole) are compared with the released line, greedy and any sample
(exact text, so a floor: an equivalent line is not counted).

Run: .venv/bin/python bench/fix_hole_cache.py [--mutants docs/bench/fix-mutants-lines] [--per-package 2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fix_mutants import fetch, listed  # noqa: E402

from localcode.backends.local import LocalBackend  # noqa: E402
from localcode.fix import Workspace, holes, locate  # noqa: E402
from localcode.fix import outcomes as oc  # noqa: E402
from localcode.fix.units import editable  # noqa: E402
from localcode.models import resolve  # noqa: E402
from localcode.sandbox.project import run_command  # noqa: E402

N = 4


def line_round(
    model: Path, found: list[holes.Hole], where: tuple[str, int], released: str
) -> tuple[float, str]:
    """Seconds for the round's requests, and how the hole at `where` was written: "greedy" (the
    released line restored by the greedy writing), "sample" (by a sample only), "no", or "-"
    (no such hole)."""
    backend = LocalBackend(model, slots=N)
    restored = "-" if all((h.path, h.line) != where for h in found) else "no"
    try:
        t0 = time.monotonic()
        for n, temperature, seed in ((1, 0.0, 0), (N - 1, 0.8, 1)):
            for hole in found:
                written = holes.write(backend, hole, n=n, temperature=temperature, seed=seed)
                hit = any(c.text.strip() == released for c in written)
                if (hole.path, hole.line) == where and restored == "no" and hit:
                    restored = "greedy" if temperature == 0 else "sample"
        return time.monotonic() - t0, restored
    finally:
        backend.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", default="docs/bench/fix-mutants-lines")
    ap.add_argument("--per-package", type=int, default=2)
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--work", default="/tmp/localcode-hole-cache")
    args = ap.parse_args()
    model = resolve(args.model, None)
    print(
        f"{'mutant':<46} {'holes':>5} {'own s':>7} {'shared s':>8} {'ratio':>6}  restored: own, shared",
        flush=True,
    )
    ratios, turn = [], 0
    tally: dict[str, dict[str, int]] = {"own": {}, "shared": {}}
    cache = Path.home() / ".cache/localcode/bench-sdists"
    for pkg, m, path in listed(Path(args.mutants), args.per_package, Path(args.work)):
        ws = Workspace.open(path)
        before = oc.read(run_command(pkg.command, path, {}, report_arg=oc.JUNIT_ARG), True)
        how = locate.traced(pkg.command, ws.root, ws.cwd)
        run = run_command(how.command, path, how.files, env=how.env, collect=locate.TRACE_FILE)
        failing = len(oc.failing(before))
        ranked, _ = locate.find(run, failing, editable(ws), ws.read, limit=None)
        own, shared = holes.holes(ranked, ws.read, span=0), holes.holes(ranked, ws.read)
        if [h.prefix for h in own] == [h.prefix for h in shared]:
            print(f"{m['id']:<46} {len(own):>5} holes, no window shared: skipped", flush=True)
            continue
        line_no = m["site"][0]
        released = locate.lines_of((fetch(pkg, cache) / m["file"]).read_text())[line_no - 1].strip()
        seconds: dict[str, float] = {}
        restored: dict[str, str] = {}
        for side in ("own", "shared") if turn % 2 == 0 else ("shared", "own"):
            seconds[side], restored[side] = line_round(
                model, own if side == "own" else shared, (m["file"], line_no), released
            )
            tally[side][restored[side]] = tally[side].get(restored[side], 0) + 1
        turn += 1
        ratios.append(seconds["shared"] / seconds["own"])
        print(
            f"{m['id']:<46} {len(own):>5} {seconds['own']:>7.1f} {seconds['shared']:>8.1f} "
            f"{ratios[-1]:>6.2f}  {restored['own']}, {restored['shared']}",
            flush=True,
        )
    if ratios:
        print(
            f"median ratio shared / own windows: {statistics.median(ratios):.2f} ({len(ratios)} mutants)"
        )
        for side, counts in tally.items():
            print(f"released line restored, {side} windows: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
