"""Ranking on constructed cases: consensus outvotes a wrong test; user tests outweigh generated."""

from __future__ import annotations

from localcode import sandbox
from localcode.ranking import Ranking, rank_codet, rank_plain, verdict
from localcode.records import Candidate

TESTS = ["test_case_1", "test_case_2", "test_case_3", "test_case_4"]


def cand(i: int, code: str, passed: set[str], user: set[str] | None = None) -> Candidate:
    run = sandbox.TestRun([sandbox.TestResult(t, t in passed) for t in TESTS])
    c = Candidate(0, i, "sample", code=code, run=run)
    if user is not None:
        c.user_run = sandbox.TestRun(
            [sandbox.TestResult(t, t in user) for t in ("test_user_a", "test_user_b")]
        )
    return c


# test_case_4 is wrong: the right programs fail it; one wrong program passes everything
RIGHT = {"test_case_1", "test_case_2", "test_case_3"}
ALL = set(TESTS)


def test_a_wrong_test_that_correct_candidates_fail_is_outvoted() -> None:
    pool = [
        cand(0, "def f(x):\n    return x + 1\n", RIGHT),
        cand(1, "def f(x):\n    return 1 + x\n", RIGHT),
        cand(2, "def f(x):\n    y = x\n    return y + 1\n", RIGHT),
        cand(3, "def f(x):\n    return 2\n", ALL),  # overfits the wrong test
    ]
    assert rank_plain(pool).best is pool[3]  # the prototype trusts the wrong test
    ranking = rank_codet(pool)
    assert ranking.best is pool[0] and ranking.support == 3
    assert ranking.suspect == ["test_case_4"]


def test_a_test_any_agreeing_program_crashed_on_is_never_suspect() -> None:
    """The shortest agreeing program returns a wrong value on test_case_4, a longer one raises
    there: either way the consensus is wrong on it, not the test."""
    pool = [
        cand(0, "def f(x):\n    return x + 1\n", RIGHT),
        cand(1, "def f(x):\n    y = x\n    return y + 1\n", RIGHT),
        cand(2, "def f(x):\n    return 2\n", ALL),
    ]
    assert rank_codet(pool).suspect == ["test_case_4"]
    assert pool[1].run is not None
    pool[1].run.results[3].raised = True
    ranking = rank_codet(pool)
    assert ranking.best is pool[0] and ranking.suspect == []


def test_a_lone_full_pass_beats_a_lone_partial_one() -> None:
    pool = [cand(0, "def f(x):\n    return 1\n", RIGHT), cand(1, "def f(x):\n    return 2\n", ALL)]
    ranking = rank_codet(pool)
    assert ranking.best is pool[1] and ranking.suspect == []


def test_resamples_of_one_program_do_not_make_a_test_suspect() -> None:
    same = "def f(x):\n    return x + 1\n"
    pool = [
        cand(0, same, RIGHT),
        cand(1, same + "# again\n", RIGHT),
        cand(2, "def f(x): return 0", set()),
    ]
    ranking = rank_codet(pool)
    assert ranking.best is pool[0] and ranking.support == 2
    assert ranking.suspect == []  # two samples, one program: not enough to doubt a test


def test_user_tests_outweigh_generated_tests() -> None:
    pool = [
        cand(0, "def f(x):\n    return 2\n", ALL, user={"test_user_a"}),
        cand(1, "def f(x):\n    return x\n", set(), user={"test_user_a", "test_user_b"}),
        cand(2, "def f(x):\n    return x + 0\n", {"test_case_1"}, user={"test_user_a"}),
    ]
    assert rank_plain(pool).best is pool[1]
    assert rank_codet(pool).best is pool[1]


def test_plain_ties_go_to_shorter_then_earlier_code() -> None:
    pool = [
        cand(0, "def f(x):\n    return  x\n", RIGHT),
        cand(1, "def f(x):\n    return x\n", RIGHT),
        cand(2, "def f(x):\n    return y\n", RIGHT),
    ]
    assert rank_plain(pool).best is pool[1]


def test_candidates_without_code_never_win() -> None:
    empty = Candidate(0, 0, "sample", error="generation failed: boom")
    pool = [empty, cand(1, "def f(x):\n    return 0\n", set())]
    assert rank_codet(pool).best is pool[1] and rank_plain(pool).best is pool[1]
    assert rank_codet([empty]).best is None


def test_a_consensus_on_failing_everything_doubts_no_test() -> None:
    pool = [
        cand(0, "def f(x):\n    return 1\n", set()),
        cand(1, "def f(x):\n    return 2\n", set()),
    ]
    ranking = rank_codet(pool)
    assert ranking.best is not None and ranking.suspect == []


def test_the_verdict_accepts_a_full_pass_and_nothing_without_a_best() -> None:
    best = cand(0, "x = 1", set(TESTS))
    assert verdict(Ranking(best)).done
    assert not verdict(Ranking(None, 0)).passes
    doubted = verdict(Ranking(best, agree=1, rival=1, split=1))
    assert doubted.passes and not doubted.done and "other program" in doubted.doubt
    assert verdict(Ranking(best, agree=1, split=1), judged_for=best).done
