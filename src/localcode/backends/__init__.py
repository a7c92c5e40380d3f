"""Model backends behind one Protocol, chosen by name from a registry."""

from __future__ import annotations

from ..config import AgentConfig
from ..errors import UsageError
from .anthropic import AnthropicBackend
from .base import Backend, Completion, Message, fan_out
from .local import LocalBackend
from .mock import MockBackend
from .ollama import OllamaBackend
from .openai import OpenAIBackend

BACKENDS: dict[str, type] = {
    "local": LocalBackend,
    "mock": MockBackend,
    "ollama": OllamaBackend,
    "openai": OpenAIBackend,
    "anthropic": AnthropicBackend,
}


def create_backend(cfg: AgentConfig) -> Backend:
    """Build the backend that `cfg.backend` names."""
    try:
        cls = BACKENDS[cfg.backend]
    except KeyError:
        raise UsageError(
            f"Unknown backend '{cfg.backend}'; choose one of: {', '.join(BACKENDS)}."
        ) from None
    backend: Backend = cls.from_config(cfg)
    return backend


__all__ = ["BACKENDS", "Backend", "Completion", "Message", "create_backend", "fan_out"]
