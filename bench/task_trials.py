"""Tasks as users write them, through the whole loop, each scored by a check the loop never sees.

Run: .venv/bin/python bench/task_trials.py docs/bench/task-trials/tasks --tag TAG
         [--out DIR] [--localcode "COMMAND"] [--score-only] [NAME ...]
     .venv/bin/python bench/task_trials.py FOLDER [FOLDER ...] --jsonl FILE

A folder of tasks: NAME.txt, the task as a user writes it (a sentence, a signature with a
docstring, a class), and NAME_check.py, pytest tests of what the task states (its exceptions
included). Each task runs through `localcode --task-file NAME.txt --json` (the default model and
settings; --localcode names another command, an older checkout's for an A/B), one at a time; the
reply is kept as OUT/NAME.TAG.json and the run's wall seconds as OUT/NAME.TAG.time (a task
already there is not run again: --score-only runs none). The final code then runs against the
check in the sandbox. Prints per task whether the check passed, whether a pass was claimed, the
score, rounds and seconds, then the totals: passed, claimed, false claims (claimed, and the
check fails), seconds a task; --results keeps those rows with each run's tests and final code.

--jsonl runs nothing: it writes the tasks of one or more folders as benchmark problems in
HumanEval's JSONL format (task_id FOLDER/NAME; the check's test functions called from
`check(candidate)`), for `localcode bench --problems FILE --strategies greedy,localcode`, which
runs greedy beside the loop and reports passes, false claims, missed, time and tokens.

Measured (docs/bench/task-trials/, 12 tasks whose text says some call raises an exception):
see docs/BENCHMARKS.md, "Tasks that say a call raises".
"""

from __future__ import annotations

import argparse
import ast
import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

from localcode.errors import TaskError
from localcode.sandbox import Limits, run_tests
from localcode.task import parse_task

ROOT = Path(__file__).resolve().parent.parent


def run_task(task: Path, out: Path, tag: str, command: list[str]) -> None:
    """One task through the loop: its JSON reply and wall seconds, kept under `out`."""
    name = task.stem
    started = time.monotonic()
    with (
        (out / f"{name}.{tag}.json").open("w") as reply,
        (out / f"{name}.{tag}.err").open("w") as log,
    ):
        subprocess.run([*command, "--task-file", str(task), "--json"], stdout=reply, stderr=log)
    (out / f"{name}.{tag}.time").write_text(f"{time.monotonic() - started:.2f} s\n")


def seconds(path: Path) -> float | None:
    """The wall seconds kept for a run: the last line's number ("41.97 s", as `time -f` too)."""
    if not path.is_file():
        return None
    lines = path.read_text().split("\n")
    last = [ln for ln in lines if ln.strip()][-1:]
    try:
        return float(last[0].split()[0]) if last else None
    except ValueError:
        return None


def score(name: str, tasks: Path, out: Path, tag: str) -> dict[str, object]:
    """The run of `name` under `tag`: its claim and score, and whether its final code passes
    the task's check."""
    row: dict[str, object] = {"task": name, "seconds": seconds(out / f"{name}.{tag}.time")}
    try:
        reply = json.loads((out / f"{name}.{tag}.json").read_text())
    except (OSError, ValueError):
        return {**row, "error": "no JSON reply (see the .err file)"}
    check = (tasks / f"{name}_check.py").read_text()
    run = run_tests(reply.get("final_code") or "", check, Limits(timeout=30))
    return {
        **row,
        "check": run.all_passed,
        "claimed": bool(reply.get("passed")),
        "score": reply.get("score"),
        "rounds": reply.get("rounds_used"),
        "tests": reply.get("tests"),
        "final_code": reply.get("final_code"),
        "notes": reply.get("notes"),
    }


def problem(task: Path) -> dict[str, str]:
    """A task folder's NAME as one benchmark problem: its text is the prompt, the entry point
    is what its right program (NAME_solution.py) defines last, else what localcode reads from
    the text, and `check(candidate)` runs the check's test functions (which call the entry
    point by its name, as the hidden test module holds the code's names)."""
    text = task.read_text()
    solution = task.parent / f"{task.stem}_solution.py"
    defined = [
        node.name
        for node in (ast.parse(solution.read_text()).body if solution.is_file() else [])
        if isinstance(node, (ast.FunctionDef, ast.ClassDef))
    ]
    entry = defined[-1] if defined else parse_task(text).entry_point
    if entry is None:
        raise TaskError(f"{task}: no function or class name found in the task")
    check = (task.parent / f"{task.stem}_check.py").read_text()
    names = [
        node.name
        for node in ast.parse(check).body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test")
    ]
    calls = "".join(f"    {n}()\n" for n in names)
    return {
        "task_id": f"{task.parent.name}/{task.stem}",
        "prompt": text,
        "entry_point": entry,
        "test": f"{check.rstrip()}\n\n\ndef check(candidate):\n{calls}",
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks", type=Path, help="a folder of NAME.txt and NAME_check.py")
    ap.add_argument("names", nargs="*", help="the tasks to run (default: every one)")
    ap.add_argument("--tag", help="names this run's files (base, new, ...)")
    ap.add_argument("--jsonl", type=Path, help="write the folders' tasks as bench problems")
    ap.add_argument("--out", type=Path, help="where the replies go (default: the tasks folder)")
    ap.add_argument("--localcode", default=f"{ROOT}/.venv/bin/localcode", help="the command")
    ap.add_argument("--score-only", action="store_true", help="run nothing; score what is kept")
    ap.add_argument("--results", type=Path, help="also write the rows here (JSONL, replaced)")
    args = ap.parse_intermixed_args()
    if args.jsonl:  # the positional names are more task folders
        folders = [args.tasks, *map(Path, args.names)]
        tasks = [
            t
            for f in folders
            for t in sorted(f.glob("*.txt"))
            if (f / f"{t.stem}_check.py").is_file()
        ]
        if not tasks:
            sys.exit(f"error: no NAME.txt with a NAME_check.py in {', '.join(map(str, folders))}")
        try:
            problems = [problem(t) for t in tasks]
        except TaskError as e:
            sys.exit(f"error: {e}")
        args.jsonl.write_text("".join(json.dumps(p) + "\n" for p in problems))
        print(f"{len(problems)} problems written to {args.jsonl}")
        return
    if not args.tag:
        sys.exit("error: --tag names the run (or --jsonl FILE writes the tasks as problems)")
    names = args.names or sorted(
        p.stem for p in args.tasks.glob("*.txt") if (args.tasks / f"{p.stem}_check.py").is_file()
    )
    if not names:
        sys.exit(f"error: no NAME.txt with a NAME_check.py in {args.tasks}")
    out = args.out or args.tasks
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in names:
        if not args.score_only and not (out / f"{name}.{args.tag}.time").is_file():
            run_task(args.tasks / f"{name}.txt", out, args.tag, shlex.split(args.localcode))
        rows.append(score(name, args.tasks, out, args.tag))
        r = rows[-1]
        print(
            f"{name:12} "
            + (
                f"error: {r['error']}"
                if "error" in r
                else f"check {'pass' if r['check'] else 'FAIL'}, claimed {'yes' if r['claimed'] else 'no'}, "
                f"score {r['score']}, rounds {r['rounds']}, {r['seconds']} s"
            ),
            flush=True,
        )
    if args.results:
        args.results.write_text("".join(json.dumps({"tag": args.tag, **r}) + "\n" for r in rows))
    done = [r for r in rows if "error" not in r]
    timed = [float(str(r["seconds"])) for r in done if r["seconds"] is not None]
    print(
        f"\n{args.tag}: {len(done)} tasks: check passed {sum(bool(r['check']) for r in done)}, "
        f"claimed {sum(bool(r['claimed']) for r in done)}, false claims "
        f"{sum(bool(r['claimed']) and not r['check'] for r in done)}, "
        f"{sum(timed) / max(1, len(timed)):.1f} s a task"
    )


if __name__ == "__main__":
    main()
