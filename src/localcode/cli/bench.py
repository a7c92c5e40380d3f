"""`localcode bench`: strategies side by side on HumanEval or a problem file."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from ..backends import create_backend, options_of, provider
from ..bench.harness import RESULTS_FILE, Progress, bench_settings, run_bench
from ..bench.problems import Problem, load_problems, select_problems
from ..bench.report import format_table, summarize, write_chart, write_summary
from ..bench.results import load_results
from ..bench.strategies import STRATEGIES
from ..config import AgentConfig
from ..errors import UsageError
from .common import Parser, add_backend_args, add_loop_args, add_sandbox_args, agent_config

SUMMARY_FILE, CHART_FILE = "summary.json", "pass_rate.png"


LOOP_HELP = {
    "--n-candidates": "N per round (default 4)",
    "--max-iters": "rounds of the loops (default 3)",
    "--seed": "base seed, the same for every strategy",
    "--no-examples": "localcode's loop without the task's examples as trusted tests (as before 0.1.0)",
    "--all-samples": "localcode's round 0 samples all N at once (by default it draws the "
    "other N-2 only where the greedy reply and the reference disagree or fail a test)",
}


def build_parser() -> argparse.ArgumentParser:
    """The bench flags; the backend flags are the main command's."""
    p = Parser(
        prog="localcode bench",
        description="Run strategies side by side on HumanEval (or --problems FILE), judge each "
        "final answer on the hidden tests, and tabulate. Reruns resume.",
    )
    run = p.add_argument_group("benchmark")
    run.add_argument(
        "--strategies",
        default=",".join(STRATEGIES),
        help=f"comma-separated, from: {', '.join(STRATEGIES)} (default all)",
    )
    run.add_argument("--problems", metavar="FILE", help="JSONL problems (default: HumanEval)")
    run.add_argument(
        "--ids", default="", help="comma-separated task ids, e.g. HumanEval/0,HumanEval/5"
    )
    run.add_argument("--limit", type=int, default=None, help="only the first K problems")
    run.add_argument("--out", metavar="DIR", help="results folder (default runs/bench-<model>)")
    run.add_argument("--no-chart", action="store_true", help="skip the PNG chart")
    run.add_argument(
        "--report",
        action="store_true",
        help="run nothing: tabulate the results already in --out (same flags as the run) "
        "and redraw its chart",
    )
    run.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    loop = p.add_argument_group("loop")
    add_loop_args(loop, LOOP_HELP)
    add_sandbox_args(loop)
    add_backend_args(p)
    return p


def model_label(cfg: AgentConfig) -> str:
    """A file-name-safe name of the model under test."""
    return provider(cfg.backend).label_of(options_of(cfg))


def main(argv: Sequence[str]) -> int:
    """Parse flags, run the harness on one shared backend, print the table, write the files."""
    args = build_parser().parse_args(argv)
    cfg = agent_config(
        args,
        n_candidates=args.n_candidates,
        max_iters=args.max_iters,
        seed=args.seed,
        examples=args.examples,
        agree_first=args.agree_first,
    )
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    ids = [i.strip() for i in args.ids.split(",") if i.strip()]
    problems = select_problems(load_problems(args.problems), ids, args.limit)
    label = model_label(cfg)
    out_dir = Path(args.out or f"runs/bench-{label}")
    if args.report:
        chart = None if args.no_chart else out_dir / CHART_FILE
        return _report(problems, strategies, cfg, out_dir, label, chart)
    progress = None if args.quiet else _print_progress
    backend = create_backend(cfg)
    try:
        outcomes = run_bench(
            problems, strategies, cfg, backend, out_dir, model=label, on_progress=progress
        )
    finally:
        backend.close()
    rows = summarize(outcomes, strategies)
    source = args.problems or "HumanEval"
    meta = {
        "model": label,
        "problems": source,
        "task_ids": [p.task_id for p in problems],
        "settings": {
            "n_candidates": cfg.n_candidates,
            "max_iters": cfg.max_iters,
            "seed": cfg.seed,
        },
    }
    write_summary(out_dir / SUMMARY_FILE, rows, meta)
    if not args.no_chart:
        title = f"{label}: {len(problems)} problems of {Path(source).name}, N={cfg.n_candidates}"
        write_chart(out_dir / CHART_FILE, rows, title)
    print(
        f"{label} on {len(problems)} problems of {source} (N={cfg.n_candidates}, seed {cfg.seed})"
    )
    print(format_table(rows), end="")
    print(f"results: {out_dir / 'results.jsonl'}")
    return 0


def _report(
    problems: Sequence[Problem],
    strategies: list[str],
    cfg: AgentConfig,
    out_dir: Path,
    label: str,
    chart: Path | None,
) -> int:
    """Tabulate what a (perhaps unfinished) run left in out_dir and redraw its chart, on the
    problems every strategy has finished (like with like); run nothing, append nothing."""
    path = out_dir / RESULTS_FILE
    done = load_results(path, bench_settings(cfg, label), strategies)
    outcomes = [
        done[(s, p.task_id)] for p in problems for s in strategies if (s, p.task_id) in done
    ]
    if not outcomes:
        raise UsageError(
            f"No results for these problems and strategies in {path} yet; run without --report."
        )
    print(f"{label}: results in {path} for {len(problems)} selected problems")
    print(format_table(summarize(outcomes, strategies)), end="")
    common = {p.task_id for p in problems if all((s, p.task_id) in done for s in strategies)}
    shared = summarize([o for o in outcomes if o.task_id in common], strategies)
    counts = {sum(o.strategy == s for o in outcomes) for s in strategies}
    if len(counts) > 1:  # the strategies got through different problems: compare like with like
        print(f"\non the {len(common)} problems every strategy has finished:")
        print(format_table(shared), end="")
    if chart is not None and common:
        write_chart(chart, shared, f"{label}: the {len(common)} problems every strategy finished")
        print(f"chart: {chart}")
    elif chart is not None:
        print("no chart: no problem has results from every strategy yet")
    return 0


def _print_progress(p: Progress) -> None:
    o = p.outcome
    verdict = "pass" if o.hidden_passed else "FAIL"
    claim = {True: ", claimed pass", False: ", claimed no pass", None: ""}[o.self_reported]
    tokens = f", {o.tokens} tokens" if o.tokens is not None else ""
    how = "already done" if p.resumed else f"{o.seconds:.1f}s{tokens}"
    err = f"  ({o.error.splitlines()[0][:120]})" if o.error else ""
    print(
        f"[{p.done}/{p.total}] {o.task_id} {o.strategy}: {verdict}{claim} ({how}){err}",
        file=sys.stderr,
        flush=True,
    )
