"""The tests replies of user-style tasks, kept, and read by whichever localcode is on the path.

Run: .venv/bin/python bench/tests_replies.py docs/bench/task-trials/tasks docs/bench/task-trials/tasks2
         [--model qwen2.5-coder-1.5b] [--out runs/tests-replies.jsonl]
     PYTHONPATH=/path/to/an/older/checkout/src .venv/bin/python bench/tests_replies.py ... (the
     same --out: nothing is written again, the kept replies are read by that code)

Folders of tasks: NAME.txt (the task as a user writes it) and NAME_solution.py (a right
program). Each task's tests reply is written once as the loop writes it (today's prompt; assert
lines begun for the model, or test functions for a class; greedy, one engine slot, stopped at
the fifth case or where it loops; bench/raises_tests_ab.py's `write`) and kept in --out with its
seconds. Then every kept reply is read as the loop reads it, and its cases run against the
right program. Prints per task the cases read and the cases right, and the totals: replies from
which no test was read (the loop asks such a reply once more, at temperature 0.7: a second
reply's time), cases, cases right, seconds a reply. Reading the same replies with two checkouts
compares two ways of reading tests, with no model run between them.

Measured: see docs/BENCHMARKS.md, "Tests written as a unittest class".
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from raises_tests_ab import cases, row_of, write, write_rows

from localcode import prompts
from localcode.backends.local import LocalBackend
from localcode.loop import N_TESTS
from localcode.task import parse_task


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", type=Path, nargs="+")
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--out", type=Path, default=Path("runs/tests-replies.jsonl"))
    args = ap.parse_args()
    tasks = {
        f"{folder.name}/{p.stem}": p
        for folder in args.folders
        for p in sorted(folder.glob("*.txt"))
        if (folder / f"{p.stem}_solution.py").is_file()
    }
    if not tasks:
        sys.exit(
            f"error: no NAME.txt with a NAME_solution.py in {', '.join(map(str, args.folders))}"
        )
    done: dict[str, dict[str, Any]] = {}
    if args.out.exists():
        done = {r["task"]: r for r in map(json.loads, args.out.read_text().splitlines())}
    todo = [k for k in tasks if k not in done]

    def today(backend: LocalBackend, i: int, key: str) -> dict[str, Any]:
        task = parse_task(tasks[key].read_text())
        entry, style = row_of(task)
        msgs = prompts.tests_prompt(task.text, entry, N_TESTS, style)
        return {"task": key, "entry": entry, "style": style, **write(backend, msgs, entry, style)}

    done.update(write_rows(todo, args.out, args.model, today))
    none = n_cases = right = 0
    for key, path in tasks.items():
        solution = path.with_name(f"{path.stem}_solution.py").read_text()
        got = cases(done[key]["reply"], done[key]["entry"], solution)
        none += got["cases"] == 0
        n_cases, right = n_cases + got["cases"], right + got["right"]
        print(f"    {key:<28} {done[key]['style']:<9} {got['cases']} cases, {got['right']} right")
    secs = sum(float(done[k]["seconds"]) for k in tasks) / len(tasks)
    print(
        f"{len(tasks)} tasks: {none} replies with no test read (asked again in the loop); "
        f"{right} of {n_cases} cases right; {secs:.1f} s a reply"
    )


if __name__ == "__main__":
    main()
