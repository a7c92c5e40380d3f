"""Summing outcomes up per strategy: the table, the summary JSON and the pass-rate chart."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError
from .results import Outcome


@dataclass
class StrategySummary:
    """One row of the table."""

    strategy: str
    problems: int
    hidden_passed: int
    claims: int  # outcomes where the strategy made a claim about its code (greedy makes none)
    self_reported: int  # claimed a full pass on its own tests
    false_confidence: int  # claimed a full pass, hidden tests fail
    errors: int  # produced no answer (e.g. the model wrote no tests)
    missed: int | None  # another candidate passed the hidden tests; None: not recorded
    mean_seconds: float
    mean_tokens: float | None  # prompt + completion; None when the backend reports no counts

    @property
    def pass_rate(self) -> float:
        return self.hidden_passed / self.problems if self.problems else 0.0


def summarize(outcomes: Sequence[Outcome], strategies: Sequence[str]) -> list[StrategySummary]:
    """One row per strategy, in the order given."""
    return [_row(name, [o for o in outcomes if o.strategy == name]) for name in strategies]


def _row(name: str, rows: list[Outcome]) -> StrategySummary:
    n = len(rows)
    tokens = [t for t in (o.tokens for o in rows) if t is not None]
    missed = [o.missed for o in rows if o.missed is not None]
    return StrategySummary(
        strategy=name,
        problems=n,
        hidden_passed=sum(o.hidden_passed for o in rows),
        claims=sum(o.self_reported is not None for o in rows),
        self_reported=sum(o.self_reported is True for o in rows),
        false_confidence=sum(o.false_confidence for o in rows),
        errors=sum(o.error is not None for o in rows),
        missed=sum(missed) if missed else None,
        mean_seconds=sum(o.seconds for o in rows) / n if n else 0.0,
        mean_tokens=sum(tokens) / len(tokens) if tokens else None,
    )


HEADER = (
    "strategy",
    "hidden pass",
    "self-reported",
    "false conf.",
    "errors",
    "missed",
    "s/problem",
    "tokens/problem",
)


def format_table(rows: Sequence[StrategySummary]) -> str:
    """A plain-text table; a strategy that claims nothing (greedy) shows '-' for its claims."""
    body = [
        (
            r.strategy,
            f"{r.hidden_passed}/{r.problems} ({r.pass_rate:.1%})",
            str(r.self_reported) if r.claims else "-",
            str(r.false_confidence) if r.claims else "-",
            str(r.errors),
            "-" if r.missed is None else str(r.missed),
            f"{r.mean_seconds:.1f}",
            "-" if r.mean_tokens is None else f"{r.mean_tokens:.0f}",
        )
        for r in rows
    ]
    widths = [max(len(line[i]) for line in [HEADER, *body]) for i in range(len(HEADER))]
    lines = [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(line, widths, strict=True))
        )
        for line in [HEADER, *body]
    ]
    return "\n".join(lines) + "\n"


def write_summary(path: Path, rows: Sequence[StrategySummary], meta: dict[str, Any]) -> None:
    """The table as JSON, with the settings and problems that produced it."""
    data = {**meta, "strategies": [{**asdict(r), "pass_rate": r.pass_rate} for r in rows]}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def write_chart(path: Path, rows: Sequence[StrategySummary], title: str) -> None:
    """A PNG bar chart of hidden-test pass rate per strategy."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError(
            "The pass-rate chart needs matplotlib: pip install 'localcode[bench]' (or pass --no-chart)."
        ) from None
    fig, ax = plt.subplots(figsize=(1.6 * len(rows) + 2, 4))
    names = [r.strategy for r in rows]
    rates = [100 * r.pass_rate for r in rows]
    bars = ax.bar(names, rates, color="#4C72B0")
    for bar, r in zip(bars, rows, strict=True):
        label = f"{r.pass_rate:.1%}\n{r.hidden_passed}/{r.problems}"
        ax.annotate(
            label,
            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
            ha="center",
            va="bottom",
            fontsize=8,
        )
    ax.set_ylim(0, 110)
    ax.set_ylabel("hidden-test pass rate (%)")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
