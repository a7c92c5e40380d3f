"""The agent loop against the scripted mock backend: exact and offline."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from localcode import AgentConfig, SolveResult, prompts, solve
from localcode.backends import Completion
from localcode.backends.mock import (
    CORRECT,
    CORRECT_ALT,
    DEMO_TESTS,
    NO_DEDUPE,
    NO_GUARD,
    WRONG_INDEX,
    MockBackend,
)
from localcode.cli import Progress
from localcode.errors import (
    BackendError,
    BackendUnavailable,
    GenerationError,
    TaskError,
    UsageError,
)
from localcode.extract import test_names as extract_test_names
from localcode.loop import Event
from localcode.task import import_solution

WRONG_ALL = "```python\ndef second_largest_unique(nums):\n    return 42\n```"


def fenced(code: str) -> str:
    return f"```python\n{code}```"


def cfg(**kw: Any) -> AgentConfig:
    """The loop's rounds and ranking alone: the greedy reply and the judge have their own tests
    (tests/test_disputes.py), and each adds model calls that these scripts do not expect."""
    return AgentConfig(
        backend="mock", **{"greedy": False, "judge": False, "reference": False, **kw}
    )


def scores(result: SolveResult) -> list[list[str]]:
    return [
        [f"{c.run.passed}/{c.run.total}" if c.run else "-" for c in r.candidates]
        for r in result.rounds
    ]


def test_demo_reproduces_the_prototype(demo_task: str, mock: MockBackend) -> None:
    result = solve(demo_task, cfg(), backend=mock)
    assert scores(result) == [["4/5", "5/5", "3/5", "5/5"]]
    assert result.passed and result.score == 1.0 and result.rounds_used == 1
    # ties at 5/5 go to the shorter code
    assert result.final_code.strip() == CORRECT.strip()


def test_fix_scenario_needs_a_fix_round(demo_task: str) -> None:
    backend = MockBackend("fix")
    result = solve(demo_task, cfg(later_rounds="fix"), backend=backend)
    assert result.rounds_used == 2 and result.passed
    assert [r.kind for r in result.rounds] == ["initial", "fix"]
    assert all(c.origin == "fix" for c in result.rounds[1].candidates)
    assert result.rounds[1].best_origin == "fix"


def test_mixed_rounds_resample_fresh_candidates_too(demo_task: str) -> None:
    backend = MockBackend("fix")
    result = solve(demo_task, cfg(later_rounds="mixed", n_candidates=4), backend=backend)
    assert [r.kind for r in result.rounds] == ["initial", "mixed"]
    assert [c.origin for c in result.rounds[1].candidates] == ["fix", "fix", "sample", "sample"]
    kinds = sorted(prompts.kind_of(call.messages) for call in backend.history[2:])
    assert kinds == ["code", "fix"]
    seeds = [c.seed for c in result.rounds[1].candidates]
    assert len(set(seeds)) == 4


def test_fresh_later_rounds_sample_anew_instead_of_repairing(demo_task: str) -> None:
    backend = MockBackend("fix")
    shown = io.StringIO()
    result = solve(
        demo_task,
        cfg(later_rounds="fresh", n_candidates=2, max_iters=2),
        backend=backend,
        on_event=Progress(shown, 2),
    )
    assert [r.kind for r in result.rounds] == ["initial", "fresh"]
    assert [c.origin for c in result.rounds[1].candidates] == ["sample", "sample"]
    assert [prompts.kind_of(call.messages) for call in backend.history[1:]] == ["code", "code"]
    seeds = [c.seed for r in result.rounds for c in r.candidates]
    assert len(set(seeds)) == 4
    assert "=== Round 1: generating 2 fresh candidates in parallel ===" in shown.getvalue()


def test_later_rounds_repair_the_users_code_and_sample_fresh_for_a_task_alone(
    demo_task: str,
) -> None:
    alone = solve(
        demo_task,
        cfg(n_candidates=2, max_iters=2, stop_unchanged=False),
        backend=MockBackend("fix"),
    )
    assert [r.kind for r in alone.rounds] == ["initial", "fresh"]
    given = solve(
        demo_task, cfg(n_candidates=2, max_iters=2), backend=MockBackend("fix"), code=NO_DEDUPE
    )
    assert [r.kind for r in given.rounds] == ["given", "mixed"]
    assert [c.origin for c in given.rounds[1].candidates] == ["fix", "sample"]


def test_a_task_that_writes_its_function_out_starts_from_it_and_shows_its_signature(
    demo_task: str,
) -> None:
    task = f"{demo_task} Mine keeps duplicates; fix it.\n\n{NO_DEDUPE}"
    backend = MockBackend("demo", replies=[DEMO_TESTS])
    backend.enqueue(fenced(NO_DEDUPE), fenced(CORRECT))  # round 1: a fix, a fresh sample
    result = solve(task, cfg(n_candidates=2, max_iters=2), backend=backend)
    # the code in the task is scored first, as --code's is, then fixed and sampled afresh
    assert [r.kind for r in result.rounds] == ["given", "mixed"]
    assert scores(result) == [["4/5"], ["-", "5/5"]]
    fix, fresh = result.rounds[1].candidates
    assert fix.error == "the fix gave back the code it was to fix, unchanged" and fix.run is None
    assert result.passed and result.final_code.strip() == CORRECT.strip()
    assert result.task == task.strip("\n") and "writes out `second_largest_unique`" in "".join(
        result.notes
    )
    # the tests and the fresh sample saw the task with its body left out; the fix saw the code
    shown = {prompts.kind_of(c.messages): c.messages[-1]["content"] for c in backend.history}
    body = "s = sorted(nums, reverse=True)"
    assert body not in shown["tests"] and body not in shown["code"] and body in shown["fix"]
    assert "def second_largest_unique(nums):\n    ..." in shown["code"]


def test_code_from_the_task_words_comes_first_and_the_unchanged_behaviour_is_not_claimed(
    demo_task: str,
) -> None:
    def run(ask: str) -> SolveResult:
        backend = MockBackend("demo", replies=[DEMO_TESTS])
        backend.enqueue(fenced(CORRECT), fenced(CORRECT))  # the greedy reply, a sample
        return solve(
            f"{demo_task} {ask}\n\n{CORRECT_ALT}",
            cfg(n_candidates=2, max_iters=2, greedy=True),
            backend=backend,
        )

    fix = run("Mine is wrong for some lists; fix it.")
    # the task's code passes, so the model's own reading is drawn to compare with it: they
    # behave alike, and the code written from the words is returned, not the task's
    assert [r.kind for r in fix.rounds] == ["given", "initial"]
    assert [c.origin for c in fix.rounds[0].candidates] == ["task"]
    assert fix.best is not None and fix.best.origin == "greedy"
    assert fix.final_code.strip() == CORRECT.strip()
    # asked for a change, code that behaves as the task's on everything tried is no pass
    assert not fix.passed
    assert any("asks for a change to its code" in n for n in fix.notes)
    # asked for nothing it should do otherwise, the same behaviour is a pass
    shorter = run("Can you make it shorter?")
    assert shorter.passed and shorter.final_code.strip() == CORRECT.strip()


MEDIAN_TASK = (
    "Write a function `median(xs)` that returns the median of a list of numbers. "
    "The input list must not be changed."
)
MEDIAN_TESTS = (
    "```python\nassert median([3, 1, 2]) == 2\nassert median([4, 1, 3, 2]) == 2.5\n"
    "assert median([5]) == 5\n```"
)
SORTS_IN_PLACE = """def median(xs):
    xs.sort()
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2
"""
SORTS_A_COPY = """def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
"""


def test_where_the_task_says_the_input_must_not_change_a_call_that_changes_it_loses() -> None:
    # both return the right values; the shorter one sorts the caller's list
    backend = MockBackend("demo", replies=[MEDIAN_TESTS, fenced(SORTS_IN_PLACE)])
    backend.enqueue(fenced(SORTS_A_COPY))
    shown = io.StringIO()
    result = solve(
        MEDIAN_TASK, cfg(n_candidates=2, max_iters=1), backend=backend, on_event=Progress(shown, 2)
    )
    # the one that sorts in place is also scored mended: its argument copied on entry
    assert scores(result) == [["3/3", "3/3", "3/3"]]
    in_place, copy, mended = result.rounds[0].candidates
    assert copy.keep_run is not None and copy.keep_run.all_passed
    assert in_place.keep_run is not None and not in_place.keeps_inputs
    assert "changed its argument 1 from [3, 1, 2] to [1, 2, 3]" in "".join(
        r.message for r in in_place.keep_run.results
    )
    assert mended.origin == "mended" and mended.keeps_inputs and mended.label == "r0c2"
    assert "    xs = copy.deepcopy(xs)  # the task says" in mended.code
    # [3, 1, 2], [4, 1, 3, 2] and their reverses sorted in place change; [5] does not
    assert "3/3 passing, input unchanged 1/5" in shown.getvalue()
    assert "(one above, its input copied on entry): 3/3 passing, input unchanged 5/5" in (
        shown.getvalue()
    )
    # code as the model wrote it comes before the mended, where they behave alike
    assert result.passed and result.final_code.strip() == SORTS_A_COPY.strip()
    assert any("must leave its input unchanged" in n for n in result.notes)
    assert any(
        n.startswith("r0c2 is r0c0 with the arguments it changed copied") for n in result.notes
    )


def test_a_best_that_changes_its_input_is_mended_or_not_claimed() -> None:
    # the only program sorts the caller's list: mended, it is the answer and the pass holds
    backend = MockBackend("demo", replies=[MEDIAN_TESTS, fenced(SORTS_IN_PLACE)])
    result = solve(MEDIAN_TASK, cfg(n_candidates=1, max_iters=1), backend=backend)
    assert result.passed and result.best is not None and result.best.origin == "mended"
    assert "xs = copy.deepcopy(xs)" in result.final_code and len(backend.history) == 2
    # the greedy reply mended agrees with the reference: round 0 stops at those two
    backend = MockBackend("demo", replies=[MEDIAN_TESTS, fenced(SORTS_IN_PLACE)])
    backend.enqueue(fenced(SORTS_A_COPY))
    both = solve(MEDIAN_TASK, cfg(greedy=True, reference=True, max_iters=1), backend=backend)
    assert [c.origin for c in both.rounds[0].candidates] == ["greedy", "reference", "mended"]
    assert both.passed and both.final_code.strip() == SORTS_A_COPY.strip()
    assert any("round 0 drew 2 of 4 candidates" in n for n in both.notes)
    # one that cannot be mended plainly (its body on the def line) is not claimed: a later
    # round repairs it, told what the call did
    one_line = "def median(xs): return xs.sort() or xs[len(xs) // 2] if len(xs) % 2 else 2.5\n"
    backend = MockBackend("demo", replies=[MEDIAN_TESTS, fenced(one_line)])
    backend.enqueue(fenced(one_line))  # round 1: the fix gives it back unchanged
    alone = solve(MEDIAN_TASK, cfg(n_candidates=1, max_iters=2), backend=backend)
    assert [r.kind for r in alone.rounds] == ["initial", "mixed"]
    fix = [c for c in backend.history if prompts.kind_of(c.messages) == "fix"]
    assert "the task's words: test_keeps_input_1 failed" in fix[0].messages[-1]["content"]
    assert alone.score == 1.0 and not alone.passed
    assert any("changes its input on 2 of 5 calls" in n for n in alone.notes)
    # the same task without that sentence checks nothing of the kind
    backend = MockBackend("demo", replies=[MEDIAN_TESTS, fenced(SORTS_IN_PLACE)])
    plain = solve(MEDIAN_TASK.split(" The input")[0], cfg(n_candidates=1), backend=backend)
    assert plain.passed and plain.best is not None and plain.best.keep_run is None
    assert plain.final_code.strip() == SORTS_IN_PLACE.strip()


def test_an_unknown_kind_of_later_round_is_refused_before_any_model_call(demo_task: str) -> None:
    backend = MockBackend("fix")
    with pytest.raises(UsageError, match=r"must be auto, fresh, mixed, fix \(got 'fresher'\)"):
        solve(demo_task, cfg(later_rounds="fresher"), backend=backend)
    assert backend.history == []


def test_fix_prompt_carries_the_best_code_and_its_failures(demo_task: str) -> None:
    backend = MockBackend("fix")
    result = solve(demo_task, cfg(later_rounds="mixed"), backend=backend)
    best_r0 = max(result.rounds[0].candidates, key=lambda c: (c.score, -len(c.code)))
    fix_call = next(c for c in backend.history if prompts.kind_of(c.messages) == "fix")
    user = fix_call.messages[-1]["content"]
    assert best_r0.code.strip() in user
    failing = [f.name for f in best_r0.run.failures()]  # type: ignore[union-attr]
    assert failing and all(name in user for name in failing)
    assert "assert 5 is None" in user  # the assertion with its values


def test_best_is_kept_and_a_worse_round_never_replaces_it(demo_task: str) -> None:
    backend = MockBackend("demo", replies=[DEMO_TESTS, fenced(NO_DEDUPE), WRONG_ALL])
    backend.enqueue(WRONG_ALL, WRONG_ALL)  # round 1: both worse
    result = solve(
        demo_task, cfg(n_candidates=2, max_iters=2, later_rounds="fresh"), backend=backend
    )
    assert scores(result) == [["4/5", "0/5"], ["0/5", "0/5"]]
    assert result.final_code.strip() == NO_DEDUPE.strip()
    assert result.score == pytest.approx(0.8) and not result.passed
    assert result.rounds[1].best_label == "r0c0"


def test_stops_at_the_first_full_pass(demo_task: str, mock: MockBackend) -> None:
    solve(demo_task, cfg(max_iters=5), backend=mock)
    assert len(mock.history) == 2  # the tests, then one round


def test_max_iters_bounds_the_rounds(demo_task: str) -> None:
    backend = MockBackend("demo", replies=[DEMO_TESTS])
    # round 1 changes the best (0/5, then 4/5); round 2 does not, but it is the last
    backend.enqueue(*[WRONG_ALL] * 4, *[fenced(NO_DEDUPE)] * 4, *[fenced(WRONG_INDEX)] * 12)
    result = solve(demo_task, cfg(max_iters=3, later_rounds="fix"), backend=backend)
    assert result.rounds_used == 3 and not result.passed
    assert len(backend.history) == 4
    assert not any("stopped after round" in n for n in result.notes)


def test_a_round_that_changes_nothing_ends_the_run(demo_task: str) -> None:
    backend = MockBackend("demo", replies=[DEMO_TESTS])
    backend.enqueue(*[WRONG_ALL] * 4, *[fenced(NO_DEDUPE)] * 4, *[fenced(NO_DEDUPE)] * 12)
    events: list[Event] = []
    result = solve(
        demo_task, cfg(max_iters=5, later_rounds="fix"), backend=backend, on_event=events.append
    )
    # round 1 lifted the best from 0/5 to 4/5; round 2 drew the same behaviour again
    assert result.rounds_used == 3 and not result.passed and result.score == 0.8
    assert len(backend.history) == 4
    assert "stopped after round 2: it changed neither the best's behaviour" in result.notes[-1]
    assert events[-1].kind == "stop" and events[-1].detail == "stopped"
    # a best that fails the task's own example is known to be wrong: rounds go on
    shown = demo_task + "\nassert second_largest_unique([1, 2, 3, 4]) == 3"
    wrong = MockBackend("demo", replies=[DEMO_TESTS])
    wrong.enqueue(*[fenced(WRONG_INDEX)] * 20)
    failing = solve(shown, cfg(max_iters=4, later_rounds="fix"), backend=wrong)
    assert failing.rounds_used == 4 and failing.best is not None
    assert failing.best.example_run is not None and not failing.best.example_run.all_passed
    assert [r.best_trusted for r in failing.rounds] == [False] * 4
    assert [r.best_trusted for r in result.rounds] == [None] * 3  # no example, no --tests
    again = MockBackend("demo", replies=[DEMO_TESTS])
    again.enqueue(*[WRONG_ALL] * 4, *[fenced(NO_DEDUPE)] * 16)
    every = cfg(max_iters=5, later_rounds="fix", stop_unchanged=False)
    assert solve(demo_task, every, backend=again).rounds_used == 5  # --all-rounds


def test_each_round_samples_n_with_distinct_seeds_and_the_same_prompt(demo_task: str) -> None:
    backend = MockBackend("fix")
    result = solve(demo_task, cfg(n_candidates=3, seed=5, later_rounds="fix"), backend=backend)
    seeds = [c.seed for r in result.rounds for c in r.candidates]
    assert len(seeds) == len(set(seeds)) == 3 * result.rounds_used
    code_calls = backend.history[1:]
    assert [c.n for c in code_calls] == [3] * len(code_calls)
    assert result.rounds_used > 1
    assert code_calls[0].seed == 5 and code_calls[1].seed == 8
    # diversity is a parameter, never text in the prompt
    assert all("candidate" not in m["content"].lower() for m in code_calls[0].messages)
    assert code_calls[0].temperature > 0


def test_every_generation_has_a_max_tokens_bound(demo_task: str) -> None:
    backend = MockBackend("fix")
    solve(demo_task, cfg(max_tokens=333), backend=backend)
    assert all(call.max_tokens > 0 for call in backend.history)
    assert {call.max_tokens for call in backend.history[1:]} == {333}


def test_one_failed_generation_costs_that_candidate_only(demo_task: str) -> None:
    backend = MockBackend("demo", replies=[DEMO_TESTS, BackendError("boom: server said 500")])
    backend.enqueue("Sorry, I cannot help with that.")
    result = solve(demo_task, cfg(), backend=backend)
    c0, c1 = result.rounds[0].candidates[:2]
    assert c0.error and "boom" in c0.error and c0.run is None
    assert c1.code == "" or c1.run is None or c1.score == 0.0
    assert result.passed  # candidates 2 and 3 still came from the script


def test_a_failed_round_keeps_the_best_so_far(demo_task: str) -> None:
    backend = MockBackend("demo", replies=[DEMO_TESTS, fenced(NO_DEDUPE)])
    backend.enqueue(BackendError("context overflow"))
    result = solve(
        demo_task, cfg(n_candidates=1, max_iters=2, later_rounds="fresh"), backend=backend
    )
    assert result.rounds[1].candidates[0].error is not None
    assert result.final_code.strip() == NO_DEDUPE.strip()
    assert result.score == pytest.approx(0.8)


def test_a_backend_gone_mid_run_stops_the_rounds_with_a_note(demo_task: str) -> None:
    backend = MockBackend("demo", replies=[DEMO_TESTS, fenced(NO_DEDUPE)])
    backend.enqueue(BackendUnavailable("server gone"))
    result = solve(
        demo_task, cfg(n_candidates=1, max_iters=3, later_rounds="fresh"), backend=backend
    )
    assert len(result.rounds) == 2
    assert result.rounds[1].candidates[0].error == "generation failed: unavailable: server gone"
    assert "stopped early: the backend became unavailable" in result.notes
    assert "unavailable" not in result.to_dict()["rounds"][1]["candidates"][0]
    assert result.final_code.strip() == NO_DEDUPE.strip()


def test_backend_unavailable_at_the_start_is_raised(demo_task: str) -> None:
    backend = MockBackend("demo", replies=[BackendUnavailable("server down")])
    with pytest.raises(BackendUnavailable):
        solve(demo_task, cfg(), backend=backend)


def test_tests_are_asked_for_again_once_then_a_clear_error(demo_task: str) -> None:
    backend = MockBackend("demo", replies=["I think it works.", "def helper(): pass"])
    with pytest.raises(GenerationError, match="no test functions"):
        solve(demo_task, cfg(), backend=backend)
    assert len(backend.history) == 2


def test_a_second_test_request_that_works_is_used(demo_task: str) -> None:
    backend = MockBackend("demo", replies=["no tests here", DEMO_TESTS])
    result = solve(demo_task, cfg(), backend=backend)
    assert result.passed and len(backend.history) == 3


def test_tests_that_define_the_target_exercise_the_candidate(demo_task: str) -> None:
    own_copy = (
        "```python\ndef second_largest_unique(nums):\n    return 3\n\n"
        "def test_case_1():\n    assert second_largest_unique([1, 2, 3, 4]) == 3\n```"
    )
    backend = MockBackend("demo", replies=[own_copy, WRONG_ALL])
    result = solve(demo_task, cfg(n_candidates=1, max_iters=1), backend=backend)
    assert "return 3" not in result.tests
    assert result.rounds[0].candidates[0].score == 0.0


def test_zero_scores_keep_their_reason(demo_task: str) -> None:
    backend = MockBackend(
        "demo",
        replies=[DEMO_TESTS, "```python\ndef f(:\n```", "```python\nimport nonexistent_mod\n```"],
    )
    result = solve(demo_task, cfg(n_candidates=2, max_iters=1), backend=backend)
    syntax, imp = result.rounds[0].candidates
    assert syntax.score == 0 and "SyntaxError" in (syntax.reason or "")
    assert imp.score == 0 and "nonexistent_mod" in (imp.reason or "")


def test_result_is_json_ready(demo_task: str, mock: MockBackend) -> None:
    data = solve(demo_task, cfg(), backend=mock).to_dict()
    text = json.dumps(data)
    assert json.loads(text)["rounds_used"] == 1
    assert data["rounds"][0]["candidates"][0]["passed"] == 4
    assert data["rounds"][0]["candidates"][0]["total"] == 5


USER_TESTS = """
def test_user_pair():
    assert second_largest_unique([10, 20]) == 10

def test_user_negative():
    assert second_largest_unique([-1, -5, -1]) == -5
"""


def test_user_tests_are_run_and_outweigh_generated_ones(demo_task: str) -> None:
    # generated test_case_3 is wrong here: it wants 20 for [10, 20]
    wrong_tests = DEMO_TESTS.replace("== 10", "== 20")
    overfit = "```python\ndef second_largest_unique(nums):\n    if len(set(nums)) < 2:\n        return None\n    return max(nums) if nums == [10, 20] else sorted(set(nums))[-2]\n```"
    backend = MockBackend("demo", replies=[wrong_tests, overfit, fenced(CORRECT)])
    result = solve(demo_task, cfg(n_candidates=2, max_iters=1), backend=backend, tests=USER_TESTS)
    overfit_c, correct_c = result.rounds[0].candidates
    assert overfit_c.score == 1.0 and correct_c.score == 0.8
    assert correct_c.user_run is not None and correct_c.user_run.all_passed
    assert result.final_code.strip() == CORRECT.strip()  # the user's tests decide
    assert not result.passed  # the wrong generated test still fails: no false claim


def test_user_tests_that_import_the_users_own_module_test_the_candidates(
    demo_task: str, mock: MockBackend
) -> None:
    # a real test file imports the code under test from the user's module, not from `solution`
    user = "from stats import second_largest_unique\nimport stats as s\n\n" + USER_TESTS.replace(
        "assert second_largest_unique([-1", "assert s.second_largest_unique([-1"
    )
    result = solve(demo_task, cfg(), backend=mock, tests=user)
    best = result.best
    assert best is not None and best.user_run is not None
    assert best.user_run.error is None and best.user_run.all_passed
    assert "import solution as s" in (result.user_tests or "")


def test_only_imports_of_the_code_under_test_are_pointed_at_solution() -> None:
    tests = (
        "from math import sqrt, floor\nfrom .local import f\nimport os, mycode\n"
        "from mycode import (\n    f,\n)\nfrom helpers import g\n\ndef test_a():\n    import mycode\n"
    )
    out = import_solution(tests, names={"f", "sqrt"})
    assert out.splitlines() == [
        "from math import sqrt, floor",  # the standard library's
        "from .local import f",  # relative: the user's package, left alone
        "import os, mycode",  # two modules in one statement: left alone
        "from solution import (",
        "    f,",
        ")",
        "from helpers import g",  # g is not the code under test
        "",
        "def test_a():",
        "    import solution as mycode",
    ]
    code = "from helpers import g\n\ndef f():\n    return g()\n"  # g: the code's, not its own
    both = "from helpers import g\nfrom mycode import f\n"
    assert import_solution(both, code) == "from helpers import g\nfrom solution import f\n"
    odd = "x = 'é\ufffd'; from mycode import f; from mycode import g  # \x0c\nimport mycode.sub\n"
    assert import_solution(odd, names={"f"}).split("\n") == [
        "x = 'é\ufffd'; from solution import f; from solution import g  # \x0c",
        "import mycode.sub",  # `import solution as mycode.sub` would not parse
        "",
    ]


def test_user_tests_failures_lead_the_fix_prompt(demo_task: str) -> None:
    backend = MockBackend("demo", replies=[DEMO_TESTS, fenced(NO_DEDUPE)])
    solve(
        demo_task,
        cfg(n_candidates=1, max_iters=2, later_rounds="fix"),
        backend=backend,
        tests=USER_TESTS,
    )
    fix_user = backend.history[2].messages[-1]["content"]
    assert "user test test_user_negative failed" in fix_user


def test_given_code_is_scored_first_and_improved(demo_task: str) -> None:
    backend = MockBackend("fix")
    result = solve(demo_task, cfg(later_rounds="fix"), backend=backend, code=NO_DEDUPE)
    given = result.rounds[0]
    assert given.kind == "given" and given.candidates[0].origin == "user"
    assert given.candidates[0].score == 0.8
    assert result.rounds[1].kind == "fix" and result.passed
    assert NO_DEDUPE.strip() in backend.history[1].messages[-1]["content"]


def test_given_code_that_passes_needs_no_model_rounds(demo_task: str, mock: MockBackend) -> None:
    result = solve(demo_task, cfg(), backend=mock, code=CORRECT)
    assert result.passed and result.rounds_used == 1 and len(mock.history) == 1


def test_suspect_tests_are_shown_and_not_fed_as_truth(demo_task: str) -> None:
    wrong_tests = DEMO_TESTS.replace("== 10", "== 20")  # test_case_3 wrong
    alt = CORRECT_ALT
    backend = MockBackend(
        "demo", replies=[wrong_tests, fenced(CORRECT), fenced(alt), fenced(NO_DEDUPE)]
    )
    result = solve(demo_task, cfg(n_candidates=3, max_iters=2, later_rounds="fix"), backend=backend)
    assert result.rounds[0].suspect_tests == ["test_case_3"]
    assert result.suspect_tests == ["test_case_3"] and not result.passed
    assert result.final_code.strip() == CORRECT.strip()
    fix_user = backend.history[2].messages[-1]["content"]
    assert "test_case_3" not in fix_user


def test_bad_user_tests_and_code_are_clear_errors(demo_task: str, mock: MockBackend) -> None:
    with pytest.raises(TaskError, match="syntax error at line 1"):
        solve(demo_task, cfg(), backend=mock, tests="def test_x(:\n")
    with pytest.raises(TaskError, match="No test functions"):
        solve(demo_task, cfg(), backend=mock, tests="def helper():\n    pass\n")
    with pytest.raises(TaskError, match="code has a syntax error"):
        solve(demo_task, cfg(), backend=mock, code="def f(:\n")
    assert mock.history == []  # rejected before any model call


CORRECT_THIRD = """def second_largest_unique(nums):
    top = sorted(set(nums))
    return top[-2] if len(top) > 1 else None
"""


def test_with_user_tests_a_suspect_generated_test_does_not_block_a_pass(demo_task: str) -> None:
    wrong_tests = DEMO_TESTS.replace("== 10", "== 20")  # test_case_3 wrong
    three = [fenced(CORRECT), fenced(CORRECT_ALT), fenced(CORRECT_THIRD), fenced(NO_DEDUPE)]
    user = "def test_mine():\n    assert second_largest_unique([10, 20]) == 10\n"
    backend = MockBackend("demo", replies=[wrong_tests, *three])
    result = solve(demo_task, cfg(n_candidates=4, max_iters=3), backend=backend, tests=user)
    assert result.passed and result.rounds_used == 1  # stopped: all user tests pass
    assert result.suspect_tests == ["test_case_3"] and result.score == 0.8
    backend = MockBackend("demo", replies=[wrong_tests, *three])
    result = solve(demo_task, cfg(n_candidates=4, max_iters=1), backend=backend)
    assert not result.passed  # without the user's word, a consensus claims nothing


NO_GUARD_ALT = """def second_largest_unique(nums):
    return sorted(set(nums))[-2]
"""


def test_a_test_the_consensus_crashes_on_is_not_suspect_but_fed_to_the_fix(demo_task: str) -> None:
    """Two programs that raise IndexError on [7] outvote one that passes test_case_5: a crash is
    the programs' fault, so the test stays trusted and the fix prompt gets the failure."""
    user = "def test_mine():\n    assert second_largest_unique([10, 20]) == 10\n"
    replies = [DEMO_TESTS, fenced(NO_GUARD), fenced(NO_GUARD_ALT), fenced(WRONG_INDEX)]
    backend = MockBackend("demo", replies=[*replies, fenced(CORRECT)])
    result = solve(
        demo_task, cfg(n_candidates=3, max_iters=2, later_rounds="fix"), backend=backend, tests=user
    )
    first = result.rounds[0]
    assert first.best_label in ("r0c0", "r0c1") and first.suspect_tests == []
    fix_prompt = backend.history[-1].messages[-1]["content"]
    assert "test_case_5 failed" in fix_prompt and "IndexError" in fix_prompt
    assert result.final_code.strip() == CORRECT.strip()  # 5 tests to their 2 each: it wins


def test_excusing_a_generated_test_takes_three_programs_and_most_of_those_sampled(
    demo_task: str,
) -> None:
    """Excusing a test the model wrote takes ranking.EXCUSE_VOTES agreeing programs, and more
    than half of the distinct programs that pass as many trusted tests; no fresh samples are
    drawn to find them."""
    wrong_tests = DEMO_TESTS.replace("== 10", "== 20")
    user = "def test_mine():\n    assert second_largest_unique([10, 20]) == 10\n"
    right = [fenced(CORRECT), fenced(CORRECT_ALT), fenced(CORRECT_THIRD)]

    def run(replies: list[str], n: int) -> SolveResult:
        backend = MockBackend("demo", replies=[wrong_tests, *replies])
        return solve(demo_task, cfg(n_candidates=n, max_iters=3), backend=backend, tests=user)

    pair = run([*right[:2], fenced(NO_DEDUPE)], 3)
    assert not pair.passed and pair.suspect_tests == ["test_case_3"]
    assert any("only 2 of 3 distinct program(s) call wrong" in n for n in pair.notes)
    assert len(pair.rounds) == 1  # no vote drawn for it, though 3 rounds were allowed
    most = run([*right, fenced(NO_DEDUPE)], 4)
    assert most.passed and most.suspect_tests == ["test_case_3"] and most.notes == []
    assert (most.rounds[0].agree, most.rounds[0].programs) == (3, 4)
    # three other readings that pass the user's test too: three of six is no majority
    smallest = "def second_largest_unique(nums):\n    return min(nums) if nums else None\n"
    first = "def second_largest_unique(nums):\n    return nums[0] if len(nums) > 1 else None\n"
    others = [fenced(NO_DEDUPE), fenced(smallest), fenced(first)]
    half = run([*right, *others], 6)
    assert not half.passed and (half.rounds[0].agree, half.rounds[0].programs) == (3, 6)
    assert any("only 3 of 6 distinct program(s)" in n for n in half.notes)


def test_a_candidate_cannot_replace_the_tests_helpers(demo_task: str) -> None:
    tests = (
        "```python\ndef same(a, b):\n    return a == b\n\n"
        "def test_case_1():\n    assert same(second_largest_unique([1, 2, 3]), 2)\n```"
    )
    cheat = "```python\ndef same(a, b):\n    return True\n\ndef second_largest_unique(nums):\n    return 0\n```"
    backend = MockBackend("demo", replies=[tests, cheat])
    result = solve(demo_task, cfg(n_candidates=1, max_iters=1), backend=backend)
    assert result.rounds[0].candidates[0].score == 0.0 and not result.passed


def test_given_code_round_counts_toward_max_iters(demo_task: str) -> None:
    backend = MockBackend("fix")
    result = solve(demo_task, cfg(max_iters=2, later_rounds="fix"), backend=backend, code=NO_DEDUPE)
    assert [r.kind for r in result.rounds] == ["given", "fix"]


DISPUTE_TASK = '''def second_largest_unique(nums):
    """The second largest distinct value in nums, or None.

    >>> second_largest_unique([10, 20])
    10
    """
'''
# the model's tests share NO_DEDUPE's misreading ([5, 5, 5, 5] -> 5): it passes them all
MISREAD_TESTS = DEMO_TESTS.replace(
    "second_largest_unique([5, 5, 5, 5]) is None", "second_largest_unique([5, 5, 5, 5]) == 5"
)


@pytest.mark.parametrize("later_rounds", ["mixed", "fresh"])
def test_a_full_pass_that_others_dispute_is_put_to_a_vote_of_fresh_samples(
    later_rounds: str,
) -> None:
    replies = [
        MISREAD_TESTS,
        fenced(NO_DEDUPE),
        fenced(CORRECT),
        fenced(CORRECT_ALT),
        fenced(CORRECT_THIRD),
    ]
    backend = MockBackend("demo", replies=replies)
    shown = io.StringIO()
    progress = Progress(shown, 2)  # the command's progress lines name the new kind of round
    result = solve(
        DISPUTE_TASK,
        cfg(n_candidates=2, max_iters=3, later_rounds=later_rounds),
        backend=backend,
        on_event=progress,
    )
    assert "=== Round 1: generating 2 fresh candidates in parallel: others" in shown.getvalue()
    no_dedupe, correct = result.rounds[0].candidates
    assert no_dedupe.all_passed and not correct.all_passed  # both pass the task's example
    # the vote brings two more programs of CORRECT's reading: three of the four outvote
    # NO_DEDUPE and excuse test_case_2
    assert [r.kind for r in result.rounds] == ["initial", "fresh"]
    assert prompts.kind_of(backend.history[2].messages) == "code"  # fresh, not a repair
    assert result.final_code.strip() == CORRECT_THIRD.strip()  # the shortest of the three
    assert result.passed and result.suspect_tests == ["test_case_2"]
    assert (result.rounds[0].agree, result.rounds[0].rival) == (1, 1)
    assert (result.rounds[1].agree, result.rounds[1].rival, result.rounds[1].programs) == (3, 1, 4)


def test_a_vote_that_settles_nothing_yet_is_followed_by_another(demo_task: str) -> None:
    """Votes have their own rule: a vote round that leaves the best as it was does not end the
    run as a round that changed nothing would, and a vote that wins adds no such note."""
    tests = (
        "def test_case_1():\n    assert second_largest_unique([1, 2, 3, 4]) == 3\n\n"
        "def test_case_2():\n    assert second_largest_unique([10, 20]) == 10\n"
    )
    same_again = [fenced(NO_DEDUPE), fenced(CORRECT)] * 2  # round 1 changes nothing
    replies = [tests, *same_again, fenced(CORRECT_ALT), fenced(CORRECT_THIRD)]
    backend = MockBackend("demo", replies=replies)
    result = solve(
        demo_task, cfg(n_candidates=2, max_iters=3, later_rounds="fresh"), backend=backend
    )
    assert [r.kind for r in result.rounds] == ["initial", "fresh", "fresh"]
    assert (result.rounds[1].agree, result.rounds[1].rival) == (1, 1)
    assert result.passed and result.rounds[2].agree == 3
    assert not any("stopped after round" in n for n in result.notes)


def test_a_dispute_left_open_is_not_claimed_as_a_pass() -> None:
    backend = MockBackend("demo", replies=[MISREAD_TESTS, fenced(NO_DEDUPE), fenced(CORRECT)])
    result = solve(DISPUTE_TASK, cfg(n_candidates=2, max_iters=1), backend=backend)
    assert result.best is not None and result.best.all_passed
    assert not result.passed
    assert any("not claimed as passing: 1 other program" in n for n in result.notes)
    plain = MockBackend("demo", replies=[MISREAD_TESTS, fenced(NO_DEDUPE), fenced(CORRECT)])
    result = solve(DISPUTE_TASK, cfg(n_candidates=2, max_iters=1, ranking="plain"), backend=plain)
    assert result.passed  # the prototype's scoring trusts a full pass
    assert all(c.probe_run is None for c in result.rounds[0].candidates)


def test_without_trusted_tests_a_split_on_changed_inputs_is_put_to_a_vote(demo_task: str) -> None:
    # both pass the two tests and agree on their inputs; on [10, 10] (a repeat) they differ
    tests = (
        "def test_case_1():\n    assert second_largest_unique([1, 2, 3, 4]) == 3\n\n"
        "def test_case_2():\n    assert second_largest_unique([10, 20]) == 10\n"
    )
    replies = [tests, fenced(NO_DEDUPE), fenced(CORRECT), fenced(CORRECT_ALT), fenced(CORRECT)]
    backend = MockBackend("demo", replies=replies)
    result = solve(
        demo_task, cfg(n_candidates=2, max_iters=3, later_rounds="fresh"), backend=backend
    )
    assert result.examples is None and result.rounds[0].candidates[0].all_passed
    assert [r.kind for r in result.rounds] == ["initial", "fresh"]
    assert (result.rounds[0].agree, result.rounds[0].rival) == (1, 1)
    assert (result.rounds[1].agree, result.rounds[1].rival) == (2, 1)
    assert result.passed and result.final_code.strip() in (CORRECT.strip(), CORRECT_ALT.strip())
    probes = result.rounds[0].candidates[0].probe_run
    changed = result.rounds[0].candidates[0].mutant_run
    assert probes is not None and len(probes.results) == 2  # the tests' two inputs
    assert changed is not None and len(changed.results) > 2  # and those inputs, changed
    data = json.loads(json.dumps(result.to_dict()))  # --json: digests, not failure text
    first = data["rounds"][0]["candidates"][0]
    assert "probe_run" not in first and "probe_run" not in data["best"]
    assert set(first["behaviour"]) == {r.name for r in probes.results + changed.results}
    assert all(v[0] in "vx" for v in first["behaviour"].values())


def test_a_function_is_tested_by_assert_lines_named_as_test_cases(demo_task: str) -> None:
    asserts = (
        "```python\nassert second_largest_unique([1, 2, 3, 4]) == 3\n"
        "assert second_largest_unique([5, 5, 5, 5]) is None\n"
        "xs = sorted([20, 10])\nassert second_largest_unique(xs) == 10\n```"
    )
    backend = MockBackend("demo", replies=[asserts, fenced(NO_DEDUPE), fenced(CORRECT)])
    result = solve(demo_task, cfg(n_candidates=2, max_iters=1), backend=backend)
    asked = backend.history[0].messages
    assert asked[0]["content"] == prompts.SYSTEM and prompts.TESTS_ASK in asked[-1]["content"]
    assert "as plain assert statements, one per line" in asked[-1]["content"]
    assert backend.history[0].max_tokens == 500  # 100 a case: past it, a model lists on and on
    assert "def test_case_3():\n    xs = sorted([20, 10])\n    assert" in result.tests
    assert scores(result) == [["2/3", "3/3"]]  # NO_DEDUPE returns 5 for [5, 5, 5, 5]
    assert result.passed and result.final_code.strip() == CORRECT.strip()


def test_a_class_is_tested_by_test_functions_written_out() -> None:
    task = "Write a class `Counter` with `add(x)` and `count(x)`: how many times x was added."
    tests = "```python\ndef test_case_1():\n    c = Counter()\n    c.add(1)\n    assert c.count(1) == 1\n```"
    code = "class Counter:\n    def __init__(self):\n        self.n = {}\n    def add(self, x):\n        self.n[x] = self.n.get(x, 0) + 1\n    def count(self, x):\n        return self.n.get(x, 0)\n"
    backend = MockBackend("demo", replies=[tests, fenced(code)])
    result = solve(task, cfg(n_candidates=1, max_iters=1), backend=backend)
    asked = backend.history[0].messages
    assert asked[0]["content"] == prompts.SYSTEM and prompts.TESTS_ASK in asked[-1]["content"]
    assert "pytest functions named test_case_1 ... test_case_5" in asked[-1]["content"]
    assert backend.history[0].max_tokens == 1024  # --max-test-tokens' default
    assert result.passed and scores(result) == [["1/1"]]


def test_a_class_whose_method_changes_its_input_is_mended_even_where_the_tests_cannot_run() -> None:
    task = (
        "Write a class `Stats` whose `summary(values)` returns the median of a list. "
        "It has to leave the list it is given pristine."
    )
    # the generated tests import what is not there: they cannot run for any candidate
    tests = (
        "```python\nimport no_such_module\n\n\ndef test_case_1():\n    s = Stats()\n"
        "    assert s.summary([3, 1, 2]) == 2\n```"
    )
    sorts = (
        "class Stats:\n    def summary(self, values):\n        values.sort()\n"
        "        return values[len(values) // 2]\n"
    )
    backend = MockBackend("demo", replies=[tests, fenced(sorts)])
    result = solve(task, cfg(n_candidates=1, max_iters=1), backend=backend)
    written, mended = result.rounds[0].candidates
    assert written.reason and "no_such_module" in written.reason and not written.keeps_inputs
    assert mended.origin == "mended" and mended.keeps_inputs
    assert "        values = copy.deepcopy(values)  # the task says" in mended.code
    assert result.best is mended and not result.passed


COUNTER_TASK = "Write a class `Counter` with `add(x)` and `count(x)`: how many times x was added."
COUNTER = (
    "class Counter:\n    def __init__(self):\n        self.n = {}\n    def add(self, x):\n"
    "        self.n[x] = self.n.get(x, 0) + 1\n    def count(self, x):\n"
    "        return self.n.get(x, 0)\n"
)


def counter_test(i: int, body: str = "") -> str:
    return f"def test_case_{i}():\n    c = Counter()\n{body}    c.add({i})\n    assert c.count({i}) == 1\n\n"


class StreamsTests(MockBackend):
    """The mock, with a tests reply streamed line by line as the local backend streams it:
    ended where `until` holds, or cut at `max_tokens` (a word a token)."""

    def __init__(self, tests: str, *replies: str) -> None:
        super().__init__("demo", replies=replies)
        self.tests, self.streamed, self.starts = tests, [], []

    def complete_until(
        self, messages: Any, *, until: Any, start: str = "", max_tokens: int = 1024, **kw: Any
    ) -> Completion:
        text, finish = start, "stop"
        self.starts.append(start)
        for line in self.tests.splitlines(keepends=True):
            if len((text + line).split()) > max_tokens:
                finish = "length"
                break
            text += line
            if until(text):
                break
        self.streamed.append(text)
        return Completion(
            text, kw["seed"], completion_tokens=len(text.split()), finish_reason=finish
        )


def test_a_class_tests_reply_stops_at_the_cases_asked_for_and_where_it_loops() -> None:
    seven = "```python\n" + "".join(counter_test(i) for i in range(1, 8)) + "```\n"
    backend = StreamsTests(seven, fenced(COUNTER))
    result = solve(COUNTER_TASK, cfg(n_candidates=1, max_iters=1), backend=backend)
    (streamed,) = backend.streamed
    assert streamed.count("def test_case_") == 6  # the sixth begun, and the five before it done
    assert backend.starts == [""]  # a class's reply is not begun as assert lines
    assert result.tests.count("def test_case_") == 5 and result.passed
    assert not any("tests reply" in n for n in result.notes)
    # a case that goes round in a loop: the reply stops there, and that case goes
    loop = "".join(f"    c.add({i % 2})\n" for i in range(200))
    looping = "```python\n" + counter_test(1) + counter_test(2, loop) + counter_test(3) + "```"
    backend = StreamsTests(looping, fenced(COUNTER))
    result = solve(COUNTER_TASK, cfg(n_candidates=1, max_iters=1), backend=backend)
    (streamed,) = backend.streamed
    assert streamed.count("c.add(") < 40 < looping.count("c.add(")  # not written to the end
    assert extract_test_names(result.tests) == ["test_case_1"] and result.passed
    assert any("went round in a loop" in n for n in result.notes)


def test_a_class_tests_reply_cut_at_its_budget_loses_the_case_it_was_writing() -> None:
    three = "```python\n" + "".join(counter_test(i) for i in range(1, 4)) + "```\n"
    backend = StreamsTests(three, fenced(COUNTER))
    budget = len(three.split()) - 3  # the third case's last line is not written
    cut = solve(
        COUNTER_TASK, cfg(n_candidates=1, max_iters=1, max_test_tokens=budget), backend=backend
    )
    assert extract_test_names(cut.tests) == ["test_case_1", "test_case_2"]
    assert f"the tests reply was cut at {budget} tokens; its finished cases were kept" in cut.notes


def test_fresh_rounds_are_drawn_only_where_the_best_is_known_wrong_or_unsupported(
    demo_task: str,
) -> None:
    # NO_DEDUPE passes 4 of 5 generated tests and there is no trusted test: no more rounds
    backend = MockBackend("demo", replies=[DEMO_TESTS, fenced(NO_DEDUPE), WRONG_ALL])
    result = solve(demo_task, cfg(n_candidates=2, max_iters=3), backend=backend)
    assert [r.kind for r in result.rounds] == ["initial"] and len(backend.history) == 2
    assert "stopped after round 0: the best passes every trusted test" in result.notes[-1]
    # ... but the same best failing the task's own example is known wrong: rounds go on
    shown = demo_task + "\nassert second_largest_unique([5, 5, 4]) == 4"
    wrong = MockBackend("demo", replies=[DEMO_TESTS, fenced(NO_DEDUPE), WRONG_ALL])
    again = solve(shown, cfg(n_candidates=2, max_iters=3), backend=wrong)
    assert [r.kind for r in again.rounds][:2] == ["initial", "fresh"]
    assert again.rounds[0].best_trusted is False
    # ... and so are they for a best that passes no generated test at all
    none = MockBackend("demo", replies=[DEMO_TESTS, WRONG_ALL, WRONG_ALL])
    none.enqueue(fenced(NO_DEDUPE), WRONG_ALL)
    lifted = solve(demo_task, cfg(n_candidates=2, max_iters=3), backend=none)
    assert [r.kind for r in lifted.rounds] == ["initial", "fresh"]
    assert lifted.score == pytest.approx(0.8)  # round 1 found support, and the run stopped
    # --all-rounds draws them all
    every = MockBackend("demo", replies=[DEMO_TESTS, fenced(NO_DEDUPE), WRONG_ALL])
    drawn = solve(demo_task, cfg(n_candidates=2, max_iters=3, stop_unchanged=False), backend=every)
    assert [r.kind for r in drawn.rounds] == ["initial", "fresh"] and drawn.passed
