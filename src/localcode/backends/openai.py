"""Backend for OpenAI-compatible servers (not finished yet: it says so instead of pretending)."""

from __future__ import annotations

from collections.abc import Sequence

from ..config import AgentConfig
from ..errors import BackendUnavailable
from .base import Completion, Message


class OpenAIBackend:
    name = "openai"
    supports_n = False
    max_parallel = 1

    @classmethod
    def from_config(cls, cfg: AgentConfig) -> OpenAIBackend:
        raise BackendUnavailable("The 'openai' backend is not implemented yet; use --backend mock.")

    def complete(
        self,
        messages: Sequence[Message],
        *,
        n: int = 1,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 1024,
    ) -> list[Completion]:
        raise BackendUnavailable("The 'openai' backend is not implemented yet; use --backend mock.")

    def close(self) -> None:
        pass
