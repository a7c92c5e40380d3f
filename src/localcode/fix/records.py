"""What `localcode fix` returns: each edit it tried, the one it chose, and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class EditTry:
    """One sampled edit and what the project's tests said of it. `reason`: why it was discarded
    before any test ran (it did not parse, changed nothing, ...)."""

    origin: str  # "line" (fix/holes.py), "greedy" (temperature 0), "sample" or "repair"
    seed: int | None
    files: dict[str, str] = field(default_factory=dict)
    reason: str = ""
    fixed: list[str] = field(default_factory=list)  # failing before, passing now
    broken: list[str] = field(default_factory=list)  # passing before, failing now
    failing: list[str] = field(default_factory=list)
    passed: int = 0
    all_pass: bool = False
    seconds: float = 0.0  # its test runs
    only_failing: bool = False  # it fixed none of the failing tests: the others were not run
    tokens: int = 0
    reply: str = ""  # the model's reply, kept when it was discarded (so one can see why)
    outcomes: dict[str, Any] = field(default_factory=dict, repr=False)  # test id -> Outcome

    @property
    def tested(self) -> bool:
        return not self.reason

    def key(self) -> tuple[bool, bool, int, int]:
        """Higher is better: breaks nothing, then everything passes, then most fixed, fewest failing."""
        return (not self.broken, self.all_pass, len(self.fixed), -len(self.failing))

    def eligible(self) -> bool:
        """May be the answer: tested, breaks no test that passed before, fixes at least one."""
        return self.tested and not self.broken and (bool(self.fixed) or self.all_pass)

    def to_dict(self) -> dict[str, Any]:
        return {
            "origin": self.origin,
            "seed": self.seed,
            "files": sorted(self.files),
            "discarded": self.reason or None,
            "reply": self.reply or None,
            "fixed": self.fixed,
            "broken": self.broken,
            "failing": self.failing,
            "passed": self.passed,
            "all_pass": self.all_pass,
            "ran": (
                None
                if not self.tested
                else "the failing tests"
                if self.only_failing
                else "the whole command"
            ),
            "seconds": round(self.seconds, 3),
            "tokens": self.tokens,
        }


@dataclass
class FixRound:
    index: int
    kind: str  # "lines" (fix/holes.py), "edit" (from the project as it is) or "repair"
    tries: list[EditTry] = field(default_factory=list)


@dataclass
class FixResult:
    """The outcome of one `localcode fix` run. `best` is None when no edit fixed anything
    without breaking a test that passed before."""

    command: str
    root: str
    failing_before: list[str]
    passed_before: int
    units: list[str] = field(default_factory=list)
    suspects: list[str] = field(default_factory=list)  # "path:line: code (score)", best first
    locate_note: str = ""  # why no line was singled out, when the traced run ran
    lines_note: str = ""  # why the singled-out lines were not written anew, when they were not
    units_note: str = ""  # why no whole function was edited, when only lines were written anew
    failing_first_note: str = ""  # why edits did not run the failing tests first, when they did not
    rounds: list[FixRound] = field(default_factory=list)
    best: EditTry | None = None
    diff: str = ""
    applied: bool = False
    layers: list[str] = field(default_factory=list)
    # seconds: baseline, locate (the traced run), generation, tests
    spent: dict[str, float] = field(default_factory=dict)

    @property
    def repaired(self) -> bool:
        return self.best is not None and self.best.all_pass

    @property
    def tokens(self) -> int:
        return sum(t.tokens for r in self.rounds for t in r.tries)

    def still_failing(self) -> list[str]:
        return self.best.failing if self.best else self.failing_before

    def to_dict(self) -> dict[str, Any]:
        best = self.best
        return {
            "command": self.command,
            "root": self.root,
            "repaired": self.repaired,
            "failing_before": self.failing_before,
            "passed_before": self.passed_before,
            "tests_fixed": best.fixed if best else [],
            "tests_still_failing": self.still_failing(),
            "tests_broken": best.broken if best else [],
            "diff": self.diff,
            "files": sorted(best.files) if best else [],
            "applied": self.applied,
            "units": self.units,
            "suspects": self.suspects,
            "suspects_note": self.locate_note or None,
            "lines_note": self.lines_note or None,
            "units_note": self.units_note or None,
            "failing_first_note": self.failing_first_note or None,
            "layers": self.layers,
            "spent": {k: round(v, 3) for k, v in self.spent.items()},
            "tokens": self.tokens,
            "history": [
                {"round": r.index, "kind": r.kind, "edits": [t.to_dict() for t in r.tries]}
                for r in self.rounds
            ],
        }
