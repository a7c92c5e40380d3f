"""localcode: a self-correcting best-of-N coding agent for local models."""

from .config import AgentConfig
from .errors import LocalCodeError
from .loop import Event, solve
from .records import Candidate, Round, SolveResult

__all__ = ["AgentConfig", "Candidate", "Event", "LocalCodeError", "Round", "SolveResult", "solve"]
__version__ = "0.1.0"
