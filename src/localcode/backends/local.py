"""Backend for the embedded llama.cpp engine (not finished yet: it says so instead of pretending)."""

from __future__ import annotations

from collections.abc import Sequence

from ..config import AgentConfig
from ..errors import BackendUnavailable
from .base import Completion, Message


class LocalBackend:
    name = "local"
    supports_n = False
    max_parallel = 1

    @classmethod
    def from_config(cls, cfg: AgentConfig) -> LocalBackend:
        raise BackendUnavailable("The 'local' backend is not implemented yet; use --backend mock.")

    def complete(
        self,
        messages: Sequence[Message],
        *,
        n: int = 1,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 1024,
    ) -> list[Completion]:
        raise BackendUnavailable("The 'local' backend is not implemented yet; use --backend mock.")

    def close(self) -> None:
        pass
