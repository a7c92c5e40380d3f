"""`localcode doctor`: what this machine gives localcode: sandbox layers and backends."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .sandbox import IsolationStatus, sandbox_status
from .sandbox.records import covers


@dataclass
class Diagnosis:
    """One look at the machine; `lines()` is the text `localcode doctor` prints."""

    sandbox: IsolationStatus
    # each registered backend with what it reports (its Provider.doctor; empty: nothing)
    backends: dict[str, list[str]] = field(default_factory=dict)

    def lines(self) -> list[str]:
        out = ["sandbox:"]
        out += [f"  ok       {layer}: {covers(layer)}" for layer in self.sandbox.active]
        out += [
            f"  missing  {k}: {v} (it would give: {covers(k)})"
            for k, v in self.sandbox.missing.items()
        ]
        out.append("  --sandbox strict: " + ("allowed" if self.sandbox.complete else "refused"))
        out.append("backends: " + ", ".join(self.backends))
        out += [f"  {line}" for report in self.backends.values() for line in report]
        return out


def diagnose(flags: Mapping[str, Any]) -> Diagnosis:
    """Probe the sandbox and ask every backend, with the options these flags and the
    environment give it, what it can see (servers it would call, models it would load)."""
    from .backends import BACKENDS

    reports = {}
    for name, provider in BACKENDS.items():
        reports[name] = provider.doctor(provider.options(flags)) if provider.doctor else []
    return Diagnosis(sandbox_status(), reports)
