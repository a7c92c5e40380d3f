"""Mutation benchmark for `localcode fix`: single-line bugs planted in real PyPI packages, repaired
with each package's own test command; localcode's defaults side by side with one greedy edit.

Run: .venv/bin/python bench/fix_mutants.py --out runs/fix-mutants [--per-package 10] [--model qwen2.5-coder-1.5b]
     .venv/bin/python bench/fix_mutants.py --out runs/fix-mutants --report

For each package (sdist from PyPI, pinned): its tests must pass unmutated in the sandbox; then
mutants are drawn with a fixed seed (flip a comparison, change an integer by one, drop a `not`,
swap `+`/`-` or `and`/`or`), and a mutant is kept only if the test command catches it. Each kept
mutant is a fresh git project; each strategy runs `fix` on it, its chosen edit is applied, and the
test command is run again on the result: "repaired" means it passes, "broke" that a test which
passed on the mutant fails after the edit. One JSON line per (mutant, strategy): a stopped run
resumes.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import random
import shutil
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from localcode.backends import create_backend
from localcode.backends.local import LocalOptions
from localcode.config import AgentConfig
from localcode.errors import UsageError
from localcode.fix import FixSettings, Workspace, fix, holes, locate
from localcode.fix import outcomes as oc
from localcode.fix.units import choose, editable, holds
from localcode.sandbox.project import ProjectLimits, run_command


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    files: tuple[str, ...]  # the modules mutated, relative to the sdist's root
    command: str
    keep: tuple[str, ...]  # what of the sdist the project needs


PACKAGES = (
    Package(
        "inflection",
        "0.5.1",
        ("inflection/__init__.py",),
        "python -m pytest -q test_inflection.py",
        ("inflection", "test_inflection.py", "LICENSE"),
    ),
    Package(
        "cachetools",
        "8.0.2",
        ("src/cachetools/__init__.py",),
        "PYTHONPATH=src python -m pytest -q tests",
        ("src", "tests", "LICENSE"),
    ),
    Package(
        "toolz",
        "1.2.0",
        ("toolz/itertoolz.py", "toolz/dicttoolz.py"),
        "python -m pytest -q toolz/tests/test_itertoolz.py toolz/tests/test_dicttoolz.py",
        ("toolz", "LICENSE.txt"),
    ),
)
STRATEGIES = {
    # one temperature-0 edit of the code the tracebacks point at, as a plain tool makes it
    "greedy": FixSettings(n_candidates=1, max_iters=1, greedy=True, locate=False),
    # the same, told which lines the failing tests single out (fix/locate.py)
    "greedy+locate": FixSettings(n_candidates=1, max_iters=1, greedy=True),
    "localcode": FixSettings(),  # the defaults: N=4, up to 3 rounds, lines located
}
SWAPS = {
    ast.Lt: "<=",
    ast.LtE: "<",
    ast.Gt: ">=",
    ast.GtE: ">",
    ast.Eq: "!=",
    ast.NotEq: "==",
    ast.Add: "-",
    ast.Sub: "+",
    ast.And: "or",
    ast.Or: "and",
}
OPS = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Add: "+",
    ast.Sub: "-",
    ast.And: "and",
    ast.Or: "or",
}


def fetch(pkg: Package, cache: Path) -> Path:
    """The package's sdist, downloaded once and unpacked: its root directory."""
    root = cache / f"{pkg.name}-{pkg.version}"
    if root.is_dir():
        return root
    cache.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--no-binary",
            ":all:",
            f"{pkg.name}=={pkg.version}",
            "-d",
            str(cache),
        ],
        check=True,
    )
    archive = next(cache.glob(f"{pkg.name.replace('-', '_')}-{pkg.version}.tar.gz"), None) or next(
        cache.glob(f"{pkg.name}-{pkg.version}.tar.gz")
    )
    with tarfile.open(archive) as tar:
        tar.extractall(cache, filter="data")
    unpacked = next(
        p for p in cache.iterdir() if p.is_dir() and p.name.lower() == root.name.lower()
    )
    return unpacked


def sites(text: str) -> list[tuple[int, int, int, str]]:
    """Every single-line mutation of `text`: (line, start col, end col, replacement)."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in SWAPS:
            found += _between(text, node.left, node.comparators[0], type(node.ops[0]))
        elif isinstance(node, ast.BinOp) and type(node.op) in SWAPS:
            found += _between(text, node.left, node.right, type(node.op))
        elif isinstance(node, ast.BoolOp) and type(node.op) in SWAPS and len(node.values) == 2:
            found += _between(text, node.values[0], node.values[1], type(node.op))
        elif (
            isinstance(node, ast.UnaryOp)
            and isinstance(node.op, ast.Not)
            and node.lineno == node.end_lineno
        ):
            found.append((node.lineno, node.col_offset, node.operand.col_offset, ""))
        elif (
            isinstance(node, ast.Constant)
            and type(node.value) is int
            and 0 <= node.value <= 8
            and node.lineno == node.end_lineno
        ):
            found.append(
                (node.lineno, node.col_offset, node.end_col_offset or 0, str(node.value + 1))
            )
    return sorted(site for site in set(found) if _parses(mutate(text, site)))


def _parses(text: str) -> bool:
    """A mutant must be a bug, not a syntax error (dropping the `not` of `not (a < b)` leaves an
    unmatched parenthesis: cachetools 603:11 in the lists drawn before this check)."""
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def _between(
    text: str, left: ast.AST, right: ast.AST, op: type[ast.AST]
) -> list[tuple[int, int, int, str]]:
    a, b = left.end_lineno, right.lineno  # type: ignore[attr-defined]
    if a != b:
        return []
    line = text.splitlines()[a - 1]
    start, end = left.end_col_offset, right.col_offset  # type: ignore[attr-defined]
    middle = line[start:end]
    if middle.strip().strip("()") != OPS[op]:
        return []
    at = start + middle.index(OPS[op])
    return [(a, at, at + len(OPS[op]), SWAPS[op])]


def mutate(text: str, site: tuple[int, int, int, str]) -> str:
    line_no, start, end, new = site
    lines = text.splitlines(keepends=True)
    line = lines[line_no - 1]
    lines[line_no - 1] = line[:start] + new + line[end:]
    return "".join(lines)


def project(src: Path, pkg: Package, dest: Path, mutant: dict[str, str] | None = None) -> Path:
    """A fresh git project of the package (with the mutant written and committed)."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for name in pkg.keep:
        (shutil.copytree if (src / name).is_dir() else shutil.copy2)(src / name, dest / name)
    for rel, text in (mutant or {}).items():
        (dest / rel).write_text(text, encoding="utf-8")
    git = ["git", "-C", str(dest), "-c", "user.email=bench@localcode", "-c", "user.name=bench"]
    subprocess.run(["git", "init", "-q", str(dest)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "mutant"], check=True)
    return dest


def draw(pkg: Package, src: Path, per_package: int, seed: int, work: Path) -> list[dict]:
    """Mutants that the package's tests catch, drawn in a fixed order."""
    base = project(src, pkg, work / f"{pkg.name}-clean")
    limits = ProjectLimits(timeout=120)
    clean = run_command(pkg.command, base, {}, limits=limits, report_arg=oc.JUNIT_ARG)
    if clean.returncode != 0:
        raise SystemExit(f"{pkg.name}: its tests fail unmutated:\n{clean.output[-2000:]}")
    pool = [(rel, s) for rel in pkg.files for s in sites((src / rel).read_text(encoding="utf-8"))]
    random.Random(seed).shuffle(pool)
    kept = []
    for rel, site in pool:
        text = mutate((src / rel).read_text(encoding="utf-8"), site)
        run = run_command(pkg.command, base, {rel: text}, limits=limits, report_arg=oc.JUNIT_ARG)
        if run.returncode != 0 and not run.timed_out:
            kept.append(
                {
                    "id": f"{pkg.name}:{rel}:{site[0]}:{site[1]}",
                    "file": rel,
                    "site": list(site),
                    "text": text,
                    "failing": len(oc.failing(oc.read(run, True))),
                }
            )
        if len(kept) == per_package:
            break
    return kept


def verify(path: Path, pkg: Package, before: oc.Outcomes) -> tuple[bool, list[str]]:
    """Run the command on the project as it now is: does it pass, and what broke."""
    run = run_command(
        pkg.command, path, {}, limits=ProjectLimits(timeout=120), report_arg=oc.JUNIT_ARG
    )
    after = oc.read(run, True)
    broke = sorted(t for t, o in before.items() if o.passed and t in after and not after[t].passed)
    return run.returncode == 0, broke


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--per-package", type=int, default=10)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--strategies", default=",".join(STRATEGIES))
    ap.add_argument(
        "--work", default="/tmp/localcode-fix-mutants", help="where mutant projects are made"
    )
    ap.add_argument("--limit", type=int, default=0, help="run only the first K mutants")
    ap.add_argument("--report", action="store_true", help="only tabulate the results so far")
    ap.add_argument(
        "--locate-only",
        action="store_true",
        help="no model: where each mutated line ranks among the lines the traced run singles out",
    )
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results = out / "results.jsonl"
    if args.locate_only:
        locate_all(args, out)
        return 0
    if not args.report:
        run_all(args, out, results)
    report(results)
    return 0


def mutants(args: argparse.Namespace, out: Path) -> list[tuple[Package, Path, dict]]:
    """The kept mutants, drawn once per output directory, round-robin over the packages so a
    run stopped early still covers each of them; the first --limit of them."""
    cache, work = Path.home() / ".cache/localcode/bench-sdists", Path(args.work)
    drawn = []
    for pkg in PACKAGES:
        src = fetch(pkg, cache)
        mutants_file = out / f"mutants-{pkg.name}.json"
        if not mutants_file.exists():
            mutants_file.write_text(json.dumps(draw(pkg, src, args.per_package, args.seed, work)))
        kept = json.loads(mutants_file.read_text())
        for m in kept:  # the committed lists keep the site, not the whole mutated file
            m.setdefault("text", mutate((src / m["file"]).read_text(encoding="utf-8"), m["site"]))
        drawn.append([(pkg, src, m) for m in kept])
    ordered = [x for group in itertools.zip_longest(*drawn) for x in group if x]
    return ordered[: args.limit] if args.limit else ordered


def listed(mutants: Path, per_package: int, work: Path) -> Iterator[tuple[Package, dict, Path]]:
    """The first `per_package` mutants of each package listed in the directory `mutants`
    (mutants-<package>.json), each made a fresh project under `work` (the same path for all
    mutants of a package: one at a time)."""
    cache = Path.home() / ".cache/localcode/bench-sdists"
    for pkg in PACKAGES:
        src = fetch(pkg, cache)
        for m in json.loads((mutants / f"mutants-{pkg.name}.json").read_text())[:per_package]:
            text = mutate((src / m["file"]).read_text(encoding="utf-8"), m["site"])
            yield pkg, m, project(src, pkg, work / pkg.name, {m["file"]: text})


def locate_all(args: argparse.Namespace, out: Path) -> None:
    """Localisation alone: the mutated line's rank among the suspects shown to the model, and
    whether the first unit shown holds it."""
    rows, work = [], Path(args.work)
    for pkg, src, m in mutants(args, out):
        path = project(src, pkg, work / "current", {m["file"]: m["text"]})
        ws = Workspace.open(path)
        t0 = time.monotonic()
        before = oc.read(run_command(pkg.command, path, {}, report_arg=oc.JUNIT_ARG), True)
        t1 = time.monotonic()
        how = locate.traced(pkg.command, ws.root, ws.cwd)
        run = run_command(how.command, path, how.files, env=how.env, collect=locate.TRACE_FILE)
        t2 = time.monotonic()
        failing = len(oc.failing(before))
        ranked, _ = locate.find(run, failing, editable(ws), ws.read, limit=None)
        found = locate.whole_ties(ranked, locate.MAX_SUSPECTS)
        site = (m["file"], m["site"][0])
        rank = next((i for i, s in enumerate(found, 1) if (s.path, s.line) == site), 0)
        hole = next((i for i, s in enumerate(ranked, 1) if (s.path, s.line) == site), 0)
        floorless = _unfloored(run, site)
        now = _first_holds(ws, before, m, [(s.path, s.line) for s in found])
        was = _first_holds(ws, before, m, [])
        rows.append((m["id"], rank, len(found), now, was, t1 - t0, t2 - t1, hole, floorless))
        print(
            f"{m['id']:<45} rank {rank or '-':>2} of {len(found)}, among all scored "
            f"{hole or '-':>2} of {len(ranked)} (no floor: {floorless or '-'})  "
            f"first unit holds it: {now} "
            f"(without the trace: {was})  plain {t1 - t0:.1f}s traced {t2 - t1:.1f}s",
            flush=True,
        )
    n = len(rows)
    shown = sum(1 for r in rows if r[1])
    top = sum(1 for r in rows if r[1] == 1)
    holed = sum(1 for r in rows if 0 < r[7] <= holes.MAX_HOLES)
    unfloored = sum(1 for r in rows if 0 < r[8] <= holes.MAX_HOLES)
    print(
        f"{n} mutants: mutated line shown {shown} ({shown / n:.0%}), ranked first {top}; "
        f"among the {holes.MAX_HOLES} lines written anew {holed} (with no score floor: "
        f"{unfloored}); the "
        f"first unit shown holds it {sum(r[3] for r in rows)} (without the trace "
        f"{sum(r[4] for r in rows)}); test run {sum(r[5] for r in rows) / n:.2f} s plain, "
        f"{sum(r[6] for r in rows) / n:.2f} s traced"
    )


def _unfloored(run, site: tuple[str, int]) -> int:  # noqa: ANN001
    """The mutated line's rank among every line a failing test ran (Ochiai, no floor; ties
    in path and line order), 0 where no failing test ran it."""
    counts = locate._read(run.collected)
    if counts is None or not counts.failed:
        return 0
    total = len(counts.failed)
    scored = sorted(
        (-bad / (total * (bad + good)) ** 0.5, path, line)
        for path, per_line in counts.lines.items()
        for line, (bad, good) in per_line.items()
        if bad and not path.startswith(("test", "tests/")) and "/tests/" not in path
    )
    return next((i for i, (_, p, n) in enumerate(scored, 1) if (p, n) == site), 0)


def _first_holds(ws: Workspace, before: oc.Outcomes, m: dict, suspects: list) -> bool:  # noqa: ANN001
    try:
        units = choose(ws, before, suspects=suspects)
    except UsageError:
        return False
    first = units[0]
    return first.path == m["file"] and holds(first, ws.read(first.path), m["site"][0])


def run_all(args: argparse.Namespace, out: Path, results: Path) -> None:
    done = {(r["mutant"], r["strategy"]) for r in _rows(results)}
    work = Path(args.work)
    todo = mutants(args, out)
    backend = create_backend(AgentConfig(options=LocalOptions(model=args.model)))
    try:
        for pkg, src, m in todo:
            for name in args.strategies.split(","):
                if (m["id"], name) in done:
                    continue
                row = one(pkg, src, m, name, backend, work)
                with results.open("a") as f:
                    f.write(json.dumps(row) + "\n")
                print(
                    f"{m['id']:<45} {name:<13} repaired={row['repaired']} broke={len(row['broke'])} "
                    f"{row['seconds']:.1f}s",
                    flush=True,
                )
    finally:
        backend.close()


def one(pkg: Package, src: Path, m: dict, strategy: str, backend, work: Path) -> dict:  # noqa: ANN001
    path = project(src, pkg, work / "current", {m["file"]: m["text"]})
    ws = Workspace.open(path)
    started = time.monotonic()
    error = None
    try:
        result = fix(ws, pkg.command, lambda: backend, STRATEGIES[strategy])
    except Exception as exc:  # noqa: BLE001 - recorded, the run goes on
        error, result = f"{type(exc).__name__}: {exc}", None
    seconds = time.monotonic() - started
    repaired = False
    broke: list[str] = []
    if result is not None and result.best is not None:
        before = oc.read(run_command(pkg.command, path, {}, report_arg=oc.JUNIT_ARG), True)
        ws.apply(result.best.files)
        repaired, broke = verify(path, pkg, before)
    return {
        "mutant": m["id"],
        "package": pkg.name,
        "strategy": strategy,
        "repaired": repaired,
        "claimed": bool(result and result.repaired),
        "broke": broke,
        "seconds": round(seconds, 2),
        "tokens": result.tokens if result else 0,
        "rounds": len(result.rounds) if result else 0,
        "kinds": [r.kind for r in result.rounds] if result else [],
        "won_by": result.best.origin if result and result.best else None,
        "diff": result.diff if result else "",
        "suspects": result.suspects if result else [],
        "located": bool(
            result and any(f"{m['file']}:{m['site'][0]}:" in s for s in result.suspects)
        ),
        "error": error,
    }


def _rows(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def report(results: Path) -> None:
    rows = _rows(results)
    by: dict[str, list[dict]] = {}
    for r in rows:
        by.setdefault(r["strategy"], []).append(r)
    mutants = {r["mutant"] for r in rows}
    packages = {r["package"] for r in rows}
    print(f"{len(mutants)} mutants across {len(packages)} packages ({', '.join(sorted(packages))})")
    print(
        f"{'strategy':<13} {'repaired':>9} {'share':>6} {'claimed':>8} {'broke a test':>13} "
        f"{'s/repair':>9} {'tokens':>7} {'errors':>7}"
    )
    for name, rs in by.items():
        n = len(rs)
        fixed = sum(r["repaired"] for r in rs)
        print(
            f"{name:<13} {fixed:>9} {fixed / n:>6.0%} {sum(r['claimed'] for r in rs):>8} "
            f"{sum(bool(r['broke']) for r in rs):>13} {sum(r['seconds'] for r in rs) / n:>9.1f} "
            f"{sum(r['tokens'] for r in rs) / n:>7.0f} {sum(bool(r['error']) for r in rs):>7}"
        )


if __name__ == "__main__":
    sys.exit(main())
