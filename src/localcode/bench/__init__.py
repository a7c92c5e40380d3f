"""`localcode bench`: strategies side by side on problems whose hidden tests nobody here wrote."""

from __future__ import annotations

from .harness import run_bench
from .problems import Problem, load_problems, select_problems
from .report import StrategySummary, summarize
from .results import Outcome
from .strategies import STRATEGIES

__all__ = [
    "STRATEGIES",
    "Outcome",
    "Problem",
    "StrategySummary",
    "load_problems",
    "run_bench",
    "select_problems",
    "summarize",
]
