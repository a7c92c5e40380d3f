"""The greedy reply as a candidate, and the model judging concrete disagreements (disputes.py)."""

from __future__ import annotations

import io
import re
import threading
import time
from dataclasses import replace
from typing import Any

import pytest

from localcode import AgentConfig, SolveResult, prompts, sandbox, solve
from localcode.backends import Completion
from localcode.backends.mock import MockBackend
from localcode.cli import Progress
from localcode.disputes import challengers, contradictions, differing_inputs, judge
from localcode.errors import BackendUnavailable
from localcode.loop import N_TESTS
from localcode.probes import MUTANT_PREFIX, mutant_calls, probe_tests, shown
from localcode.records import Candidate

TASK = "Write a function `area(w, h)` that returns the area of a w-by-h rectangle."
# tests that share the samples' misreading (the perimeter): every one of them is wrong
PERIMETER_TESTS = """```python
def test_case_1():
    assert area(2, 3) == 10

def test_case_2():
    assert area(1, 1) == 4
```"""
PERIMETERS = ["2 * (w + h)", "(w + h) * 2", "w + w + h + h"]
RIGHT = "w * h"


def fenced(body: str) -> str:
    return f"```python\ndef area(w, h):\n    return {body}\n```"


def misread(*answers: str) -> MockBackend:
    """Three distinct programs agree on the perimeter, one returns the area; the judge says
    `answers`, one per question."""
    replies = [PERIMETER_TESTS, *map(fenced, [*PERIMETERS, RIGHT]), *answers]
    return MockBackend("demo", replies=replies)


def config(**kw: object) -> AgentConfig:
    return AgentConfig(
        backend="mock", n_candidates=4, max_iters=1, greedy=False, reference=False, **kw
    )  # type: ignore[arg-type]


def test_the_judge_overturns_a_shared_misreading_and_the_pass_is_not_claimed() -> None:
    backend = misread("1", "6")
    result = solve(TASK, config(), backend=backend)
    assert result.best is not None and "w * h" in result.best.code
    assert not result.passed  # it fails the (wrong) generated tests: a best effort, not a claim
    first, second = result.disputes  # overturning the leader takes two inputs
    assert first.call == "area(1, 1)"  # the smallest input the two sides differ on
    assert sorted(first.outputs.values()) == ["1", "4"] and first.answer == "1"
    assert second.call == "area(2, 3)" and second.answer == "6"
    assert first.winner == second.winner == result.best.label
    # the judge saw the task and the call only: no program, no candidate's result
    asked = [c for c in backend.history if prompts.kind_of(c.messages) == "judge"]
    assert len(asked) == 2 and asked[0].temperature == 0.0
    text = asked[0].messages[-1]["content"]
    assert "area(1, 1)" in text and "w * h" not in text and "4" not in text.split("`")[-1]


def test_one_verdict_against_the_leader_is_not_enough_to_overturn_it_or_to_claim() -> None:
    result = solve(TASK, config(), backend=misread("1", "I don't know"))
    assert result.best is not None and "w * h" not in result.best.code
    assert [d.winner is not None for d in result.disputes] == [True, False]
    # it keeps its place, but a claim must have lost no judged disagreement
    assert result.best.all_passed and not result.passed
    note = next(n for n in result.notes if n.startswith("not claimed"))
    assert "the model judged area(1, 1) to return 1" in note


def test_a_verdict_for_the_leader_keeps_it_and_its_claim() -> None:
    result = solve(TASK, config(), backend=misread("It returns 4."))
    assert result.best is not None and "w * h" not in result.best.code
    assert result.passed and result.disputes[0].winner == result.best.label


def test_an_answer_that_matches_neither_side_decides_nothing() -> None:
    result = solve(TASK, config(), backend=misread("7"))
    assert result.best is not None and "w * h" not in result.best.code
    assert [d.winner for d in result.disputes] == [None, None]  # a second input was tried
    assert result.passed  # as without a judge: three agreeing programs pass every test


def test_without_the_judge_the_vote_of_the_misreading_wins() -> None:
    result = solve(TASK, config(judge=False), backend=misread("1"))
    assert result.best is not None and "w * h" not in result.best.code
    assert result.passed and result.disputes == []


def cand(label: int, answer: str) -> Candidate:
    return Candidate(0, label, "sample", code=f"def f(x):\n    return {answer}\n")


def test_answers_are_read_as_values_and_must_match_exactly_one_side() -> None:
    a, b = cand(0, "1"), cand(1, "True")

    def says(text: str) -> str | None:
        return judge("t", "f(1)", a.label, "1", b.label, "True", lambda m: text).winner

    assert says("```python\n1\n```") == "r0c0" and says("The call returns True.") == "r0c1"
    assert says("1.0") is None  # loosely, 1.0 is 1 and True alike: no verdict
    assert says("2") is None and says("") is None
    e, f = cand(0, "[1, 2]"), cand(1, "[2, 1]")
    loose = judge("t", "f(1)", e.label, "[1, 2]", f.label, "[2, 1]", lambda m: "(1, 2)")
    assert loose.winner == "r0c0"  # no side is (1, 2) to the letter; [1, 2] is, loosely
    c, d = cand(0, "[1, 2]"), cand(1, "raise ValueError")
    raised = judge(
        "t", "f(1)", c.label, "[1, 2]", d.label, "raises ValueError", lambda m: "ValueError"
    )
    assert raised.winner == "r0c1"

    def named(text: str, error: str = "ValueError") -> str | None:
        return judge(
            "t", "f(1)", c.label, "[1, 2]", d.label, f"raises {error}", lambda m: text
        ).winner

    # the exception's name as a word, anywhere in the answer's text, in any case
    assert named("It raises ValueError('n must be positive')") == "r0c1"
    assert named("raises valueerror") == "r0c1"
    assert named("ValueError", "Error") is None  # a class of the program's own named Error
    assert named("InvalidKeyError", "KeyError") is None
    yes, no = cand(0, "'YES'"), cand(1, "'NO'")

    def word(text: str, x: str = "'YES'", y: str = "'NO'") -> str | None:
        return judge("t", "f(1)", yes.label, x, no.label, y, lambda m: text).winner

    assert word("YES") == "r0c0" and word("It returns NO.") == "r0c1"  # a string without quotes
    assert word("yes") is None and word("YES!") is None  # only the words to the letter
    assert word("", "''", "'NO'") is None  # no answer is no verdict, not the empty string
    assert word("None", "'None'", "None") == "r0c1"  # an answer that reads as a value is that value


def test_differing_inputs_come_from_real_probe_runs_smallest_first() -> None:
    calls = ["f([3, 1, 2])", "f([5])", "f([1, 1])"]
    changed = mutant_calls(calls)
    probes, mutants = probe_tests(calls, "f"), probe_tests(changed, "f", MUTANT_PREFIX)
    assert probes and mutants
    names = {f"test_probe_{i}": c for i, c in enumerate(calls, 1)}
    names |= {f"{MUTANT_PREFIX}{i}": c for i, c in enumerate(changed, 1)}
    limits = sandbox.Limits()
    sides = []
    for body in ("max(xs)", "xs[0] if len(xs) < 3 else xs[-1]"):
        c = Candidate(0, len(sides), "sample", code=f"def f(xs):\n    return {body}\n")
        c.probe_run = sandbox.run_tests(c.code, probes, limits)
        c.mutant_run = sandbox.run_tests(c.code, mutants, limits)
        sides.append(c)
    assert shown(sides[0].probe_run)["test_probe_1"] == "3"
    found = differing_inputs(*sides, names)
    assert found[0] == ("f([3, 1, 2])", "3", "2")  # the tests' own inputs before changed ones
    assert all(x != y for _, x, y in found)


def test_a_reference_contradicts_on_values_and_on_the_tests_own_inputs_only() -> None:
    calls = ["f(3)", "f(1)"]
    changed = mutant_calls(calls)
    probes, mutants = probe_tests(calls, "f"), probe_tests(changed, "f", MUTANT_PREFIX)
    assert probes and mutants and "f(4)" in changed
    names = {f"test_probe_{i}": c for i, c in enumerate(calls, 1)}
    names |= {f"{MUTANT_PREFIX}{i}": c for i, c in enumerate(changed, 1)}

    def run(body: str, origin: str = "sample") -> Candidate:
        c = Candidate(0, 0, origin, code=f"def f(n):\n    {body}\n")  # type: ignore[arg-type]
        c.probe_run = sandbox.run_tests(c.code, probes, sandbox.Limits())
        c.mutant_run = sandbox.run_tests(c.code, mutants, sandbox.Limits())
        return c

    leader = run("return n * 10")
    # raises only on f(4), a changed input the task may not allow: no contradiction
    assert contradictions(leader, run("assert n != 4\n    return n * 10", "reference"), names) == []
    # another value on a changed input: a contradiction
    found = contradictions(leader, run("return n * 10 if n != 4 else 0", "reference"), names)
    assert found == [("f(4)", "40", "0")]
    # raises on an input the tests themselves use: a contradiction
    fussy = run("assert n != 1\n    return n * 10", "reference")
    assert [call for call, _, _ in contradictions(leader, fussy, names)] == ["f(1)"]


def test_round_0_leads_with_the_greedy_reply() -> None:
    backend = MockBackend("demo")
    cfg = AgentConfig(backend="mock", n_candidates=4, max_iters=1, judge=False)
    result = solve("Write `second_largest_unique(nums)`.", cfg, backend=backend)
    origins = [c.origin for c in result.rounds[0].candidates]
    assert origins == ["greedy", "reference", "sample", "sample"]
    code_calls = [c for c in backend.history if prompts.kind_of(c.messages) == "code"]
    # requested side by side: in either order
    assert sorted((c.n, c.temperature) for c in code_calls) == [(1, 0.0), (2, cfg.temperature)]
    brute = [c for c in backend.history if prompts.kind_of(c.messages) == "reference"]
    assert [(c.n, c.temperature) for c in brute] == [(1, 0.0)]
    seeds = [c.seed for c in result.rounds[0].candidates]
    assert len(set(seeds)) == 4
    two = solve(TASK, replace(cfg, n_candidates=2), backend=MockBackend("demo"))
    assert [c.origin for c in two.rounds[0].candidates] == ["greedy", "sample"]  # N < 3: none


def test_the_result_says_where_the_time_and_tokens_went() -> None:
    result = solve(TASK, config(), backend=misread("1", "6"))
    assert list(result.spent) == ["tests", "candidates", "judging", "later rounds", "sandbox"]
    assert result.spent["tests"].tokens > 0 and result.spent["candidates"].tokens > 0
    assert result.spent["judging"].tokens > 0  # two judge calls
    assert result.spent["later rounds"].tokens == 0  # max_iters=1
    assert result.spent["sandbox"].seconds > 0
    total = sum(s.tokens for s in result.spent.values())
    assert total == (result.prompt_tokens or 0) + (result.completion_tokens or 0)


STACK_TASK = "Write a class `Stack` with push(x) and pop(); pop returns the last value pushed."
STACK_TESTS = """```python
def test_case_1():
    s = Stack()
    s.push(1)
    s.push(2)
    assert s.pop() == 1

def test_case_2():
    s = Stack()
    s.push(3)
    s.push(4)
    s.push(5)
    assert s.pop() == 3
```"""
LIFO = "class Stack:\n    def __init__(self):\n        self.items = []\n    def push(self, x):\n        self.items.append(x)\n    def pop(self):\n        return self.items.pop()\n"
FIFO = LIFO.replace("self.items.pop()", "self.items.pop(0)")


def test_a_class_is_probed_by_its_method_calls_and_judged_on_them() -> None:
    replies = [STACK_TESTS, f"```python\n{FIFO}```", f"```python\n{LIFO}```", "2", "5"]
    backend = MockBackend("demo", replies=replies)
    cfg = AgentConfig(backend="mock", n_candidates=2, max_iters=1, greedy=False)
    result = solve(STACK_TASK, cfg, backend=backend)
    d, e = result.disputes  # one program against one: the challenger must win twice
    assert d.call == "s = Stack(); s.push(1); s.push(2); s.pop()"
    assert sorted(d.outputs.values()) == ["1", "2"] and sorted(e.outputs.values()) == ["3", "5"]
    assert result.best is not None and "pop()" in result.best.code  # LIFO, though its tests fail
    asked = next(c for c in backend.history if prompts.kind_of(c.messages) == "judge")
    text = asked.messages[-1]["content"]
    assert "s.push(2)\n```\nWhat does `s.pop()` return?" in text
    assert not result.passed


def _probed(bodies: list[str], calls: list[str]) -> tuple[list[Candidate], dict[str, str]]:
    changed = mutant_calls(calls)
    probes, mutants = probe_tests(calls, "f"), probe_tests(changed, "f", MUTANT_PREFIX)
    names = {f"test_probe_{i}": c for i, c in enumerate(calls, 1)}
    names |= {f"{MUTANT_PREFIX}{i}": c for i, c in enumerate(changed, 1)}
    out = []
    for body in bodies:
        c = Candidate(0, len(out), "sample", code=f"def f(xs):\n    return {body}\n")
        c.probe_run = sandbox.run_tests(c.code, probes or "", sandbox.Limits())
        c.mutant_run = sandbox.run_tests(c.code, mutants or "", sandbox.Limits())
        out.append(c)
    return out, names


def test_a_changed_input_one_side_raises_on_is_judged_but_not_one_both_raise_on() -> None:
    # alike on the tests' input f([3]); on the changed f([3, 3]) one answers and one raises
    (a, b, c), names = _probed(
        ["max(xs)", "xs[0] if len(xs) == 1 else xs[9]", "xs[0] if len(xs) == 1 else {}[0]"],
        ["f([3])"],
    )
    assert differing_inputs(a, b, names) == [("f([3, 3])", "3", "raises IndexError")]
    assert differing_inputs(b, c, names) == []  # IndexError against KeyError: outside the task


class ByKind(MockBackend):
    """Replies by prompt kind, the same whatever order parallel requests arrive in: code by
    seed, the brute-force reference, and the judge's answers in turn."""

    def __init__(self, code: list[str], reference: str, answers: list[str]) -> None:
        super().__init__("demo")
        self.code, self.reference, self.answers = code, reference, list(answers)

    def _scripted(self, kind: str, seed: int) -> str:
        if kind == "tests":
            return PERIMETER_TESTS
        if kind == "reference":
            return fenced(self.reference)
        if kind == "judge":
            return self.answers.pop(0) if self.answers else "I can't tell."
        return fenced(self.code[seed % len(self.code)])


def with_reference(reference: str, *answers: str) -> tuple[AgentConfig, ByKind]:
    """Three distinct programs and their tests agree on the perimeter; the reference says
    `reference`; the judge answers `answers`."""
    cfg = replace(config(), reference=True, max_iters=3)
    return cfg, ByKind(PERIMETERS, reference, list(answers))


AREA_TESTS = "```python\nassert area(2, 3) == 6\nassert area(1, 1) == 1\n```"


class RightTests(ByKind):
    """ByKind, with tests that read the task right."""

    def _scripted(self, kind: str, seed: int) -> str:
        return AREA_TESTS if kind == "tests" else super()._scripted(kind, seed)


def staged(reference: str, **kw: object) -> tuple[SolveResult, RightTests]:
    """Round 0 with the greedy reply (`w * h`), the reference and two samples (`h * w`)."""
    backend = RightTests(["w * h", "h * w"], reference, [])
    cfg = replace(config(), greedy=True, reference=True, **kw)  # type: ignore[arg-type]
    return solve(TASK, cfg, backend=backend), backend


def test_round_0_draws_no_samples_when_the_greedy_reply_and_the_reference_agree() -> None:
    result, backend = staged("sum(w for _ in range(h))")
    assert [c.origin for c in result.rounds[0].candidates] == ["greedy", "reference"]
    assert result.passed and result.best is not None and result.best.origin == "greedy"
    kinds = [(prompts.kind_of(c.messages), c.n) for c in backend.history]
    assert sorted(kinds) == [("code", 1), ("reference", 1), ("tests", 1)]  # no samples asked
    assert any(n.startswith("round 0 drew 2 of 4 candidates") for n in result.notes)


def test_round_0_draws_its_samples_when_the_two_readings_differ_or_fail() -> None:
    # the reference returns another value on a changed input (area(3, 3)) but passes the tests
    differ, backend = staged("w * h if w != 3 else 0")
    assert [c.origin for c in differ.rounds[0].candidates] == [
        "greedy",
        "reference",
        "sample",
        "sample",
    ]
    samples = [i for i, c in enumerate(backend.history) if c.n == 2]
    firsts = [i for i, c in enumerate(backend.history) if prompts.kind_of(c.messages) != "tests"]
    assert len(samples) == 1 and samples[0] == max(firsts[:3])  # asked after the first two
    fails, _ = staged("2 * (w + h)")  # the reference fails the tests
    assert len(fails.rounds[0].candidates) == 4
    assert not any(n.startswith("round 0 drew") for n in differ.notes + fails.notes)


class Overlapping(RightTests):
    """RightTests whose tests, greedy and reference requests each wait, up to 10 s, until all
    three have been asked: a run that asks them one after the other breaks the barrier."""

    def __init__(self) -> None:
        super().__init__(["w * h", "h * w"], "sum(w for _ in range(h))", [])
        self.barrier = threading.Barrier(3, timeout=10)
        self.met: set[str] = set()

    def complete(self, messages: Any, **kw: Any) -> Any:
        kind = prompts.kind_of(list(messages))
        with self._lock:
            first = kind not in self.met
            self.met.add(kind)
        if first:
            self.barrier.wait()
        return super().complete(messages, **kw)


def test_round_0s_first_step_is_written_while_the_tests_are() -> None:
    backend = Overlapping()
    shown = io.StringIO()
    progress = Progress(shown, 4, live=False)
    cfg = replace(config(), greedy=True, reference=True)
    result = solve(TASK, cfg, backend=backend, on_event=progress)
    progress.close()
    assert not backend.barrier.broken and backend.met == {"tests", "code", "reference"}
    assert [c.origin for c in result.rounds[0].candidates] == ["greedy", "reference"]
    assert result.passed  # scored on the tests as before: the greedy reply passes them
    for call in backend.history:  # the code was asked for without the tests in its prompt
        if prompts.kind_of(call.messages) != "tests":
            assert "area(1, 1)" not in call.messages[-1]["content"]
    assert "Writing tests first (meanwhile the greedy reply and a brute-force" in shown.getvalue()


def test_a_backend_serving_fewer_than_three_requests_gets_the_tests_first() -> None:
    backend = Overlapping()
    backend.max_parallel = 2
    backend.barrier = threading.Barrier(1)  # nothing to wait for
    result = solve(TASK, replace(config(), greedy=True, reference=True), backend=backend)
    assert prompts.kind_of(backend.history[0].messages) == "tests"
    assert result.passed and len(result.rounds[0].candidates) == 2


class Sharing(RightTests):
    """RightTests that can read a prompt's beginning once (SharesPrefix), and records when."""

    def __init__(self) -> None:
        # the reference differs on a changed input (area(3, 3)): samples, and the judge
        super().__init__(["w * h", "h * w"], "w * h if w != 3 else 0", ["9"])
        self.shared: list[tuple[int, list[dict[str, str]]]] = []

    def share_prefix(self, messages: Any) -> Completion:
        self.shared.append((len(self.history), [dict(m) for m in messages]))
        return Completion("", prompt_tokens=1000, completion_tokens=1)  # the read is counted


def test_the_task_is_shared_once_and_every_prompt_but_the_code_prompt_begins_with_it() -> None:
    backend = Sharing()
    result = solve(TASK, replace(config(), greedy=True, reference=True), backend=backend)
    [(asked_before, prefix)] = backend.shared
    assert asked_before == 0 and prefix == prompts.task_prefix(TASK)
    kinds = {prompts.kind_of(c.messages) for c in backend.history}
    assert {"tests", "code", "reference", "judge"} <= kinds  # the readings differ: judged
    for call in backend.history:
        system, user = call.messages[0], call.messages[1]
        code = prompts.kind_of(call.messages) == "code"  # its reply's form in its system line
        assert system == ({"role": "system", "content": prompts.CODE_SYSTEM} if code else prefix[0])
        assert user["content"].startswith(prefix[1]["content"])
        assert len(user["content"]) > len(prefix[1]["content"])  # and asks its own question
    assert result.final_code
    assert result.prompt_tokens is not None and result.prompt_tokens > 1000
    assert result.spent["tests"].tokens > 1001


class Slow(RightTests):
    """RightTests that takes 0.6 s to write the tests and 0.4 s for each code reply."""

    def complete(self, messages: Any, **kw: Any) -> Any:
        time.sleep(0.6 if prompts.kind_of(list(messages)) == "tests" else 0.4)
        return super().complete(messages, **kw)


def test_each_second_of_an_overlapped_run_is_counted_in_one_phase() -> None:
    backend = Slow(["w * h", "h * w"], "sum(w for _ in range(h))", [])
    result = solve(TASK, replace(config(), greedy=True, reference=True), backend=backend)
    assert len(result.rounds[0].candidates) == 2  # the first step only
    assert result.spent["tests"].seconds >= 0.6 and result.spent["candidates"].tokens > 0
    # round 0's 0.4 s went by while the tests were written: they are not counted twice
    assert sum(s.seconds for s in result.spent.values()) <= result.seconds + 0.05


EIGHT_TESTS = "\n".join(
    ["```python", *(f"assert area({i}, 2) == {2 * i}" for i in range(1, 9)), "```"]
)


class EightTests(RightTests):
    """RightTests, with a tests reply that lists 8 cases where 5 were asked for."""

    def __init__(self) -> None:
        super().__init__(["w * h", "h * w"], "sum(w for _ in range(h))", [])

    def _scripted(self, kind: str, seed: int) -> str:
        return EIGHT_TESTS if kind == "tests" else super()._scripted(kind, seed)


class Streaming(EightTests):
    """EightTests that can end a reply: it streams the tests line by line until `until`."""

    def __init__(self) -> None:
        super().__init__()
        self.streamed: list[str] = []
        self.starts: list[str] = []

    def complete_until(
        self, messages: Any, *, until: Any, start: str = "", **kw: Any
    ) -> Completion:
        assert start.startswith("```python\n") and start.endswith("assert")
        text = start  # the model goes on from the reply's start with its eight cases
        for line in EIGHT_TESTS[len("```python\nassert") :].splitlines(keepends=True):
            text += line
            if until(text):
                break
        self.starts.append(start)
        self.streamed.append(text)
        return Completion(text=text, seed=kw["seed"], completion_tokens=len(text.split()))


def test_tests_stop_at_the_cases_asked_for_where_the_backend_can_end_a_reply() -> None:
    cfg = replace(config(), greedy=True, reference=True)
    backend = Streaming()
    result = solve(TASK, cfg, backend=backend)
    (streamed,) = backend.streamed
    assert streamed.count("assert") == N_TESTS == 5  # the model would have listed 8
    assert backend.starts == ["```python\nassert"]  # begun as assert lines, not a definition
    assert result.tests.count("def test_case_") == 5 and result.passed
    assert not any(prompts.kind_of(c.messages) == "tests" for c in backend.history)
    whole = solve(TASK, cfg, backend=EightTests())  # a backend that cannot: the whole reply
    assert whole.tests.count("def test_case_") == 8


class Gone(RightTests):
    def complete(self, messages: Any, **kw: Any) -> Any:
        raise BackendUnavailable("Couldn't reach the model server")


def test_a_backend_gone_while_the_tests_and_round_0_are_written_is_the_error() -> None:
    backend = Gone(["w * h"], "w * h", [])
    with pytest.raises(BackendUnavailable, match="Couldn't reach"):
        solve(TASK, replace(config(), greedy=True, reference=True), backend=backend)


def test_all_samples_draws_round_0_side_by_side() -> None:
    result, backend = staged("sum(w for _ in range(h))", agree_first=False)
    assert len(result.rounds[0].candidates) == 4 and result.passed


def test_a_reference_that_contradicts_a_unanimous_pass_blocks_the_claim() -> None:
    cfg, backend = with_reference(RIGHT, "I can't tell.")
    result = solve(TASK, cfg, backend=backend)
    origins = sorted(c.origin for c in result.rounds[0].candidates)
    assert origins == ["reference", "sample", "sample", "sample"]
    assert result.best is not None and result.best.origin == "sample"  # three votes, no verdict
    assert result.best.all_passed and not result.passed  # it passes every test, yet no claim
    note = next(n for n in result.notes if n.startswith("not claimed"))
    assert "the brute-force reference r0c0 returns 1 for area(1, 1)" in note
    assert result.rounds_used == 1  # more votes cannot change what the reference says


def test_a_verdict_for_the_leader_over_the_reference_keeps_the_claim() -> None:
    cfg, backend = with_reference(RIGHT, "4")  # the judge reads the task as the perimeter
    result = solve(TASK, cfg, backend=backend)
    assert result.passed and result.disputes[0].winner == result.best.label  # type: ignore[union-attr]
    assert "r0c0" in result.disputes[0].outputs  # the reference's group was the one met


def test_a_reference_that_agrees_leaves_the_claim_alone() -> None:
    cfg, backend = with_reference("h*2+w*2")  # the shortest program of the group
    result = solve(TASK, cfg, backend=backend)
    assert result.passed and result.disputes == []
    assert result.best is not None and result.best.origin == "sample"  # preferred over it
    assert len(result.best.code) > len(
        next(c for c in result.rounds[0].candidates if c.origin == "reference").code
    )


def test_without_the_judge_a_contradicting_reference_still_blocks_the_claim() -> None:
    cfg, backend = with_reference(RIGHT)
    result = solve(TASK, replace(cfg, judge=False), backend=backend)
    assert result.best is not None and result.best.all_passed and not result.passed
    assert result.disputes == [] and any("brute-force reference" in n for n in result.notes)


def test_the_reference_is_met_first_even_when_it_ranks_below_the_strongest_challengers() -> None:
    a, b, c = (Candidate(0, i, "sample", code=f"x = {i}") for i in range(3))
    ref = Candidate(0, 3, "reference", code="x = 3")
    found = [[a], [b], [c], [ref]]
    assert challengers(found) == [[ref], [b], [c]]
    assert challengers([[a], [b], [c], [Candidate(0, 4, "sample")]]) == [[b], [c]]


def test_a_reference_the_judge_sides_with_wins_and_the_progress_names_it() -> None:
    cfg, backend = with_reference(RIGHT, "1", "6")  # the judge reads the task right, twice
    shown = io.StringIO()
    progress = Progress(shown, 4, live=False)
    result = solve(TASK, cfg, backend=backend, on_event=progress)
    progress.close()
    assert result.best is not None and result.best.origin == "reference"
    assert "w * h" in result.best.code and not result.passed  # it fails the wrong tests
    text = shown.getvalue()
    assert "(brute-force reference)" in text and "(the brute-force reference)" in text


EXAMPLE_TASK = TASK + " For example, area(2, 3) == 6."
# one generated test is right, one asserts a value no program returns (a wrong expectation, or
# a clause every program misses: the judge, not the programs' vote, says which)
ONE_WRONG_TEST = """```python
def test_case_1():
    assert area(2, 3) == 6

def test_case_2():
    assert area(1, 4) == 5
```"""


def excused(*answers: str) -> MockBackend:
    """Four distinct programs agree on the area and excuse test_case_2; the judge says `answers`."""
    programs = ["w * h", "h * w", "w * h * 1", "abs(w * h)"]
    return MockBackend("demo", replies=[ONE_WRONG_TEST, *map(fenced, programs), *answers])


def test_a_verdict_for_an_excused_tests_value_withholds_the_claim() -> None:
    result = solve(EXAMPLE_TASK, config(), backend=excused("5"))
    assert result.best is not None and result.best.example_run is not None
    assert result.best.example_run.all_passed and result.suspect_tests == ["test_case_2"]
    assert not result.passed  # four programs excuse the test, but the judge took its value
    (d,) = result.disputes
    assert d.call == "area(1, 4)" and d.outputs == {result.best.label: "4", "test_case_2": "5"}
    assert d.winner == "test_case_2" and "test_case_2 expects 5" in d.describe()
    note = next(n for n in result.notes if n.startswith("not claimed"))
    assert "area(1, 4) to return 5, as the generated test test_case_2 expects" in note


def test_a_verdict_for_the_programs_value_confirms_the_excuse() -> None:
    result = solve(EXAMPLE_TASK, config(), backend=excused("4"))
    assert result.passed and result.suspect_tests == ["test_case_2"]
    assert [d.winner for d in result.disputes] == [result.best.label]  # type: ignore[union-attr]


def test_an_excused_test_is_not_judged_without_the_judge_or_when_no_pass_is_claimed() -> None:
    result = solve(EXAMPLE_TASK, config(judge=False), backend=excused("5"))
    assert result.passed and result.disputes == []  # the programs' vote, as before
    wrong = replace(config(), n_candidates=2)  # two programs cannot excuse a test
    result = solve(EXAMPLE_TASK, wrong, backend=excused("5"))
    assert not result.passed and result.disputes == []


def test_without_trusted_tests_a_consensus_passes_only_where_the_judge_calls_each_failed_test_wrong() -> (
    None
):
    # TASK shows no example: before, four programs that agree could never excuse test_case_2
    result = solve(TASK, config(), backend=excused("4"))
    assert result.passed and result.judged_wrong == ["test_case_2"]
    assert result.best is not None and not result.best.all_passed and not result.best.trusted_runs
    (d,) = result.disputes
    assert d.call == "area(1, 4)" and d.winner == result.best.label
    assert any(n.startswith("claimed with no tests of yours") for n in result.notes)
    # the judge takes the test's value, or answers neither: a best effort, as before
    for answer in ("5", "7"):
        result = solve(TASK, config(), backend=excused(answer))
        assert not result.passed and result.judged_wrong == [] and len(result.disputes) == 1
    # two programs cannot excuse a test: the judge is not asked
    result = solve(TASK, replace(config(), n_candidates=2), backend=excused("4"))
    assert not result.passed and result.disputes == []
    result = solve(TASK, config(judge=False), backend=excused("4"))
    assert not result.passed and result.disputes == []


# test_case_2 asserts two calls: a wrong value first, then one the programs get wrong
TWO_ASSERTS = """```python
def test_case_1():
    assert area(2, 3) == 6

def test_case_2():
    assert area(1, 4) == 5
    assert area(10, 10) == 100
```"""


def test_a_failed_test_is_judged_wrong_only_on_every_call_it_asserts() -> None:
    def run(programs: list[str], *answers: str, tests: str = TWO_ASSERTS) -> SolveResult:
        replies = [tests, *map(fenced, programs), *answers]
        return solve(TASK, config(), backend=MockBackend("demo", replies=replies))

    capped = [
        "w * h if w < 10 else 0",
        "h * w if w < 10 else 0",
        "w * h * (w < 10)",
        "0 if w >= 10 else w * h",
    ]
    result = run(capped, "4", "100")  # its first call judged wrong, its second right
    assert not result.passed and [d.call for d in result.disputes] == ["area(1, 4)", "area(10, 10)"]
    assert result.disputes[1].winner == "test_case_2"
    # the programs raise on the second call: the test cannot be judged wrong as a whole
    raising = [
        "w * h if w < 10 else 1 // 0",
        "h * w if w < 10 else 1 // 0",
        "w * h * (1 if w < 10 else 1 // 0)",
        "(1 // 0) if w >= 10 else w * h",
    ]
    result = run(raising, "4")
    assert not result.passed and result.judged_wrong == [] and result.disputes == []
    # a test with a line no assertion names is never judged wrong
    helper = TWO_ASSERTS.replace("    assert area(10, 10) == 100\n", "    x = area(2, 2)\n")
    result = run(capped, "4", tests=helper)
    assert not result.passed and result.judged_wrong == []


# your code passes the generated tests, which never try w >= 3; the model's own reading differs
GIVEN_TESTS = """```python
def test_case_1():
    assert area(2, 3) == 6

def test_case_2():
    assert area(1, 4) == 4
```"""
GIVEN = "def area(w, h):\n    return w * h if w < 3 else w * h + 1\n"


def second_opinion(*answers: str) -> tuple[AgentConfig, MockBackend]:
    cfg = AgentConfig(backend="mock", n_candidates=4, max_iters=2)  # greedy, reference, judge
    replies = [GIVEN_TESTS, fenced("w * h"), fenced("h * w"), *answers]
    return cfg, MockBackend("demo", replies=replies)


def test_given_code_that_passes_is_compared_with_the_models_own_reading_before_a_claim() -> None:
    cfg, backend = second_opinion("9")  # the judge: area(3, 3) is 9, not your 10
    result = solve(TASK, cfg, backend=backend, code=GIVEN)
    assert [r.kind for r in result.rounds] == ["given", "initial"]
    assert [c.origin for c in result.rounds[1].candidates] == ["greedy", "reference"]
    (d,) = result.disputes
    assert d.call == "area(3, 3)" and d.outputs["r0c0"] == "10" and d.winner == "r1c0"
    assert result.best is not None and result.best.origin == "greedy" and result.passed
    # the judge on your side: one small model's word does not overturn the two readings that
    # agree, nor is their code claimed against that word
    cfg, backend = second_opinion("10")
    result = solve(TASK, cfg, backend=backend, code=GIVEN)
    assert result.best is not None and result.best.origin == "greedy" and not result.passed
    assert any(n.startswith("not claimed") and "area(3, 3) to return 10" in n for n in result.notes)
    # where the model's reading behaves as your code does, your code stays, claimed
    backend = MockBackend("demo", replies=[GIVEN_TESTS, fenced("w * h"), fenced("h * w")])
    result = solve(TASK, cfg, backend=backend, code="def area(w, h):\n    return h * w\n")
    assert result.best is not None and result.best.origin == "user" and result.passed
    assert result.disputes == [] and result.rounds_used == 2
    # --max-iters 1: round 0 (your code) is all you asked for
    backend = MockBackend("demo", replies=[GIVEN_TESTS])
    result = solve(TASK, replace(cfg, max_iters=1), backend=backend, code=GIVEN)
    assert result.passed and result.rounds_used == 1


COUNTER_TASK = (
    "Write a class `Counter(start)` with `add(k)`, which adds k to the count, and `value()`, "
    "which returns the count."
)
# test_case_2 is wrong: 1 + 2 + 3 is 6
COUNTER_TESTS = """```python
def test_case_1():
    c = Counter(1)
    c.add(2)
    assert c.value() == 3

def test_case_2():
    c = Counter(1)
    c.add(2)
    c.add(3)
    assert c.value() == 7
```"""
COUNTERS = [
    "self.n = start\n    def add(self, k):\n        self.n += k\n    def value(self):\n        return self.n",
    "self.n = start\n    def add(self, k):\n        self.n = self.n + k\n    def value(self):\n        return self.n",
    "self.n = [start]\n    def add(self, k):\n        self.n.append(k)\n    def value(self):\n        return sum(self.n)",
    "self.n = start\n    def add(self, k):\n        self.n += k\n    def value(self):\n        return int(self.n)",
]


def test_a_class_tests_wrong_value_is_judged_on_the_calls_that_lead_to_it() -> None:
    programs = [
        f"```python\nclass Counter:\n    def __init__(self, start):\n        {p}\n```"
        for p in COUNTERS
    ]
    for answer, claimed in (("6", True), ("7", False)):
        backend = MockBackend("demo", replies=[COUNTER_TESTS, *programs, answer])
        result = solve(COUNTER_TASK, config(), backend=backend)
        assert result.best is not None and result.suspect_tests == ["test_case_2"]
        (d,) = result.disputes
        assert d.call == "c = Counter(1); c.add(2); c.add(3); c.value()"
        assert d.outputs == {result.best.label: "6", "test_case_2": "7"}
        assert result.passed is claimed and result.judged_wrong == (
            ["test_case_2"] if claimed else []
        )
        asked = [c for c in backend.history if prompts.kind_of(c.messages) == "judge"]
        text = asked[0].messages[-1]["content"]
        assert "c.add(3)" in text and "What does `c.value()` return?" in text


class Knows(RightTests):
    """RightTests whose judge reads the task right: it answers w * h for any `area(w, h)`."""

    def _scripted(self, kind: str, seed: int) -> str:
        if kind != "judge":
            return super()._scripted(kind, seed)
        ask = self.history[-1].messages[-1]["content"]
        w, h = map(int, re.findall(r"`area\((-?\d+), (-?\d+)\)`", ask)[-1])
        return str(w * h)


# three programs that agree with each other, and the tests, but add 1 from w = 3 or h = 4 on:
# they differ from w * h on two inputs the probes try, area(2, 4) and area(3, 3)
PLUS_ONE = [
    "w * h + (w >= 3 or h >= 4)",
    "w * h + int(w > 2 or h > 3)",
    "w * h + (1 if w >= 3 or h >= 4 else 0)",
]


def test_one_verdict_does_not_take_the_lead_from_a_group_at_least_as_large() -> None:
    # the three programs add 1 from w = 3 on: area(3, 3) is the one input that tells them apart
    three = ["w * h + (w >= 3)", "w * h + int(w > 2)", "w * h + (1 if w >= 3 else 0)"]
    result = solve(EXAMPLE_TASK, config(), backend=Knows([*three, RIGHT], RIGHT, []))
    (d,) = result.disputes
    assert d.call == "area(3, 3)" and d.outputs[d.winner or ""] == "9"  # the judge: w * h
    assert result.best is not None and result.best.code.strip().endswith(three[0])
    assert not result.passed  # kept first, but a verdict stands against it
    assert any(n.startswith("not claimed") and "area(3, 3) to return 9" in n for n in result.notes)


def test_the_judge_is_asked_a_question_once_however_many_pairs_it_settles() -> None:
    # both challengers differ from the leading two on area(3, 3) alone: one question, two disputes
    two = ["w * h + (w >= 3)", "w * h + int(w > 2)"]
    backend = Knows([*two, RIGHT, "w * h + 2 * (w >= 3)"], RIGHT, [])
    result = solve(EXAMPLE_TASK, config(), backend=backend)
    asked = [c for c in backend.history if prompts.kind_of(c.messages) == "judge"]
    assert len(asked) == 1 and "`area(3, 3)`" in asked[0].messages[-1]["content"]
    assert [(d.call, d.answer) for d in result.disputes] == [("area(3, 3)", "9")] * 2
    assert [sorted(d.outputs.values()) for d in result.disputes] == [["10", "9"], ["10", "11"]]
    assert result.spent["judging"].tokens > 0 and not result.passed


def test_one_verdict_does_overturn_a_lone_leader_where_more_programs_behave_otherwise() -> None:
    # the one (wrong) generated test puts the lone program first; area(3, 3) is the one input
    # that tells it from the two that agree, and the judge gives their value
    lone = "w * h + (w == 3 and h == 3)"
    tests = "```python\nassert area(3, 3) == 10\n```"
    replies = [tests, fenced(lone), fenced("w * h"), fenced("h * w"), "9"]
    cfg = replace(config(), n_candidates=3)
    result = solve(TASK, cfg, backend=MockBackend("demo", replies=replies))
    (d,) = result.disputes
    assert d.call == "area(3, 3)" and d.outputs["r0c0"] == "10" and d.winner != "r0c0"
    assert result.best is not None and result.best.label != "r0c0"


def test_a_pass_only_the_judge_puts_first_against_the_vote_is_returned_but_not_claimed() -> None:
    backend = Knows([*PLUS_ONE, RIGHT], RIGHT, [])
    result = solve(EXAMPLE_TASK, config(), backend=backend)
    assert result.best is not None and result.best.code.strip().endswith(RIGHT)  # the judge's
    assert [d.winner for d in result.disputes] == [result.best.label] * 2  # on both inputs
    assert result.best.all_passed and not result.passed
    note = next(n for n in result.notes if n.startswith("not claimed"))
    assert "the model judged area(2, 4)" in note and "the vote does not back the judge" in note
    assert "only 1 of the 4 candidates that ran behave as it does" in note
    # half of them behave as the judge's choice does: still not the vote's backing
    backend = Knows([*PLUS_ONE[:2], RIGHT, "h * w"], RIGHT, [])
    result = solve(EXAMPLE_TASK, config(), backend=backend)
    assert result.best is not None and result.best.all_passed and not result.passed
    assert any("only 2 of the 4 candidates" in n for n in result.notes)
    # the judge on the side of the vote: the pass is claimed
    backend = Knows([RIGHT, "h * w", "w * h * 1", "w * h + (w >= 3)"], RIGHT, [])
    result = solve(EXAMPLE_TASK, config(), backend=backend)
    assert result.passed and result.disputes and result.best is not None
    assert result.disputes[0].winner == result.best.label
