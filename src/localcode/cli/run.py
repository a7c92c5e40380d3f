"""`localcode [flags]`: run the agent on one task and show the result."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .. import __version__
from ..backends import provider
from ..config import AgentConfig
from ..errors import UsageError
from ..loop import solve
from ..task import read_text_file
from .commands import COMMANDS
from .common import (
    EXIT_NO_PASS,
    EXIT_PASS,
    Parser,
    add_backend_args,
    add_loop_args,
    add_sandbox_args,
    agent_config,
)
from .progress import Progress, print_summary

DEFAULT_TASK = (
    "Write a function `second_largest_unique(nums)` that returns the second largest unique "
    "number in a list, or None if fewer than two unique values exist."
)


LOOP_HELP = {
    "--max-iters": "max rounds, round 0 included (default 3)",
    "--n-candidates": "best-of-N width: candidates per round (default 4)",
    "--temperature": "sampling temperature for candidates (default 0.8)",
    "--seed": "base seed; candidate i of round r gets seed + r*N + i",
    "--ranking": "codet: agreement between candidates and tests (default); "
    "plain: the prototype's pass fraction",
    "--later-rounds": "rounds after the first, while the best fails: fresh: all fresh samples; "
    "mixed: half fixes of the best, half fresh; fix: all fixes (the prototype); auto (default): "
    "mixed when starting from --code, else fresh",
    "--no-examples": "don't hold candidates to the examples the task shows (`>>> f(2)`, `f(2) == 4`)",
    "--no-greedy": "round 0 samples every candidate; by default its first is the temperature-0 reply",
    "--no-judge": "don't ask the model which result is right where candidates disagree on an input",
    "--no-reference": "round 0 asks for no brute-force reference program (by default one of N "
    "at N >= 3; a pass it contradicts is not claimed)",
    "--all-rounds": "draw rounds up to --max-iters while nothing passes; by default a run "
    "ends after a round that changed neither the best's behaviour nor its score, and draws no "
    "fresh round for a best that passes every trusted test and some generated ones",
    "--all-samples": "round 0 samples all N candidates at once; by default it draws the greedy "
    "reply and the brute-force reference first, and the other N-2 only when those two fail a "
    "test or return different values on some input",
    "--max-tokens": "max tokens per generated reply (default 1024)",
}


def build_parser() -> argparse.ArgumentParser:
    """The main command's flags; the prototype's flags keep their names and meanings."""
    p = Parser(
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
    add_loop_args(loop, LOOP_HELP)
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


def config_from_args(args: argparse.Namespace) -> AgentConfig:
    """AgentConfig from parsed flags, validated."""
    return agent_config(
        args,
        n_candidates=args.n_candidates,
        max_iters=args.max_iters,
        temperature=args.temperature,
        seed=args.seed,
        max_tokens=args.max_tokens,
        max_test_tokens=args.max_tokens,
        ranking=args.ranking,
        later_rounds=args.later_rounds,
        examples=args.examples,
        greedy=args.greedy,
        judge=args.judge,
        reference=args.reference,
        stop_unchanged=args.stop_unchanged,
        agree_first=args.agree_first,
    )


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


def main(argv: Sequence[str]) -> int:
    """`localcode [flags]`: run the agent on a task."""
    args = build_parser().parse_args(argv)
    if args.list_ollama_models:
        return list_ollama_models(provider("ollama").options(vars(args)).url)
    cfg = config_from_args(args)
    task = read_task(args)
    if args.output:
        _check_writable(args.output)
    tests = read_text_file(args.tests, "Tests file") if args.tests else None
    progress = None if args.quiet else Progress(sys.stderr, cfg.n_candidates, args.verbose)
    code = read_text_file(args.code, "Code file") if args.code else None
    try:
        result = solve(task, cfg, on_event=progress, tests=tests, code=code)
    finally:
        if progress is not None:
            progress.close()
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
    from ..backends.ollama import format_size, list_models

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
