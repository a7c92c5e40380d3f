"""What running an edit's failing tests first saves `localcode fix`: the package's whole test
command against the same command with only the tests that fail (fix/only_plugin.py), on planted
bugs of bench/fix_mutants.py's packages. No model: each run is the sandboxed run an edit that
fixes nothing gets. Also checks that the failing-only run names exactly the failing tests.

Run: .venv/bin/python bench/fix_failing_first.py [--mutants docs/bench/fix-mutants-lines] [--per-package 2] [--repeats 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fix_mutants import PACKAGES, fetch, mutate, project  # noqa: E402

from localcode.fix import Workspace, plugged  # noqa: E402
from localcode.fix import outcomes as oc  # noqa: E402
from localcode.sandbox.project import ProjectLimits, run_command  # noqa: E402


def timed(
    command: str, path: Path, files: dict[str, str], env: dict[str, str] | None
) -> tuple[float, oc.Outcomes]:
    t0 = time.monotonic()
    run = run_command(
        command, path, files, limits=ProjectLimits(timeout=300), report_arg=oc.JUNIT_ARG, env=env
    )
    return time.monotonic() - t0, oc.read(run, True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mutants", default="docs/bench/fix-mutants-lines")
    ap.add_argument("--per-package", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--work", default="/tmp/localcode-failing-first")
    args = ap.parse_args()
    cache = Path.home() / ".cache/localcode/bench-sdists"
    print(
        f"{'mutant':<46} {'failing':>7} {'tests':>6} {'whole s':>8} {'failing s':>9} {'ratio':>6}  same ids"
    )
    ratios = []
    for pkg in PACKAGES:
        src = fetch(pkg, cache)
        listed = json.loads((Path(args.mutants) / f"mutants-{pkg.name}.json").read_text())
        for m in listed[: args.per_package]:
            text = mutate((src / m["file"]).read_text(encoding="utf-8"), m["site"])
            path = project(src, pkg, Path(args.work) / pkg.name, {m["file"]: text})
            ws = Workspace.open(path)
            _, before = timed(pkg.command, path, {}, None)
            failing = oc.failing(before)
            how = plugged.only(pkg.command, ws.root, ws.cwd, failing)
            whole, alone, same = [], [], True
            for _ in range(args.repeats):  # alternated, so the machine's drift hits both
                whole.append(timed(pkg.command, path, {}, None)[0])
                s, after = timed(how.command, path, how.files, how.env)
                alone.append(s)
                same = same and sorted(after) == sorted(failing)
            w, a = statistics.median(whole), statistics.median(alone)
            ratios.append(a / w)
            print(
                f"{m['id']:<46} {len(failing):>7} {len(before):>6} {w:>8.2f} {a:>9.2f} {a / w:>6.2f}  {same}"
            )
    print(f"median ratio failing-only / whole: {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
