"""Model backends behind one Protocol, chosen by name from a registry.

Other packages add backends through the entry-point group `localcode.backends`: each entry
point names a factory `(AgentConfig) -> Backend`, loaded only when that backend is chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points

from ..config import AgentConfig
from ..errors import UsageError
from .anthropic import AnthropicBackend
from .base import Backend, Completion, Message, fan_out
from .local import LocalBackend
from .mock import MockBackend
from .ollama import OllamaBackend
from .openai import OpenAIBackend

Factory = Callable[[AgentConfig], Backend]
ENTRY_POINT_GROUP = "localcode.backends"

BUILTIN: dict[str, Factory] = {
    "local": LocalBackend.from_config,
    "mock": MockBackend.from_config,
    "ollama": OllamaBackend.from_config,
    "openai": OpenAIBackend.from_config,
    "anthropic": AnthropicBackend.from_config,
}


def plugin_backends() -> dict[str, Factory]:
    """The backends other installed packages register; a built-in name is never replaced."""
    found = entry_points(group=ENTRY_POINT_GROUP)
    return {ep.name: _deferred(ep) for ep in found if ep.name not in BUILTIN}


def _deferred(ep: EntryPoint) -> Factory:
    def factory(cfg: AgentConfig) -> Backend:
        try:
            made: Backend = ep.load()(cfg)
        except ImportError as exc:
            raise UsageError(
                f"Backend '{ep.name}' (from {ep.value}) failed to import: {exc}. "
                "Reinstall the package that provides it."
            ) from exc
        return made

    return factory


BACKENDS: dict[str, Factory] = {**BUILTIN, **plugin_backends()}


def create_backend(cfg: AgentConfig) -> Backend:
    """Build the backend that `cfg.backend` names."""
    try:
        factory = BACKENDS[cfg.backend]
    except KeyError:
        raise UsageError(
            f"Unknown backend '{cfg.backend}'; choose one of: {', '.join(BACKENDS)}."
        ) from None
    return factory(cfg)


__all__ = [
    "BACKENDS",
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "Backend",
    "Completion",
    "Message",
    "create_backend",
    "fan_out",
]
