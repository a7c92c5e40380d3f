"""The records a run produces: candidates, rounds and the result. Dicts only at the JSON edge."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .sandbox.records import TestRun


@dataclass
class Candidate:
    """One sampled solution and what happened to it."""

    round: int
    index: int
    origin: str  # "sample" (fresh), "fix" (repair of the best so far) or "user" (--code)
    code: str = ""
    seed: int | None = None
    run: TestRun | None = None
    error: str | None = None  # why no code came (backend error, no code in the reply)
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
        return self.run is not None and self.run.all_passed

    @property
    def reason(self) -> str | None:
        """Why this candidate scored zero or ran badly, if it did."""
        return self.error or (self.run.error if self.run else None)


@dataclass
class Round:
    """One round of the loop: N candidates generated and scored."""

    index: int
    kind: str  # "initial" or "fix"
    candidates: list[Candidate] = field(default_factory=list)
    best_label: str | None = None  # best candidate overall after this round
    best_score: float = 0.0
    generation_s: float = 0.0
    scoring_s: float = 0.0


@dataclass
class SolveResult:
    """What `solve()` returns: the final code, its score and the history."""

    task: str
    entry_point: str | None
    tests: str
    final_code: str
    score: float
    passed: bool  # the final code passes every test
    rounds: list[Round]
    best: Candidate | None
    seconds: float
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def rounds_used(self) -> int:
        return len(self.rounds)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the --json output)."""
        data = asdict(self)
        data["rounds_used"] = self.rounds_used
        for rnd in data["rounds"]:
            for cand in rnd["candidates"]:
                run = cand["run"]
                cand["passed"] = run and sum(r["passed"] for r in run["results"])
                cand["total"] = run and len(run["results"])
        return data
