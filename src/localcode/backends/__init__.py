"""Model backends behind one Protocol, chosen by name from a registry of providers.

Each backend module ends with a `Provider` (provider.py): its flags, its options, how it is
built. Adding a backend is one module and one line in BUILTIN. Other packages add backends
through the entry-point group `localcode.backends`: each entry point names a Provider.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import Any

from ..config import AgentConfig
from ..errors import UsageError
from . import anthropic, local, mock, ollama, openai
from .base import Backend, Completion, Message, fan_out
from .provider import Flag, Provider

ENTRY_POINT_GROUP = "localcode.backends"

BUILTIN: dict[str, Provider] = {
    p.name: p
    for p in (local.PROVIDER, mock.PROVIDER, ollama.PROVIDER, openai.PROVIDER, anthropic.PROVIDER)
}


def plugin_backends() -> dict[str, Provider]:
    """The backends other installed packages register; a built-in name is never replaced."""
    found = entry_points(group=ENTRY_POINT_GROUP)
    return {ep.name: _load(ep) for ep in found if ep.name not in BUILTIN}


def _load(ep: EntryPoint) -> Provider:
    """The entry point's Provider; one that fails to import says so when it is chosen."""
    try:
        made = ep.load()
    except Exception as exc:  # a broken plugin must not break the other backends
        reason = f"{type(exc).__name__}: {exc}"

        def broken(options: Any, cfg: AgentConfig) -> Backend:
            raise UsageError(
                f"Backend '{ep.name}' (from {ep.value}) failed to load ({reason}). "
                "Reinstall the package that provides it."
            )

        return Provider(
            ep.name, broken, doctor=lambda options: [f"{ep.name}: failed to load ({reason})"]
        )
    if not isinstance(made, Provider):
        why = f"{ep.value} is a {type(made).__name__}, not a localcode Provider"

        def wrong(options: Any, cfg: AgentConfig) -> Backend:
            raise UsageError(f"Backend '{ep.name}': {why}; update the package.")

        return Provider(ep.name, wrong)
    return made


BACKENDS: dict[str, Provider] = {**BUILTIN, **plugin_backends()}


def provider(name: str) -> Provider:
    """The registered backend called `name`, or a UsageError listing them."""
    try:
        return BACKENDS[name]
    except KeyError:
        raise UsageError(
            f"Unknown backend '{name}'; choose one of: {', '.join(BACKENDS)}."
        ) from None


def options_of(cfg: AgentConfig) -> Any:
    """The options `cfg` gives its backend: its own, or the backend's defaults and environment."""
    return cfg.options if cfg.options is not None else provider(cfg.backend).options()


def create_backend(cfg: AgentConfig) -> Backend:
    """Build the backend that `cfg.backend` names, with its options."""
    chosen = provider(cfg.backend)
    if cfg.options is None:
        return chosen.create(chosen.options(), cfg)
    wanted = type(chosen.options({}))
    if not isinstance(cfg.options, wanted):
        raise UsageError(
            f"Backend '{cfg.backend}' takes {wanted.__name__} options, not "
            f"{type(cfg.options).__name__}; build them with "
            f"backends.provider('{cfg.backend}').options()."
        )
    return chosen.create(cfg.options, cfg)


__all__ = [
    "BACKENDS",
    "BUILTIN",
    "ENTRY_POINT_GROUP",
    "Backend",
    "Completion",
    "Flag",
    "Message",
    "Provider",
    "create_backend",
    "fan_out",
    "options_of",
    "provider",
]
