"""The agent loop: tests first, N candidates per round, keep the best, fix until it passes."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace

from . import disputes, prompts
from .backends import Backend, Completion, Message, create_backend
from .backends.base import SharesPrefix, ShowsWork, StopsEarly
from .config import AgentConfig
from .errors import (
    BackendError,
    BackendUnavailable,
    GenerationError,
    PromptTooLong,
    SandboxError,
)
from .examples import example_tests
from .extract import cases_written, extract_code, extract_tests, looping, without_unfinished_test
from .keeping import changed_arguments, keep_sequence_tests, keep_tests, mend
from .probes import (
    MUTANT_PREFIX,
    behaviour,
    mutant_calls,
    probe_calls,
    probe_tests,
    sequence_calls,
    sequence_tests,
)
from .ranking import RANKINGS, Ranking, anchored, distinct, order, passed_set, program, verdict
from .records import PHASES, Candidate, Dispute, Origin, Round, RoundKind, SolveResult, Spent
from .sandbox import Limits, TestRun, check_isolation, run_tests
from .task import (
    Task,
    as_specification,
    asks_for_change,
    given_code,
    import_solution,
    keeps_inputs,
    parse_task,
    validate_user_code,
    validate_user_tests,
    with_preamble,
)

N_TESTS = 5
# a reply of assert lines needs about 50 tokens a case: more is a model listing cases past the
# count asked for (seen: ~900 tokens for 5 asked), cut here, its finished lines kept
ASSERT_TOKENS_PER_CASE = 100
MAX_JUDGE_CALLS = 6  # judge replies per run, one per disputed input
JUDGE_TOKENS = 48  # a value, on the smallest input the two sides differ on


@dataclass(frozen=True)
class Event:
    """Progress of a run, for a UI. `kind` is one of: examples (the task's own, as tests),
    backend (it is being started), tests, tests_ready, round, more, generated, scored, judged,
    round_done, stop. A tests event's detail is "with round 0" where round 0's first step (the
    greedy reply and the reference) is written meanwhile. A round's detail is its kind (see
    Round.kind), "vote" for a fresh round whose samples vote on a disputed pass, or "agree"
    for a round 0 that draws the greedy reply and the brute-force reference first; `more` is
    such a round drawing its samples after all (detail: how many); a judged event carries its
    dispute; a stop's detail is "passed", "stopped" (before --max-iters: more rounds would not
    change what can be claimed), "unavailable" (the backend stopped answering) or empty."""

    kind: str
    round: int = -1
    candidate: Candidate | None = None
    detail: str = ""
    dispute: Dispute | None = None
    # while the model writes (tests, round, more): how many tokens each reply in progress has
    # so far, where the backend can tell (ShowsWork); for a live display, cheap to call
    live: Callable[[], list[int]] | None = None


EventHandler = Callable[[Event], None]
# one request of a round: (origin, count, seed, prompt, temperature; None: the configured one)
_Job = tuple[Origin, int, int, list[Message], float | None]
# a stage's replies, a batch per job, and when they were asked and all in (monotonic seconds)
_Written = tuple[list[list[Completion]], float, float]


def solve(
    task: str,
    config: AgentConfig | None = None,
    *,
    backend: Backend | None = None,
    on_event: EventHandler | None = None,
    tests: str | None = None,
    code: str | None = None,
) -> SolveResult:
    """Run the agent on `task` and return the best code found, its score and the history.

    `tests` are the user's own pytest tests (trusted: they outweigh generated tests and are
    never rewritten); `code` is existing code to start from (scored first, then improved).
    Examples the task itself shows (`>>> f(2)` and its result, `f(2) == 4`) are trusted the
    same way, unless `config.examples` is off.
    """
    cfg = config or AgentConfig()
    cfg.validate()
    parsed = parse_task(task)
    start_code = validate_user_code(code) if code is not None else None
    # a task that writes its function out in full ("... Fix it." and the code) starts from it,
    # and the model sees that function as a signature: shown the code, it copies it
    given = given_code(parsed) if start_code is None else ""
    changes = bool(given) and asks_for_change(parsed)
    if given:
        start_code = given
        parsed = parse_task(as_specification(parsed), parsed.entry_point)
    user_tests = None
    if tests is not None:  # `from mycode import f` in them means the code under test
        entry = [parsed.entry_point] if parsed.entry_point else []
        user_tests = import_solution(validate_user_tests(tests), start_code or "", entry)
    isolation = check_isolation(cfg.sandbox)  # `strict` refuses here, before any model call
    owned = backend is None
    if owned and on_event is not None:
        on_event(Event("backend"))  # loading a local model takes seconds
    model = backend or create_backend(cfg)
    try:
        examples = example_tests(parsed) if cfg.examples else None
        run = _Run(
            parsed,
            cfg,
            model,
            on_event or (lambda e: None),
            user_tests,
            examples,
            given_in_task=bool(given),
            asks_change=changes,
        )
        if given:
            run.notes.append(
                f"the task writes out `{parsed.entry_point}` in full: that code was scored "
                "first and improved from there, as code given with --code is; new candidates "
                "were written from the task with its body left out (shown the code, a model "
                "copies it), fixes from the code"
            )
        if cfg.sandbox == "auto" and isolation.missing:
            run.notes.append(f"sandbox: {isolation.warning} (see `localcode doctor`)")
        elif cfg.sandbox == "none":
            run.notes.append("sandbox: none — candidates ran without isolation (--sandbox none)")
        result = run.execute(start_code)
        return replace(result, task=task.strip("\n")) if given else result
    finally:
        if owned:
            model.close()


class _Run:
    """The state of one solve() call."""

    def __init__(
        self,
        task: Task,
        cfg: AgentConfig,
        backend: Backend,
        emit: EventHandler,
        user_tests: str | None,
        examples: str | None = None,
        *,
        given_in_task: bool = False,
        asks_change: bool = False,
    ) -> None:
        self.task, self.cfg, self.backend, self.emit = task, cfg, backend, emit
        self.live = backend.generating if isinstance(backend, ShowsWork) else None
        self.limits = Limits(timeout=cfg.timeout, isolation=cfg.sandbox)
        self.rank = RANKINGS[cfg.ranking]
        self.user_tests, self.examples = user_tests, examples
        self.tests = ""
        self.probes: str | None = None  # behaviour probes on the tests' inputs (codet ranking)
        self.mutants: str | None = None  # ... and on those inputs changed a little
        # where the task says a call must leave its input unchanged: each call, checked for it
        self.keeps: str | None = None
        self.calls: dict[str, str] = {}  # probe name -> the call it makes
        self.disputes: list[Dispute] = []  # every disagreement the model judged
        # the pairs of behaviours put to the judge (_JUDGED), or found to differ on no input the
        # judge can be asked about (_NO_INPUT)
        self.verdicts: dict[frozenset[tuple[tuple[str, str], ...]], object] = {}
        # the judge's answer by the question asked: one greedy reply, so never asked twice
        self.answers: dict[str, str] = {}
        self.judge_calls = 0
        # a generated test's assertions, by its name: (call, expected value) (disputes.expectations)
        self.expects: dict[str, list[tuple[str, str]]] = {}
        self.whole: set[str] = set()  # generated tests that are nothing but those assertions
        # generated tests judged: (call, the best's value, the test's) -> the judge took the
        # test's value (True), the best's (False), or neither (None)
        self.test_verdicts: dict[tuple[str, str, str], bool | None] = {}
        self.judged_for: Candidate | None = None  # the best won every verdict it met, and had some
        self.ahead: Future[_Written] | None = None  # round 0's first step, begun beside the tests
        self.candidates: list[Candidate] = []
        self.rounds: list[Round] = []
        self.notes: list[str] = []
        self.tokens = [0, 0]
        self.tokens_known = False
        self.spent: dict[str, Spent] = {phase: Spent() for phase in PHASES}
        # the code to start from is written out in the task (not --code); its words ask for a
        # change ("fix", "wrong", "should", ...: task.asks_for_change)
        self.given_in_task, self.asks_change = given_in_task, asks_change

    def execute(self, start_code: str | None) -> SolveResult:
        started = time.monotonic()
        if self.examples:
            self.emit(Event("examples", detail=self.examples))
        early = ThreadPoolExecutor(max_workers=1)
        try:
            self._share_task()
            self.ahead = self._write_ahead(early, start_code)
            self.tests = self._generate_tests()
            return self._rounds(start_code, started)
        except BaseException:
            gone = self.ahead.exception() if self.ahead and self.ahead.done() else None
            if isinstance(gone, BackendUnavailable):  # the cause: say that, not its effect
                raise gone from None
            raise
        finally:  # on an error the backend's close ends a request still in flight
            early.shutdown(wait=False, cancel_futures=True)

    def _share_task(self) -> None:
        """Every prompt of this run begins with the task (prompts.task_prefix): where the
        backend can, it reads that beginning once for all of them, before the first ones go."""
        if isinstance(self.backend, SharesPrefix):
            t0 = time.monotonic()
            read = self.backend.share_prefix(prompts.task_prefix(self.task.text))
            self.spent["tests"].seconds += time.monotonic() - t0
            if read is not None:
                self._count(read, "tests")

    def _write_ahead(
        self, early: ThreadPoolExecutor, start_code: str | None
    ) -> Future[_Written] | None:
        """Round 0's first step (the greedy reply and the brute-force reference) never sees
        the tests, so it is written while they are: three sequences side by side measured
        0.86-0.96x of the time one after the other on this engine (bench/overlap.py
        --first-step). Only where the backend serves three requests at once; a backend replying
        from a queue in order serves one."""
        if start_code is not None or self.backend.max_parallel < 3:
            return None
        jobs = self._jobs(0, "initial", Ranking(None, 0))
        if not self._staged(jobs):
            return None
        return early.submit(self._write, jobs[:2], Ranking(None, 0))

    def _make_probes(self) -> None:
        """The calls the tests make, as probes of what each candidate returns (codet ranking),
        and as checks that a call leaves its input as it was, where the task says so."""
        entry = self.task.entry_point
        sources = [self.user_tests, self.examples, self.tests]
        # a class: its method calls, in sequence; a function: its calls
        steps = sequence_calls(sources, entry) if self.task.is_class else []
        calls = [] if self.task.is_class else probe_calls(sources, entry)
        if keeps_inputs(self.task):
            self.keeps = (
                keep_sequence_tests(steps) if self.task.is_class else keep_tests(calls, entry)
            )
            self.notes.append(
                "the task says a call must leave its input unchanged: every call the tests "
                "make was also checked for that, and counts as a failed example where it did not"
                if self.keeps is not None
                else "the task says a call must leave its input unchanged, but no call the tests "
                "make passes a list, dict or set written out, so nothing checked that"
            )
        if self.cfg.ranking != "codet":
            return
        if self.task.is_class:
            self.probes = sequence_tests(steps)
            self.calls = {f"test_probe_{i}": "; ".join(q) for i, q in enumerate(steps, 1)}
            self.expects = disputes.expectations(self.tests, entry, is_class=True)
            self.whole = disputes.read_whole(self.tests, entry, self.expects, is_class=True)
        else:
            self._function_probes(calls)
            self.expects = disputes.expectations(self.tests, entry)
            self.whole = disputes.read_whole(self.tests, entry, self.expects)

    def _rounds(self, start_code: str | None, started: float) -> SolveResult:
        """Round after round until a claim is final, --max-iters, or no round would help."""
        self._make_probes()
        ranking, gone = Ranking(None, 0), False
        if start_code is not None:
            ranking = self._given(start_code)
        while len(self.rounds) < self.cfg.max_iters:  # a given-code round is round 0
            if verdict(ranking, self.judged_for).final and not self._unchecked(ranking):
                break
            kind = self._next_kind(ranking)
            before = _answer(ranking)
            rnd = self._round(len(self.rounds), kind, ranking)
            ranking = self._finish_round(rnd)
            if self._backend_gone(rnd):
                self.notes.append("stopped early: the backend became unavailable")
                gone = True
                break
            if self._stale(rnd, ranking, before):
                if len(self.rounds) < self.cfg.max_iters:
                    self.notes.append(
                        f"stopped after round {rnd.index}: it changed neither the best's "
                        "behaviour nor its score, so another round would most likely not either"
                    )
                break
            if (
                len(self.rounds) < self.cfg.max_iters
                and not verdict(ranking, self.judged_for).final
                and self._supported(ranking)
            ):
                self.notes.append(
                    f"stopped after round {rnd.index}: the best passes every trusted test "
                    "and some of the generated ones; fresh samples have not turned such an "
                    "answer into a right one in the measured runs (--all-rounds draws them)"
                )
                break
        final = verdict(ranking, self.judged_for)
        outvoted = (self._outvoted(ranking) or self._as_given(ranking)) if final.done else ""
        if outvoted:  # the returned code stays the judge's choice; only the claim goes
            ranking = replace(ranking, dissent=outvoted)
            final = verdict(ranking, self.judged_for)
        best = ranking.best
        if best is not None and best.keep_run is not None and not best.keeps_inputs:
            changed = best.keep_run.total - best.keep_run.passed
            self.notes.append(
                f"not claimed as passing: {best.label} changes its input on {changed} of "
                f"{best.keep_run.total} calls the tests make, and the task says a call must "
                "leave it unchanged"
                if best.keep_run.error is None
                else f"not claimed as passing: {best.label} could not be checked for leaving "
                f"its input unchanged ({best.keep_run.error.splitlines()[0][:200]})"
            )
        if final.doubt:
            self.notes.append(f"not claimed as passing: {final.doubt}")
        elif final.done and ranking.best and not ranking.best.all_passed and ranking.judged_wrong:
            self.notes.append(
                f"claimed with no tests of yours or examples in the task: {ranking.agree} of "
                f"{ranking.programs} distinct programs behave as {ranking.best.label} does, and "
                f"the generated tests it fails ({', '.join(ranking.judged_wrong)}) the model "
                "judged wrong, answering what it returns (see judged:)"
            )
        early = len(self.rounds) < self.cfg.max_iters
        done = "passed" if final.done else "unavailable" if gone else "stopped" if early else ""
        self.emit(Event("stop", len(self.rounds) - 1, ranking.best, done))
        return self._result(ranking, time.monotonic() - started)

    def _unchecked(self, ranking: Ranking) -> bool:
        """Your code (--code) passes, and nothing but tests has looked at it: tests the model
        wrote can share a misreading, or leave a clause of the task untested, so the model's
        own reading (the greedy reply, the brute-force reference; samples if those two
        disagree) is drawn once to be compared with it on the tests' inputs and on changed
        ones, as round 0 compares a task's candidates. Where they behave alike, the pass
        stands; where they differ, the judge decides, and a pass that loses is not claimed."""
        return (
            len(self.rounds) == 1
            and self.rounds[0].kind == "given"
            and ranking.best is not None
            and verdict(ranking, self.judged_for).passes
            and self.cfg.ranking == "codet"
            and bool(self.calls)  # inputs to compare the readings on
            and (self.cfg.greedy or self._with_reference())
        )

    def _stale(self, rnd: Round, ranking: Ranking, before: object) -> bool:
        """A later round left the best as it was, and the best passes every trusted test: the
        next round's prompt would be the same, so it would most likely change nothing either
        (docs/METHOD.md, "Rounds that pay for themselves"). A best that fails your tests or
        the task's examples is known to be wrong: rounds go on."""
        first = 1 if self.rounds[0].kind == "given" else 0  # the first sampled round
        best = ranking.best
        return (
            self.cfg.stop_unchanged
            and rnd.index > first
            and best is not None
            and not verdict(ranking).passes  # a disputed pass has its own rule: votes
            and best.passes_trusted
            and _answer(ranking) == before
        )

    def _supported(self, ranking: Ranking) -> bool:
        """Whether the next round would most likely not change the answer: it would be fresh
        samples (--later-rounds auto, a task alone), and the best passes every trusted test
        (your tests, the task's examples; vacuously when there are none) and at least one
        generated test. Over the
        committed benchmark runs, fresh rounds turned a wrong answer into a right one only
        where the best failed every generated test or a trusted one, and the claims they led
        to were false about half the time (docs/METHOD.md, "Rounds that pay for themselves")."""
        best = ranking.best
        return (
            self.cfg.stop_unchanged
            and best is not None
            and best.run is not None
            and best.run.passed > 0
            and best.passes_trusted
            and self.cfg.later_rounds == "auto"  # a kind you asked for is drawn
            and self._next_kind(ranking) == "fresh"
        )

    def _function_probes(self, calls: list[str]) -> None:
        """Probes on the tests' calls of the function, and on those calls changed a little."""
        entry, changed = self.task.entry_point, mutant_calls(calls)
        self.probes = probe_tests(calls, entry)
        self.mutants = probe_tests(changed, entry, MUTANT_PREFIX)
        if self.probes is not None:
            self.calls = {f"test_probe_{i}": c for i, c in enumerate(calls, start=1)}
        if self.mutants is not None:
            self.calls.update({f"{MUTANT_PREFIX}{i}": c for i, c in enumerate(changed, 1)})

    def _given(self, code: str) -> Ranking:
        """The user's own code is scored first, as round 0, and improved from there."""
        self.emit(Event("round", 0, detail="given"))
        origin: Origin = "task" if self.given_in_task else "user"
        cands = self._score_and_mend([Candidate(0, 0, origin, code=with_preamble(self.task, code))])
        self.candidates += cands
        return self._finish_round(Round(0, "given", cands))

    def _finish_round(self, rnd: Round) -> Ranking:
        self.rounds.append(rnd)
        ranking = self._settle(self.rank(self.candidates))
        best = ranking.best
        rnd.best_label = best.label if best else None
        rnd.best_score = best.score if best else 0.0
        rnd.best_origin = best.origin if best else None
        rnd.support, rnd.suspect_tests = ranking.support, list(ranking.suspect)
        rnd.agree, rnd.rival = ranking.agree, max(ranking.rival, ranking.split)
        rnd.programs = ranking.programs
        rnd.best_trusted = best.passes_trusted if best and best.trusted_runs else None
        self.emit(Event("round_done", rnd.index, best, ", ".join(ranking.suspect)))
        return ranking

    def _next_kind(self, ranking: Ranking) -> RoundKind:
        """Fresh samples only when the best passes but is disputed: there is nothing to repair.
        Otherwise --later-rounds decides; "auto" repairs code the user gave (--code), and a
        best that changes its input where the task says it must not (the change is the repair),
        and otherwise samples fresh for a task alone, where repairs of a small model's code
        almost always behave like the code they repair (docs/BENCHMARKS.md)."""
        if ranking.best is None or self._unchecked(ranking):
            return "initial"
        if verdict(ranking).passes:
            return "fresh"
        if self.cfg.later_rounds == "auto":
            # a call that changes its input is a small repair of code that otherwise may be right
            mend = self.rounds[0].kind == "given" or not ranking.best.keeps_inputs
            return "mixed" if mend else "fresh"
        return self.cfg.later_rounds

    # --- judging -----------------------------------------------------------------------
    def _settle(self, ranking: Ranking) -> Ranking:
        """The leader meets the strongest other behaviour groups on inputs where they differ; one
        whose result the model names takes its place (see disputes.py). A pair with no input to
        judge them by (they differ only where one raises on a changed input) is no dispute."""
        self.judged_for = None
        best = ranking.best
        if best is None or not self.calls:
            return ranking
        pool = self._pool()
        if best not in pool:
            return ranking
        if not self.cfg.judge:
            return replace(ranking, dissent=self._dissent(best, pool))
        found = disputes.groups(pool, best)
        leader, mine, won, undecided = best, found[0], 0, 0
        for group in disputes.challengers(found):
            rival = min(group, key=order)
            # one verdict overturns the leader only where the vote backs the challenger
            need = 1 if distinct(group) > distinct(mine) else disputes.OVERTURN_VERDICTS
            judged, verdict = self._verdict(leader, rival, need=need)
            if verdict is rival:
                leader, mine, won = rival, group, 1
            elif verdict is leader:
                won += 1
            elif judged:
                undecided += 1
        self.judged_for = leader if won and not undecided else None
        dissent = self._dissent(leader, pool)
        if leader is best:
            ranking = replace(ranking, dissent=dissent)
            ranking = replace(ranking, judged_wrong=self._judged_wrong(ranking))
            return replace(ranking, dissent=self._test_dissent(ranking))
        return Ranking(
            leader,
            len(mine),
            agree=distinct(mine),
            rival=distinct(found[0]),
            programs=ranking.programs,
            dissent=dissent,
        )

    def _dissent(self, leader: Candidate, pool: list[Candidate]) -> str:
        """Why the leader's pass is not claimed, when something stands against it: a judged
        input the model decided for another behaviour (one such verdict does not overturn the
        leader, but a claim must have lost no judged disagreement), or the brute-force
        reference returning another value on an input the judge did not decide for it."""
        return self._lost(leader) or self._contradicted(leader, pool)

    def _pool(self) -> list[Candidate]:
        """The candidates that may win and ran cleanly: those the judge and the claims weigh."""
        return [c for c in anchored(self.candidates) if c.run is not None and not c.run.error]

    def _verdicts(self) -> Iterator[tuple[Dispute, Candidate, list[Candidate]]]:
        """The disputes between candidates that the model decided: (the dispute, the candidate
        it decided for, the other side)."""
        by_label = {c.label: c for c in self.candidates}
        for d in self.disputes:
            sides = [by_label.get(k) for k in d.outputs]
            won = by_label.get(d.winner or "")
            if won is not None and None not in sides:
                yield d, won, [c for c in sides if c is not None and c is not won]

    def _lost(self, leader: Candidate) -> str:
        mine = disputes.signature(leader)
        for d, won, lost in self._verdicts():
            if disputes.signature(won) == mine:
                continue
            if any(disputes.signature(c) == mine for c in lost):
                return (
                    f"the model judged {d.call} to return {d.outputs[won.label]} "
                    f"({won.label}), not what {leader.label} returns"
                )
        return ""

    def _contradicted(self, leader: Candidate, pool: list[Candidate]) -> str:
        for ref in (c for c in pool if c.origin == "reference"):
            if behaviour(ref.probe_run) is None:  # its probes did not run: no behaviour to judge
                continue
            if disputes.signature(ref) == disputes.signature(leader):
                continue
            _, chosen = self._verdict(leader, ref, ask=False)
            if chosen is leader:
                continue
            for call, mine, theirs in disputes.contradictions(leader, ref, self.calls):
                return (
                    f"the brute-force reference {ref.label} returns {theirs} for {call}, "
                    f"where {leader.label} returns {mine}"
                )
        return ""

    def _outvoted(self, ranking: Ranking) -> str:
        """Why a pass about to be claimed rests on the judge, not the vote: the model judged an
        input for the best's behaviour, and at most half of the candidates that ran (of at
        least three, those that pass the trusted tests the best passes) behave as it does.
        Whether the judge overturned the leader or confirmed a plurality, one small model's
        answer is then all the claim has; such claims were false 6 times in 9 over eight
        committed runs (bench/claims_support.py; docs/METHOD.md, "Claims that hold")."""
        best = ranking.best
        pool = self._pool()
        if best is None or best not in pool:
            return ""
        found = disputes.groups(pool, best)
        mine, ran = len(found[0]), sum(map(len, found))
        if ran < 3 or 2 * mine > ran:
            return ""
        ours = disputes.signature(best)
        for d, won, _ in self._verdicts():
            if disputes.signature(won) != ours:
                continue  # a verdict for another behaviour
            return (
                f"the model judged {d.call} to return {d.outputs[won.label]}, as it does, but "
                f"only {mine} of the {ran} candidates that ran behave as it does: the vote "
                "does not back the judge"
            )
        return ""

    def _as_given(self, ranking: Ranking) -> str:
        """Why a pass about to be claimed is not one: the task wrote its code out and asked for
        a change (a fix: "it returns 5 for [5, 5, 3]", "some grades are wrong"), and the best
        behaves as that code does on every test and every input tried, so the tests never
        reached what was to change. The best is still returned: within a group, the code
        written from the task's words comes before the task's own (ranking.order)."""
        best = ranking.best
        given = next((c for c in self.candidates if c.origin == "task"), None)
        if not self.asks_change or best is None or given is None or given.run is None:
            return ""
        if behaviour(best.probe_run) is None or behaviour(given.probe_run) is None:
            return ""
        if passed_set(best) != passed_set(given) or best.keeps_inputs != given.keeps_inputs:
            return ""
        if disputes.signature(best) != disputes.signature(given):
            return ""
        return (
            f"the task asks for a change to its code, and {best.label} behaves as that code "
            "does on every test and every input tried: none of them reached what was to change"
        )

    def _test_dissent(self, ranking: Ranking) -> str:
        """A pass about to be claimed that fails generated tests the consensus excused (a vote
        of the programs that agree with it): where such a test asserts a value for one call,
        the model judges that call as it judges two groups. A verdict for the test's value is
        a judged disagreement the best lost, and the pass is not claimed."""
        best = ranking.best
        if ranking.dissent or best is None or not verdict(ranking, self.judged_for).done:
            return ranking.dissent
        failed = {r.name for r in best.run.failures()} if best.run else set()
        found = sorted(
            (len(call), call, got, want, name)
            for name in ranking.suspect
            if name in failed
            for call, got, want in disputes.against_test(
                best, self.expects.get(name, []), self.calls
            )[:1]
        )
        for _, call, got, want, name in found[: disputes.MAX_INPUTS]:
            if self._test_verdict(best, call, got, name, want):
                return (
                    f"the model judged {call} to return {want}, as the generated test {name} "
                    f"expects, not {got} ({best.label})"
                )
        return ""

    def _judged_wrong(self, ranking: Ranking) -> tuple[str, ...]:
        """Without trusted tests (no tests of yours, no examples in the task), a consensus
        alone is no pass: the generated tests it excuses may be right. So where the best
        fails only excused tests, and the pass would stand were they all judged wrong (the
        vote that excuses tests: ranking.EXCUSE_VOTES, more than half, no split), the model
        judges each call such a test asserts another value for: what does it return? A test is
        judged wrong when it is nothing but assertions the probes ran, the best returned a
        value on each, and the model answered the best's value for every one that differs;
        only if every failed test is judged wrong does the pass count (ranking._passes).
        Anything else (a line no assertion names, a call the best raises on, an answer that
        is the test's value or neither, no judge calls left) leaves the best a best effort."""
        best = ranking.best
        if best is None or best.trusted_runs or best.run is None or best.run.error:
            return ()
        failed = tuple(sorted(r.name for r in best.run.failures()))
        if (
            not failed
            or not set(failed) <= set(ranking.suspect)
            or not verdict(replace(ranking, judged_wrong=failed)).done  # in doubt regardless
        ):
            return ()
        for name in failed:
            found = disputes.against_whole_test(best, self.expects.get(name, []), self.calls)
            if name not in self.whole or not found:  # None, or nothing it asserts differs
                return ()
            for call, got, want in found:
                if self._test_verdict(best, call, got, name, want) is not False:
                    return ()
        return failed

    def _test_verdict(
        self, best: Candidate, call: str, got: str, name: str, want: str
    ) -> bool | None:
        """The judge on a generated test's assertion the best fails, asked once per (call,
        values): True for the test's value, False for the best's, None for neither (or no
        judge calls left)."""
        key = (call, got, want)
        if key not in self.test_verdicts:
            if self.judge_calls >= MAX_JUDGE_CALLS and self._question(call) not in self.answers:
                return None
            d = disputes.judge(self.task.text, call, best.label, got, name, want, self._ask)
            self.disputes.append(d)
            self.emit(Event("judged", best.round, detail=d.call, dispute=d))
            self.test_verdicts[key] = None if d.winner is None else d.winner == name
        return self.test_verdicts[key]

    def _verdict(
        self,
        a: Candidate,
        b: Candidate,
        *,
        ask: bool = True,
        need: int = disputes.OVERTURN_VERDICTS,
    ) -> tuple[bool, Candidate | None]:
        """Whether the pair was put to the judge, and which of the two it chose (None:
        undecided); b takes a's place on `need` verdicts (disputes.settle). Decided afresh at
        every call from the judge's answers, which are kept (`answers`): the same pair may
        meet again with the roles turned or another `need` (a later round made a group
        larger). `ask=False` only reads the answers already given."""
        key = frozenset({disputes.signature(a), disputes.signature(b)})
        known = self.verdicts.get(key)
        if known is _NO_INPUT:
            return False, None
        asks = ask and self.judge_calls < MAX_JUDGE_CALLS
        if known is None and not asks:
            return True, None
        asked = set(self.answers)
        found, winner = disputes.settle(
            self.task.text, a, b, self.calls, self._ask if asks else self._recall, need
        )
        if not found:
            self.verdicts[key] = _NO_INPUT
            return False, None
        for d in found:  # the record: the pair's first meeting, and any question new since
            if known is None or self._question(d.call) not in asked:
                self.disputes.append(d)
                self.emit(Event("judged", a.round, detail=d.call, dispute=d))
        self.verdicts[key] = _JUDGED
        return True, a if winner == a.label else b if winner == b.label else None

    def _question(self, call: str) -> str:
        return prompts.judge_prompt(self.task.text, call)[-1]["content"]

    def _recall(self, messages: list[Message]) -> str:
        """The judge's answer to a question already asked; none ("") for a new one."""
        return self.answers.get(messages[-1]["content"], "")

    def _ask(self, messages: list[Message]) -> str:
        """One greedy, short reply, kept for the same question later; an error is no answer."""
        question = messages[-1]["content"]
        if question in self.answers:
            return self.answers[question]
        self.judge_calls += 1
        t0 = time.monotonic()
        try:
            reply = self.backend.complete(
                messages, n=1, temperature=0.0, seed=self.cfg.seed, max_tokens=JUDGE_TOKENS
            )[0]
        except BackendError:
            return ""
        finally:
            self.spent["judging"].seconds += time.monotonic() - t0
        self._count(reply, "judging")
        self.answers[question] = "" if reply.error else reply.text
        return self.answers[question]

    # --- tests -------------------------------------------------------------------------
    def _generate_tests(self) -> str:
        self.emit(Event("tests", detail="with round 0" if self.ahead else "", live=self.live))
        t0 = time.monotonic()
        try:
            return self._write_tests()
        finally:
            self.spent["tests"].seconds += time.monotonic() - t0

    def _write_tests(self) -> str:
        # a class's cases need several statements each; a function's fit on one assert line
        style = "functions" if self.task.is_class else "asserts"
        messages = prompts.tests_prompt(self.task.text, self.task.entry_point, N_TESTS, style)
        budget = self.cfg.max_test_tokens
        if style == "asserts":
            budget = min(budget, ASSERT_TOKENS_PER_CASE * N_TESTS)
        for attempt in range(2):  # a reply with no test functions is asked for once more
            temperature, seed = (0.0 if attempt == 0 else 0.7), self.cfg.seed + attempt
            if isinstance(self.backend, StopsEarly):
                # the cases asked for, and no more (a model asked for 5 often lists 12), and
                # no more of a case the model goes round in a loop on
                reply = self.backend.complete_until(
                    messages,
                    until=self._enough_cases,
                    start=prompts.ASSERTS_START if style == "asserts" else "",
                    temperature=temperature,
                    seed=seed,
                    max_tokens=budget,
                )
            else:
                reply = self.backend.complete(
                    messages, n=1, temperature=temperature, seed=seed, max_tokens=budget
                )[0]
            self._count(reply, "tests")
            if reply.error:
                raise BackendError(f"Test generation failed: {reply.error}")
            text, cut = reply.text, self._cut(reply, budget)
            if cut and style == "functions":  # an assert line cut short is dropped as it is
                text = without_unfinished_test(text)
            tests = extract_tests(text, self.task.entry_point)
            if tests and cut:
                self.notes.append(f"the tests reply {cut}; its finished cases were kept")
            if tests:
                self.emit(Event("tests_ready", detail=tests))
                return tests
        if self.examples:  # the task's own examples can stand in for tests the model won't write
            self.notes.append("the model wrote no tests; the task's examples served as the tests")
            self.emit(Event("tests_ready", detail=self.examples))
            return self.examples
        raise GenerationError(
            "The model wrote no test functions, twice. Try a larger model, a clearer task "
            "(name the function, e.g. `f(x)`), an example in it (`f(2) == 4`), or --tests FILE."
        )

    def _enough_cases(self, reply: str) -> bool:
        return cases_written(reply, self.task.entry_point, N_TESTS) or looping(reply)

    @staticmethod
    def _cut(reply: Completion, budget: int) -> str:
        """How a tests reply ended short of what its author meant to write, or ""."""
        if reply.finish_reason == "length":
            return f"was cut at {budget} tokens"
        if looping(reply.text):
            return (
                "went round in a loop (the same lines, or rows of one shape, over and over) "
                "and was stopped there"
            )
        return ""

    # --- rounds ------------------------------------------------------------------------
    def _round(self, r: int, kind: RoundKind, ranking: Ranking) -> Round:
        jobs = self._jobs(r, kind, ranking)
        staged = self._staged(jobs)
        # a fresh round while the best passes is a vote on a dispute; the UI says so
        vote = kind == "fresh" and verdict(ranking).passes
        detail = "agree" if staged else "vote" if vote else kind
        self.emit(Event("round", r, detail=detail, live=self.live))
        cands: list[Candidate] = []
        gen_s = scoring_s = 0.0
        for stage in (jobs[:2], jobs[2:]) if staged else (jobs,):
            if cands and self._agreed(cands):
                self.notes.append(
                    f"round {r} drew {sum(c.origin != 'mended' for c in cands)} of "
                    f"{self.cfg.n_candidates} candidates: the "
                    "greedy reply and the brute-force reference pass every test and return the "
                    "same on every input tried (--all-samples draws the rest)"
                )
                break
            if cands:
                self.emit(Event("more", r, detail=str(sum(j[1] for j in stage)), live=self.live))
            g, s = self._stage(r, stage, ranking, cands)
            gen_s, scoring_s = gen_s + g, scoring_s + s
        return Round(r, kind, cands, generation_s=gen_s, scoring_s=scoring_s)

    def _jobs(self, r: int, kind: RoundKind, ranking: Ranking) -> list[_Job]:
        """What a round asks the backend for: (origin, count, seed, prompt, temperature)."""
        n = self.cfg.n_candidates
        seed = self.cfg.seed + r * n
        n_fix = {"initial": 0, "fresh": 0, "fix": n, "mixed": n - n // 2}[kind]
        jobs: list[_Job] = []
        code = prompts.code_prompt(self.task.text, self.task.entry_point)
        if kind == "initial" and self.cfg.greedy:  # the model's most likely reading is one
            jobs.append(("greedy", 1, seed, code, 0.0))
            seed, n = seed + 1, n - 1
        if kind == "initial" and self._with_reference():
            # a second reading, written another way: brute force, however slow (ALGO)
            brute = prompts.reference_prompt(self.task.text, self.task.entry_point)
            jobs.append(("reference", 1, seed, brute, 0.0))
            seed, n = seed + 1, n - 1
        if n_fix:
            assert ranking.best is not None
            fix = self._fix_messages(ranking.best, set(ranking.suspect))
            jobs.append(("fix", n_fix, seed, fix, None))
        if n - n_fix:
            jobs.append(("sample", n - n_fix, seed + n_fix, code, None))
        return jobs

    def _with_reference(self) -> bool:
        """Round 0 has a brute-force reference where it can be compared with the others: codet
        ranking (probes of what each candidate returns) and a function or class to call.
        Decided before the tests exist, since round 0 begins while they are written."""
        return (
            self.cfg.reference
            and self.cfg.n_candidates >= 3
            and self.cfg.ranking == "codet"
            and self.task.entry_point is not None
        )

    def _staged(self, jobs: list[_Job]) -> bool:
        """Round 0 draws the greedy reply and the brute-force reference first, and its samples
        only where those two do not already agree (see _agreed)."""
        origins = [j[0] for j in jobs]
        return self.cfg.agree_first and origins[:2] == ["greedy", "reference"] and len(jobs) > 2

    def _agreed(self, cands: list[Candidate]) -> bool:
        """Two readings of the task, the model's most likely code and a brute force written
        another way, pass every test (yours, the task's examples, the generated ones) and return
        the same on every probe and changed input: samples could only vote, and no judge
        question would be asked (docs/METHOD.md, "Samples where readings disagree"). One that
        changes its input where the task says it must not counts as its mended copy."""
        written = [c for c in cands if c.origin != "mended"]
        kept = [c for c in cands if c.keeps_inputs]
        return (
            len(written) == 2
            and len(kept) == 2
            and all(c.code and c.all_passed and behaviour(c.probe_run) for c in kept)
            and disputes.signature(kept[0]) == disputes.signature(kept[1])
        )

    def _write(self, jobs: list[_Job], ranking: Ranking) -> _Written:
        """The jobs' replies, asked side by side, and when they were asked and all in."""
        t0 = time.monotonic()
        with ThreadPoolExecutor(max_workers=max(1, len(jobs))) as pool:
            batches = list(
                pool.map(lambda j: self._sample(j[3], j[1], j[2], j[0], ranking, j[4]), jobs)
            )
        return batches, t0, time.monotonic()

    def _stage(
        self, r: int, jobs: list[_Job], ranking: Ranking, cands: list[Candidate]
    ) -> tuple[float, float]:
        """Generate the jobs side by side (or take round 0's first step, begun beside the
        tests), then score them; the candidates join `cands` (and the run's). Returns the
        seconds the run waited for them and spent scoring them."""
        t0 = time.monotonic()
        if r == 0 and not cands and self.ahead is not None:  # counted from here: the seconds
            batches, asked, done = self.ahead.result()  # before were the tests' (each once)
        else:
            batches, asked, done = self._write(jobs, ranking)
        new: list[Candidate] = []
        for (origin, *_), replies in zip(jobs, batches, strict=True):
            for reply in replies:
                # here, not in the sampling threads: no shared += races
                self._count(reply, "candidates" if r == 0 else "later rounds")
                new.append(self._candidate(r, len(cands) + len(new), origin, reply))
        fixed = program(ranking.best.code) if ranking.best else None
        for c in new:  # the code it was to fix, given back: no new candidate, and no new vote
            if c.origin == "fix" and not c.error and program(c.code) == fixed:
                c.error = "the fix gave back the code it was to fix, unchanged"
        gen_s = max(0.0, done - t0)
        self.spent["candidates" if r == 0 else "later rounds"].seconds += gen_s
        for c in new:
            c.generation_s = done - asked
        self.emit(Event("generated", r, detail=f"{len(new)} in {done - asked:.1f}s"))
        t1 = time.monotonic()
        new = self._score_and_mend(new, len(cands))
        cands.extend(new)
        self.candidates.extend(new)
        scoring_s = time.monotonic() - t1
        self.spent["sandbox"].seconds += scoring_s
        return gen_s, scoring_s

    def _score_and_mend(self, cands: list[Candidate], before: int = 0) -> list[Candidate]:
        """`cands` scored, then each that changes its input where the task says no call may,
        once more with the arguments it changed copied on entry (keeping.mend), scored too:
        what it returns is the same, and no model call is spent. `before`: the round's
        candidates already numbered."""
        self._score(cands)
        mended = self._mended(cands, before + len(cands))
        self._score(mended)
        return [*cands, *mended]

    def _mended(self, cands: list[Candidate], start: int) -> list[Candidate]:
        """The mended copies of `cands` (see _score_and_mend), numbered from `start`."""
        out: list[Candidate] = []
        for c in cands if self.keeps is not None else []:
            if c.keep_run is None or c.keeps_inputs or c.keep_run.error or c.error:
                continue
            code = mend(c.code, self.task.entry_point, changed_arguments(c.keep_run))
            if code is not None:
                out.append(Candidate(c.round, start + len(out), "mended", code=code, seed=c.seed))
                self.notes.append(
                    f"{out[-1].label} is {c.label} with the arguments it changed copied on "
                    "entry: the task says a call must leave its input unchanged"
                )
        return out

    def _fix_messages(self, best: Candidate, suspect: set[str], limit: int = 0) -> list[Message]:
        text = feedback(best, suspect, limit or prompts.MAX_FEEDBACK_CHARS)
        return prompts.fix_prompt(self.task.text, self.task.entry_point, best.code, text)

    def _sample(
        self,
        messages: list[Message],
        n: int,
        seed: int,
        origin: Origin,
        ranking: Ranking,
        temperature: float | None = None,
    ) -> list[Completion]:
        """N replies; a failure becomes an error on each candidate instead of ending the run."""
        try:
            return self._complete(messages, n, seed, temperature)
        except PromptTooLong as exc:
            if origin == "fix" and ranking.best is not None:
                short = self._fix_messages(ranking.best, set(ranking.suspect), 300)
                self.notes.append(f"round prompt too long ({exc}); feedback trimmed")
                try:
                    return self._complete(short, n, seed)
                except BackendError as again:
                    exc = again  # type: ignore[assignment]
            return [Completion(text="", seed=seed + i, error=str(exc)) for i in range(n)]
        except BackendUnavailable as exc:
            if not self.candidates:
                raise
            gone = f"unavailable: {exc}"
            return [
                Completion(text="", seed=seed + i, error=gone, unavailable=True) for i in range(n)
            ]
        except BackendError as exc:
            return [Completion(text="", seed=seed + i, error=str(exc)) for i in range(n)]

    def _complete(
        self, messages: list[Message], n: int, seed: int, temperature: float | None = None
    ) -> list[Completion]:
        replies = self.backend.complete(
            messages,
            n=n,
            temperature=self.cfg.temperature if temperature is None else temperature,
            seed=seed,
            max_tokens=self.cfg.max_tokens,
        )
        return replies

    def _candidate(self, r: int, i: int, origin: Origin, reply: Completion) -> Candidate:
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
            cand.unavailable = reply.unavailable
            return cand
        cand.code = with_preamble(self.task, extract_code(reply.text, self.task.entry_point))
        if not cand.code.strip():
            cand.error = "the reply contained no code"
        elif reply.finish_reason == "length":
            self.notes.append(f"{cand.label}: reply cut at --max-tokens {self.cfg.max_tokens}")
        return cand

    def _score(self, cands: list[Candidate]) -> None:
        def score(c: Candidate) -> Candidate | SandboxError:
            # the tests run as written: a candidate never gets to replace a test's helpers
            try:
                if c.code and not c.error:
                    c.run = run_tests(c.code, self.tests, self.limits)
                    if self.user_tests is not None:
                        c.user_run = run_tests(c.code, self.user_tests, self.limits)
                    if self.examples is not None:  # the same file when it stands in for tests
                        same = self.tests is self.examples
                        c.example_run = (
                            c.run if same else run_tests(c.code, self.examples, self.limits)
                        )
                    if self.probes is not None:
                        c.probe_run = run_tests(c.code, self.probes, self.limits)
                    if self.keeps is not None:
                        c.keep_run = run_tests(c.code, self.keeps, self.limits)
                    # there are changed calls only where there are calls
                    if self.mutants is not None:
                        c.mutant_run = run_tests(c.code, self.mutants, self.limits)
            except SandboxError as exc:
                return exc
            return c

        with ThreadPoolExecutor(max_workers=max(1, len(cands))) as pool:
            outcomes = list(pool.map(score, cands))
        failed = [o for o in outcomes if isinstance(o, SandboxError)]
        if failed and len(failed) == len([c for c in cands if c.code and not c.error]):
            raise failed[0]  # the sandbox itself is broken: say so, don't score everything 0
        for c, outcome in zip(cands, outcomes, strict=True):
            if isinstance(outcome, SandboxError):
                c.run = TestRun(error=f"sandbox: {outcome}")
            self.emit(Event("scored", c.round, c))

    def _backend_gone(self, rnd: Round) -> bool:
        return all(c.unavailable for c in rnd.candidates)

    # --- bookkeeping -------------------------------------------------------------------
    def _count(self, c: Completion, phase: str) -> None:
        if c.prompt_tokens is not None or c.completion_tokens is not None:
            self.tokens_known = True
            self.tokens[0] += c.prompt_tokens or 0
            self.tokens[1] += c.completion_tokens or 0
            self.spent[phase].tokens += (c.prompt_tokens or 0) + (c.completion_tokens or 0)

    def _result(self, ranking: Ranking, seconds: float) -> SolveResult:
        best = ranking.best
        return SolveResult(
            task=self.task.text,
            entry_point=self.task.entry_point,
            tests=self.tests,
            user_tests=self.user_tests,
            examples=self.examples,
            suspect_tests=list(ranking.suspect),
            judged_wrong=list(ranking.judged_wrong),
            final_code=best.code if best else "",
            score=best.score if best else 0.0,
            passed=verdict(ranking, self.judged_for).done,
            disputes=self.disputes,
            spent={k: Spent(round(v.seconds, 3), v.tokens) for k, v in self.spent.items()},
            rounds=self.rounds,
            best=best,
            seconds=seconds,
            prompt_tokens=self.tokens[0] if self.tokens_known else None,
            completion_tokens=self.tokens[1] if self.tokens_known else None,
            notes=self.notes,
        )


_NO_INPUT = object()  # a pair that differs on no input the judge can be asked about
_JUDGED = object()  # a pair put to the judge (its answers are in `answers`)


def _answer(ranking: Ranking) -> object:
    """What a round could change: the best's behaviour (its code, without probes), its score
    and the trusted tests it passes."""
    best = ranking.best
    if best is None:
        return None
    behaves = disputes.signature(best) or best.code
    kept = best.keep_run.passed if best.keep_run else None
    return behaves, best.score, tuple(r.passed for r in best.trusted_runs), kept


def feedback(
    cand: Candidate, suspect: set[str] | None = None, limit: int = prompts.MAX_FEEDBACK_CHARS
) -> str:
    """The failures of a candidate as short text for the fix prompt: the user's tests and the
    task's examples first (both given by the user, so both are labelled as such), then
    generated tests the consensus does not doubt (a suspect test is not fed as truth)."""
    parts = []
    if cand.reason:
        parts.append(f"Error: {cand.reason}")
    for trusted in cand.trusted_runs:
        if trusted.error and trusted.error != cand.reason:
            parts.append(f"Error in the user's tests: {trusted.error}")
    runs = [
        ("user test ", cand.user_run),
        ("task example ", cand.example_run),
        ("the task's words: ", cand.keep_run),
        ("", cand.run),
    ]
    for label, run in runs:
        for res in run.failures() if run else []:
            if res.name in (suspect or ()) and not label:
                continue
            if res.message and res.message != "no result":
                parts.append(f"{label}{res.name} failed:\n{res.message}")
    return prompts.trim_feedback("\n\n".join(parts) or "The tests failed.", limit)
