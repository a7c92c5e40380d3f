"""What one candidate's private copy of a project costs: the overlay view `localcode fix` uses,
side by side with a plain copy and a hard-link copy of the same tree, in one run.

Run: .venv/bin/python bench/fix_copy.py [--files 2000] [--repeat 10]

The overlay figure is the view itself (a mount namespace, a tmpfs, the edited file written into
the upper layer, the overlay mount), timed in a forked child as the jail does it. The last line is
a whole sandboxed run of `true` (a process started, the view, every lock-down layer), for scale.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from localcode.sandbox import confine
from localcode.sandbox.project import run_command


def make_tree(root: Path, n: int) -> str:
    """`n` small Python files in nested packages, like a mid-sized project; one to edit."""
    for i in range(n):
        d = root / f"pkg{i // 200}" / f"sub{(i // 20) % 10}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"mod{i}.py").write_text(
            f'"""Module {i}."""\n\n\ndef f{i}(x):\n    return x + {i}\n' * 20
        )
    return "pkg0/sub0/mod0.py"


def overlay_view(root: str, edited: str) -> float:
    """Seconds to build one view, in a child (its namespace and mounts go with it)."""
    scratch = tempfile.mkdtemp(prefix="localcode-view-")
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child only mounts and reports; it never unwinds into the parent's code
        try:
            os.close(r)
            started = time.perf_counter()
            confine.unshare(confine.CLONE_NEWNS)
            confine.keep_mounts_private()
            confine.mount_tmpfs(scratch, 64)
            upper, work = os.path.join(scratch, "upper"), os.path.join(scratch, "work")
            os.mkdir(upper)
            os.mkdir(work)
            os.makedirs(os.path.join(upper, os.path.dirname(edited)))
            Path(upper, edited).write_text("def f0(x):\n    return x\n")
            confine.mount_overlay(root, root, upper, work)
            os.write(w, f"{time.perf_counter() - started}".encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        seconds = float(f.read() or "nan")
    os.waitpid(pid, 0)
    os.rmdir(scratch)
    return seconds


def timed(action) -> float:  # noqa: ANN001
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="localcode-copy-bench-") as base:
        root = Path(base, "project")
        edited = make_tree(root, args.files)
        size = sum(p.stat().st_size for p in root.rglob("*.py")) >> 10
        rows: dict[str, list[float]] = {
            "plain copy (shutil.copytree)": [],
            "hard-link copy (cp -al)": [],
            "overlay view (localcode fix)": [],
            "whole sandboxed run of `true`": [],
        }
        for i in range(args.repeat):
            dest = Path(base, f"copy{i}")
            rows["plain copy (shutil.copytree)"].append(
                timed(lambda d=dest: shutil.copytree(root, d))
            )
            shutil.rmtree(dest)
            rows["hard-link copy (cp -al)"].append(
                timed(lambda d=dest: subprocess.run(["cp", "-al", str(root), str(d)], check=True))
            )
            shutil.rmtree(dest)
            rows["overlay view (localcode fix)"].append(overlay_view(str(root), edited))
            rows["whole sandboxed run of `true`"].append(
                timed(lambda: run_command("true", root, {edited: "x = 1\n"}))
            )
        print(f"{args.files} files ({size} KiB), median of {args.repeat}")
        base_ms = statistics.median(rows["plain copy (shutil.copytree)"]) * 1000
        for name, values in rows.items():
            ms = statistics.median(values) * 1000
            print(f"  {name:<32} {ms:8.1f} ms   {base_ms / ms:6.1f}x faster than a plain copy")


if __name__ == "__main__":
    main()
