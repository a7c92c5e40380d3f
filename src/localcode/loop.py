"""The agent loop: tests first, N candidates per round, keep the best, fix until it passes."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from . import prompts
from .backends import Backend, Completion, Message, create_backend
from .config import AgentConfig
from .errors import BackendError, BackendUnavailable, GenerationError, PromptTooLong
from .extract import defined_names, drop_definitions, extract_code, extract_tests
from .ranking import RANKINGS
from .records import Candidate, Round, SolveResult
from .sandbox import Limits, run_tests
from .task import Task, parse_task

N_TESTS = 5


@dataclass(frozen=True)
class Event:
    """Progress of a run, for a UI. `kind` is one of: tests, tests_ready, round, generated,
    scored, round_done, stop."""

    kind: str
    round: int = -1
    candidate: Candidate | None = None
    detail: str = ""


EventHandler = Callable[[Event], None]


def solve(
    task: str,
    config: AgentConfig | None = None,
    *,
    backend: Backend | None = None,
    on_event: EventHandler | None = None,
) -> SolveResult:
    """Run the agent on `task` and return the best code found, its score and the history."""
    cfg = config or AgentConfig()
    cfg.validate()
    parsed = parse_task(task)
    owned = backend is None
    model = backend or create_backend(cfg)
    try:
        return _Run(parsed, cfg, model, on_event or (lambda e: None)).execute()
    finally:
        if owned:
            model.close()


class _Run:
    """The state of one solve() call."""

    def __init__(self, task: Task, cfg: AgentConfig, backend: Backend, emit: EventHandler) -> None:
        self.task, self.cfg, self.backend, self.emit = task, cfg, backend, emit
        self.limits = Limits(timeout=cfg.timeout, isolation=cfg.sandbox)
        self.select = RANKINGS[cfg.ranking]
        self.tests = ""
        self.candidates: list[Candidate] = []
        self.rounds: list[Round] = []
        self.notes: list[str] = []
        self.tokens = [0, 0]
        self.tokens_known = False

    def execute(self) -> SolveResult:
        started = time.monotonic()
        self.tests = self._generate_tests()
        best: Candidate | None = None
        for r in range(self.cfg.max_iters):
            if best is not None and best.all_passed:
                break
            kind = "initial" if best is None or not best.code else "fix"
            rnd = self._round(r, kind, best)
            self.rounds.append(rnd)
            best = self.select(self.candidates)
            rnd.best_label = best.label if best else None
            rnd.best_score = best.score if best else 0.0
            self.emit(Event("round_done", r, best))
            if self._backend_gone(rnd):
                self.notes.append("stopped early: the backend became unavailable")
                break
        self.emit(Event("stop", len(self.rounds) - 1, best))
        return self._result(best, time.monotonic() - started)

    # --- tests -------------------------------------------------------------------------
    def _generate_tests(self) -> str:
        self.emit(Event("tests"))
        messages = prompts.tests_prompt(self.task.text, self.task.entry_point, N_TESTS)
        for attempt in range(2):  # a reply with no test functions is asked for once more
            reply = self.backend.complete(
                messages,
                n=1,
                temperature=0.0 if attempt == 0 else 0.7,
                seed=self.cfg.seed + attempt,
                max_tokens=self.cfg.max_test_tokens,
            )[0]
            self._count(reply)
            if reply.error:
                raise BackendError(f"Test generation failed: {reply.error}")
            tests = extract_tests(reply.text, self.task.entry_point)
            if tests:
                self.emit(Event("tests_ready", detail=tests))
                return tests
        raise GenerationError(
            "The model wrote no test functions, twice. Try a larger model or a clearer task "
            "(name the function, e.g. `f(x)`)."
        )

    # --- rounds ------------------------------------------------------------------------
    def _round(self, r: int, kind: str, best: Candidate | None) -> Round:
        n = self.cfg.n_candidates
        self.emit(Event("round", r, detail=kind))
        t0 = time.monotonic()
        messages = self._messages(kind, best)
        origin = "sample" if kind == "initial" else "fix"
        seed = self.cfg.seed + r * n
        replies = self._sample(messages, n, seed, kind, best)
        cands = [self._candidate(r, i, origin, c) for i, c in enumerate(replies)]
        gen_s = time.monotonic() - t0
        for c in cands:
            c.generation_s = gen_s
        self.emit(Event("generated", r, detail=f"{len(cands)} in {gen_s:.1f}s"))
        t1 = time.monotonic()
        self._score(cands)
        self.candidates.extend(cands)
        return Round(r, kind, cands, generation_s=gen_s, scoring_s=time.monotonic() - t1)

    def _messages(self, kind: str, best: Candidate | None) -> list[Message]:
        if kind == "initial" or best is None:
            return prompts.code_prompt(self.task.text, self.task.entry_point)
        return prompts.fix_prompt(self.task.text, self.task.entry_point, best.code, feedback(best))

    def _sample(
        self, messages: list[Message], n: int, seed: int, kind: str, best: Candidate | None
    ) -> list[Completion]:
        """N replies; a failure becomes an error on each candidate instead of ending the run."""
        try:
            return self._complete(messages, n, seed)
        except PromptTooLong as exc:
            if kind == "fix" and best is not None:
                short = prompts.fix_prompt(
                    self.task.text, self.task.entry_point, best.code, feedback(best, 300)
                )
                self.notes.append(f"round prompt too long ({exc}); feedback trimmed")
                try:
                    return self._complete(short, n, seed)
                except BackendError as again:
                    exc = again  # type: ignore[assignment]
            return [Completion(text="", seed=seed + i, error=str(exc)) for i in range(n)]
        except BackendUnavailable as exc:
            if not self.candidates:
                raise
            return [
                Completion(text="", seed=seed + i, error=f"unavailable: {exc}") for i in range(n)
            ]
        except BackendError as exc:
            return [Completion(text="", seed=seed + i, error=str(exc)) for i in range(n)]

    def _complete(self, messages: list[Message], n: int, seed: int) -> list[Completion]:
        replies = self.backend.complete(
            messages,
            n=n,
            temperature=self.cfg.temperature,
            seed=seed,
            max_tokens=self.cfg.max_tokens,
        )
        for c in replies:
            self._count(c)
        return replies

    def _candidate(self, r: int, i: int, origin: str, reply: Completion) -> Candidate:
        cand = Candidate(
            r,
            i,
            origin,
            seed=reply.seed,
            prompt_tokens=reply.prompt_tokens,
            completion_tokens=reply.completion_tokens,
        )
        if reply.error:
            cand.error = f"generation failed: {reply.error}"
            return cand
        cand.code = extract_code(reply.text, self.task.entry_point)
        if not cand.code.strip():
            cand.error = "the reply contained no code"
        elif reply.finish_reason == "length":
            self.notes.append(f"{cand.label}: reply cut at --max-tokens {self.cfg.max_tokens}")
        return cand

    def _score(self, cands: list[Candidate]) -> None:
        def score(c: Candidate) -> Candidate:
            if c.code:
                tests = drop_definitions(self.tests, defined_names(c.code))
                c.run = run_tests(c.code, tests, self.limits)
            return c

        with ThreadPoolExecutor(max_workers=max(1, len(cands))) as pool:
            for c in pool.map(score, cands):  # in order, as each is ready
                self.emit(Event("scored", c.round, c))

    def _backend_gone(self, rnd: Round) -> bool:
        return all(
            c.error and c.error.startswith("generation failed: unavailable") for c in rnd.candidates
        )

    # --- bookkeeping -------------------------------------------------------------------
    def _count(self, c: Completion) -> None:
        if c.prompt_tokens is not None or c.completion_tokens is not None:
            self.tokens_known = True
            self.tokens[0] += c.prompt_tokens or 0
            self.tokens[1] += c.completion_tokens or 0

    def _result(self, best: Candidate | None, seconds: float) -> SolveResult:
        return SolveResult(
            task=self.task.text,
            entry_point=self.task.entry_point,
            tests=self.tests,
            final_code=best.code if best else "",
            score=best.score if best else 0.0,
            passed=bool(best and best.all_passed),
            rounds=self.rounds,
            best=best,
            seconds=seconds,
            prompt_tokens=self.tokens[0] if self.tokens_known else None,
            completion_tokens=self.tokens[1] if self.tokens_known else None,
            notes=self.notes,
        )


def feedback(cand: Candidate, limit: int = prompts.MAX_FEEDBACK_CHARS) -> str:
    """The failures of a candidate as short text for the fix prompt."""
    parts = []
    if cand.reason:
        parts.append(f"Error: {cand.reason}")
    if cand.run:
        for res in cand.run.failures():
            if res.message and res.message != "no result":
                parts.append(f"{res.name} failed:\n{res.message}")
    return prompts.trim_feedback("\n\n".join(parts) or "The tests failed.", limit)
