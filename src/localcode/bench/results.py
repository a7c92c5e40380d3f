"""The results file: one JSON line per (strategy, problem), appended as each finishes, so runs resume."""

from __future__ import annotations

import json
import os
from collections.abc import Collection
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from ..errors import UsageError

# Settings that older results files do not record, with the defaults those runs used.
LEGACY_SETTINGS = {"timeout": 5.0, "sandbox": "auto", "ctx_size": 8192, "examples": False}


@dataclass
class Outcome:
    """One strategy on one problem: its final code judged on the hidden tests."""

    strategy: str
    task_id: str
    hidden_passed: bool
    self_reported: bool | None  # None: the strategy makes no claim (greedy)
    seconds: float  # wall time of the strategy, judging excluded
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    rounds: int | None = None
    error: str | None = None  # why the strategy produced no answer (e.g. no tests written)
    hidden_detail: str = ""  # first lines of the hidden failure, for reading the results
    final_code: str = ""
    notes: list[str] = field(default_factory=list)
    # another of its candidates passes the hidden tests, the chosen one does not (None: unknown,
    # e.g. a line from before this was recorded): what a better selection could have won
    missed: bool | None = None
    winner: str | None = None  # the chosen candidate: "r1c2 fix" (round, index, origin); loops only
    spent: dict[str, dict[str, float]] | None = None  # seconds and tokens by phase; loops only
    history: list[dict[str, Any]] | None = None  # each round's kind and best so far; loops only
    settings: dict[str, Any] = field(default_factory=dict)  # model, seed, N...: what made it

    @property
    def key(self) -> tuple[str, str]:
        return (self.strategy, self.task_id)

    @property
    def false_confidence(self) -> bool:
        """It reported a full pass on its own tests, and the hidden tests fail."""
        return self.self_reported is True and not self.hidden_passed

    @property
    def tokens(self) -> int | None:
        if self.prompt_tokens is None and self.completion_tokens is None:
            return None
        return (self.prompt_tokens or 0) + (self.completion_tokens or 0)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> Outcome:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in row.items() if k in names})


# Settings that only some strategies read: the others' results hold whatever they are.
ONLY_FOR = {"examples": {"localcode"}}


def settings_for(strategy: str, settings: dict[str, Any]) -> dict[str, Any]:
    """The settings that can change what `strategy` does."""
    return {k: v for k, v in settings.items() if k not in ONLY_FOR or strategy in ONLY_FOR[k]}


def load_results(
    path: Path, settings: dict[str, Any], strategies: Collection[str] | None = None
) -> dict[tuple[str, str], Outcome]:
    """The outcomes already in `path` for `strategies` (default all), by (strategy, task_id); a
    half-written last line is cut off.

    Raises UsageError for a damaged line elsewhere, or for lines of those strategies made with
    other settings (only the settings a strategy reads count: greedy's lines serve runs with and
    without examples).
    """
    if not path.exists():
        return {}
    _drop_partial_last_line(path)
    done: dict[tuple[str, str], Outcome] = {}
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            outcome = Outcome.from_dict(json.loads(line))
        except (json.JSONDecodeError, TypeError) as exc:
            raise UsageError(
                f"Results file {path} line {n} is damaged ({exc}); delete that line to redo it."
            ) from None
        if strategies is not None and outcome.strategy not in strategies:
            continue
        wanted = settings_for(outcome.strategy, settings)
        recorded = settings_for(outcome.strategy, {**LEGACY_SETTINGS, **outcome.settings})
        # a setting this backend does not have (ctx_size for a hosted API) cannot differ
        made = {k: v for k, v in recorded.items() if k in wanted}
        if made != wanted:
            raise UsageError(
                f"Results in {path} were made with other settings ({_diff(made, wanted)})"
                "; pass another --out folder, or delete the file to start over."
            )
        outcome.settings = made
        done[outcome.key] = outcome
    return done


def append_result(path: Path, outcome: Outcome) -> None:
    """Append one line in one write, flushed, so a kill leaves at most a half line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        f.write(outcome.to_json() + "\n")
        f.flush()
        os.fsync(f.fileno())


def _drop_partial_last_line(path: Path) -> None:
    """A run killed mid-write leaves a last line without its newline: cut it, it will be redone."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as f:
            f.truncate(data.rfind(b"\n") + 1)


def _diff(old: dict[str, Any], new: dict[str, Any]) -> str:
    keys = sorted(set(old) | set(new))
    return ", ".join(
        f"{k}: {old.get(k)} then {new.get(k)}" for k in keys if old.get(k) != new.get(k)
    )
