"""Every prompt the agent sends, as chat messages. Stable text first, so servers can reuse the prefix."""

from __future__ import annotations

import re
from collections.abc import Sequence

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": "..."}

# Every prompt about a task but the code prompt begins alike: this system message, then the
# task. What each asks comes after it, so a backend reads that shared beginning once for all of
# a task's prompts (SharesPrefix: ~600 prompt tokens of a HumanEval task's first three prompts
# read as ~160 + 3 x ~60). Each prompt's own instruction names what it is for (`kind_of`).
SYSTEM = "You are an expert Python programmer."
TESTS_ASK = "Reply with one ```python block of tests and nothing else."
# Where a backend continues a reply begun for it, a function's tests reply starts here: asked
# for assert lines, the model sometimes writes the function first (bench/tests_prefill.py).
ASSERTS_START = "```python\nassert"
CODE_ASK = (
    "Reply with the complete solution in one ```python block: imports and every function it "
    "needs. No tests, no examples, no explanations."
)
REFERENCE_ASK = (
    "Write a reference implementation: the simplest Python code that is obviously correct"
)
FIX_ASK = (
    "Reply with the complete corrected code in one ```python block. Do not change or repeat "
    "the tests."
)
JUDGE_ASK = "Work out what the call returns for this task. Answer with the value only."
# A task that says some call raises an exception gets tests that check it. Asked for tests that
# compare each call with its value, the 1.5B wrote `assert stack.top() == None` for a stack
# whose task says it raises IndexError when empty, and `acc.withdraw(50)` on an empty account
# the task says must raise ValueError, then a balance.
RAISES_TESTS = (
    " Where the task says a call raises an exception, check that instead: `with "
    "pytest.raises(ErrorName): call`{where}."
)
# An exception's name (ValueError, InsufficientFundsError), or a word for raising one, in any
# case ("Raise an error if ...", "Throws if empty"), but not raising to a power ("raised to the
# fifth power", "raises x to the power n", "a raised to b")
_RAISES = re.compile(
    r"\b(?:(?i:raises?|raised|raising)\b"
    r"(?!\s+to\b|\s+(?:\S+\s+){0,3}?to\s+(?:the\s+)?(?:\S+\s+)?(?:power|exponent)\b)"
    r"|(?i:throws?|thrown|exceptions?)\b|[A-Z]\w*(?:Error|Exception)\b)"
)
EDIT_SYSTEM = (
    "You are an expert Python programmer fixing a bug in a project so that its failing tests "
    "pass. Reply with one ```python block: the line or lines you change, each as it must read "
    "(or whole functions, when you rewrite them). Never change the tests."
)

MAX_FEEDBACK_CHARS = 1500


def _target(entry_point: str | None) -> str:
    return f"`{entry_point}`" if entry_point else "the function(s) the task asks for"


def task_prefix(task: str) -> list[Message]:
    """The beginning every prompt about `task` shares (a backend may read it once for all)."""
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": _task(task)}]


def _task(task: str) -> str:
    return f"Task:\n{task.strip()}\n\n"


def _ask(task: str, instruction: str) -> list[Message]:
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": _task(task) + instruction},
    ]


def tests_prompt(
    task: str, entry_point: str | None, n_tests: int = 5, style: str = "asserts"
) -> list[Message]:
    """Ask for tests before any code exists. "asserts": one assert line per case, which the
    agent names test_case_1..n (the same cases in fewer tokens: bench/tests_format.py);
    "functions": `test_case_1..n` written out, for a class, whose cases need several
    statements each."""
    if style == "asserts":
        raises = RAISES_TESTS.format(where=", on one line") if names_exceptions(task) else ""
        return _ask(
            task,
            f"Write {n_tests} test cases for {_target(entry_point)}, which does not exist yet, "
            "as plain assert statements, one per line, each comparing a call with its exact, "
            f"hand-checked expected value; cover normal cases and edge cases.{raises} The "
            f"function is already defined: do not import it and do not define it. {TESTS_ASK}",
        )
    raises = RAISES_TESTS.format(where="") if names_exceptions(task) else ""
    return _ask(
        task,
        f"Write {n_tests} pytest functions named test_case_1 ... test_case_{n_tests} that test "
        f"{_target(entry_point)}, which does not exist yet. Each uses plain assert statements "
        "on exact, hand-checked expected values and covers normal cases and edge cases."
        f"{raises} The function under test is already importable by name: call it directly, "
        f"do not import it and do not define it. {TESTS_ASK}",
    )


def names_exceptions(task: str) -> bool:
    """Whether the task speaks of a call raising an exception (and so its tests should check
    where it says one is raised)."""
    return _RAISES.search(task) is not None


# The code prompt keeps its reply's form in its own system message, before the task: the greedy
# reply passed 109 of HumanEval+'s 164 so, 102 with it after the task (9 problems one way, 2 the
# other; bench/code_prompt_ab.py). Its prompts (the greedy reply, every sample) share their
# beginning with each other, not with the other prompts.
CODE_SYSTEM = f"{SYSTEM} {CODE_ASK}"


def code_prompt(task: str, entry_point: str | None) -> list[Message]:
    """Ask for a complete solution."""
    name = f" The function must be named `{entry_point}`." if entry_point else ""
    return [
        {"role": "system", "content": CODE_SYSTEM},
        {"role": "user", "content": f"{_task(task)}Write the Python code.{name}"},
    ]


def reference_prompt(task: str, entry_point: str | None) -> list[Message]:
    """Ask for a brute-force reference: a second voice that reads the task another way
    (ALGO's oracle, arXiv 2305.14591)."""
    name = f" The function must be named `{entry_point}`." if entry_point else ""
    return _ask(
        task,
        f"{REFERENCE_ASK}, however slow, that does exactly what the task says, following its "
        "words literally, step by step. Prefer brute force (try every possibility, build every "
        f"item and sort) to any clever algorithm; speed does not matter.{name} Reply with the "
        "complete code in one ```python block. No tests, no explanations.",
    )


def fix_prompt(task: str, entry_point: str | None, code: str, feedback: str) -> list[Message]:
    """Ask for a fix of `code`, given trimmed failure feedback."""
    name = f" Keep the function name `{entry_point}`." if entry_point else ""
    return _ask(
        task,
        f"Code:\n```python\n{code.strip()}\n```\n\n"
        f"Test failures:\n{trim_feedback(feedback)}\n\nThis code fails its tests: fix "
        f"it.{name} {FIX_ASK}",
    )


def judge_prompt(task: str, call: str) -> list[Message]:
    """Ask what one call returns, given only the task: no program, no candidate answers."""
    *setup, last = call.split("; ")  # a class's method calls come as a sequence
    before = "After\n```python\n" + "\n".join(setup) + "\n```\n" if setup else ""
    return _ask(task, f"{before}What does `{last}` return? {JUDGE_ASK}")


def edit_prompt(
    command: str, failures: str, units: list[tuple[str, str]], suspects: Sequence[str] = ()
) -> list[Message]:
    """Ask for the changed lines (or whole replacement functions), given the failing tests,
    `(where, source)` units and the lines the failing tests single out ("path:line: code")."""
    shown = "\n\n".join(f"```python\n# {where}\n{source.rstrip()}\n```" for where, source in units)
    lines = "\n".join(f"- {s}" for s in suspects)
    hint = (
        "\n\nThe lines the failing tests run and the passing tests do not, the most suspect "
        f"first (the bug is most likely in one of them):\n{lines}"
        if suspects
        else ""
    )
    user = (
        f"The test command `{command}` fails.\n\nFailures:\n{failures.strip()}\n\n"
        f"The code the failures point at:\n\n{shown}{hint}\n\nThis code has a bug that makes "
        "the tests fail. Find the wrong line and reply with it corrected, in one ```python "
        "block. Reply only with the line or lines you change, not with the code that stays "
        "the same."
    )
    return [{"role": "system", "content": EDIT_SYSTEM}, {"role": "user", "content": user}]


def trim_feedback(feedback: str, limit: int = MAX_FEEDBACK_CHARS) -> str:
    """Feedback is data with a hard cap: keep the head, mark the cut."""
    text = feedback.strip()
    if len(text) <= limit:
        return text
    return text[: limit - 20].rstrip() + "\n... (truncated)"


def kind_of(messages: list[Message]) -> str:
    """Which prompt this is: "tests", "code", "reference", "fix", "edit" or "judge" (used by the
    mock backend), read from the instruction each prompt ends with (the code prompt's is in
    its system message)."""
    if messages and messages[0]["content"] == EDIT_SYSTEM:
        return "edit"
    if messages and messages[0]["content"] == CODE_SYSTEM:
        return "code"
    asked = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
    for kind, marker in (
        ("tests", TESTS_ASK),
        ("reference", REFERENCE_ASK),
        ("fix", FIX_ASK),
        ("judge", JUDGE_ASK),
    ):
        if marker in asked:
            return kind
    return "code"
