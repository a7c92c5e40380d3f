"""Model backends behind one Protocol, chosen by name from a registry."""

from __future__ import annotations

from collections.abc import Callable

from ..config import AgentConfig
from ..errors import UsageError
from .anthropic import AnthropicBackend
from .base import Backend, Completion, Message, fan_out
from .local import LocalBackend
from .mock import MockBackend
from .ollama import OllamaBackend
from .openai import OpenAIBackend

BACKENDS: dict[str, Callable[[AgentConfig], Backend]] = {
    "local": LocalBackend.from_config,
    "mock": MockBackend.from_config,
    "ollama": OllamaBackend.from_config,
    "openai": OpenAIBackend.from_config,
    "anthropic": AnthropicBackend.from_config,
}


def create_backend(cfg: AgentConfig) -> Backend:
    """Build the backend that `cfg.backend` names."""
    try:
        factory = BACKENDS[cfg.backend]
    except KeyError:
        raise UsageError(
            f"Unknown backend '{cfg.backend}'; choose one of: {', '.join(BACKENDS)}."
        ) from None
    return factory(cfg)


__all__ = ["BACKENDS", "Backend", "Completion", "Message", "create_backend", "fan_out"]
