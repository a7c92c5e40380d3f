"""Every prompt the agent sends, as chat messages. Stable text first, so servers can reuse the prefix."""

from __future__ import annotations

from collections.abc import Sequence

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": "..."}

TESTS_SYSTEM = (
    "You write pytest unit tests for Python functions that do not exist yet. "
    "Reply with one ```python block and nothing else."
)
ASSERTS_SYSTEM = (
    "You write unit tests as Python assert statements for functions that do not exist yet. "
    "Reply with one ```python block and nothing else."
)
# Where a backend continues a reply begun for it, a function's tests reply starts here: asked
# for assert lines, the model sometimes writes the function first (bench/tests_prefill.py).
ASSERTS_START = "```python\nassert"
CODE_SYSTEM = (
    "You are an expert Python programmer. Reply with the complete solution in one ```python "
    "block: imports and every function it needs. No tests, no examples, no explanations."
)
REFERENCE_SYSTEM = (
    "You write reference implementations: the simplest Python code that is obviously correct, "
    "however slow. Reply with the complete code in one ```python block. No tests, no "
    "explanations."
)
FIX_SYSTEM = (
    "You are an expert Python programmer fixing code that fails its tests. Reply with the "
    "complete corrected code in one ```python block. Do not change or repeat the tests."
)
EDIT_SYSTEM = (
    "You are an expert Python programmer fixing a bug in a project so that its failing tests "
    "pass. Reply with one ```python block: the line or lines you change, each as it must read "
    "(or whole functions, when you rewrite them). Never change the tests."
)
JUDGE_SYSTEM = (
    "You work out what a Python function call returns for a task. Answer with the value only."
)

MAX_FEEDBACK_CHARS = 1500


def _target(entry_point: str | None) -> str:
    return f"`{entry_point}`" if entry_point else "the function(s) the task asks for"


def tests_prompt(
    task: str, entry_point: str | None, n_tests: int = 5, style: str = "asserts"
) -> list[Message]:
    """Ask for tests before any code exists. "asserts": one assert line per case, which the
    agent names test_case_1..n (the same cases in fewer tokens: bench/tests_format.py);
    "functions": `test_case_1..n` written out, for a class, whose cases need several
    statements each."""
    if style == "asserts":
        user = (
            f"Task:\n{task.strip()}\n\nWrite {n_tests} test cases for {_target(entry_point)} as "
            "plain assert statements, one per line, each comparing a call with its exact, "
            "hand-checked expected value; cover normal cases and edge cases. The function is "
            "already defined: do not import it and do not define it."
        )
        return [{"role": "system", "content": ASSERTS_SYSTEM}, {"role": "user", "content": user}]
    user = (
        f"Task:\n{task.strip()}\n\n"
        f"Write {n_tests} pytest functions named test_case_1 ... test_case_{n_tests} that test "
        f"{_target(entry_point)}. Each uses plain assert statements on exact, hand-checked expected "
        "values and covers normal cases and edge cases. The function under test is already "
        "importable by name: call it directly, do not import it and do not define it."
    )
    return [{"role": "system", "content": TESTS_SYSTEM}, {"role": "user", "content": user}]


def code_prompt(task: str, entry_point: str | None) -> list[Message]:
    """Ask for a complete solution."""
    name = f" The function must be named `{entry_point}`." if entry_point else ""
    user = f"Task:\n{task.strip()}\n\nWrite the Python code.{name}"
    return [{"role": "system", "content": CODE_SYSTEM}, {"role": "user", "content": user}]


def reference_prompt(task: str, entry_point: str | None) -> list[Message]:
    """Ask for a brute-force reference: a second voice that reads the task another way
    (ALGO's oracle, arXiv 2305.14591)."""
    name = f" The function must be named `{entry_point}`." if entry_point else ""
    user = (
        f"Task:\n{task.strip()}\n\nWrite the simplest Python code that does exactly what the "
        "task says, following its words literally, step by step. Prefer brute force (try every "
        f"possibility, build every item and sort) to any clever algorithm; speed does not matter.{name}"
    )
    return [{"role": "system", "content": REFERENCE_SYSTEM}, {"role": "user", "content": user}]


def fix_prompt(task: str, entry_point: str | None, code: str, feedback: str) -> list[Message]:
    """Ask for a fix of `code`, given trimmed failure feedback."""
    name = f" Keep the function name `{entry_point}`." if entry_point else ""
    user = (
        f"Task:\n{task.strip()}\n\nCode:\n```python\n{code.strip()}\n```\n\n"
        f"Test failures:\n{trim_feedback(feedback)}\n\nFix the code.{name}"
    )
    return [{"role": "system", "content": FIX_SYSTEM}, {"role": "user", "content": user}]


def judge_prompt(task: str, call: str) -> list[Message]:
    """Ask what one call returns, given only the task: no program, no candidate answers."""
    *setup, last = call.split("; ")  # a class's method calls come as a sequence
    before = "After\n```python\n" + "\n".join(setup) + "\n```\n" if setup else ""
    user = f"Task:\n{task.strip()}\n\n{before}What does `{last}` return?"
    return [{"role": "system", "content": JUDGE_SYSTEM}, {"role": "user", "content": user}]


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
    mock backend)."""
    system = messages[0]["content"] if messages else ""
    kinds = {
        TESTS_SYSTEM: "tests",
        ASSERTS_SYSTEM: "tests",
        CODE_SYSTEM: "code",
        REFERENCE_SYSTEM: "reference",
        FIX_SYSTEM: "fix",
        EDIT_SYSTEM: "edit",
        JUDGE_SYSTEM: "judge",
    }
    return kinds.get(system, "code")
