"""AgentConfig: every knob of a run, validated in one place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from .errors import UsageError
from .sandbox.records import ISOLATIONS, Isolation

# what later rounds sample (--later-rounds); auto: mixed after the user's code, else fresh
LaterRounds = Literal["auto", "fresh", "mixed", "fix"]
LATER_ROUNDS: tuple[LaterRounds, ...] = get_args(LaterRounds)
# how candidates are ranked: codet, CodeT dual agreement; plain, the prototype's pass fraction
RankingName = Literal["codet", "plain"]
RANKING_NAMES: tuple[RankingName, ...] = get_args(RankingName)


@dataclass
class AgentConfig:
    """Settings for `solve()`. Defaults match the prototype's flags."""

    backend: str = "local"
    n_candidates: int = 4
    max_iters: int = 3
    timeout: float = 5.0  # wall seconds per candidate test run
    temperature: float = 0.8  # for candidates; tests are generated greedily
    seed: int = 0
    max_tokens: int = 1024  # per code generation
    max_test_tokens: int = 1024  # per test generation
    ranking: RankingName = "codet"  # the key of ranking.RANKINGS; "plain" is the prototype's
    # rounds after the first, while the best fails: "fresh" all fresh samples; "mixed" half
    # repairs of the best, half fresh; "fix" all repairs (the prototype); "auto" mixed when the
    # run starts from the user's code (--code), else fresh
    later_rounds: LaterRounds = "auto"
    examples: bool = True  # the task's own examples (`>>> f(2)` / `f(2) == 4`) as trusted tests
    greedy: bool = True  # round 0's first candidate is the temperature-0 reply
    judge: bool = True  # the model judges concrete disagreements between behaviour groups
    # one of round 0's candidates is a brute-force reference (at N >= 3): a second reading of
    # the task, which a pass must not contradict to be claimed
    reference: bool = True
    # round 0 draws the greedy reply and the reference first, and its other samples only when
    # those two fail a test or return different values somewhere (--all-samples: all at once)
    agree_first: bool = True
    # a later round that changes neither the best's behaviour nor its score ends the run
    stop_unchanged: bool = True
    sandbox: Isolation = "auto"
    # the backend's own options (a dataclass its Provider reads from flags and the
    # environment: backends.provider); None: its defaults and the environment
    options: Any = None

    def validate(self) -> None:
        """Raise UsageError with a one-line message for any bad setting."""
        if self.n_candidates < 1:
            raise UsageError(f"--n-candidates must be at least 1 (got {self.n_candidates}).")
        if self.max_iters < 1:
            raise UsageError(f"--max-iters must be at least 1 (got {self.max_iters}).")
        if not self.timeout > 0:
            raise UsageError(
                f"--timeout must be a positive number of seconds (got {self.timeout})."
            )
        if self.max_tokens < 1 or self.max_test_tokens < 1:
            raise UsageError("--max-tokens must be at least 1.")
        if self.ranking not in RANKING_NAMES:
            raise UsageError(f"--ranking must be codet or plain (got '{self.ranking}').")
        if self.temperature < 0:
            raise UsageError(f"--temperature must be 0 or more (got {self.temperature}).")
        if self.sandbox not in ISOLATIONS:
            raise UsageError(f"--sandbox must be auto, strict or none (got '{self.sandbox}').")
        if self.later_rounds not in LATER_ROUNDS:
            raise UsageError(
                f"--later-rounds must be {', '.join(LATER_ROUNDS)} (got '{self.later_rounds}')."
            )
