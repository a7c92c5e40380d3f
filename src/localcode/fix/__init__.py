"""Repository mode: fix a project's failing tests with N sandboxed edits ranked by its own tests."""

from .loop import FixSettings, fix
from .records import EditTry, FixResult, FixRound
from .workspace import Workspace

__all__ = ["EditTry", "FixResult", "FixRound", "FixSettings", "Workspace", "fix"]
