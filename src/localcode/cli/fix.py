"""`localcode fix --test-cmd CMD`: make a project's failing tests pass, edits ranked by its tests."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from ..backends import Backend, create_backend
from ..errors import UsageError
from ..fix import FixResult, FixSettings, Workspace, fix
from ..sandbox.records import ISOLATIONS
from .common import EXIT_NO_PASS, EXIT_PASS, Parser, add_backend_args, add_loop_args, agent_config

LOOP_HELP = {
    "--n-candidates": "edits sampled per round (default 4)",
    "--max-iters": "max rounds, round 0 included (default 3)",
    "--temperature": "sampling temperature for edits (default 0.8)",
    "--seed": "base seed; edit i of round r gets seed + r*N + i",
    "--no-greedy": "round 0 samples every edit; by default its first is the temperature-0 reply",
    "--max-tokens": "max tokens per edit (default 1024)",
}


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="localcode fix",
        description="In a git project: run the test command in the sandbox, sample N edits of "
        "the code its failures point at, run the command on each edit in its own private view "
        "of the project, keep the edit that fixes the most failing tests and breaks none. "
        "Prints the diff; writes nothing unless --apply.",
    )
    p.add_argument(
        "--test-cmd",
        required=True,
        metavar="CMD",
        help="the project's test command, e.g. 'pytest -x tests/test_parser.py'",
    )
    p.add_argument(
        "--files",
        nargs="+",
        default=[],
        metavar="FILE",
        help="edit only these files (default: the project's files in the failures)",
    )
    p.add_argument(
        "--apply",
        action="store_true",
        help="write the chosen edit into the work tree (only files without uncommitted changes)",
    )
    p.add_argument(
        "--project",
        default=".",
        metavar="DIR",
        help="a directory in the project's git work tree; the command runs there (default .)",
    )
    p.add_argument(
        "--python",
        metavar="PATH",
        help="the project's Python (its venv's bin/python; default: the active venv)",
    )
    p.add_argument(
        "--test-timeout",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="wall seconds for one run of the test command (default 120)",
    )
    p.add_argument(
        "--no-locate",
        dest="locate",
        action="store_false",
        help="skip the traced run that ranks the lines the failing tests single out (pytest "
        "commands only; it costs one more run of the tests)",
    )
    p.add_argument(
        "--no-rewrite-lines",
        dest="rewrite_lines",
        action="store_false",
        help="skip writing the singled-out lines anew (fill-in-the-middle) and ask for whole "
        "edits at once",
    )
    p.add_argument(
        "--sandbox",
        choices=ISOLATIONS,
        default="auto",
        help="auto: every isolation layer this machine allows (default); strict: refuse without "
        "them; none: a plain copy of the project, no isolation (trusted code only)",
    )
    add_loop_args(p.add_argument_group("loop"), LOOP_HELP)
    add_backend_args(p)
    out = p.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    out.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    return p


def main(argv: Sequence[str]) -> int:
    """Find the failing tests, rank N edits by them, print the best; --apply writes it."""
    args = build_parser().parse_args(argv)
    if not args.test_timeout > 0:
        raise UsageError(
            f"--test-timeout must be a positive number of seconds (got {args.test_timeout})."
        )
    args.timeout = args.test_timeout
    cfg = agent_config(
        args,
        n_candidates=args.n_candidates,
        max_iters=args.max_iters,
        temperature=args.temperature,
        seed=args.seed,
        max_tokens=args.max_tokens,
        greedy=args.greedy,
    )
    if args.python and not os.access(args.python, os.X_OK):
        raise UsageError(f"--python {args.python}: not an executable; give the venv's bin/python.")
    ws = Workspace.open(args.project)
    files = [ws.own_file(f) for f in args.files]
    dirty = ws.dirty(files) if args.apply else []
    if dirty:
        raise UsageError(
            f"--apply: uncommitted changes in {', '.join(dirty)}; commit or stash "
            "them first (nothing was run)."
        )
    settings = FixSettings(
        n_candidates=cfg.n_candidates,
        max_iters=cfg.max_iters,
        temperature=cfg.temperature,
        seed=cfg.seed,
        max_tokens=cfg.max_tokens,
        greedy=cfg.greedy,
        test_timeout=args.test_timeout,
        isolation=cfg.sandbox,
        python=args.python,
        locate=args.locate,
        rewrite_lines=args.rewrite_lines,
    )
    quiet = args.quiet or args.json
    say = None if quiet else (lambda msg: print(msg, file=sys.stderr, flush=True))
    opened: list[Backend] = []

    def connect() -> Backend:
        opened.append(create_backend(cfg))
        return opened[0]

    try:
        result = fix(ws, args.test_cmd, connect, settings, files, on_progress=say)
    finally:
        for backend in opened:
            backend.close()
    refusal = None
    if args.apply and result.best is not None:
        try:
            ws.apply(result.best.files)
            result.applied = True
        except UsageError as exc:  # shown after the result, so the diff is not lost
            refusal = exc
    if args.json:
        json.dump(result.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print_fix(result, sys.stdout, args.apply)
    if refusal is not None:
        raise refusal
    return EXIT_PASS if result.repaired or not result.failing_before else EXIT_NO_PASS


def print_fix(result: FixResult, out: TextIO, apply: bool) -> None:
    """The text report: before, what was edited, the verdict, the tests, the diff, the time."""
    if not result.failing_before:
        print(f"Nothing fails: `{result.command}` passes ({result.passed_before} tests).", file=out)
        return
    best = result.best
    print(
        f"before:  {len(result.failing_before)} failing, {result.passed_before} passing", file=out
    )
    if result.suspects:
        print("suspect: " + result.suspects[0], file=out)
        for line in result.suspects[1:3]:
            print(f"         {line}", file=out)
    elif result.locate_note:
        print(f"suspect: none - {result.locate_note}", file=out)
    if result.lines_note:
        print(f"lines:   {result.lines_note}", file=out)
    if result.units:
        print("edited:  " + "; ".join(result.units), file=out)
    else:
        print(f"edited:  only lines written anew - {result.units_note}", file=out)
    if best is None:
        print("result:  NO FIX - no edit fixed a failing test without breaking another", file=out)
    else:
        state = "REPAIRED - every test passes" if result.repaired else "PARTIAL - tests still fail"
        print(f"result:  {state} ({len(best.fixed)} fixed, 0 broken)", file=out)
    fixed = best.fixed if best else []
    for title, tests in (("fixed", fixed), ("still failing", result.still_failing())):
        if tests:
            print(f"tests {title}:", file=out)
            for t in tests:
                print(f"  {t}", file=out)
    if result.diff:
        print("\n" + result.diff.rstrip(), file=out)
    if best is not None:
        where = ", ".join(sorted(best.files))
        hint = "not applied" if apply else "not applied: run again with --apply to write it"
        print(f"\n{f'applied to {where}' if result.applied else hint}", file=out)
    spent = result.spent
    tested = [t for r in result.rounds for t in r.tries if t.tested]
    alone = sum(t.only_failing for t in tested)
    print(
        f"time:    baseline {spent.get('baseline', 0):.1f} s, "
        + (f"traced run {spent['locate']:.1f} s, " if "locate" in spent else "")
        + f"model {spent.get('generation', 0):.1f} s, tests {spent.get('tests', 0):.1f} s"
        + (f" ({alone} of {len(tested)} edits ran only the failing tests)" if alone else "")
        + (
            f" (every edit ran the whole command: {result.failing_first_note})"
            if result.failing_first_note
            else ""
        )
        + f"; {result.tokens} tokens",
        file=out,
    )
