"""How many CPU cores this process may use: the sandbox pool's size, the local model's threads."""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """The CPU cores this process may use (affinity-aware where the OS says)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)
