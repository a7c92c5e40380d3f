"""The task's own examples as trusted tests.

A task often shows what it wants: `>>> f(3)` and the answer on the next line (doctest style), or
`f(3) == 9`, `f(3) ➞ 9`, `f(3) should return 9` on one line. Those examples come from the user,
not the model, so they are right where the model's own tests may not be. They become pytest tests
(`test_example_1..n`) that rank like the user's own tests: a candidate that gets the task's
examples wrong never wins over one that gets them right.

Only plain calls of the entry point with literal arguments and a literal result are taken;
anything else (prints, variables, prose) is left out rather than guessed at.
"""

from __future__ import annotations

import ast
import re

from .extract import parse
from .task import Task

MAX_EXAMPLES = 10

# what separates a call from its result on one line; not `=` or `is`, which also state definitions
# ("tri(n) = 1 + n / 2")
_SEPARATOR = re.compile(r"\s*(?:==>|=>|==|->|➞|→|should\s+(?:return|be)|returns)\s*(.+)$", re.S)
# what may follow a result on its line: nothing, punctuation, a comment or a remark in brackets
_AFTER_RESULT = re.compile(r"\s*(?:[.,;]|#|\(|$)")


def example_tests(task: Task, taken: set[str] | frozenset[str] = frozenset()) -> str | None:
    """Pytest tests from the examples in the task, or None when it shows none usable.

    Their names avoid `taken` (the user's own test names), so both can run as one file."""
    if not task.entry_point:
        return None
    text = _docstring(task) if task.is_signature else task.text
    examples = _dedupe(
        _doctest_examples(text, task.entry_point) + _inline_examples(text, task.entry_point)
    )
    if not examples:
        return None
    needs_approx = any(_has_float(want) for _, want in examples)
    head = ["import pytest", ""] if needs_approx else []
    body = []
    for i, (call, want) in enumerate(examples[:MAX_EXAMPLES], start=1):
        expected = f"pytest.approx({want!r})" if _has_float(want) else repr(want)
        name = f"test_example_{i}"
        while name in taken:
            name = f"{name}_"
        body.append(f"def {name}():\n    assert {call} == {expected}\n")
    return "\n".join(head) + "\n\n".join(body)


def _docstring(task: Task) -> str:
    tree = parse(task.text) or parse(task.text + "\n    pass\n")
    for node in ast.walk(tree) if tree else []:
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name == task.entry_point
        ):
            return ast.get_docstring(node) or ""
    return ""


def _doctest_examples(text: str, name: str) -> list[tuple[str, object]]:
    """`>>> f(x)` with the result on the next line(s), or `>>> f(x) == y` on its own."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith(">>>"):
            continue
        source = stripped[3:].strip()
        want_lines = []
        for follow in lines[i + 1 :]:
            if not follow.strip() or follow.strip().startswith(">>>"):
                break
            want_lines.append(follow.strip())
        want = _literal("\n".join(want_lines)) if want_lines else _NOTHING
        call = _call(source, name)
        if call is None:  # `f(x) == y`, shown as true or with no result line
            call, want = _compared(source, name, want)
        if call is not None and want is not _NOTHING:
            out.append((call, want))
    return out


def _compared(source: str, name: str, shown: object) -> tuple[str | None, object]:
    """(call, y) from `f(x) == y` when the example shows it true or shows nothing."""
    if shown is not _NOTHING and shown is not True:
        return None, _NOTHING
    tree = parse(source)
    node = (
        tree.body[0].value
        if tree and len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr)
        else None
    )
    if not (
        isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)
    ):
        return None, _NOTHING
    call = _call(ast.unparse(node.left), name)
    want = _literal(ast.unparse(node.comparators[0]))
    return (call, want) if call is not None else (None, _NOTHING)


def _inline_examples(text: str, name: str) -> list[tuple[str, object]]:
    out = []
    for line in text.splitlines():
        if line.lstrip().startswith(">>>"):
            continue  # doctest lines are read with their result line, above
        for start in (m.start() for m in re.finditer(rf"\b{re.escape(name)}\s*\(", line)):
            found = _call_at(line, start, name)
            if found is None:
                continue
            call, end = found
            sep = _SEPARATOR.match(line, end)
            if sep is None:
                continue
            want = _literal_prefix(sep.group(1))
            if want is not _NOTHING:
                out.append((call, want))
    return out


_NOTHING = object()


def _call(source: str, name: str) -> str | None:
    """`source` if it is one call of `name` with literal arguments, normalised; else None."""
    tree = parse(source)
    if tree is None or len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return None
    node = tree.body[0].value
    if not (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    ):
        return None
    try:
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            ast.literal_eval(arg)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if any(isinstance(a, ast.Starred) for a in node.args) or any(
        k.arg is None for k in node.keywords
    ):
        return None
    return ast.unparse(node)


def _call_at(line: str, start: int, name: str) -> tuple[str, int] | None:
    """The shortest `name(...)` starting at `start` that is a literal call, and where it ends."""
    for end in range(line.index("(", start) + 1, len(line) + 1):
        if line[end - 1] != ")":
            continue
        call = _call(line[start:end], name)
        if call is not None:
            return call, end
    return None


_WORDS = {"true": True, "false": False, "none": None, "null": None}


def _literal(text: str) -> object:
    """A Python literal; `true`/`false`/`null` as other languages write them count too."""
    if not text:
        return _NOTHING
    if text.lower() in _WORDS:
        return _WORDS[text.lower()]
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NOTHING


def _literal_prefix(text: str) -> object:
    """The literal that starts `text` ("9.", "True  # note"), if only a remark follows it:
    in "19 - 5 - 6 = 8" the 19 is not the result."""
    text = text.strip()
    if text.endswith(".") and not text.endswith(".."):
        text = text[:-1]  # a full stop: "f(2) == 5." shows 5, not 5.0
    for end in range(len(text), 0, -1):
        value = _literal(text[:end].strip())
        if value is not _NOTHING and _AFTER_RESULT.match(text, end):
            return value
    return _NOTHING


def _has_float(value: object) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, (list, tuple)):
        return any(_has_float(v) for v in value)
    return False


def _dedupe(examples: list[tuple[str, object]]) -> list[tuple[str, object]]:
    seen: set[str] = set()
    out = []
    for call, want in examples:
        if call not in seen:
            seen.add(call)
            out.append((call, want))
    return out
