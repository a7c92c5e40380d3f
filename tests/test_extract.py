"""Cleaning model replies: code from messy text, tests by the ast."""

from __future__ import annotations

from typing import Any

import pytest

from localcode import extract
from localcode.extract import bound_names, extract_code, extract_tests, parse
from localcode.sandbox import Limits, run_tests


def test_code_from_a_fence_with_prose_around_it() -> None:
    reply = "Sure! Here is it:\n```python\ndef f(x):\n    return x + 1\n```\nThis adds one."
    assert extract_code(reply) == "def f(x):\n    return x + 1"


def test_several_blocks_keep_the_solution_and_drop_usage_examples() -> None:
    reply = (
        "```python\nimport math\n```\nthen\n```python\ndef f(x):\n    return math.sqrt(x)\n```\n"
        "Example:\n```python\nprint(f(4))\n```"
    )
    code = extract_code(reply, "f")
    assert "import math" in code and "def f" in code and "print" not in code


def test_no_fence_drops_leading_and_trailing_prose() -> None:
    reply = "Here's the function:\ndef f(x):\n    return x * 2\nIt doubles x."
    assert extract_code(reply) == "def f(x):\n    return x * 2"


def test_unterminated_fence_from_a_cut_reply() -> None:
    reply = "```python\ndef f(x):\n    return x\n"
    assert extract_code(reply).startswith("def f(x):")


def test_other_language_blocks_are_ignored() -> None:
    reply = "```bash\npip install x\n```\n```py\ndef f():\n    return 1\n```"
    assert extract_code(reply) == "def f():\n    return 1"


def test_tests_keep_imports_helpers_and_tests_only() -> None:
    reply = (
        "```python\nimport math\nfrom solution import f\nEPS = 1e-9\n\ndef f(x):\n    return 0\n\n"
        "def approx(a, b):\n    return abs(a - b) < EPS\n\ndef test_case_1():\n    assert f(1) == 2\n\n"
        "def test_case_2():\n    assert approx(f(2), 3)\n\ntest_case_1()\nprint('done')\n\n"
        "if __name__ == '__main__':\n    test_case_2()\n```"
    )
    tests = extract_tests(reply, "f")
    assert extract.test_names(tests) == ["test_case_1", "test_case_2"]
    assert "import math" in tests and "def approx" in tests and "EPS = 1e-09" in tests
    assert "def f(" not in tests and "from solution" not in tests
    assert "print(" not in tests and "__main__" not in tests


def test_tests_that_import_the_function_from_a_placeholder_module_test_the_candidate() -> None:
    # HumanEval/102 with the 1.5B model: every test failed at import, so no candidate could win
    reply = (
        "```python\nfrom your_module import choose_num\nfrom math import floor\n\n"
        "def test_case_1():\n    assert choose_num(12, 15) == 14\n\n"
        "def test_case_2():\n    assert choose_num(floor(13.5), 12) == -1\n```"
    )
    tests = extract_tests(reply, "choose_num")
    assert "your_module" not in tests and "from math import floor" in tests
    # from a real module only the function's own name goes; an alias of it stays usable
    other = "```python\nfrom math import gcd as g, floor\n\ndef test_a():\n    assert g(4, 6)\n```"
    assert extract_tests(other, "gcd").startswith("from math import floor\ng = gcd\n")
    code = (
        "def choose_num(x, y):\n    for n in range(y, x - 1, -1):\n"
        "        if n % 2 == 0:\n            return n\n    return -1\n"
    )
    run = run_tests(code, tests, Limits(timeout=10))
    assert run.error is None and (run.passed, run.total) == (2, 2)


def test_a_class_imported_as_if_it_were_a_module_is_the_candidates() -> None:
    # the 1.5B's tests for a VersionedStore class began `import VersionedStore`: every test
    # failed at import, three rounds long
    reply = (
        "```python\nimport VersionedStore, math\nimport VersionedStore as VS\n\n"
        "def test_case_1():\n    assert VS().get(math.floor(1.5)) is None\n```"
    )
    tests = extract_tests(reply, "VersionedStore")
    assert "import VersionedStore" not in tests and "VS = VersionedStore" in tests
    code = "class VersionedStore:\n    def get(self, key):\n        return None\n"
    run = run_tests(code, tests, Limits(timeout=10))
    assert run.error is None and (run.passed, run.total) == (1, 1)


def test_names_imported_from_a_module_that_does_not_exist_come_from_the_candidate() -> None:
    """`from your_module import f, helper` or `import *` from it: the module is the model's name
    for the code under test, so every name in it is the candidate's."""
    reply = (
        "```python\nfrom your_module import *\nfrom your_module import choose_num as cn, EVEN\n"
        "from .solution import choose_num\nfrom os.path import join\n\n"
        "def test_case_1():\n    assert cn(12, 15) == 14 and choose_num(13, 12) == -1\n\n"
        "def test_case_2():\n    assert EVEN == 2 and join('a', 'b') == 'a/b'\n```"
    )
    tests = extract_tests(reply, "choose_num")
    assert "your_module" not in tests and "solution" not in tests
    assert tests.startswith("cn = choose_num\nfrom os.path import join\n\ndef test_case_1")
    code = (
        "EVEN = 2\n\ndef choose_num(x, y):\n    for n in range(y, x - 1, -1):\n"
        "        if n % EVEN == 0:\n            return n\n    return -1\n"
    )
    run = run_tests(code, tests, Limits(timeout=10))
    assert run.error is None and (run.passed, run.total) == (2, 2)


def test_tests_found_by_parsing_not_by_regex() -> None:
    reply = "```python\ns = '''\ndef test_fake():\n    pass\n'''\ndef test_real():\n    assert True\n```"
    assert extract.test_names(extract_tests(reply)) == ["test_real"]


def test_runaway_test_replies_are_capped() -> None:
    body = "\n".join(f"def test_case_{i}():\n    assert f({i}) == {i}\n" for i in range(52))
    assert len(extract.test_names(extract_tests(body, "f"))) == 12


def test_no_test_functions_gives_empty() -> None:
    assert extract_tests("I can't write tests for this.") == ""
    assert extract_tests("```python\ndef helper():\n    pass\n```") == ""


def run_cases(tests: str, f: object) -> list[bool]:
    space: dict[str, Any] = {"f": f, "__name__": "test_solution"}
    exec(tests, space)
    outcomes = []
    for name in extract.test_names(tests):
        try:
            space[name]()
            outcomes.append(True)
        except (AssertionError, pytest.fail.Exception):  # a failed assert, or no raise
            outcomes.append(False)
    return outcomes


def test_bare_asserts_become_one_test_case_each_with_their_setup() -> None:
    reply = (
        "```python\nimport pytest\nfrom solution import f\n\ndef f(x):\n    return 1\n\n"
        "assert f(1) == 2\nx = f(3)\nassert x == 4\nfor i in range(3):\n    assert f(i) >= 0\n"
        "with pytest.raises(ValueError):\n    f(-1)\nprint(f(9))\n```"
    )
    tests = extract_tests(reply, "f")
    assert extract.test_names(tests) == [f"test_case_{i}" for i in range(1, 5)]
    assert "def f(" not in tests and "print" not in tests  # their own f, a trailing call: gone
    assert "x = f(3)\n    assert x == 4" in tests  # the setup line belongs to its assert

    def checked(x: int) -> int:
        if x < 0:
            raise ValueError(x)
        return x + 1

    assert run_cases(tests, checked) == [True, True, True, True]
    assert run_cases(tests, lambda x: x + 1) == [True, True, True, False]  # -1 raises nothing
    assert run_cases(tests, lambda x: -1) == [False, False, False, False]


def test_a_one_line_raises_case_runs_even_where_the_reply_never_imports_pytest() -> None:
    # a tests reply begins at its first assert (prompts.ASSERTS_START), past any import
    reply = "assert f(1) == 2\nwith pytest.raises(ValueError): f(-1)\nassert f(0) == 1\n```"
    tests = extract_tests(reply, "f")
    assert extract.test_names(tests) == ["test_case_1", "test_case_2", "test_case_3"]
    right = "def f(x):\n    if x < 0:\n        raise ValueError(x)\n    return x + 1\n"
    assert run_tests(right, tests, Limits(timeout=20)).passed == 3
    quiet = run_tests("def f(x):\n    return x + 1\n", tests, Limits(timeout=20))
    assert [r.passed for r in quiet.results] == [True, False, True]
    assert "NameError" not in quiet.results[1].message  # it failed for not raising
    # a reply that imports pytest itself keeps its one import
    own = extract_tests(
        "import pytest\n\ndef test_a():\n    with pytest.raises(KeyError):\n        f(2)\n"
    )
    assert own.count("import pytest") == 1
    future = extract_tests("from __future__ import annotations\n" + reply, "f")
    assert future.startswith("from __future__ import annotations\nimport pytest\n")


def test_a_call_compared_with_an_exception_class_expects_the_raise() -> None:
    # asked to check a raise, the 1.5B wrote `assert chunk(xs, 0) == ValueError`
    reply = (
        "assert g(0) == ValueError\nassert g(1) == 1\nfor n in (-1, -2):\n"
        "    assert KeyError == g(n)\nassert g(2) == Point\n"
    )
    tests = extract_tests(reply, "g")
    assert extract.test_names(tests) == [f"test_case_{i}" for i in range(1, 5)]
    right = (
        "class Point:\n    pass\n\ndef g(x):\n    if x == 0:\n        raise ValueError(x)\n"
        "    if x < 0:\n        raise KeyError(x)\n    return Point if x == 2 else x\n"
    )
    assert run_tests(right, tests, Limits(timeout=20)).passed == 4  # Point is no exception
    # what a builtin makes of a call, and warnings, are compared as written
    kept = "def test_a():\n    assert type(g(1)) == ValueError\n    assert g(3) == UserWarning\n"
    assert "pytest" not in extract_tests(kept, "g")
    classes = "def g(x):\n    return {0: ValueError, 2: None}.get(x, KeyError if x < 0 else x)\n"
    run = run_tests(classes, tests, Limits(timeout=20))
    assert [r.passed for r in run.results] == [False, True, False, False]


UNITTEST_REPLY = """```python
import unittest

class TestLimiter(unittest.TestCase):
    def setUp(self):
        self.rl = Limiter(2)

    def test_allows_up_to_the_limit(self):
        \"\"\"Two calls pass, the third does not.\"\"\"
        self.assertTrue(self.rl.allow())
        self.assertEqual(self.rl.allow(), True, "second")
        self.assertFalse(self.rl.allow())
        self.assertIsNone(self.rl.last)

    def test_bad_limit(self):
        with self.assertRaises(ValueError):
            Limiter(-1)
        self.assertRaises(ValueError, Limiter, 0)
        self.assertAlmostEqual(Limiter(1).rate, 0.1 + 0.2 - 0.2)
        self.assertIn("Limiter", repr(self.rl))

    def test_uses_a_helper(self):
        self.check(3)

    def check(self, n):
        self.assertEqual(Limiter(n).limit, n)

class TestPlain:
    def test_allows_up_to_the_limit(self):
        assert Limiter(1).allow() is True

if __name__ == "__main__":
    unittest.main()
```"""
LIMITER = """class Limiter:
    def __init__(self, limit):
        if limit < 1:
            raise ValueError(limit)
        self.limit, self.used, self.last, self.rate = limit, 0, None, 0.1
    def allow(self):
        self.used += 1
        return self.used <= self.limit
    def __repr__(self):
        return f"Limiter({self.limit})"
"""


def test_a_unittest_class_of_tests_becomes_plain_test_functions() -> None:
    # asked for a class's tests, the 1.5B often writes a unittest class: read as it was, that
    # reply held no test, and the model was asked again (a second reply, at 0.7)
    tests = extract_tests(UNITTEST_REPLY, "Limiter")
    # setUp's lines open each test, `self.rl` is a local, each assertion the assert it checks;
    # a method that calls a helper of its class is left out; names stay apart
    assert extract.test_names(tests) == [
        "test_allows_up_to_the_limit",
        "test_bad_limit",
        "test_allows_up_to_the_limit_2",
    ]
    assert "rl = Limiter(2)\n    assert rl.allow()\n    assert rl.allow() == True\n" in tests
    assert "with pytest.raises(ValueError):\n        Limiter(0)" in tests and "self" not in tests
    assert run_tests(LIMITER, tests, Limits(timeout=20)).passed == 3
    wrong = LIMITER.replace("<= self.limit", "< self.limit").replace("limit < 1", "limit < 0")
    run = run_tests(wrong, tests, Limits(timeout=20))
    assert [r.passed for r in run.results] == [False, False, False]
    # a reply being written counts them as cases once the class is finished
    written = UNITTEST_REPLY[: UNITTEST_REPLY.index("class TestPlain")]
    assert not extract.cases_written(written, "Limiter", 2)
    assert extract.cases_written(written + "class TestPlain:\n", "Limiter", 2)


def test_a_setup_line_goes_with_every_case_that_reads_what_it_binds() -> None:
    reply = (
        "xs = sorted([3, 1, 2])\nassert f(xs) == 1\nys = list(xs) + [9]\n"
        "assert f(ys) == 2\nassert f(xs, 2) == 3\nassert f([]) == 0\n"
    )
    tests = extract_tests(reply, "f")
    bodies = tests.split("def test_case_")[1:]
    assert [b.count("xs = sorted") for b in bodies] == [1, 1, 1, 0]
    assert [b.count("ys = list") for b in bodies] == [0, 1, 0, 0]
    space: dict[str, Any] = {"f": lambda xs, k=0: len(xs) - 2 if k == 0 else 3}
    exec(tests, space)
    for name in extract.test_names(tests)[:3]:
        space[name]()  # no NameError: each case has what it reads


def test_bare_assert_cases_run_as_the_script_meant() -> None:
    right = lambda x: x + 1  # noqa: E731
    scripts = {
        # a constant reassigned between cases: each case sees its own value
        "x = 1\nassert f(x) == 2\nx = 5\nassert f(x) == 6": [True, True],
        # a setup result unpacked, and a walrus read by a later case
        "res = f(5)\nq = res\nassert q == 6\nassert (y := f(2)) == 3\nassert y > 0": [True] * 3,
        # changed in place before a case that reads it; an augmented assignment
        "xs = [1]\nxs.append(9)\nassert f(xs[-1]) == 10\nn = 1\nn += 1\nassert f(n) == 3": [
            True,
            True,
        ],
    }
    for script, expected in scripts.items():
        assert run_cases(extract_tests(script, "f"), right) == expected, script


@pytest.mark.parametrize(
    "script",
    [
        'if __name__ == "__main__":\n    assert f(1) == 2\n    assert f(2) == 3',
        "try:\n    assert f(1) == 2\n    assert f(2) == 3\nexcept AssertionError:\n    print('no')",
        "try:\n    assert f(1) == 2\nexcept Exception as e:\n    print(e)\nassert f(2) == 3",
    ],
    ids=["main-block", "try-assertion-error", "try-exception"],
)
def test_asserts_a_script_hides_from_failing_still_fail_a_wrong_program(script: str) -> None:
    tests = extract_tests(script, "f")
    assert run_cases(tests, lambda x: x + 1) == [True, True]
    assert run_cases(tests, lambda x: -999) == [False, False]


def test_a_case_that_cannot_run_as_a_test_is_dropped_and_nothing_raises() -> None:
    for bad in ["yield 1\nassert f(1) == 2", "return\nassert f(1) == 2", "assert await f(1) == 2"]:
        tests = extract_tests(bad + "\nassert f(2) == 3", "f")
        assert run_cases(tests, lambda x: x + 1) == [True], bad  # the good case alone
    deep = "assert f(1) == " + "1 + " * 2000 + "1"
    assert extract_tests(deep, "f") == ""


def test_a_reply_cut_at_its_token_limit_keeps_its_finished_cases() -> None:
    cut = "```python\nassert f(1) == 2\nassert f(2) == 3\nassert f([1, 2, 3, 4, 5, 6, 7"
    assert run_cases(extract_tests(cut, "f"), lambda x: x + 1) == [True, True]
    functions = "```python\ndef test_a():\n    assert f(1) == 2\n\ndef test_b():\n    assert f(["
    assert extract.test_names(extract_tests(functions, "f")) == ["test_a"]


def test_a_reply_being_written_has_its_cases_when_the_last_one_is_finished() -> None:
    lines = ["```python", "assert f(1) == 2", "assert f(2) == 3", "assert f(3) == 4"]
    reply = "\n".join(lines) + "\n"
    assert extract.cases_written(reply, "f", 3)
    assert not extract.cases_written(reply, "f", 4)
    assert not extract.cases_written(reply.rstrip("\n"), "f", 3)  # the third line may go on
    # a definition of the function is no case, and a block's body may still grow
    defined = "```python\ndef f(x):\n    return x + 1\n\nassert f(1) == 2\n"
    assert extract.cases_written(defined, "f", 1) and not extract.cases_written(defined, "f", 2)
    block = "```python\nassert f(1) == 2\nwith pytest.raises(ValueError):\n    f(-1)\n"
    assert not extract.cases_written(block, "f", 2)
    assert extract.cases_written(block + "assert f(0) == 1\n", "f", 3)
    assert not extract.cases_written("```python\n# five cases\n", "f", 1)


def test_a_reply_going_round_in_a_loop_is_seen_once_its_cycle_came_round_eight_times() -> None:
    head = "```python\ndef test_case_1():\n    s = MinStack()\n    assert s.top() == 1\n\n"
    head += "def test_case_5():\n    s = MinStack()\n"
    pushes = "".join(f"    s.push({i % 3 + 1})\n" for i in range(extract.LOOP_LINES))
    assert extract.looping(head + pushes)  # push(1), push(2), push(3), over and over
    short = head + pushes[: pushes.rfind("    s.push")]
    assert not extract.looping(short)  # one line short
    assert not extract.looping(short + "    s.push(")  # a line being written is not read
    count = "".join(f"    s.push({i})\n" for i in range(extract.LOOP_LINES))
    assert not extract.looping(head + count)  # long, but no line repeats
    wide = "".join(f"    s.push({i % 5})\n" for i in range(extract.LOOP_LINES))
    assert not extract.looping(head + wide)  # a cycle of five lines is longer than LOOP_PERIOD
    assert not extract.looping("")


def test_a_parametrize_list_that_runs_on_is_seen_once_32_rows_of_one_shape_are_written() -> None:
    # the 1.5B, asked for an LRU cache's tests: (2, 'a', 1, 1), (2, 'b', 2, 2), ... to its limit
    head = '```python\nimport pytest\n\n@pytest.mark.parametrize("cap, key, value", [\n'
    rows = "".join(
        f"    ({i % 3}, '{chr(97 + i % 26)}', {i}, {i % 2 == 0})," + "\n" for i in range(40)
    )
    lines = rows.splitlines(keepends=True)
    assert not extract.looping(head + "".join(lines[: extract.LOOP_LINES - 1]))
    assert extract.looping(head + "".join(lines[: extract.LOOP_LINES]))
    # the same rows as statements, not inside an open bracket, are no loop; nor rows of
    # different shapes, nor a list closed among them
    assert not extract.looping("x = 1\n" + rows.replace(",\n", "\n"))
    mixed = "".join(f"    ({i}, {'[1]' if i % 2 else 2}),\n" for i in range(40))
    assert not extract.looping(head + mixed)
    closed = "".join(lines[:20]) + "])\n" + "".join(lines[20:])
    assert not extract.looping(head + closed)
    # brackets inside strings neither open nor close one
    assert not extract.looping("x = '(['\n" + rows)


def test_a_cut_reply_of_test_functions_loses_the_one_it_was_writing() -> None:
    cut = "```python\nimport pytest\n\ndef test_case_1():\n    assert f(1) == 2\n\n"
    cut += "async def test_case_2():\n    assert f(2) == 3\n\ndef test_case_3():\n    x = 1\n"
    kept = extract.without_unfinished_test(cut)
    assert extract.test_names(extract_tests(kept, "f")) == ["test_case_1", "test_case_2"]
    assert extract.without_unfinished_test("assert f(1) == 2\n") == "assert f(1) == 2\n"
    # a line at the margin after the last test: that one was finished, and it stays
    done = (
        "```python\ndef test_a():\n    assert f(1) == 2\n\ndef test_b():\n    assert f(2) == 3\n\n"
    )
    for tail in (
        "```\n\nThese tests check",
        "# Test that",
        "def te",
        "if __name__ == '__main__':\n",
    ):
        kept = extract.without_unfinished_test(done + tail)
        assert extract.test_names(extract_tests(kept, "f")) == ["test_a", "test_b"], tail


def test_test_functions_win_over_bare_asserts_and_bare_asserts_are_capped() -> None:
    both = "```python\ndef test_a():\n    assert f(1) == 1\n\nassert f(2) == 2\n```"
    assert extract.test_names(extract_tests(both, "f")) == ["test_a"]
    many = "\n".join(f"assert f({i}) == {i}" for i in range(40))
    assert len(extract.test_names(extract_tests(many, "f"))) == 12
    assert extract_tests("```python\nprint(f(1))\nx = f(2)\n```", "f") == ""


def test_tests_split_over_blocks_are_joined() -> None:
    reply = "```python\nimport math\n```\n```python\ndef test_a():\n    assert math.pi > 3\n```"
    tests = extract_tests(reply)
    assert "import math" in tests and extract.test_names(tests) == ["test_a"]


def test_untrusted_text_never_crashes_the_parser() -> None:
    for nasty in [
        "-" * 300_000 + "1",
        "def f():\n    return '\x00'\0",
        "(" * 10_000 + ")" * 10_000,
    ]:
        assert parse(nasty) is None
        assert extract.test_names(nasty) == [] and bound_names(nasty) == set()
        assert extract_tests(nasty) == ""
        assert isinstance(extract_code(nasty), str)


def test_a_signature_task_lends_its_imports_and_helpers_to_the_code() -> None:
    from localcode.task import parse_task, with_preamble

    task = parse_task(
        "from typing import List\n\ndef helper(x: int) -> int:\n    return x * 2\n\n"
        'def f(xs: List[int]) -> int:\n    """Sum of doubled xs."""\n'
    )
    assert task.entry_point == "f" and task.is_signature
    code = with_preamble(task, "def f(xs):\n    return sum(helper(x) for x in xs)")
    ns: dict[str, object] = {}
    exec(code, ns)
    assert ns["f"]([1, 2]) == 6  # type: ignore[operator]
    own = "from typing import List\ndef helper(x):\n    return x\ndef f(xs):\n    return 0"
    assert with_preamble(task, own) == own  # nothing the code already has is added
    sentence = parse_task("Write `f(x)`.")
    assert with_preamble(sentence, "def f(x): pass") == "def f(x): pass"
