"""Behaviour probes: candidates run on the tests' own inputs and their return values compared."""

from __future__ import annotations

from localcode import sandbox
from localcode.probes import (
    MAX_PROBES,
    behaviour,
    mutant_calls,
    probe_calls,
    probe_tests,
    sequence_calls,
    sequence_tests,
    shown,
)
from localcode.ranking import rank_codet
from localcode.records import Candidate

TESTS = """def test_case_1():
    assert f(1, [2, 3]) == 6
    assert f(1, [2, 3]) == 6
    assert f(x=0.1, ys=[0.2]) == 0.3


def test_case_2():
    n = 4
    assert f(n, []) == 4  # not literal: no probe
    assert f(*[1, []]) == 1  # starred: no probe
    assert g(1, [2]) == 3  # another function
    assert obj.f(1, [2]) == 3  # a method
"""


def test_only_literal_calls_of_the_entry_point_are_probes_once_each() -> None:
    calls = probe_calls([TESTS, "f(5, [])", None], "f")
    assert calls == ["f(1, [2, 3])", "f(x=0.1, ys=[0.2])", "f(5, [])"]
    assert probe_calls([TESTS], None) == [] and probe_calls(["def broken(:"], "f") == []
    many = "\n".join(f"assert f({i}, []) == 0" for i in range(100))
    assert len(probe_calls([many], "f")) == MAX_PROBES


PARAMETRIZED = """import pytest

@pytest.mark.parametrize("xs, expected", [([4.0, 3.5], ["A+", "A-"]), ([0.0], ["E"])])
def test_case_1(xs, expected):
    assert f(xs) == expected

@pytest.mark.parametrize(("n", "k"), [(1, 2), pytest.param(3, 4, marks=pytest.mark.slow), (n, 5)])
@pytest.mark.parametrize("flag", [True])
def test_case_2(n, k, flag):
    assert f(n, k=k, strict=flag) is not None
    assert g(n) == k

@pytest.mark.parametrize("xs", [[9], [8]])
def test_case_3(xs):
    assert f(xs) == xs
"""


def test_parametrized_tests_lend_their_rows_as_probes() -> None:
    # HumanEval/81 with the 1.5B model: every test was parametrized, so no probe told programs apart
    calls = probe_calls([PARAMETRIZED], "f")
    assert calls == [
        "f([4.0, 3.5])",
        "f([0.0])",
        "f(1, k=2, strict=True)",
        "f(3, k=4, strict=True)",  # pytest.param's values; the row naming `n` has none
        "f([9])",
        "f([8])",
    ]
    assert probe_calls(['@pytest.mark.parametrize("x", xs)\ndef test_a(x):\n    f(x)'], "f") == []
    one = '@pytest.mark.parametrize("x", [pytest.param(5, id="five"), 6])\ndef test_a(x):\n    f(x)'
    assert probe_calls([one], "f") == ["f(5)", "f(6)"]


def test_parametrized_rows_are_bounded_and_odd_ones_never_raise() -> None:
    # 30**5 combinations of rows the call never uses: read none of them, not all 24 million
    rows = "[" + ", ".join(["0"] * 30) + "]"
    stacked = "".join(f'@pytest.mark.parametrize("y{i}", {rows})\n' for i in range(5))
    source = f'@pytest.mark.parametrize("x", [1])\n{stacked}def test_a(x, y0, y1, y2, y3, y4):\n'
    assert probe_calls([source + "    f(x)"], "f") == ["f(1)"]
    used = probe_calls([source + "    f(x, y0, y1, y2, y3, y4)"], "f")
    assert used == ["f(1, 0, 0, 0, 0, 0)"]
    deep = '@pytest.mark.parametrize("x", [1])\ndef test_a(x):\n    f(' + "-" * 400 + "x)"
    assert probe_calls([deep], "f") == []


def test_changed_inputs_keep_types_and_signs_and_take_turns() -> None:
    calls = ["f(0, 'adb')", "f(x=[1, 2])", "f(True, 2.5)"]
    assert mutant_calls(calls) == [
        "f(1, 'adb')",  # 0 gets no -1: the sign stays
        "f(x=[2, 1])",
        "f(True, 3.5)",  # a bool is left alone
        "f(0, 'bda')",
        "f(x=[1])",
        "f(0, 'ad')",
        "f(x=[1, 1])",  # the last item a repeat of the first
        "f(0, 'ada')",
    ]
    assert len(mutant_calls(calls, limit=3)) == 3 and mutant_calls([]) == []


def test_numbers_keep_their_sign_and_never_become_zero() -> None:
    assert mutant_calls(["f(1)", "f(-1)", "f(5)", "f(-2.5)", "f(1e999)", "f(2)"]) == [
        "f(-2)",  # f(1)'s f(2) is a call the tests make already
        "f(6)",
        "f(-3.5)",
        "f(3)",
        "f(4)",  # 5 one step back; 1, -1 and 2 only go up: the next step down is 0 or taken
    ]


def test_odd_literals_give_no_probes_rather_than_an_error() -> None:
    huge = "f(0x" + "f" * 4000 + ")"  # parses, but its decimal form has too many digits
    assert probe_calls([huge, "f([" + "1, " * 600 + "])"], "f") == ["f([" + "1, " * 599 + "1])"]
    assert mutant_calls(["f([" + "9" * 5000 + "])", "f([0x" + "f" * 4000 + "])"]) == []
    assert probe_tests(["Stack(1)"], "Stack") is None  # a class runs in the test's process


def seen(code: str, tests: str) -> tuple[str, ...] | None:
    found = behaviour(sandbox.run_tests(code, tests, sandbox.Limits(timeout=3)))
    return None if found is None else tuple(found[k] for k in sorted(found))


def test_programs_that_return_the_same_values_behave_alike() -> None:
    probes = probe_tests(probe_calls([TESTS, "f(5, [])"], "f"), "f")
    assert probes is not None and "def test_probe_3():" in probes
    summed = seen("def f(x, ys):\n    return x + sum(ys)\n", probes)
    looped = seen("def f(x, ys):\n    for y in ys:\n        x = y + x\n    return x\n", probes)
    assert summed is not None and len(summed) == 3
    assert looped == summed
    rounded = seen("def f(x, ys):\n    return round(x + sum(ys), 12)\n", probes)
    assert rounded == summed  # 0.3 and 0.1 + 0.2 (0.30000000000000004) are alike
    doubled = seen("def f(x, ys):\n    return 2 * x + sum(ys)\n", probes)
    assert doubled is not None and doubled != summed
    raising = seen("def f(x, ys):\n    raise ValueError(x)\n", probes)
    assert raising is not None and len(set(raising)) == 1  # ValueError each time
    assert raising[0].startswith("x") and summed[0].startswith("v")  # an exception, a value
    assert seen("def f(x, ys):\n    return (x + sum(ys),)\n", probes) != seen(
        "def f(x, ys):\n    return [x + sum(ys)]\n", probes
    )  # a tuple is not a list: `==` in a test would tell them apart


def test_equal_values_are_alike_and_addresses_never_count() -> None:
    probes = probe_tests(["f(1)", "f(x=2)", "f(_lc_function=3)"], "f")
    assert probes is not None
    ints = seen("def f(x=0, **k):\n    return 2\n", probes)
    assert ints == seen("def f(x=0, **k):\n    return 2.0\n", probes)  # 2 == 2.0
    assert ints is not None and ints[2].startswith("v")  # a keyword may have any name
    gen = seen("def f(x=0, **k):\n    yield from [1, 2]\n", probes)
    assert gen == seen("def f(x=0, **k):\n    return iter((1, 2))\n", probes)
    obj = seen("class A:\n    pass\n\ndef f(x=0, **k):\n    return A()\n", probes)
    assert obj == seen("class A:\n    pass\n\ndef f(x=0, **k):\n    return A()\n", probes)
    assert gen is not None and obj is not None and gen != obj


def test_a_candidate_cannot_forge_another_ones_behaviour() -> None:
    probes = probe_tests(["f(1)"], "f")
    assert probes is not None
    honest = seen("def f(x):\n    return 2\n", probes)
    assert honest is not None
    forged = f"def f(x):\n    raise AssertionError('localcode-probe={honest[0]}')\n"
    assert seen(forged, probes) is not None
    assert seen(forged, probes) != honest
    printed = f"def f(x):\n    print('localcode-probe={honest[0]}')\n    return 3\n"
    assert seen(printed, probes) != honest
    assert seen("def f(x):\n    while True:\n        pass\n", probes) is None  # timed out


def digests(prefix: str, letters: str) -> sandbox.TestRun:
    """A probe run: one letter per probe (`x`: it raised)."""
    return sandbox.TestRun(
        [
            sandbox.TestResult(f"{prefix}{k}", False, f"localcode-probe={kind}{digest * 16}")
            for k, v in enumerate(letters)
            for kind, digest in [("x", "e") if v == "x" else ("v", v)]
        ]
    )


def cand(i: int, code: str, passed: set[str], returns: str, changed: str = "") -> Candidate:
    """A candidate whose run passed `passed`, returning `returns` on the tests' own inputs and
    `changed` on the changed ones."""
    names = ["test_case_1", "test_case_2"]
    c = Candidate(0, i, "sample", code=code)
    c.run = sandbox.TestRun([sandbox.TestResult(t, t in passed) for t in names])
    c.probe_run = digests("test_probe_", returns)
    c.mutant_run = digests("test_mutant_", changed)
    return c


BOTH = {"test_case_1", "test_case_2"}


def test_behaviour_splits_a_consensus_set_and_names_the_rival() -> None:
    pool = [
        cand(0, "def f(x): return 1", BOTH, "ab"),
        cand(1, "def f(x): return 2", BOTH, "ac"),
        cand(2, "def f(x): return 3", BOTH, "ac"),
    ]
    ranking = rank_codet(pool)
    assert ranking.best is pool[1] and ranking.support == 2
    assert (ranking.agree, ranking.split, ranking.rival) == (2, 1, 0)  # same tests: a split
    pool.append(cand(3, "def f(x): return 4", {"test_case_1"}, "ac"))
    assert rank_codet(pool).rival == 1  # other tests passed: a rival
    for c in pool:
        c.probe_run = None  # without probes, passing the same tests is agreeing
    ranking = rank_codet(pool)
    assert ranking.best is pool[0] and (ranking.agree, ranking.split, ranking.rival) == (3, 0, 1)


def test_changed_inputs_only_split_programs_that_agree_on_the_tests_own() -> None:
    pool = [
        cand(0, "def f(x): return 1", BOTH, "a", "bb"),  # shortest
        cand(1, "def f(x): return 22", BOTH, "a", "cb"),
        cand(2, "def f(x): return 333", BOTH, "a", "cb"),
        cand(3, "def f(x): return 4444", {"test_case_1"}, "d", "cc"),
    ]
    ranking = rank_codet(pool)
    assert ranking.best is pool[1] and (ranking.agree, ranking.split, ranking.rival) == (2, 1, 1)
    # an input on which one of them raises may be outside the task: it splits nobody
    pool[0] = cand(0, "def f(x): return 1", BOTH, "a", "xb")
    ranking = rank_codet(pool)
    assert ranking.best is pool[0] and (ranking.agree, ranking.split, ranking.rival) == (3, 0, 1)
    # a candidate that hung on a changed input (its run of them failed) splits nobody either,
    # and stays with those that return what it returns on the tests' own inputs
    pool[0] = cand(0, "def f(x): return 1", BOTH, "a", "bb")
    pool[2].mutant_run = sandbox.TestRun(error="timed out after 5s")
    ranking = rank_codet(pool)
    assert ranking.best is pool[0] and (ranking.agree, ranking.split, ranking.rival) == (3, 0, 1)
    # agreeing on changed inputs wins nothing across consensus sets: the tests decide there
    pool.append(cand(4, "def f(x): return 55555", {"test_case_1"}, "d", "cc"))
    pool.append(cand(5, "def f(x): return 666666", {"test_case_1"}, "d", "cc"))
    ranking = rank_codet(pool)
    assert ranking.best is pool[0] and (ranking.agree, ranking.split, ranking.rival) == (3, 0, 3)


def test_where_every_test_fails_programs_that_crash_on_the_tests_inputs_lose() -> None:
    # HumanEval/81 with the 1.5B model: the tests expected wrong grades, so every program failed
    # them all, and the most-sampled program was a dict lookup that raised KeyError on 3.5
    crash = [cand(i, f"def f(x): return {{}}[x] + {i}", set(), "xx") for i in range(3)]
    pool = [*crash, cand(3, "def f(x): return 'A-'", set(), "ab")]
    assert rank_codet(pool).best is pool[3]
    # where tests pass, agreement still outweighs a crash elsewhere
    pool = [cand(i, f"def f(x): return {i}", {"test_case_1"}, "ax") for i in range(2)]
    pool.append(cand(2, "def f(x): return 'A-'", {"test_case_2"}, "ab"))
    assert rank_codet(pool).best is pool[0]


def test_a_class_is_probed_by_the_method_calls_the_tests_make_in_order() -> None:
    tests = (
        "def test_a():\n    q = Queue(2)\n    q.put('x')\n    assert q.get() == 'x'\n"
        "    n = 3\n    q.put(n)\n    assert q.get() == 3\n"
    )
    seqs = sequence_calls([tests], "Queue")
    # each call with what came before it; a call with a variable argument ends the sequence;
    # the calls the test checks first, then those made for their effect
    assert seqs == [("q = Queue(2)", "q.put('x')", "q.get()"), ("q = Queue(2)", "q.put('x')")]
    source = sequence_tests(seqs)
    assert source is not None
    code = "class Queue:\n    def __init__(self, n):\n        self.items = []\n    def put(self, x):\n        self.items.append(x)\n    def get(self):\n        return self.items.pop(0)\n"
    run = sandbox.run_tests(code, source, sandbox.Limits())
    assert shown(run) == {"test_probe_1": "'x'", "test_probe_2": "None"}
    assert sequence_calls([tests], None) == [] and sequence_tests([]) is None


def test_the_calls_a_test_checks_are_not_crowded_out_by_the_calls_that_set_them_up() -> None:
    # five tests of 8 puts and one checked get each: 45 sequences, MAX_PROBES of them probed
    tests = "".join(
        f"def test_{t}():\n    c = Cache({t})\n"
        + "".join(f"    c.put({k}, {k})\n" for k in range(8))
        + f"    assert c.get({t}) == {t}\n"
        for t in range(5)
    )
    seqs = sequence_calls([tests], "Cache")
    assert len(seqs) == MAX_PROBES
    checked = [s for s in seqs if s[-1].startswith("c.get(")]
    assert len(checked) == 5 and seqs[:5] == checked  # every test's checked call, first
