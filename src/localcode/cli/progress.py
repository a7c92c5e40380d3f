"""What a run shows on the terminal: progress while it works, then the summary."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from ..extract import test_names
from ..loop import Event
from ..records import SolveResult

PLAIN_EVERY = 15.0  # seconds between "still waiting" lines when the stream is not a terminal


class Progress:
    """Prints the run's progress as the prototype did: rounds, then one line per candidate.

    While the run waits (for the model's tests or candidates, or for the sandbox), it shows
    what it waits for and for how long: a live line on a terminal (rich), or a plain line every
    PLAIN_EVERY seconds otherwise, so that a long run never looks frozen. `close()` ends it.
    """

    def __init__(
        self,
        stream: TextIO,
        n: int,
        verbose: bool = False,
        *,
        live: bool | None = None,
        plain_every: float = PLAIN_EVERY,
    ) -> None:
        self.out, self.n, self.verbose = stream, n, verbose
        self.live = _is_terminal(stream) if live is None else live
        self.plain_every = plain_every
        self._lock = threading.Lock()
        # what, since when (monotonic), and how to read the tokens written so far
        self._waiting: tuple[str, float, Callable[[], list[int]] | None] | None = None
        self._closed = threading.Event()
        self._ticker: threading.Thread | None = None
        self._console: Any = None
        self._status: Any = None
        if self.live:
            from rich.console import Console

            self._console = Console(file=stream, force_terminal=True, highlight=False, emoji=False)

    def __call__(self, ev: Event) -> None:
        handler = getattr(self, f"on_{ev.kind}", None)
        with self._lock:
            self._end_wait()
            if handler:
                handler(ev)
            self.out.flush()
        wait = _WAITS.get(ev.kind)
        if wait and not (ev.kind == "round" and ev.detail == "given"):
            n = {"agree": "2", "more": ev.detail}.get(ev.detail if ev.kind == "round" else ev.kind)
            if ev.kind == "tests" and ev.detail:
                wait = _WAITS["tests_with_round"]
            self._wait(wait.format(n=n or self.n), ev.live)
        elif ev.kind == "stop":
            self.close()

    def close(self) -> None:
        """Stop showing what the run waits for. Safe to call twice."""
        self._closed.set()
        with self._lock:
            self._end_wait()

    def _end_wait(self) -> None:
        self._waiting = None
        if self._status is not None:
            self._status.stop()
            self._status = None

    def write(self, text: str) -> None:
        """Text above the live line (on a terminal) or straight to the stream."""
        if self._console is not None:
            self._console.print(text, end="", markup=False, soft_wrap=True)
        else:
            self.out.write(text)

    def _wait(self, what: str, live: Callable[[], list[int]] | None = None) -> None:
        with self._lock:
            if self._closed.is_set():
                return
            self._waiting = (what, time.monotonic(), live)
            if self._console is not None:
                self._status = self._console.status(what)
                self._status.start()
            if self._ticker is None:
                self._ticker = threading.Thread(target=self._tick, daemon=True)
                self._ticker.start()

    def _tick(self) -> None:
        shown_at: dict[float, float] = {}  # a wait (by its start) -> when its last line was
        while not self._closed.wait(1.0 if self.live else min(1.0, self.plain_every)):
            waiting = self._waiting
            if waiting is None:
                continue
            what, since, live = waiting
            now = time.monotonic()
            due = self.live or now - shown_at.get(since, since) >= self.plain_every
            # read outside the lock: a backend's report may take a moment
            written = _written(live()) if live and due else ""
            with self._lock:
                if self._waiting is not waiting:  # the wait ended meanwhile
                    continue
                if self._status is not None:
                    self._status.update(f"{what} ({now - since:.0f} s{written})")
                elif due:
                    shown_at = {since: now}
                    self.out.write(f"  ... {what}: {now - since:.0f} s{written}\n")
                    self.out.flush()

    def on_examples(self, ev: Event) -> None:
        n = len(test_names(ev.detail))
        self.write(f"The task shows {n} example{'s' * (n != 1)}: trusted like your own tests\n")
        if self.verbose:
            self.write(_indent(ev.detail) + "\n")

    def on_tests(self, ev: Event) -> None:
        meanwhile = (
            " (meanwhile the greedy reply and a brute-force reference, which never see them)"
            if ev.detail
            else ""
        )
        self.write(f"Writing tests first{meanwhile}...\n")

    def on_tests_ready(self, ev: Event) -> None:
        n = ev.detail.count("\ndef test") + ev.detail.startswith("def test")
        self.write(f"  {n} tests written\n")
        if self.verbose:
            self.write(_indent(ev.detail) + "\n")

    def on_round(self, ev: Event) -> None:
        n, fixes = self.n, self.n - self.n // 2
        what = {
            "given": "scoring the given code",
            "initial": f"generating {n} candidate solutions in parallel",
            "agree": "the greedy reply and a brute-force reference first; "
            f"{n - 2} more candidates only if they fail a test or disagree",
            "fresh": f"generating {n} fresh candidates in parallel",
            "vote": f"generating {n} fresh candidates in parallel: others that pass the same "
            "tests disagree with the best",
            "fix": f"generating {n} fix candidates in parallel",
            "mixed": f"generating {fixes} fix candidates and {n - fixes} fresh ones in parallel",
        }[ev.detail]
        self.write(f"\n=== Round {ev.round}: {what} ===\n")

    def on_more(self, ev: Event) -> None:
        self.write(f"  they fail a test or disagree: generating {ev.detail} more in parallel\n")

    def on_round_done(self, ev: Event) -> None:
        best = ev.candidate
        if best and best.run:
            how = {
                "greedy": "the greedy reply",
                "reference": "the brute-force reference",
                "sample": "a fresh sample",
                "fix": "a fix",
                "user": "your code",
                "task": "the task's code",
                "mended": "a candidate with its input copied",
            }[best.origin]
            self.write(
                f"  best so far: round {best.round} candidate {best.index} ({how}), "
                f"{best.run.passed}/{best.run.total}\n"
            )
        if ev.detail:
            self.write(f"  suspect tests (the consensus fails them): {ev.detail}\n")

    def on_generated(self, ev: Event) -> None:
        if self.verbose:
            self.write(f"  generated {ev.detail}; scoring in the sandbox...\n")

    def on_scored(self, ev: Event) -> None:
        c = ev.candidate
        assert c is not None
        run = c.run
        name = f"candidate {c.index}" + (" (fresh)" if c.origin == "sample" and c.round else "")
        name = "given code" if c.origin in ("user", "task") else name
        name += {
            "greedy": " (greedy)",
            "reference": " (brute-force reference)",
            "mended": " (one above, its input copied on entry)",
        }.get(c.origin, "")
        idle = "not run" if c.code else "no code"  # a fix that gave its code back is not run
        line = f"  {name}: {run.passed}/{run.total} passing" if run else f"  {name}: {idle}"
        if c.user_run:
            line += f", your tests {c.user_run.passed}/{c.user_run.total}"
        if c.example_run:
            line += f", examples {c.example_run.passed}/{c.example_run.total}"
        if c.keep_run:
            kept, calls = c.keep_run.passed, c.keep_run.total
            line += f", input unchanged {kept}/{calls}" if c.keep_run.error is None else ""
        if c.reason:
            line += f"  ({c.reason.splitlines()[0][:200]})"
        self.write(line + "\n")
        if self.verbose and run:
            for f in run.failures():
                self.write(f"    {f.name}: {_indent(f.message, 6).lstrip()}\n")

    def on_judged(self, ev: Event) -> None:
        assert ev.dispute is not None
        self.write(f"  {ev.dispute.describe()}\n")

    def on_stop(self, ev: Event) -> None:
        if ev.candidate and ev.candidate.all_passed and ev.detail == "passed":
            self.write("All tests passed.\n")
        elif ev.candidate and ev.candidate.all_passed:
            self.write("All tests passed, but the pass is in doubt (see the note below).\n")
        elif ev.detail == "passed" and ev.candidate and not ev.candidate.trusted_runs:
            self.write("Every generated test passed but those the model judged wrong.\n")
        elif ev.detail == "passed":
            self.write("All your tests passed, and every generated test not in doubt.\n")
        else:
            score = ev.candidate.score if ev.candidate else 0.0
            why = {
                "stopped": "More rounds would not change what can be claimed",
                "unavailable": "The backend stopped answering",
            }.get(ev.detail, "Max iterations reached")
            self.write(f"{why}. Returning best attempt (score={score:.0%}).\n")


# what the run waits for after each event (none: it is not waiting on anything slow)
_WAITS = {
    "backend": "starting the model",
    "tests": "the model is writing tests",
    "tests_with_round": "the model is writing tests, the greedy reply and a reference",
    "round": "the model is writing {n} candidates",
    "more": "the model is writing {n} candidates",
    "generated": "scoring in the sandbox",
}


def _written(tokens: list[int]) -> str:
    """The tokens each reply in progress has so far, for the live line."""
    if not tokens:
        return ""
    return f"; written so far: {', '.join(map(str, tokens))} tokens"


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


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
