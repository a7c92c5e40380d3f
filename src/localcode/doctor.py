"""`localcode doctor`: what this machine gives localcode: sandbox layers and backends."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .backends.provider import Provider
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


def diagnose(flags: Mapping[str, Any], backend: str | None = None) -> Diagnosis:
    """Probe the sandbox and ask each backend (or only `backend`) what it can see."""
    from .backends import BACKENDS

    if backend is not None:
        return Diagnosis(sandbox_status(), {backend: _report(BACKENDS[backend], flags)})
    # every backend at once: flags that several read are given to none (an --api-key meant
    # for one API must never be sent to another's server)
    readers = Counter(f.dest for p in BACKENDS.values() for f in p.flags)
    own = {k: v for k, v in flags.items() if readers[k] < 2}
    return Diagnosis(sandbox_status(), {name: _report(p, own) for name, p in BACKENDS.items()})


def _report(provider: Provider, flags: Mapping[str, Any]) -> list[str]:
    """What one backend says of itself; a backend that cannot say says why, in one line."""
    try:
        return provider.doctor(provider.options(flags)) if provider.doctor else []
    except Exception as exc:  # a plugin's own code: one bad backend must not hide the rest
        return [f"{provider.name}: could not check: {exc}"]
