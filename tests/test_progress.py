"""What a run shows while it works: the prototype's lines, and what it waits for, live."""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from typing import Any

from localcode import AgentConfig, prompts, solve
from localcode.backends import Completion, Message
from localcode.backends.mock import MockBackend
from localcode.cli import Progress


class SlowTests(MockBackend):
    """The demo, with a model that takes `delay` seconds to write its tests."""

    def __init__(self, delay: float) -> None:
        super().__init__("demo")
        self.delay = delay

    def complete(self, messages: Sequence[Message], **kw: Any) -> list[Completion]:
        if prompts.kind_of(list(messages)) == "tests":
            time.sleep(self.delay)
        return super().complete(messages, **kw)


def run(progress: Progress, demo_task: str, delay: float = 1.3) -> None:
    cfg = AgentConfig(backend="mock", n_candidates=2, max_iters=1, greedy=False, judge=False)
    solve(demo_task, cfg, backend=SlowTests(delay), on_event=progress)


def test_a_plain_stream_gets_a_line_now_and_then_while_the_model_works(demo_task: str) -> None:
    shown = io.StringIO()
    run(Progress(shown, 2, live=False, plain_every=0.4), demo_task)
    lines = shown.getvalue().splitlines()
    waiting = [n for n in lines if n.startswith("  ... the model is writing tests: ")]
    assert 1 <= len(waiting) <= 3, lines
    start, ready = lines.index("Writing tests first..."), lines.index("  5 tests written")
    assert start < lines.index(waiting[0]) < ready  # between the two, while it waited
    assert "\x1b" not in shown.getvalue()  # no terminal codes in a log


def test_a_fast_run_shows_no_waiting_lines(demo_task: str) -> None:
    shown = io.StringIO()
    run(Progress(shown, 2, live=False, plain_every=5.0), demo_task, delay=0.0)
    assert "..." not in shown.getvalue().replace("Writing tests first...", "")


def test_on_a_terminal_the_wait_is_one_live_line(demo_task: str) -> None:
    shown = io.StringIO()
    progress = Progress(shown, 2, live=True)
    run(progress, demo_task, delay=2.2)
    out = shown.getvalue()
    assert "the model is writing tests (1 s)" in out or "the model is writing tests (2 s)" in out
    assert "Writing tests first..." in out and "=== Round 0:" in out
    assert "  ... the model" not in out  # the live line, not plain ones
    assert progress._closed.is_set()  # the stop event ended it


class Counting(SlowTests):
    """SlowTests whose backend reports the tokens its reply has so far: 100 a second."""

    def __init__(self, delay: float) -> None:
        super().__init__(delay)
        self.began: float | None = None

    def complete(self, messages: Sequence[Message], **kw: Any) -> list[Completion]:
        self.began = time.monotonic()
        try:
            return super().complete(messages, **kw)
        finally:
            self.began = None

    def generating(self) -> list[int]:
        began = self.began
        return [] if began is None else [int((time.monotonic() - began) * 100)]


def test_the_wait_shows_the_tokens_written_so_far_where_the_backend_tells(
    demo_task: str,
) -> None:
    shown = io.StringIO()
    cfg = AgentConfig(backend="mock", n_candidates=2, max_iters=1, greedy=False, judge=False)
    progress = Progress(shown, 2, live=False, plain_every=0.4)
    solve(demo_task, cfg, backend=Counting(1.3), on_event=progress)
    waiting = [n for n in shown.getvalue().splitlines() if n.startswith("  ... the model")]
    assert waiting and all("; written so far: " in n for n in waiting), waiting
    counts = [int(n.split("written so far: ")[1].split()[0]) for n in waiting]
    assert counts == sorted(counts) and counts[-1] >= 40  # rising while the tests are written
    live = io.StringIO()
    solve(demo_task, cfg, backend=Counting(2.2), on_event=Progress(live, 2, live=True))
    assert "s; written so far: " in live.getvalue()


def test_stopping_before_max_iters_says_why(demo_task: str) -> None:
    from localcode.backends.mock import CORRECT, CORRECT_ALT, DEMO_TESTS, NO_DEDUPE

    wrong_tests = DEMO_TESTS.replace("== 10", "== 20")
    user = "def test_mine():\n    assert second_largest_unique([10, 20]) == 10\n"
    codes = [f"```python\n{c}```" for c in (CORRECT, CORRECT_ALT, NO_DEDUPE)]
    backend = MockBackend("demo", replies=[wrong_tests, *codes])
    shown = io.StringIO()
    cfg = AgentConfig(backend="mock", n_candidates=3, max_iters=3, greedy=False, judge=False)
    solve(demo_task, cfg, backend=backend, tests=user, on_event=Progress(shown, 3, live=False))
    assert "More rounds would not change what can be claimed. Returning best attempt" in (
        shown.getvalue()
    )
