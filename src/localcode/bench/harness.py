"""Run strategies over problems on one shared backend, judge each answer, append one line each."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..backends import Backend, options_of
from ..config import AgentConfig
from ..errors import BackendError, BackendUnavailable, GenerationError, UsageError
from ..sandbox import Limits
from .judge import judge
from .problems import Problem
from .results import Outcome, append_result, load_results, settings_for
from .strategies import STRATEGIES, Attempt

RESULTS_FILE = "results.jsonl"


@dataclass(frozen=True)
class Progress:
    """Reported after each (strategy, problem): the outcome and whether it was already done."""

    outcome: Outcome
    done: int
    total: int
    resumed: bool


ProgressHandler = Callable[[Progress], None]


def bench_settings(cfg: AgentConfig, model: str) -> dict[str, Any]:
    """What must match for results to be compared or resumed."""
    settings = {
        "model": model,
        "backend": cfg.backend,
        "n_candidates": cfg.n_candidates,
        "max_iters": cfg.max_iters,
        "seed": cfg.seed,
        "temperature": cfg.temperature,
        "max_tokens": cfg.max_tokens,
        "timeout": cfg.timeout,
        "sandbox": cfg.sandbox,
        "examples": cfg.examples,  # localcode's loop only; the prototype's never uses them
    }
    ctx_size = getattr(options_of(cfg), "ctx_size", None)  # for backends with a window
    return settings if ctx_size is None else {**settings, "ctx_size": ctx_size}


def run_bench(
    problems: Sequence[Problem],
    strategies: Sequence[str],
    cfg: AgentConfig,
    backend: Backend,
    out_dir: Path,
    *,
    model: str,
    on_progress: ProgressHandler | None = None,
) -> list[Outcome]:
    """Every strategy on every problem (problem by problem, so a stopped run stays comparable).

    Lines already in `out_dir/results.jsonl` are reused, not rerun. Returns the outcomes in
    problem order, then strategy order.
    """
    unknown = [s for s in strategies if s not in STRATEGIES]
    if unknown:
        raise UsageError(
            f"Unknown strategy {', '.join(unknown)}; choose from: {', '.join(STRATEGIES)}."
        )
    settings = bench_settings(cfg, model)
    path = out_dir / RESULTS_FILE
    done = load_results(path, settings, strategies)
    report = on_progress or (lambda p: None)
    limits = Limits(timeout=cfg.timeout, isolation=cfg.sandbox)
    outcomes: list[Outcome] = []
    total = len(problems) * len(strategies)
    for problem in problems:
        for name in strategies:
            outcome = done.get((name, problem.task_id))
            resumed = outcome is not None
            if outcome is None:
                outcome = run_one(name, problem, cfg, backend, limits)
                outcome.settings = settings_for(name, settings)
                append_result(path, outcome)
            outcomes.append(outcome)
            report(Progress(outcome, len(outcomes), total, resumed))
    return outcomes


def run_one(
    name: str, problem: Problem, cfg: AgentConfig, backend: Backend, limits: Limits
) -> Outcome:
    """One strategy on one problem, timed, then judged on the hidden tests.

    A strategy that ends with no answer (no tests written, a request refused for good) is a
    recorded failure; a sandbox failure or an unavailable backend stops the run instead.
    """
    started = time.monotonic()
    try:
        attempt = STRATEGIES[name](problem, cfg, backend)
        error = None
    except (GenerationError, BackendError) as exc:
        if isinstance(exc, BackendUnavailable) or (isinstance(exc, BackendError) and exc.retryable):
            raise  # not the strategy's fault: stop, and the rerun resumes here
        attempt, error = Attempt(code="", self_reported=None), str(exc)
    seconds = time.monotonic() - started
    run = judge(problem, attempt.code, limits)
    known = {attempt.code: run.all_passed}  # code -> passes the hidden tests, judged once

    def passes(code: str) -> bool:
        if code not in known:
            known[code] = judge(problem, code, limits).all_passed
        return known[code]

    history = _judge_rounds(attempt, passes)
    return Outcome(
        strategy=name,
        task_id=problem.task_id,
        hidden_passed=run.all_passed,
        self_reported=attempt.self_reported,
        seconds=round(seconds, 3),
        prompt_tokens=attempt.prompt_tokens,
        completion_tokens=attempt.completion_tokens,
        rounds=attempt.rounds,
        error=error,
        hidden_detail=_detail(run.error, [f.message for f in run.failures()]),
        final_code=attempt.code,
        notes=attempt.notes,
        missed=not run.all_passed and _another_passes(attempt, passes),
        winner=attempt.winner,
        spent=attempt.spent,
        history=history,
    )


def _judge_rounds(attempt: Attempt, passes: Callable[[str], bool]) -> list[dict[str, Any]] | None:
    """Each round's summary with whether its best so far passes the hidden tests
    ("best_hidden"): which later rounds turned a wrong answer into a right one, or back; and
    the same for each of its candidates ("hidden"), for replaying a rule for drawing them."""
    if attempt.history is None or len(attempt.round_bests) != len(attempt.history):
        return attempt.history
    return [
        {
            **summary,
            "best_hidden": passes(code) if code else None,
            "candidates": [
                _judged(c, attempt.codes, passes) for c in summary.get("candidates", [])
            ],
        }
        for summary, code in zip(attempt.history, attempt.round_bests, strict=True)
    ]


def _judged(
    cand: dict[str, Any], codes: dict[str, str], passes: Callable[[str], bool]
) -> dict[str, Any]:
    code = codes.get(cand["label"], "")
    return {**cand, "hidden": passes(code) if code.strip() else None}


def _another_passes(attempt: Attempt, passes: Callable[[str], bool]) -> bool:
    """Whether any candidate the strategy did not choose passes the hidden tests."""
    others = dict.fromkeys(c for c in attempt.candidates if c.strip() and c != attempt.code)
    return any(passes(code) for code in others)


def _detail(error: str | None, messages: list[str], limit: int = 400) -> str:
    text = error or next((m for m in messages if m), "")
    return text[:limit]
