"""The records a run produces: candidates, rounds and the result. Dicts only at the JSON edge."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from .probes import behaviour
from .sandbox.records import TestRun

# How a candidate was produced: the temperature-0 reply, the brute-force reference (asked for
# the simplest obviously-correct code), a fresh sample, a repair of the best so far, the
# user's own code (--code), the code the task writes out, or another candidate with the
# arguments it changed copied on entry, where the task says a call must not change them
# (keeping.mend; no model call)
Origin = Literal["greedy", "reference", "sample", "fix", "user", "task", "mended"]
# What a round samples: the user's code scored (given), round 0 (initial), fresh samples only,
# fixes of the best only, or half fixes and half fresh (mixed)
RoundKind = Literal["given", "initial", "fresh", "fix", "mixed"]


@dataclass
class Candidate:
    """One sampled solution and what happened to it."""

    round: int
    index: int
    origin: Origin
    code: str = ""
    seed: int | None = None
    run: TestRun | None = None  # against the generated tests
    user_run: TestRun | None = None  # against the user's own tests (--tests), if any
    example_run: TestRun | None = None  # against the task's own examples, if it shows any
    probe_run: TestRun | None = None  # behaviour probes (see probes.py): what it returns, compared
    mutant_run: TestRun | None = None  # the same on the probes' inputs changed a little
    # each call the tests make, checked for leaving its arguments as they were, where the task
    # says a call must (keeping.keep_tests)
    keep_run: TestRun | None = None
    error: str | None = None  # why no code came or ran (backend error, no code, a fix unchanged)
    unavailable: bool = False  # no code because the backend could not serve at all (not in --json)
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    generation_s: float = 0.0

    @property
    def label(self) -> str:
        return f"r{self.round}c{self.index}"

    @property
    def score(self) -> float:
        return self.run.score if self.run else 0.0

    @property
    def all_passed(self) -> bool:
        """Passes every generated test, every user test and every example of the task."""
        return self.run is not None and self.run.all_passed and self.passes_trusted

    @property
    def passes_trusted(self) -> bool:
        """Passes every user test and every example of the task (vacuously, when there are none),
        and leaves its input unchanged where the task says it must."""
        return all(r.all_passed for r in self.trusted_runs) and self.keeps_inputs

    @property
    def keeps_inputs(self) -> bool:
        """No call the tests make changed its arguments, where the task says none may (vacuously
        true where it says nothing of the kind)."""
        return self.keep_run is None or self.keep_run.all_passed

    @property
    def trusted_runs(self) -> list[TestRun]:
        """The runs against tests that come from the user: their --tests, the task's examples."""
        return [r for r in (self.user_run, self.example_run) if r is not None]

    @property
    def reason(self) -> str | None:
        """Why this candidate scored zero or ran badly, if it did."""
        return self.error or (self.run.error if self.run else None)


@dataclass
class Dispute:
    """Two behaviour groups that return different values for one call, and the judge's verdict."""

    call: str  # the input, as a call of the entry point
    # candidate label -> what it returned (a short repr, or "raises E"); or a generated test's
    # name -> the value it expects (loop._test_dissent: a test the consensus excused)
    outputs: dict[str, str]
    answer: str  # what the model, shown only the task and the call, said it returns
    winner: str | None  # the label whose result is that answer; None: it matched neither

    def describe(self) -> str:
        """One line: the call, what each side returned, and what the judge said."""
        sides = "; ".join(
            f"{label} {'expects' if label.startswith('test') else 'returns'} {out}"
            for label, out in self.outputs.items()
        )
        answer = " ".join(self.answer.split())[:80] or "nothing"
        verdict = f"{self.winner} is right" if self.winner else "neither"
        return f"{self.call}: {sides}; the model says {answer}: {verdict}"


PHASES = ("tests", "candidates", "judging", "later rounds", "sandbox")  # where a run's time goes


@dataclass
class Spent:
    """Wall seconds and tokens (prompt and completion) one phase of a run took."""

    seconds: float = 0.0
    tokens: int = 0


@dataclass
class Round:
    """One round of the loop: N candidates generated and scored."""

    index: int
    kind: RoundKind
    candidates: list[Candidate] = field(default_factory=list)
    best_label: str | None = None  # best candidate overall after this round
    best_score: float = 0.0
    best_origin: Origin | None = None  # how the best-so-far was produced
    support: int = 0  # candidates agreeing with the best (codet ranking)
    agree: int = 0  # distinct programs among them
    rival: int = 0  # distinct programs in the largest group that behaves otherwise
    programs: int = 0  # distinct programs sampled so far (codet ranking)
    suspect_tests: list[str] = field(default_factory=list)
    # the best passes every trusted test (your tests, the task's examples); None: there are none
    best_trusted: bool | None = None
    generation_s: float = 0.0  # seconds the run waited for its candidates (after the tests)
    scoring_s: float = 0.0


@dataclass
class SolveResult:
    """What `solve()` returns: the final code, its score and the history."""

    task: str
    entry_point: str | None
    tests: str
    user_tests: str | None
    final_code: str
    score: float
    passed: (
        bool  # passes every test (with user tests: all of them and every generated one not suspect)
    )
    rounds: list[Round]
    best: Candidate | None
    seconds: float
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    notes: list[str] = field(default_factory=list)
    suspect_tests: list[str] = field(default_factory=list)  # generated tests the consensus doubts
    # ... of those, the ones a pass without trusted tests rests on the model judging wrong
    judged_wrong: list[str] = field(default_factory=list)
    examples: str | None = None  # tests made from the task's own examples, trusted like user tests
    disputes: list[Dispute] = field(default_factory=list)  # disagreements the model judged
    spent: dict[str, Spent] = field(default_factory=dict)  # by phase (PHASES)

    @property
    def rounds_used(self) -> int:
        return len(self.rounds)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the --json output)."""
        data = asdict(self)
        data["rounds_used"] = self.rounds_used
        for rnd, rnd_data in zip(self.rounds, data["rounds"], strict=True):
            for c, cand in zip(rnd.candidates, rnd_data["candidates"], strict=True):
                run = cand["run"]
                cand["passed"] = run and sum(r["passed"] for r in run["results"])
                cand["total"] = run and len(run["results"])
                user = cand["user_run"]
                cand["user_passed"] = user and sum(r["passed"] for r in user["results"])
                cand["user_total"] = user and len(user["results"])
                shown = cand["example_run"]
                cand["example_passed"] = shown and sum(r["passed"] for r in shown["results"])
                cand["example_total"] = shown and len(shown["results"])
                del cand["probe_run"], cand["mutant_run"]  # digests, not the harness's text
                del cand["unavailable"]  # control data: the error says it
                seen = {**(behaviour(c.probe_run) or {}), **(behaviour(c.mutant_run) or {})}
                cand["behaviour"] = seen or None  # probe name -> digest (v: a value, x: raised)
        if data["best"] is not None:
            del data["best"]["probe_run"], data["best"]["mutant_run"], data["best"]["unavailable"]
        return data
