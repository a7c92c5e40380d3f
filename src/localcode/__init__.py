"""localcode: a self-correcting best-of-N coding agent for local models.

The public names load on first use (PEP 562), so a process that needs one submodule, such as
the sandbox worker, imports only that submodule and what it needs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .config import AgentConfig
    from .errors import LocalCodeError
    from .loop import Event, solve
    from .records import Candidate, Round, SolveResult

__version__ = "0.1.0"
_HOMES = {
    "AgentConfig": "config",
    "LocalCodeError": "errors",
    "Event": "loop",
    "solve": "loop",
    "Candidate": "records",
    "Round": "records",
    "SolveResult": "records",
}
__all__ = ["AgentConfig", "Candidate", "Event", "LocalCodeError", "Round", "SolveResult", "solve"]


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    if name not in _HOMES:
        raise AttributeError(f"module 'localcode' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOMES[name]}", __name__), name)
    globals()[name] = value
    return value
