"""The task's own examples as trusted tests: what is read, what is refused, how they rank."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from test_bench_humaneval import canonical

from localcode import AgentConfig, prompts, solve
from localcode.backends.mock import CORRECT, DEMO_TESTS, NO_DEDUPE, MockBackend
from localcode.bench.problems import load_problems
from localcode.examples import example_tests
from localcode.extract import test_names as names_in
from localcode.sandbox import Limits, run_tests
from localcode.task import (
    as_specification,
    given_code,
    keeps_inputs,
    parse_task,
    with_preamble,
)

SIGNATURE = '''def shout(word: str, times: int = 1) -> str:
    """Upper-case `word`, repeated.

    >>> shout('hi')
    'HI'
    >>> shout('ab', times=2)
    'ABAB'
    >>> shout('x') == 'X'
    True
    >>> shout('')
    ''
    >>> print(shout('a'))
    A
    """
'''


def examples_of(text: str, entry_point: str | None = None) -> list[str]:
    """The example tests' assert lines."""
    tests = example_tests(parse_task(text, entry_point))
    return [ln.strip() for ln in (tests or "").splitlines() if ln.strip().startswith("assert")]


def test_doctest_examples_become_asserts() -> None:
    assert examples_of(SIGNATURE) == [
        "assert shout('hi') == 'HI'",
        "assert shout('ab', times=2) == 'ABAB'",
        "assert shout('x') == 'X'",
        "assert shout('') == ''",
    ]  # the print() example shows output, not a value: left out


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("    f(3) ➞ 9", "assert f(3) == 9"),
        ("    f([1, 2]) ==> [2, 1]", "assert f([1, 2]) == [2, 1]"),
        ("    f('ab') should return 'ba'.", "assert f('ab') == 'ba'"),
        ("    f(2, 4) => true", "assert f(2, 4) == True"),
        ("    f(0) == None  # nothing", "assert f(0) == None"),
        ("    f(1.5) -> 3.0", "assert f(1.5) == pytest.approx(3.0)"),
        ("    f(2) ➞ 1.41", "assert f(2) == pytest.approx(1.41, abs=0.005)"),  # shown rounded
        ("    f('a->b') -> 'b'", "assert f('a->b') == 'b'"),
        ("    f(y=2, x=1) == (1, 2)", "assert f(y=2, x=1) == (1, 2)"),
        ("    f(12, 15) = 14", "assert f(12, 15) == 14"),
        ("    f('a.txt') # => 'Yes' (it has a name)", "assert f('a.txt') == 'Yes'"),
        ("    f(15)   # returns 'db1111db'", "assert f(15) == 'db1111db'"),
    ],
)
def test_one_line_examples(line: str, expected: str) -> None:
    task = f'def f(x, y=0):\n    """Does f.\n\n    Examples:\n{line}\n    """\n'
    assert examples_of(task) == [expected]


@pytest.mark.parametrize(
    "line",
    [
        "    f(n) = 1 + n / 2, if n is even.",  # a definition, not a call's result
        "    f('5 apples', 19) -> 19 - 5 - 6 = 8",  # the result is 8, not 19
        "    f(a) => False",  # a name, not a literal argument
        "    f(x=[1, 2]) is sorted",  # prose
        "    f(__import__('os').getpid()) == 1",  # code is never run to read an example
        "    'aaa'.f('a') == 3",  # a method of that name, not the function
        "    f(n=3) -> 6",  # no parameter n
        "    f(1, 2, 3) -> 6",  # one argument too many
        "    f() -> 6",  # x is required
        "    f(2) -> [[0.5, 1.5]]",  # nested floats: no approximate comparison for those
        "    f(1) -> 1e999",  # not a finite number
        "    f(1) -> [0, 1, ...]",  # elided
        "    f(1) -> 1, 2, or 3",  # prose, not a tuple
        "    currently f(2) returns 5, but it should return 4",  # what is wrong, not wanted
        "    f(0x" + "f" * 4000 + ") -> 1",  # an int too long to print
        "    f(1) -> " + "7" * 400,  # its first 300 digits are not the result
        "    Input: 2\n    5 7\n    Output: 12",  # an input that goes on past its first line
    ],
)
def test_lines_that_are_not_clear_examples_are_left_out(line: str) -> None:
    task = f'def f(x, y=0):\n    """Does f.\n\n{line}\n    """\n'
    assert examples_of(task) == []


def test_a_task_that_defines_with_equals_gives_no_equals_examples() -> None:
    # HumanEval/130's way: `=` states the recurrence, and tri(1) = 3 is a term, not what
    # tri(1) returns; an example with another separator still counts
    task = (
        'def tri(n):\n    """The first n + 1 terms.\n\n    tri(1) = 3\n'
        "    tri(n) = tri(n - 1) + 2, if n is odd.\n    tri(2) = 1 + (2 / 2) = 2\n"
        '    tri(3) -> [1, 3, 2, 8]\n    """\n'
    )
    assert examples_of(task) == ["assert tri(3) == [1, 3, 2, 8]"]
    for definition in ("    tri(n) = tri(n - 1) + 2", "    tri(2) = 1 + (2 / 2) = 2"):
        alone = task.replace("    tri(n) = tri(n - 1) + 2, if n is odd.\n", "").replace(
            "    tri(2) = 1 + (2 / 2) = 2\n", definition + "\n"
        )
        assert examples_of(alone) == ["assert tri(3) == [1, 3, 2, 8]"], definition
    in_words = "    tri(1) = 3, and tri(n) is 1 + n / 2 for even n.\n    tri(3) -> [1, 3, 2, 8]\n"
    assert examples_of(f'def tri(n):\n    """Terms.\n\n{in_words}    """\n') == [
        "assert tri(3) == [1, 3, 2, 8]"  # 3 is not a list: that `=` gives a term, not a result
    ]
    plain = task.replace("    tri(n) = tri(n - 1) + 2, if n is odd.\n", "").replace(
        "    tri(2) = 1 + (2 / 2) = 2\n", ""
    )
    assert examples_of(plain) == ["assert tri(3) == [1, 3, 2, 8]"]  # the types still disagree
    alone = plain.replace("    tri(3) -> [1, 3, 2, 8]\n", "    tri(3) = 8\n")
    assert examples_of(alone) == ["assert tri(1) == 3", "assert tri(3) == 8"]


def test_input_and_output_lines_are_read_by_the_signatures_parameter_names() -> None:
    task = (
        'def f(grid, k=1):\n    """Does f.\n\n    Example 1:\n        Input: k = 2, grid = [1, 2]\n'
        "        Output: [2, 4]\n        Explanation: each doubled\n\n    Example 2:\n"
        "        Input: [3]\n        Output: 3  # k is 1\n\n"
        "    For grid = [5], k = 0 the output should be [].\n"
        "    Input: size = 3\n    Output: 9\n"  # no parameter `size`
        "    Input: grid = [7]\n    Input: grid = [8]\n    Output: 8\n"  # 8's, not 7's
        "    Input:\n        grid : [[0, 1]]\n    Output: 1\n"  # not one line of Python
        '    """\n'
    )
    assert examples_of(task) == [
        "assert f([1, 2], 2) == [2, 4]",  # positional: a candidate may rename its parameters
        "assert f([3]) == 3",
        "assert f([5], 0) == []",
        "assert f([8]) == 8",
    ]
    sentence = "Write f(grid, k).\nInput: grid = [1], k = 2\nOutput: [2]\n"
    assert example_tests(parse_task(sentence)) is None  # no signature: no names to go by


def test_a_sequence_of_floats_must_also_be_of_the_type_shown() -> None:
    task = 'def f(x):\n    """Pair.\n\n    >>> f(1.0)\n    (1.0, 2.5)\n    """\n'
    tests = example_tests(parse_task(task))
    assert tests is not None
    as_tuple = run_tests("def f(x):\n    return (x, 2.5000001)\n", tests, Limits(timeout=10))
    as_list = run_tests("def f(x):\n    return [x, 2.5]\n", tests, Limits(timeout=10))
    assert as_tuple.all_passed and not as_list.all_passed


def test_doctest_directives_and_conflicting_results_are_left_out() -> None:
    task = (
        'def f(x):\n    """Does f.\n\n    >>> f(10)  # doctest: +ELLIPSIS\n    [0, 1]\n'
        '    >>> f(2)\n    4\n\n    f(2) -> 5\n    >>> f(3)\n    9\n    """\n'
    )
    assert examples_of(task) == ["assert f(3) == 9"]


def test_tasks_whose_examples_do_not_show_a_return_value_give_none() -> None:
    prints = 'def f(x) -> None:\n    """Prints x.\n\n    >>> f(3)\n    3\n    """\n'
    any_order = 'def f(x):\n    """Pairs, in any order.\n\n    f(2) -> [1, 2]\n    """\n'
    method = (
        'class S:\n    def f(self, x):\n        """Doubles.\n\n        f(2) -> 4\n        """\n'
    )
    for task in (prints, any_order, method):
        assert example_tests(parse_task(task)) is None


@pytest.mark.parametrize(
    "remark",
    [
        "If there are multiple answers, return any of them.",
        "The order of the output does not matter.",
        "Return the pairs in any order.",
        "Rotate x in-place.",  # the output shown is x afterwards; f returns None
    ],
)
def test_a_task_that_takes_any_of_several_answers_gives_no_examples(remark: str) -> None:
    task = f'def f(x):\n    """Pairs. {remark}\n\n    Input: x = 2\n    Output: [1, 2]\n    """\n'
    assert example_tests(parse_task(task)) is None
    assert examples_of(task.replace(remark, "")) == ["assert f(2) == [1, 2]"]


def test_a_pathological_line_is_read_in_linear_time() -> None:
    # every `f(` tried against every later `)` took hours on lines like these; a subprocess
    # bounds the wait should that come back
    script = (
        "from localcode.examples import example_tests\n"
        "from localcode.task import parse_task\n"
        "spaced = '\\n    '.join(['For' + ' ' * 990 + 'x'] * 100)\n"
        "for line in ['f(a)' * 25_000, 'f(1) -> [' + '1,' * 50_000, 'f(1) -> ' + 'x' * 100_000,\n"
        "             spaced]:\n"
        '    task = \'def f(x):\\n    """Does f.\\n\\n    \' + line + \'\\n    """\\n\'\n'
        "    assert example_tests(parse_task(task)) is None\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr


def test_a_sentence_task_with_an_example_and_one_without() -> None:
    shown = "Write `add(a, b)` returning the sum, e.g. add(2, 3) == 5."
    assert examples_of(shown) == ["assert add(2, 3) == 5"]
    assert example_tests(parse_task("Write `add(a, b)` returning the sum.")) is None
    assert example_tests(parse_task("Reverse a string.")) is None  # no entry point


def test_humaneval_reference_solutions_pass_their_prompts_examples() -> None:
    # Real, third-party data: every example read from the 164 prompts holds for the reference
    # solution, except on the three prompts whose docstrings are wrong about it.
    wrong_docstrings = {"HumanEval/47", "HumanEval/116", "HumanEval/148"}
    read, failing = 0, set()
    reference = canonical()
    for p in load_problems(None):
        tests = example_tests(parse_task(p.prompt, p.entry_point))
        if tests is None:
            continue
        read += len(names_in(tests))
        run = run_tests(reference[p.task_id], tests, Limits(timeout=10))
        if not run.all_passed:
            failing.add(p.task_id)
    assert read >= 425
    assert failing == wrong_docstrings


TASK = '''def second_largest_unique(nums):
    """The second largest distinct value in nums, or None.

    >>> second_largest_unique([4, 4, 3])
    3
    """
'''


def test_a_candidate_that_gets_the_tasks_example_wrong_never_wins() -> None:
    # the model's own tests are all met by NO_DEDUPE (none has a duplicate) and one of them is
    # wrong for CORRECT; the task's example settles it
    wrong_tests = DEMO_TESTS.replace("== 10", "== 20").replace("[10, 20]", "[20, 10, 10]")
    backend = MockBackend(
        "demo", replies=[wrong_tests, f"```python\n{NO_DEDUPE}```", f"```python\n{CORRECT}```"]
    )
    result = solve(TASK, AgentConfig(backend="mock", n_candidates=2, max_iters=1), backend=backend)
    no_dedupe, correct = result.rounds[0].candidates
    assert no_dedupe.example_run is not None and not no_dedupe.example_run.all_passed
    assert correct.example_run is not None and correct.example_run.all_passed
    assert no_dedupe.user_run is None
    assert result.final_code.strip() == CORRECT.strip()
    assert (
        result.examples is not None and "second_largest_unique([4, 4, 3]) == 3" in result.examples
    )
    assert result.user_tests is None  # the user gave no tests of their own


def test_no_examples_turns_them_off() -> None:
    backend = MockBackend("demo")
    result = solve(TASK, AgentConfig(backend="mock", examples=False), backend=backend)
    assert result.examples is None
    assert all(c.example_run is None for r in result.rounds for c in r.candidates)


def test_the_users_own_tests_outrank_the_tasks_examples() -> None:
    # The user's test wants duplicates counted ([4, 4, 3] -> 4), against the task's example:
    # NO_DEDUPE passes the user's test and fails the example, CORRECT the other way round.
    user_tests = "def test_duplicates_count():\n    assert second_largest_unique([4, 4, 3]) == 4\n"
    replies = [DEMO_TESTS, f"```python\n{CORRECT}```", f"```python\n{NO_DEDUPE}```"]
    backend = MockBackend("demo", replies=replies)
    config = AgentConfig(
        backend="mock", n_candidates=2, max_iters=2, later_rounds="fix", greedy=False, judge=False
    )  # the two candidates in the order queued: the greedy reply is requested beside the others
    result = solve(TASK, config, backend=backend, tests=user_tests)
    correct, no_dedupe = result.rounds[0].candidates
    assert correct.example_run is not None and correct.example_run.all_passed
    assert no_dedupe.user_run is not None and no_dedupe.user_run.all_passed
    assert result.best is not None and result.best.code.strip() == NO_DEDUPE.strip()
    # the fix prompt carries the failed example as the user's, before any generated test
    fix = next(c for c in backend.history if prompts.kind_of(c.messages) == "fix")
    fix_text = fix.messages[-1]["content"]
    assert "task example test_example_1 failed" in fix_text
    assert fix_text.index("test_example_1") < fix_text.index("test_case_")


def test_progress_shows_the_examples_and_each_candidates_result_on_them(tmp_path: Path) -> None:
    task = tmp_path / "task.py"
    task.write_text(TASK)
    cmd = [sys.executable, "-m", "localcode", "--backend", "mock", "--task-file", str(task)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "The task shows 1 example: trusted like your own tests" in proc.stderr
    # the demo's candidates: NO_DEDUPE gets [4, 4, 3] wrong, the two correct ones right
    assert "candidate 0 (greedy): 4/5 passing, examples 0/1" in proc.stderr
    assert "candidate 1 (brute-force reference): 5/5 passing, examples 1/1" in proc.stderr
    off = subprocess.run([*cmd, "--no-examples"], capture_output=True, text=True, timeout=120)
    assert "example" not in off.stderr


def test_when_the_model_writes_no_tests_the_examples_serve() -> None:
    refusal = "Sorry, I can only write code."
    replies = [refusal, refusal, f"```python\n{NO_DEDUPE}```", f"```python\n{CORRECT}```"]
    backend = MockBackend("demo", replies=replies)
    result = solve(TASK, AgentConfig(backend="mock", n_candidates=2, max_iters=1), backend=backend)
    assert result.tests == result.examples
    assert "the model wrote no tests; the task's examples served as the tests" in result.notes
    assert result.final_code.strip() == CORRECT.strip() and result.passed


def test_a_result_ends_where_the_next_example_on_its_line_begins() -> None:
    sentence = parse_task(
        'Split a string into runs of equal characters, for example runs("aabccc") -> '
        '["aa", "b", "ccc"] and runs("") -> [].'
    )
    assert examples_of(sentence.text) == [
        "assert runs('aabccc') == ['aa', 'b', 'ccc']",
        "assert runs('') == []",
    ]
    assert examples_of("Write f(x).\nf(2) -> 4, then f(3) -> 9") == [
        "assert f(2) == 4",
        "assert f(3) == 9",
    ]
    assert examples_of("Write f(s).\nf('f(1)') -> 'x' and f('') -> ''") == [
        "assert f('f(1)') == 'x'",  # a call inside a string is no next example
        "assert f('') == ''",
    ]
    # "or" shows no one result; the next example on the line still counts
    assert examples_of("Write f(x).\nf(1) -> 3 or 4 and f(2) -> 5") == ["assert f(2) == 5"]
    # a result followed by prose is no clear result: these show none
    for prose in (
        "Write to_binary(n).\nto_binary(10) returns 1010 in binary.",
        "Write min_max(xs).\nmin_max([3, 1, 2]) returns 1 and 3.",
        "Write fact(n).\nfact(4) returns 4 factorial.",
        "Write f(x).\nf([]) -> [] when the list is empty",
    ):
        assert examples_of(prose) == [], prose


def test_a_sentence_task_names_its_function_in_its_example_lines() -> None:
    task = parse_task(
        "Write a function to find squares of a list.\nassert squares([1, 2]) == [1, 4]"
    )
    assert task.entry_point == "squares"
    tests = example_tests(task)
    assert tests is not None and "squares([1, 2]) == [1, 4]" in tests
    wrapped = parse_task("Find long words.\nassert set(long_words('a bcde')) == set(['bcde'])")
    assert wrapped.entry_point == "long_words"  # set() is a builtin, not the function asked for
    assert parse_task("Square it.\nsquare(3) -> 9").entry_point == "square"
    # an example inside a sentence names the function too, and becomes a trusted test
    for inline in (
        "Write a function to square a number. assert sq(3) == 9",
        "Write a function that squares a number, e.g. sq(3) -> 9.",
        "Square each item: sq([1, (2)]) should return [1, 4].",
    ):
        task = parse_task(inline)
        assert task.entry_point == "sq", inline
        assert "def test_example_1():\n    assert sq(" in (example_tests(task) or ""), inline
    assert parse_task("Add them, as in print(add(1, 2)) -> 3").entry_point is None
    # prose with brackets is no example: a call inside a sentence is written as code is
    # (no space before its bracket) with literal arguments
    for prose in (
        "Sum a list (so [1, 2] gives 3).",
        "The input n (a positive integer) should be at most 1000.",
        "The result (a new list) should be returned.",
        "Return the square of a number (for example (3) -> 9).",
        "The helper step (see below) returns an int.",
        "The code must assert validity (of the input) first.",
        "Return f(x) -> the square of x.",
    ):
        assert parse_task(prose).entry_point is None, prose
    assert parse_task("Return the sum.\nassert len(x) == 3").entry_point is None
    assert parse_task("Write a function that adds numbers.").entry_point is None
    assert parse_task("Write a class `Stack` with push and pop.").entry_point == "Stack"
    assert parse_task("Implement a `MinStack` class.").entry_point == "MinStack"
    # asked for as users ask: "I need a small class `Stats`. The method `summary(values)` ..."
    need = "I need a small class `Stats`. Its method `summary(values)` returns the median."
    assert parse_task(need).entry_point == "Stats"
    assert parse_task("We want a `Ledger` class with `add(x)`.").entry_point == "Ledger"
    # the name the task gives first: the class, not its methods; the function, not a class it uses
    methods = "Write a class `LRUCache` with `get(key)` and `put(key, value)`."
    assert parse_task(methods).entry_point == "LRUCache"
    uses = "Write `area(shape)` for the class `Circle` from before."
    assert parse_task(uses).entry_point == "area"
    given = "Given a `Node` class for a linked list, write `reverse(head)`."
    assert parse_task(given).entry_point == "reverse"  # a class the task uses, not asks for
    assert parse_task("Write a class for word counts: `count(text)`.").entry_point == "count"


def test_a_class_given_as_code_names_the_class_not_its_last_method() -> None:
    skeleton = (
        "class Store:\n"
        '    """A key-value store."""\n\n'
        "    def set(self, key, value) -> int:\n"
        '        """Store value; return its version."""\n\n'
        "    def get(self, key, version=None):\n"
        '        """The value as of `version`; `get(key)` is the current one."""\n'
    )
    task = parse_task(skeleton)
    assert (task.entry_point, task.is_signature, task.is_class) == ("Store", True, True)
    # the same inside prose: the class, though a docstring shows `get(key)` in backticks
    fenced = parse_task(f"Implement this class:\n\n```python\n{skeleton}```\n")
    assert (fenced.entry_point, fenced.code) == ("Store", skeleton.strip())
    node = "class Node:\n    def __init__(self, val):\n        self.val = val\n"
    # a function after a class it uses; a function asked for in prose around the class's code
    after = node + '\n\ndef reverse(head: Node) -> Node:\n    """Reverse the list."""\n'
    assert parse_task(after).entry_point == "reverse"
    given = f"Given this class:\n```python\n{node}```\nwrite `reverse(head)` to reverse a list."
    assert parse_task(given).entry_point == "reverse"
    # a helper nested in a function is not the function
    nested = 'def outer(xs):\n    """Sum."""\n    def inner(x):\n        return x\n'
    assert parse_task(nested).entry_point == "outer"


def test_a_signature_fenced_in_prose_is_read_as_the_signature() -> None:
    code = (
        "from typing import List\n\n"
        "def split_amount(total: int, n: int) -> List[int]:\n"
        '    """Split total into n parts that differ by at most 1, larger parts first.\n\n'
        "    >>> split_amount(10, 3)\n"
        "    [4, 3, 3]\n"
        '    """\n'
    )
    task = parse_task(f"Implement this function:\n\n```python\n{code}```\n\nKeep it short.\n")
    assert (task.entry_point, task.is_signature, task.code) == ("split_amount", True, code.strip())
    # its example: before, the docstring's closing quotes and the fence were read as lines of
    # the result, and the task had none
    tests = example_tests(task)
    assert tests is not None and "assert split_amount(10, 3) == [4, 3, 3]" in tests
    # and what it imports goes in front of code that lacks it, as for a signature given bare
    assert with_preamble(task, "def split_amount(t, n):\n    return []\n").startswith(
        "from typing import List"
    )
    # a fence that does not define the function asked for is no signature
    given = "Given\n```python\nclass Node:\n    pass\n```\nwrite `size(node)`."
    assert (parse_task(given).entry_point, parse_task(given).is_signature) == ("size", False)


def test_a_doctest_result_ends_at_the_docstring_or_fence_that_follows_it() -> None:
    # prose around code that does not parse: the examples are read from the text itself
    text = "Write f:\n```\ndef f(x) -> int\n    '''\n    >>> f(2)\n    4\n    '''\n```\n"
    task = parse_task(text)
    assert task.entry_point == "f" and not task.is_signature
    tests = example_tests(task)
    assert tests is not None and "assert f(2) == 4" in tests


def test_a_task_that_writes_its_function_out_gives_that_code_and_a_signature_to_show() -> None:
    prose = (
        "This should return the second largest distinct value, or None. It returns 5 for\n"
        "[5, 5, 3], not 3. Fix it.\n\n"
        "def second_largest(xs):\n"
        '    """The second largest distinct value."""\n'
        "    xs = sorted(xs)\n"
        "    return xs[-2] if len(xs) > 1 else None\n\n"
        "Thanks!\n"
    )
    task = parse_task(prose)
    code = given_code(task)
    assert code.startswith("def second_largest(xs):") and code.endswith("else None")
    shown = as_specification(task)
    # the body is left out, the docstring and the words around it are not
    assert "sorted(xs)" not in shown and '"""The second largest distinct value."""' in shown
    assert shown.startswith("This should return") and shown.rstrip().endswith("Thanks!")
    assert parse_task(shown, task.entry_point).entry_point == "second_largest"
    # fenced and indented, with an import before it: the fence's code, its body left out
    fenced = (
        "Fix it:\n  ```python\n  import math\n\n  def f(x):\n      return math.floor(x)\n  ```\n"
    )
    task = parse_task(fenced)
    assert given_code(task) == "import math\n\ndef f(x):\n    return math.floor(x)"
    assert "  def f(x):\n      ...\n" in as_specification(task)
    # pasted without a fence: the imports, helpers and constants just above it come with it,
    # the sentence before them and the one after it do not
    pasted = (
        "Wrong for negatives, please fix:\n\nimport math\nLIMIT = 10\n\n"
        "def helper(x):\n    return abs(x)\n\n"
        'def f(x):\n    """Floor of |x|, at most LIMIT."""\n    return min(LIMIT, helper(x))\n'
        "Thanks.\n"
    )
    task = parse_task(pasted)
    assert given_code(task).startswith("import math\nLIMIT = 10\n\ndef helper(x):")
    assert given_code(task).endswith("return min(LIMIT, helper(x))")
    shown = as_specification(task)
    assert shown.startswith("Wrong for negatives") and shown.endswith("    ...\nThanks.")
    assert "return abs(x)" in shown and "min(LIMIT" not in shown  # only f's body goes
    # a form feed inside the body is no new line to ast: the whole body still goes
    feed = parse_task("Fix:\r\n\r\ndef f(x):\r\n    y = 1\x0c\r\n    return x + y\r\nThanks")
    assert given_code(feed).endswith("return x + y")
    assert as_specification(feed) == "Fix:\r\n\r\ndef f(x):\n    ...\r\nThanks"
    # a class whose every method is written out; its methods' bodies are left out
    cls = "This stack is wrong.\n\nclass Stack:\n    def __init__(self):\n        self.xs = []\n\n"
    cls += "    def pop(self):\n        return self.xs[0]\n"
    task = parse_task(cls)
    assert given_code(task) and "self.xs" not in as_specification(task)


def test_signatures_and_skeletons_are_not_code_to_start_from() -> None:
    stubs = [
        'def f(x):\n    """Double x."""\n',
        "def f(x):\n    pass\n",
        "def f(x):\n    ...\n",
        'def f(x):\n    """Double x."""\n    raise NotImplementedError\n',
        'def f(x):\n    import math\n    """Floor of x."""\n',  # HumanEval/115's shape
        # a class with one method still to write is a skeleton
        "class S:\n    def __init__(self):\n        self.xs = []\n\n    def pop(self):\n        pass\n",
        # a helper written out, the function asked for a stub (HumanEval/38's shape)
        'def enc(s):\n    return s[::-1]\n\n\ndef dec(s):\n    """Undo enc."""\n',
        "Write `g(x)` using this:\n\ndef helper(x):\n    return x + 1\n",
    ]
    for text in stubs:
        assert given_code(parse_task(text)) == "", text
    # no HumanEval prompt gives code to start from; each with its reference solution does
    solutions = canonical()
    for p in load_problems():
        assert given_code(parse_task(p.prompt)) == "", p.task_id
        assert given_code(parse_task(solutions[p.task_id])), p.task_id


def test_a_task_that_says_its_input_must_not_change_is_told_from_one_that_does_not() -> None:
    says = [
        "Return the median of `xs`. The input list must not be changed.",
        "Sort the numbers without modifying the original list.",
        "Note:\n    * don't change the given array.",  # HumanEval/88's words
        'def f(xs):\n    """Drop duplicates; the caller\'s list is left unchanged."""\n',
        "Do not sort the list in place: return a new one.",
        "It must never mutate its arguments.",
        "Return a new list rather than modifying the one passed in.",
        "The argument should be left as is.",
        "Work non-destructively.",
        "This must not have side effects on its input.",
        "Can you fix it so it doesn't change the list I pass in?",
        # the parameters by name, as the task writes its call
        "Write `shuffled(deck, seed)` that returns a shuffled copy. It does not modify deck.",
        "Write `g(nums, k)`; nums is read-only.",
        "Write `k(xs)`. Don't touch the original.",
    ]
    for text in says:
        assert keeps_inputs(parse_task(text)), text
    silent = [
        "Sort the list in place and return None.",
        "Return the items in their original order, unchanged in value.\n\nThe input is a list.",
        "Equal keys keep their order: it must not change.",  # an order, not an argument
        "Remove duplicates from the input list.",
        "The list may not be empty.",
        "The input list is not necessarily sorted.",
        "It is not clear whether the array holds duplicates.",
    ]
    for text in silent:
        assert not keeps_inputs(parse_task(text)), text
    # a task asking for a change in place says the opposite, whatever else it says
    assert not keeps_inputs(parse_task("Sort it in place; the keys stay unchanged."))
    assert not keeps_inputs(
        parse_task("It is supposed to change the list I pass in, but the list is unchanged.")
    )
    assert keeps_inputs(parse_task("Don't do it in place. Leave the list unchanged."))
    # the user-style task sets: those that say so, and those that ask for a change in place
    # (keeps2's last five) or say nothing of the kind (every other folder but two tasks)
    trials = Path(__file__).resolve().parent.parent / "docs" / "bench" / "task-trials"
    said = {
        f"{p.parent.name}/{p.stem}"
        for p in trials.glob("*/*.txt")
        if keeps_inputs(parse_task(p.read_text()))
    }
    changes = {"dedupe", "normalise_weights", "remove_falsy", "sort_by_length", "unique_words"}
    keeps = {f"keeps/{p.stem}" for p in (trials / "keeps").glob("*.txt")} | {
        f"keeps2/{p.stem}" for p in (trials / "keeps2").glob("*.txt") if p.stem not in changes
    }
    assert len(keeps) == 19 and said == keeps | {"tasks/median", "repairs/median_copy"}
    # of the HumanEval prompts, HumanEval/88 says so; HumanEval/142's "will not change the
    # entries in the list whose indexes are ..." reads the same way, and so does
    # HumanEval/161's "keep it as it is" of a character of `s` (a string: no call passes
    # anything it could change, so nothing is checked)
    assert [p.task_id for p in load_problems() if keeps_inputs(parse_task(p.prompt))] == [
        "HumanEval/88",
        "HumanEval/142",
        "HumanEval/161",
    ]
