"""`localcode doctor`: what this machine gives localcode: sandbox layers, backends, models."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .backends.openai import DEFAULT_BASE_URL as DEFAULT_OPENAI_URL
from .errors import BackendError, LocalCodeError
from .sandbox import IsolationStatus, sandbox_status
from .sandbox.records import covers


@dataclass
class Diagnosis:
    """One look at the machine; `lines()` is the text `localcode doctor` prints."""

    sandbox: IsolationStatus
    backends: list[str]
    ollama_url: str
    ollama: str  # "reachable, N models" or why not
    openai_url: str = ""
    openai: str = ""  # the same for the OpenAI-compatible server
    anthropic: str = ""  # whether a key is set (no request is made: it would cost money)
    models: list[str] = field(default_factory=list)  # one line per known local model

    def lines(self) -> list[str]:
        out = ["sandbox:"]
        out += [f"  ok       {layer}: {covers(layer)}" for layer in self.sandbox.active]
        out += [
            f"  missing  {k}: {v} (it would give: {covers(k)})"
            for k, v in self.sandbox.missing.items()
        ]
        out.append("  --sandbox strict: " + ("allowed" if self.sandbox.complete else "refused"))
        out.append("backends: " + ", ".join(self.backends))
        out.append(f"  ollama at {self.ollama_url}: {self.ollama}")
        out.append(f"  openai at {self.openai_url}: {self.openai}")
        out.append(f"  anthropic: {self.anthropic}")
        out.append("models (local backend):")
        out += [f"  {m}" for m in self.models] or ["  (model manager not available)"]
        return out


def diagnose(ollama_url: str) -> Diagnosis:
    """Probe the sandbox, the Ollama server and the local model files (no downloads)."""
    from .backends import BACKENDS

    openai_url = os.environ.get("OPENAI_BASE_URL") or DEFAULT_OPENAI_URL
    return Diagnosis(
        sandbox_status(),
        list(BACKENDS),
        ollama_url,
        _ollama(ollama_url),
        openai_url,
        _openai(openai_url),
        _anthropic(),
        _models(),
    )


def _ollama(url: str) -> str:
    from .backends.ollama import list_models

    try:
        names = [m.name for m in list_models(url, timeout=2.0)]
    except BackendError as exc:
        return f"not reachable: {exc}"
    return f"reachable, {len(names)} model(s)" + (": " + ", ".join(names[:8]) if names else "")


def _openai(url: str) -> str:
    from .backends.http import RetryPolicy
    from .backends.openai import OpenAIBackend

    key = os.environ.get("OPENAI_API_KEY") or None
    server = OpenAIBackend(None, url, api_key=key, request_timeout=2.0, retry=RetryPolicy(1))
    try:
        names = server.models()
    except LocalCodeError as exc:
        return f"not reachable: {exc}"
    finally:
        server.close()
    return f"reachable, {len(names)} model(s)" + (": " + ", ".join(names[:8]) if names else "")


def _anthropic() -> str:
    if os.environ.get("ANTHROPIC_API_KEY"):
        return "ANTHROPIC_API_KEY is set (not checked: a request would be billed)"
    return "no ANTHROPIC_API_KEY set"


def _models() -> list[str]:
    try:
        from . import models
    except ImportError:
        return []
    rows = []
    for s in models.list_status():
        star = "*" if s.model.name == models.DEFAULT_MODEL else ""
        state = "installed" if s.installed else "not pulled (localcode models pull NAME)"
        rows.append(f"{s.model.name}{star}: {state} - {s.path}")
    return rows
