"""The strategies compared: one greedy sample, plain best-of-N, the prototype's loop, localcode's loop."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from .. import disputes, prompts
from ..backends import Backend
from ..config import AgentConfig
from ..errors import BackendError
from ..extract import extract_code
from ..loop import solve
from ..probes import behaviour
from ..records import Candidate, Round
from .problems import Problem


@dataclass
class Attempt:
    """What a strategy produced for one problem, before judging."""

    code: str
    self_reported: bool | None  # claims its code passes all its own tests; None: makes no claim
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    rounds: int | None = None
    notes: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)  # every code it produced, chosen or not
    winner: str | None = None  # how the chosen code was made: "r1c2 fix" (round, index, origin)
    spent: dict[str, dict[str, float]] | None = None  # seconds and tokens by phase; loops only
    history: list[dict[str, Any]] | None = None  # each round's kind and best so far; loops only
    round_bests: list[str] = field(default_factory=list)  # each round's best code; loops only
    codes: dict[str, str] = field(default_factory=dict)  # every candidate's code by its label


Strategy = Callable[[Problem, AgentConfig, Backend], Attempt]


def greedy(problem: Problem, cfg: AgentConfig, backend: Backend) -> Attempt:
    """One chat request at temperature 0 asking for the whole function in a python block."""
    messages = prompts.code_prompt(problem.prompt, problem.entry_point)
    reply = backend.complete(
        messages, n=1, temperature=0.0, seed=cfg.seed, max_tokens=cfg.max_tokens
    )[0]
    if reply.error:
        raise BackendError(f"Greedy sample failed: {reply.error}")
    notes = ["reply cut at --max-tokens"] if reply.finish_reason == "length" else []
    code = extract_code(reply.text, problem.entry_point)
    return Attempt(
        code=code,
        self_reported=None,
        prompt_tokens=reply.prompt_tokens,
        completion_tokens=reply.completion_tokens,
        notes=notes,
        candidates=[code],
    )


def _loop(problem: Problem, cfg: AgentConfig, backend: Backend, **changes: Any) -> Attempt:
    result = solve(problem.prompt, replace(cfg, **changes), backend=backend)
    by_label = {c.label: c.code for r in result.rounds for c in r.candidates}
    return Attempt(
        code=result.final_code,
        self_reported=result.passed,
        prompt_tokens=result.prompt_tokens,
        completion_tokens=result.completion_tokens,
        rounds=result.rounds_used,
        notes=[*result.notes, *(f"judged: {d.describe()}" for d in result.disputes)],
        candidates=[c.code for r in result.rounds for c in r.candidates if c.code],
        winner=f"{result.best.label} {result.best.origin}" if result.best else None,
        spent={k: {"seconds": v.seconds, "tokens": v.tokens} for k, v in result.spent.items()},
        history=[_round_summary(r) for r in result.rounds],
        round_bests=[by_label.get(r.best_label or "", "") for r in result.rounds],
        codes=by_label,
    )


def _round_summary(rnd: Round) -> dict[str, Any]:
    """What a round left: its kind, the best so far and what stood against it."""
    return {
        "kind": rnd.kind,
        "best": rnd.best_label,
        "score": round(rnd.best_score, 3),
        "agree": rnd.agree,
        "rival": rnd.rival,
        "programs": rnd.programs,
        "suspect": rnd.suspect_tests,
        "trusted": rnd.best_trusted,
        "candidates": [_candidate_summary(c) for c in rnd.candidates],
    }


def _candidate_summary(c: Candidate) -> dict[str, Any]:
    """A candidate as a stopping or selection rule sees it: how it was made, the generated
    tests it passes, whether it passes every trusted one, and its behaviour group (equal for
    candidates that return the same on every probe and changed input; None: none ran), so
    that such a rule can be replayed on a run's results without the model."""
    seen = disputes.signature(c) if behaviour(c.probe_run) is not None else None
    return {
        "label": c.label,
        "origin": c.origin,
        "passed": c.run.passed if c.run else 0,
        "total": c.run.total if c.run else 0,
        "trusted": c.passes_trusted if c.trusted_runs else None,
        "group": hashlib.sha256(repr(seen).encode()).hexdigest()[:10] if seen else None,
    }


# every candidate sampled, nothing judged, no reference, every round drawn: as the prototype
_PROTOTYPE = {"greedy": False, "judge": False, "reference": False, "stop_unchanged": False}


def best_of_n(problem: Problem, cfg: AgentConfig, backend: Backend) -> Attempt:
    """Plain best-of-N: tests, one round of N candidates, best by pass fraction."""
    return _loop(problem, cfg, backend, ranking="plain", max_iters=1, examples=False, **_PROTOTYPE)


def prototype(problem: Problem, cfg: AgentConfig, backend: Backend) -> Attempt:
    """The prototype's loop: plain ranking, later rounds repair the best."""
    return _loop(
        problem, cfg, backend, ranking="plain", later_rounds="fix", examples=False, **_PROTOTYPE
    )


def localcode(problem: Problem, cfg: AgentConfig, backend: Backend) -> Attempt:
    """localcode's loop: the task's examples as trusted tests (unless --no-examples), CodeT
    ranking, later rounds of fresh samples (the default for a task without --code)."""
    return _loop(problem, cfg, backend, ranking="codet", later_rounds="auto")


STRATEGIES: dict[str, Strategy] = {
    "greedy": greedy,
    "best-of-n": best_of_n,
    "prototype": prototype,
    "localcode": localcode,
}
