"""Backend for Ollama (not finished yet: it says so instead of pretending)."""

from __future__ import annotations

from collections.abc import Sequence

from ..config import AgentConfig
from ..errors import BackendUnavailable
from .base import Completion, Message


class OllamaBackend:
    name = "ollama"
    supports_n = False
    max_parallel = 1

    @classmethod
    def from_config(cls, cfg: AgentConfig) -> OllamaBackend:
        raise BackendUnavailable("The 'ollama' backend is not implemented yet; use --backend mock.")

    def complete(
        self,
        messages: Sequence[Message],
        *,
        n: int = 1,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 1024,
    ) -> list[Completion]:
        raise BackendUnavailable("The 'ollama' backend is not implemented yet; use --backend mock.")

    def close(self) -> None:
        pass
