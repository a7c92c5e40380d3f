"""What a run shows on the terminal: progress while it works, then the summary."""

from __future__ import annotations

from typing import TextIO

from ..extract import test_names
from ..loop import Event
from ..records import SolveResult


class Progress:
    """Prints the run's progress as the prototype did: rounds, then one line per candidate."""

    def __init__(self, stream: TextIO, n: int, verbose: bool = False) -> None:
        self.out, self.n, self.verbose = stream, n, verbose

    def __call__(self, ev: Event) -> None:
        handler = getattr(self, f"on_{ev.kind}", None)
        if handler:
            handler(ev)
            self.out.flush()

    def on_examples(self, ev: Event) -> None:
        n = len(test_names(ev.detail))
        self.out.write(f"The task shows {n} example{'s' * (n != 1)}: trusted like your own tests\n")
        if self.verbose:
            self.out.write(_indent(ev.detail) + "\n")

    def on_tests(self, ev: Event) -> None:
        self.out.write("Writing tests first...\n")

    def on_tests_ready(self, ev: Event) -> None:
        n = ev.detail.count("\ndef test") + ev.detail.startswith("def test")
        self.out.write(f"  {n} tests written\n")
        if self.verbose:
            self.out.write(_indent(ev.detail) + "\n")

    def on_round(self, ev: Event) -> None:
        n, fixes = self.n, self.n - self.n // 2
        what = {
            "given": "scoring the given code",
            "initial": f"generating {n} candidate solutions in parallel",
            "fresh": f"generating {n} fresh candidates in parallel",
            "vote": f"generating {n} fresh candidates in parallel: others that pass the same "
            "tests disagree with the best",
            "fix": f"generating {n} fix candidates in parallel",
            "mixed": f"generating {fixes} fix candidates and {n - fixes} fresh ones in parallel",
        }[ev.detail]
        self.out.write(f"\n=== Round {ev.round}: {what} ===\n")

    def on_round_done(self, ev: Event) -> None:
        best = ev.candidate
        if best and best.run:
            how = {
                "greedy": "the greedy reply",
                "sample": "a fresh sample",
                "fix": "a fix",
                "user": "your code",
            }[best.origin]
            self.out.write(
                f"  best so far: round {best.round} candidate {best.index} ({how}), "
                f"{best.run.passed}/{best.run.total}\n"
            )
        if ev.detail:
            self.out.write(f"  suspect tests (the consensus fails them): {ev.detail}\n")

    def on_generated(self, ev: Event) -> None:
        if self.verbose:
            self.out.write(f"  generated {ev.detail}; scoring in the sandbox...\n")

    def on_scored(self, ev: Event) -> None:
        c = ev.candidate
        assert c is not None
        run = c.run
        name = f"candidate {c.index}" + (" (fresh)" if c.origin == "sample" and c.round else "")
        name = "given code" if c.origin == "user" else name
        name += " (greedy)" if c.origin == "greedy" else ""
        line = f"  {name}: {run.passed}/{run.total} passing" if run else f"  {name}: no code"
        if c.user_run:
            line += f", your tests {c.user_run.passed}/{c.user_run.total}"
        if c.example_run:
            line += f", examples {c.example_run.passed}/{c.example_run.total}"
        if c.reason:
            line += f"  ({c.reason.splitlines()[0][:200]})"
        self.out.write(line + "\n")
        if self.verbose and run:
            for f in run.failures():
                self.out.write(f"    {f.name}: {_indent(f.message, 6).lstrip()}\n")

    def on_judged(self, ev: Event) -> None:
        assert ev.dispute is not None
        self.out.write(f"  {ev.dispute.describe()}\n")

    def on_stop(self, ev: Event) -> None:
        if ev.candidate and ev.candidate.all_passed:
            self.out.write("All tests passed.\n")
        elif ev.detail == "passed":
            self.out.write("All your tests passed, and every generated test not in doubt.\n")
        else:
            score = ev.candidate.score if ev.candidate else 0.0
            self.out.write(f"Max iterations reached. Returning best attempt (score={score:.0%}).\n")


def print_summary(result: SolveResult, out: TextIO) -> None:
    """The final code, score and rounds, in the prototype's layout."""
    out.write("\n=== FINAL CODE ===\n")
    out.write((result.final_code.rstrip() or "(no code was produced)") + "\n")
    out.write(f"\n=== SCORE: {result.score:.0%} ===\n")
    out.write(f"=== Rounds used: {result.rounds_used} ===\n")
    if result.suspect_tests:
        out.write(
            f"suspect tests (likely wrong; the consensus fails them): {', '.join(result.suspect_tests)}\n"
        )
    parts = [
        f"{k} {v.seconds:.1f}s/{v.tokens} tok" for k, v in result.spent.items() if v.seconds >= 0.05
    ]
    if parts:
        out.write(f"time: {', '.join(parts)} (total {result.seconds:.1f}s)\n")
    for d in result.disputes:
        out.write(f"judged: {d.describe()}\n")
    for note in result.notes:
        out.write(f"note: {note}\n")


def _indent(text: str, n: int = 4) -> str:
    return "\n".join(" " * n + line for line in text.splitlines())
