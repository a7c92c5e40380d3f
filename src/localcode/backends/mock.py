"""A deterministic, scripted backend: the prototype's demo, a fix-loop demo, and a reply queue for tests."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..config import AgentConfig
from ..errors import UsageError
from .base import Completion, Message
from .provider import Flag, Provider, named_model

DEMO_TESTS = """```python
def test_case_1():
    assert second_largest_unique([1, 2, 3, 4]) == 3

def test_case_2():
    assert second_largest_unique([5, 5, 5, 5]) is None

def test_case_3():
    assert second_largest_unique([10, 20]) == 10

def test_case_4():
    assert second_largest_unique([]) is None

def test_case_5():
    assert second_largest_unique([7]) is None
```"""

CORRECT = """def second_largest_unique(nums):
    uniq = sorted(set(nums), reverse=True)
    if len(uniq) < 2:
        return None
    return uniq[1]
"""
CORRECT_ALT = """def second_largest_unique(nums):
    uniq = set(nums)
    if len(uniq) < 2:
        return None
    uniq.discard(max(uniq))
    return max(uniq)
"""
NO_DEDUPE = """def second_largest_unique(nums):
    s = sorted(nums, reverse=True)
    if len(s) < 2:
        return None
    return s[1]
"""
WRONG_INDEX = """def second_largest_unique(nums):
    uniq = sorted(set(nums), reverse=True)
    if len(uniq) < 2:
        return None
    return uniq[0]
"""
NO_GUARD = """def second_largest_unique(nums):
    uniq = sorted(set(nums), reverse=True)
    return uniq[1]  # still crashes on fewer than 2 unique values
"""

BRUTE = """def second_largest_unique(nums):
    uniq = []
    for x in nums:
        if x not in uniq:
            uniq.append(x)
    if len(uniq) < 2:
        return None
    return sorted(uniq)[-2]
"""

# scenario -> prompt kind -> replies chosen by seed % len; a kind not listed gets "code"'s
SCENARIOS: dict[str, dict[str, list[str]]] = {
    # round 0 scores 4/5, 5/5, 3/5, 5/5 and the loop stops: the prototype's demo
    # (the brute-force reference, seed 1 after the greedy reply, agrees with the winners)
    "demo": {
        "code": [NO_DEDUPE, CORRECT, WRONG_INDEX, CORRECT_ALT],
        "reference": [BRUTE],
        "fix": [CORRECT, NO_GUARD],
    },
    # round 0 (seeds 0-3 at N=4) has no full pass; round 1 finds one: its fixes (seed 4), or
    # its fresh samples (seed 4 too, under --later-rounds fresh). The reference is wrong
    # (WRONG_INDEX, seed 1): it contradicts round 1's pass, which is then not claimed
    # (--no-reference claims it)
    "fix": {
        "code": [NO_DEDUPE, WRONG_INDEX, NO_GUARD, NO_DEDUPE, CORRECT],
        "fix": [CORRECT, NO_GUARD],
    },
}


def _fenced(code: str) -> str:
    return f"Here is the code:\n```python\n{code}```\n"


@dataclass
class MockCall:
    """One request the mock received."""

    messages: list[Message]
    n: int
    temperature: float
    seed: int
    max_tokens: int


@dataclass(frozen=True)
class MockOptions:
    """Which script to play; `--model` names it."""

    scenario: str | None = None  # default "demo"

    @classmethod
    def read(cls, flags: Mapping[str, Any], environ: Mapping[str, str]) -> MockOptions:
        """The scenario from --model."""
        return cls(flags.get("model"))

    def label(self) -> str:
        """`mock`, or `mock-fix` for a named scenario."""
        return named_model("mock", self.scenario)


class MockBackend:
    """Replies from a queue first (for tests), then from the scenario script, chosen by seed."""

    name = "mock"
    supports_n = True

    def __init__(self, scenario: str = "demo", replies: Sequence[str | Exception] = ()) -> None:
        if scenario not in SCENARIOS:
            raise UsageError(
                f"Unknown mock scenario '{scenario}'; choose one of: {', '.join(SCENARIOS)}."
            )
        self.scenario = scenario
        self.history: list[MockCall] = []
        self._queue: deque[str | Exception] = deque(replies)
        self._lock = threading.Lock()
        # queued replies go out in the order they are asked for: a run on them asks one at a time
        self.max_parallel = 1 if replies else 64

    @classmethod
    def from_options(cls, options: MockOptions, cfg: AgentConfig) -> MockBackend:
        """The scripted scenario the options name."""
        return cls(scenario=options.scenario or "demo")

    def enqueue(self, *replies: str | Exception) -> None:
        """Queue replies (or exceptions to raise) to be returned before the script."""
        with self._lock:
            self._queue.extend(replies)
            self.max_parallel = 1

    def complete(
        self,
        messages: Sequence[Message],
        *,
        n: int = 1,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 1024,
    ) -> list[Completion]:
        from ..prompts import kind_of

        msgs = [dict(m) for m in messages]
        with self._lock:
            self.history.append(MockCall(msgs, n, temperature, seed, max_tokens))
            queued = [self._queue.popleft() for _ in range(min(n, len(self._queue)))]
        out = []
        for i in range(n):
            s = seed + i
            if i < len(queued):
                reply = queued[i]
                if isinstance(reply, Exception):
                    if n == 1:
                        raise reply
                    out.append(Completion(text="", seed=s, error=str(reply)))
                    continue
            else:
                reply = self._scripted(kind_of(msgs), s)
            out.append(
                Completion(
                    text=reply,
                    seed=s,
                    prompt_tokens=_words(msgs),
                    completion_tokens=len(reply.split()),
                    finish_reason="stop",
                )
            )
        return out

    def _scripted(self, kind: str, seed: int) -> str:
        if kind == "tests":
            return DEMO_TESTS
        if kind == "judge":  # a judge that never knows: its answer is no candidate's result
            return "I can't tell."
        if kind == "edit":  # a project edit needs the project: tests queue their replies
            return "I can't see the bug."
        script = SCENARIOS[self.scenario]
        replies = script.get(kind) or script["code"]  # a reference is code too
        return _fenced(replies[seed % len(replies)])

    def close(self) -> None:
        pass


def _words(messages: list[Message]) -> int:
    return sum(len(m["content"].split()) for m in messages)


PROVIDER = Provider(
    "mock",
    MockBackend.from_options,
    MockOptions.read,
    (Flag("--model", f"scenario {'|'.join(SCENARIOS)}"),),
    label=MockOptions.label,
    doctor=lambda options: [f"mock: scripted replies, scenarios {', '.join(SCENARIOS)}"],
)
