"""AgentConfig: every knob of a run, validated in one place."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Literal, get_args

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
    sandbox: Isolation = "auto"
    # backend options
    model: str | None = None  # model name for ollama/openai/anthropic; known model for local
    model_path: str | None = None  # any GGUF file for the local backend
    ollama_model: str = "llama3"
    ollama_url: str = field(default_factory=lambda: default_ollama_url())
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)  # a secret: never in repr or logs
    ctx_size: int = 8192  # per parallel slot for the local backend
    threads: int | None = None  # local backend; default: CPU cores
    request_timeout: float = 300.0
    max_parallel: int | None = None

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
        if self.request_timeout <= 0:
            raise UsageError("--request-timeout must be a positive number of seconds.")
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
        if self.max_parallel is not None and self.max_parallel < 1:
            raise UsageError("--max-parallel must be at least 1.")


def default_ollama_url() -> str:
    """The Ollama URL as the Ollama CLI reads OLLAMA_HOST (host, host:port or full URL)."""
    host = os.environ.get("OLLAMA_HOST", "").strip()
    if not host:
        return "http://localhost:11434"
    scheme, sep, rest = host.partition("://")
    if not sep:
        scheme, rest = "http", host
    rest = rest.rstrip("/")
    hostport = rest.split("/", 1)[0]
    has_port = "]:" in hostport if hostport.startswith("[") else ":" in hostport  # [IPv6]:port
    if not has_port:
        default_port = "443" if scheme == "https" else "11434"
        rest = rest.replace(hostport, f"{hostport or '127.0.0.1'}:{default_port}", 1)
    if rest.startswith("0.0.0.0"):
        rest = "localhost" + rest[len("0.0.0.0") :]
    return f"{scheme}://{rest}"
