"""What the prompts ask, where it depends on the task: a task that says a call raises."""

from __future__ import annotations

import pytest

from localcode import prompts

RAISES = "Write `chunk(xs, size)`. A size below 1 raises ValueError."
PLAIN = "Write `chunk(xs, size)` that splits xs into lists of length size."


@pytest.mark.parametrize(
    ("task", "named"),
    [
        ("It raises ValueError when n is negative.", True),
        ("pop() on an empty stack should raise IndexError", True),
        ("Unknown keys give a KeyError.", True),
        ("Throw an exception for bad input.", True),
        ("withdraw fails with InsufficientFundsError", True),
        ("Raise an error if the list is empty.", True),  # the words in any case
        ("Throws if empty.", True),
        ("Raise an error to signal bad input.", True),
        # the arithmetic sense, and plain words that only look alike
        ("the sum of the first n even numbers raised to the fifth power", False),
        ("raises x to the power n", False),
        ("return a raised to b", False),
        ("Return the count of each letter, in terror of none.", False),
        ("Return the number of errors in the log.", False),
        (PLAIN, False),
    ],
)
def test_a_task_names_an_exception_in_its_own_words(task: str, named: bool) -> None:
    assert prompts.names_exceptions(task) is named


@pytest.mark.parametrize("style", ["asserts", "functions"])
def test_tests_of_a_task_that_raises_are_asked_to_check_the_raise(style: str) -> None:
    asked = prompts.tests_prompt(RAISES, "chunk", 5, style)[-1]["content"]
    assert "pytest.raises(" in asserted_clause(asked)
    plain = prompts.tests_prompt(PLAIN, "chunk", 5, style)[-1]["content"]
    assert "raises" not in plain.split("Task:")[-1].split(PLAIN)[-1]


def asserted_clause(content: str) -> str:
    return content.split(RAISES)[-1]  # what is asked, after the task


def test_the_judge_is_asked_for_the_value_alone_either_way() -> None:
    # a judge ask that allowed the exception's name was tried and not adopted
    # (bench/raises_judge_ab.py): the question is the same for every task
    for task in (RAISES, PLAIN):
        asking = prompts.judge_prompt(task, "chunk([1], 0)")
        assert asking[-1]["content"].endswith(prompts.JUDGE_ASK)
        assert prompts.kind_of(asking) == "judge"
