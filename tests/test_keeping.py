"""Tasks that say a call must leave its input unchanged: the checks and the mend."""

from __future__ import annotations

from localcode import sandbox
from localcode.keeping import changed_arguments, keep_sequence_tests, keep_tests, mend
from localcode.probes import sequence_calls


def passes(code: str, source: str) -> list[bool]:
    return [r.passed for r in sandbox.run_tests(code, source, sandbox.Limits()).results]


def test_calls_that_change_a_list_dict_or_set_passed_to_them_fail_the_keep_checks() -> None:
    calls = ["f([3, 1, 2])", "f(7)", "f({'a': 1})", "f(xs={2, 1})", "f([])"]
    source = keep_tests(calls, "f")
    assert source is not None
    # a call with nothing a function could change is no check; a list is also tried reversed
    made = [line.strip() for line in source.splitlines() if line.startswith("    _lc_keeps(f")]
    assert made == [
        "_lc_keeps(f, 'f([3, 1, 2])', [3, 1, 2])",
        "_lc_keeps(f, 'f([2, 1, 3])', [2, 1, 3])",
        "_lc_keeps(f, \"f({'a': 1})\", {'a': 1})",
        "_lc_keeps(f, 'f(xs={2, 1})', xs={2, 1})",
        "_lc_keeps(f, 'f([])', [])",
    ]
    keeps = "def f(xs):\n    return sorted(xs) if not isinstance(xs, int) else xs\n"
    sorts = "def f(xs):\n    xs.sort()\n    return xs\n"  # a dict and a set have no sort()
    clears = "def f(xs):\n    if isinstance(xs, (dict, set)):\n        xs.clear()\n    return 1\n"
    assert passes(keeps, source) == [True] * 5
    # sorting raises on a dict and a set: what a call raises is for the other tests to judge
    assert passes(sorts, source) == [False, False, True, True, True]
    run = sandbox.run_tests(clears, source, sandbox.Limits())
    assert [r.passed for r in run.results] == [True, True, False, False, True]
    said = [r.message for r in run.failures()]
    assert "f({'a': 1}) changed its argument 1 from {'a': 1} to {}" in said[0]
    # a keyword argument's change is seen across the sandbox's process boundary too
    assert "f(xs={2, 1}) changed its argument xs from {1, 2} to set()" in said[1]
    assert changed_arguments(run) == {"f": {"1", "xs"}}
    assert keep_tests(calls[1:2], "f") is None and keep_tests(calls, "Stack") is None


def test_a_sort_in_place_shows_on_an_input_already_sorted_reversed() -> None:
    source = keep_tests(["median([1, 2, 3])"], "median")
    assert source is not None
    sorts = "def median(xs):\n    xs.sort()\n    return xs[len(xs) // 2]\n"
    assert passes(sorts, source) == [True, False]


def test_a_class_method_that_changes_what_it_is_passed_fails_the_keep_checks() -> None:
    tests = (
        "def test_a():\n    s = Stats(2)\n    assert s.summary([3, 1, 2]) == 2\n"
        "    assert s.summary([5]) == 5\n    assert s.count() == 2\n"
    )
    source = keep_sequence_tests(sequence_calls([tests], "Stats"))
    assert source is not None and "def test_keeps_input_4" not in source  # count() takes nothing
    assert "    s = Stats(2)\n    s.summary([3, 1, 2])\n    _lc_keeps(s.summary, " in source
    sorts = (
        "class Stats:\n    def __init__(self, n):\n        self.seen = 0\n"
        "    def summary(self, xs):\n        self.seen += 1\n        xs.sort()\n"
        "        return xs[len(xs) // 2]\n    def count(self):\n        return self.seen\n"
    )
    run = sandbox.run_tests(sorts, source, sandbox.Limits())
    assert [r.passed for r in run.results] == [False, False, True]  # [5] sorted is [5]
    assert "s.summary([3, 1, 2]) changed its argument 1 from [3, 1, 2] to [1, 2, 3]" in (
        run.results[0].message
    )
    copies = sorts.replace("xs.sort()", "xs = sorted(xs)")
    assert sandbox.run_tests(copies, source, sandbox.Limits()).all_passed


def test_a_candidate_is_mended_by_copying_the_arguments_it_changed_on_entry() -> None:
    code = (
        "from typing import List\n\n\n@staticmethod\ndef top(xs: List[int], k, *, key=None):\n"
        '    """The k largest."""\n    xs.sort(key=key, reverse=True)\n    return xs[:k]\n'
    )
    source = keep_tests(["top([1, 3, 2], 2)", "top([4, 5], k=1)"], "top")
    assert source is not None
    run = sandbox.run_tests(code.replace("@staticmethod\n", ""), source, sandbox.Limits())
    assert not run.all_passed and changed_arguments(run) == {"top": {"1"}}
    mended = mend(code, "top", {"top": {"1"}})
    assert mended == (
        "from typing import List\n\n\nimport copy\n\n\n@staticmethod\n"
        "def top(xs: List[int], k, *, key=None):\n"
        '    """The k largest."""\n'
        "    xs = copy.deepcopy(xs)  # the task says a call must leave its input unchanged\n"
        "    xs.sort(key=key, reverse=True)\n    return xs[:k]\n"
    )
    fixed = mended.replace("@staticmethod\n", "")
    assert sandbox.run_tests(fixed, source, sandbox.Limits()).all_passed
    # several at once, by position or keyword; `import copy` already there is used
    two = "import copy\n\ndef g(a, b, *, c):\n    a.sort()\n    return a\n"
    assert "    a, c = copy.deepcopy((a, c))  # " in (mend(two, "g", {"g": {"1", "c"}}) or "")
    assert (mend(two, "g", {"g": {"1"}}) or "").count("import copy") == 1
    # nothing plain to do: no such function, nothing named, a body on the def line
    assert mend(two, "h", {"h": {"1"}}) is None and mend(two, "g", {"g": {"5"}}) is None
    assert mend("def g(a): return a.sort()\n", "g", {"g": {"1"}}) is None
    # `copy` a name of the code's own: deepcopy by its own name
    assert "    a = deepcopy(a)  #" in (
        mend("from copy import copy\ndef g(a):\n    a.sort()\n", "g", {"g": {"1"}}) or ""
    )
    assert "    copy = deepcopy(copy)  #" in (
        mend("def g(copy):\n    copy.sort()\n", "g", {"g": {"1"}}) or ""
    )


def test_an_operation_in_place_a_generator_and_a_dead_process_are_read_right() -> None:
    source = keep_tests(["f([3, 1, 2])"], "f")
    assert source is not None
    # returns nothing: what an operation in place does, whatever the task's words seemed to say
    assert passes("def f(xs):\n    xs.sort()\n", source) == [True, True]
    # a generator that sorts as it runs: its changes are seen once it has run
    assert passes("def f(xs):\n    xs.sort()\n    yield from xs\n", source) == [False, False]
    # a process that dies is no call that raised: no pass for the checks after it either
    dies = "import os\n\ndef f(xs):\n    os._exit(3)\n"
    assert passes(dies, source) == [False, False]
    assert passes("def f(xs):\n    raise ValueError(xs)\n", source) == [True, True]


def test_a_mend_is_refused_for_a_function_that_calls_itself_and_uses_deepcopy_beside_copy() -> None:
    walks = "def f(grid, r=0):\n    grid[r] = 0\n    return 1 + (f(grid, r + 1) if r + 1 < len(grid) else 0)\n"
    assert mend(walks, "f", {"f": {"1"}}) is None
    own_copy = "def f(xs):\n    copy = xs[:]\n    xs.sort()\n    return copy, xs\n"
    assert mend(own_copy, "f", {"f": {"1"}}) == (
        "from copy import deepcopy\n\n\ndef f(xs):\n"
        "    xs = deepcopy(xs)  # the task says a call must leave its input unchanged\n"
        "    copy = xs[:]\n    xs.sort()\n    return copy, xs\n"
    )
    both = "def deepcopy(x):\n    return x\n\ndef f(xs):\n    copy = 1\n    return xs\n"
    assert mend(both, "f", {"f": {"1"}}) is None


def test_a_class_method_that_changes_its_input_is_mended_in_the_class() -> None:
    tests = "def test_a():\n    s = Stats(2)\n    assert s.summary([3, 1, 2]) == 2\n"
    source = keep_sequence_tests(sequence_calls([tests], "Stats"))
    assert source is not None
    code = (
        "class Stats:\n    def __init__(self, n):\n        self.n = n\n\n"
        "    def summary(self, xs):\n        xs.sort()\n        return xs[len(xs) // 2]\n"
    )
    run = sandbox.run_tests(code, source, sandbox.Limits())
    assert changed_arguments(run) == {"summary": {"1"}}
    mended = mend(code, "Stats", changed_arguments(run))
    assert mended is not None and mended.startswith("import copy\n\n\nclass Stats:")
    assert "    def summary(self, xs):\n        xs = copy.deepcopy(xs)  # the task says" in mended
    assert sandbox.run_tests(mended, source, sandbox.Limits()).all_passed
    # a method that calls itself through self is left as it is
    again = code.replace("return xs[len(xs) // 2]", "return self.summary(xs[1:]) if xs else 0")
    assert mend(again, "Stats", {"summary": {"1"}}) is None
