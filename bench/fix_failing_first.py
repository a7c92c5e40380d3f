"""What running an edit's failing tests first saves `localcode fix`: the package's whole test
command against the same command with only the tests that fail (fix/only_plugin.py), on planted
bugs of bench/fix_mutants.py's packages. No model: each run is the sandboxed run an edit that
fixes nothing gets. Also checks that the failing-only run names exactly the failing tests.

An edit that fixes one of the failing tests pays both runs (the `fixes one` column).

Run: .venv/bin/python bench/fix_failing_first.py [--mutants docs/bench/fix-mutants-lines] [--per-package 3] [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fix_mutants import listed  # noqa: E402

from localcode.fix import Workspace, plugged  # noqa: E402
from localcode.fix import outcomes as oc  # noqa: E402
from localcode.sandbox.project import ProjectLimits, run_command  # noqa: E402


def timed(
    command: str, ws: Workspace, files: dict[str, str], env: dict[str, str] | None
) -> tuple[float, oc.Outcomes]:
    t0 = time.monotonic()
    run = run_command(
        command,
        ws.root,
        files,
        limits=ProjectLimits(timeout=300),
        report_arg=oc.JUNIT_ARG,
        cwd=str(ws.cwd),
        env=env,
    )
    return time.monotonic() - t0, oc.read(run, True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", default="docs/bench/fix-mutants-lines")
    ap.add_argument("--per-package", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--work", default="/tmp/localcode-failing-first")
    args = ap.parse_args()
    print(
        f"{'mutant':<46} {'failing':>7} {'tests':>6} {'whole s':>8} {'alone s':>8} "
        f"{'fixes none':>10} {'fixes one':>9}  same ids",
        flush=True,
    )
    ratios = []
    for pkg, m, path in listed(Path(args.mutants), args.per_package, Path(args.work)):
        ws = Workspace.open(path)
        _, before = timed(pkg.command, ws, {}, None)
        failing = oc.failing(before)
        how = plugged.only(pkg.command, ws.root, ws.cwd, failing)
        whole: list[float] = []
        alone: list[float] = []
        same = True
        for k in range(args.repeats):  # alternated, so the machine's drift hits both
            for side in ("whole", "alone") if k % 2 == 0 else ("alone", "whole"):
                if side == "whole":
                    whole.append(timed(pkg.command, ws, {}, None)[0])
                else:
                    s, after = timed(how.command, ws, how.files, how.env)
                    alone.append(s)
                    same = same and sorted(after) == sorted(failing)
        w, a = statistics.median(whole), statistics.median(alone)
        ratios.append(a / w)
        # an edit that fixes none costs the failing tests alone; one that fixes one, both runs
        print(
            f"{m['id']:<46} {len(failing):>7} {len(before):>6} {w:>8.2f} {a:>8.2f} "
            f"{a / w:>10.2f} {(a + w) / w:>9.2f}  {same}",
            flush=True,
        )
    print(
        f"median time of an edit that fixes none, failing tests first / whole command: "
        f"{statistics.median(ratios):.2f} ({len(ratios)} mutants)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
