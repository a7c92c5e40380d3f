"""The task's own examples as trusted tests.

A task often shows what it wants: `>>> f(3)` and the answer on the next line (doctest style), or
`f(3) == 9`, `f(3) ➞ 9`, `f(3) # returns 9`, `f(3) = 9` on one line, or LeetCode's `Input: n = 3`
and `Output: 9` (`For n = 3 the output should be 9`). Those examples come from the user, not the
model, so they are right where the model's own tests may not be. They become pytest tests
(`test_example_1..n`) that rank like the user's own tests: a candidate that gets the task's
examples wrong never wins over one that gets them right.

Only plain calls of the entry point with literal arguments that fit its signature, and a literal
result, are taken. Anything else (prints, variables, prose, `...`, a call shown with two different
results, a task that accepts any order or any of several answers, one that works in place) is left
out rather than guessed at. Nothing in the task is ever run to read it: only `ast.parse` and
`ast.literal_eval`, on bounded text.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass

from .extract import closing, literal_arguments, literal_call, parse
from .task import Task

MAX_EXAMPLES = 10
MAX_LINE = 1_000  # a longer line is not an example; it keeps reading linear
MAX_RESULT = 300  # characters of a one-line result
MAX_CALLS_PER_LINE = 20

# what separates a call from its result on one line, perhaps after a `#`; a lone `=` (group 1)
# is taken only from a task that never uses it to define something (see _inline_examples)
_SEPARATOR = re.compile(
    r"\s*(?:#\s*)?(?:==>|=>|==|->|➞|→|should\s+(?:return|be)|returns|(=)(?![=>]))\s*(.+)$", re.S
)
# where a one-line result may end: before punctuation, a comment or a remark in brackets; not
# before a comma and another value ("1, 2, or 3")
_RESULT_END = re.compile(r"\s*(?:[.;#(]|,(?!\s*[-\d'\"\[({]))")
# ... or where the next example on the line begins, less the word that joins them
# ("f(2) -> 4 and f(3) -> 9"); "or" joins no two results ("f(1) -> 3 or f(1) -> 4")
_JOINED = re.compile(r"[\s,;]*(?:\b(?:and|then|while|whereas|but)\b[\s,;]*)?$")
# lines that tell of wrong behaviour, not wanted behaviour ("currently f(2) returns 5")
_NOT_WANTED = re.compile(r"\b(?:currently|instead|got|actual|wrong|bug|incorrect)\b", re.I)
# LeetCode style: "Input: nums = [1, 2], k = 3" then "Output: 4", or one line "For nums = [1, 2]
# the output should be 4"
_INPUT = re.compile(r"\s*Input\s*:\s*(\S.*)$", re.I)
_OUTPUT = re.compile(r"\s*Output\s*:\s*(\S.*)$", re.I)
_FOR = re.compile(
    r"\s*For\s+(\S.*?),?\s+the\s+(?:output|result)\s+(?:should\s+be|is)\s+(.+)$", re.I
)
# a task that takes more than one answer: an example shows one of them
_ANY_ANSWER = re.compile(
    r"\bany order\b|\bany of them\b|\border\b[^.\n]{0,40}\bdoes(?:n't| not) matter\b", re.I
)
# a task that changes its argument: an example shows the argument afterwards, not what it returns
_IN_PLACE = re.compile(r"\bin[- ]place\b", re.I)
_DECIMALS = re.compile(r"\d\.(\d+)")
_WORDS = {"true": True, "false": False, "none": None, "null": None}
_NOTHING = object()


@dataclass(frozen=True)
class _Example:
    call: str  # the call, normalised by ast.unparse
    want: object  # its result, a literal
    shown: str  # the result as written, for the precision of a float


def example_tests(task: Task) -> str | None:
    """Pytest tests from the examples in the task, or None when it shows none usable."""
    name = task.entry_point
    if not name:
        return None
    fn = _function(task)
    if task.is_signature:
        if fn is None or _returns_none(fn):
            return None  # a method, or a function that prints: its examples show output
        text = ast.get_docstring(fn) or ""
    else:
        text = task.text
    if _ANY_ANSWER.search(text) or _IN_PLACE.search(text):
        return None
    found = _doctest_examples(text, name) + _inline_examples(text, name)
    if fn is not None:
        found += _stated_examples(text, fn)
    bodies = []
    for ex in _consistent(found):
        body = _assertion(ex) if fn is None or _fits(ex.call, fn) else None
        if body:
            bodies.append(body)
        if len(bodies) == MAX_EXAMPLES:
            break
    if not bodies:
        return None
    tests = [f"def test_example_{i}():\n    {body}\n" for i, body in enumerate(bodies, start=1)]
    head = "import pytest\n\n" if any("pytest.approx" in b for b in bodies) else ""
    source = head + "\n\n".join(tests)
    try:
        compile(source, "<examples>", "exec")
    except (SyntaxError, ValueError):
        return None
    return source


def _function(task: Task) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The entry point's definition at the top level of a signature task, if there is one."""
    if not task.is_signature:
        return None
    tree = parse(task.code) or parse(task.code + "\n    pass\n")
    for node in tree.body if tree else []:
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name == task.entry_point
        ):
            return node
    return None


def _returns_none(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return isinstance(fn.returns, ast.Constant) and fn.returns.value is None


def _doctest_examples(text: str, name: str) -> list[_Example]:
    """`>>> f(x)` with the result on the next line(s), or `>>> f(x) == y` on its own."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith(">>>") or len(stripped) > MAX_LINE or "doctest:" in stripped:
            continue
        source = stripped[3:].strip()
        shown_lines = []
        for follow in lines[i + 1 : i + 6]:
            if not follow.strip() or follow.strip().startswith((">>>", '"""', "'''", "```")):
                break  # the result ends at a blank line, the next example, or the docstring
            shown_lines.append(follow.strip())
        shown = "\n".join(shown_lines)
        want = _literal(shown) if len(shown) <= MAX_RESULT else _NOTHING
        call = _call(source, name)
        if call is None:  # `f(x) == y`, shown as true or with no result line
            call, want, shown = _compared(source, name, want)
        if call is not None and want is not _NOTHING:
            out.append(_Example(call, want, shown))
    return out


def _compared(source: str, name: str, shown: object) -> tuple[str | None, object, str]:
    """(call, y, y as written) from `f(x) == y` when shown true or with no result line."""
    nothing = (None, _NOTHING, "")
    if shown is not _NOTHING and shown is not True:
        return nothing
    tree = parse(source)
    if not (tree and len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr)):
        return nothing
    node = tree.body[0].value
    if not (
        isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)
    ):
        return nothing
    left, right = (
        ast.get_source_segment(source, node.left),
        ast.get_source_segment(source, node.comparators[0]),
    )
    call = _call(left or "", name)
    want = _literal(right or "")
    return (call, want, right or "") if call is not None else nothing


def _inline_examples(text: str, name: str) -> list[_Example]:
    """`f(x) -> y` and the like, one per call on a line. `f(x) = y` is read too, unless the task
    also writes `=` after a call that is not literal or before a result that is not, or shows a
    result of another type with another separator: there `=` defines ("tri(n) = 1 + n / 2";
    "tri(1) = 3" of a function that returns a list)."""
    out: list[_Example] = []
    equals: list[_Example] = []  # `f(x) = y`
    defines = False
    start_of_call = re.compile(rf"(?<![\w.]){re.escape(name)}\s*\(")
    for line in text.splitlines():
        if line.lstrip().startswith(">>>") or len(line) > MAX_LINE or _NOT_WANTED.search(line):
            continue  # doctest lines are read with their result line, above
        calls = list(start_of_call.finditer(line))[:MAX_CALLS_PER_LINE]
        for m in calls:
            end = closing(line, m.end() - 1)
            sep = _SEPARATOR.match(line, end) if end else None
            if sep is None:
                continue
            call = _call(line[m.start() : end], name)
            if call is None and not sep.group(1):
                continue  # only a call after which `=` follows matters when it is not literal
            want, shown = _NOTHING, ""
            after = next((c.start() for c in calls if c.start() > sep.start(2)), None)
            if after is not None:  # up to the next example
                want, shown = _literal_prefix(_JOINED.sub("", line[sep.start(2) : after], count=1))
            if want is _NOTHING:
                want, shown = _literal_prefix(sep.group(2))
            if sep.group(1) and (call is None or want is _NOTHING):
                defines = True
            elif call is not None and want is not _NOTHING:
                (equals if sep.group(1) else out).append(_Example(call, want, shown))
    kinds = {type(e.want) for e in out}
    if kinds and any(type(e.want) not in kinds for e in equals):
        defines = True
    return out if defines else out + equals


def _stated_examples(text: str, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[_Example]:
    """`Input: a = [1, 2], k = 3` (or the one argument alone) with `Output: 4` on the next line
    that is not blank, and `For a = [1, 2] the output should be 4`. Only from a signature: its
    parameters say which argument is which, and the call is written with positional arguments,
    so a candidate that renames a parameter is not failed for it."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        if len(line) > MAX_LINE or _NOT_WANTED.search(line):
            continue
        given, shown = _stated(line, lines[i + 1 : i + 4])
        call = _positional_call(given, fn) if given else None
        if call is None:
            continue
        want, written = _literal_prefix(shown)
        if want is not _NOTHING:
            out.append(_Example(call, want, written))
    return out


def _stated(line: str, following: list[str]) -> tuple[str, str]:
    """(the arguments, the result) as a `For ...` line or an `Input:` line and its `Output:`."""
    found = _FOR.match(line)
    if found:
        return found.group(1), found.group(2)
    found = _INPUT.match(line)
    if not found:
        return "", ""
    later = next((f for f in following if f.strip()), "")
    output = _OUTPUT.match(later)
    if output is None or len(later) > MAX_LINE or _NOT_WANTED.search(later):
        return "", ""  # another line between: the input may go on there ("Input: 2", "5 7")
    return found.group(1), output.group(1)


def _positional_call(given: str, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """`fn(given)` with keyword arguments put in the signature's order: "a = [1], k = 3" gives
    `f([1], 3)`. None unless every argument is a literal and they fill the first parameters."""
    node = _literal_call(f"{fn.name}({given.strip()})", fn.name)
    if node is None:
        return None
    params = [p.arg for p in (*fn.args.posonlyargs, *fn.args.args)]
    named = {str(k.arg): k.value for k in node.keywords}
    rest = params[len(node.args) : len(node.args) + len(named)]
    if set(rest) != set(named):
        return None
    args = [*node.args, *(named[p] for p in rest)]
    return _unparse(ast.Call(func=node.func, args=args, keywords=[]))


def _call(source: str, name: str) -> str | None:
    """`source` if it is one call of `name` with literal arguments, normalised; else None."""
    node = _literal_call(source, name)
    return _unparse(node) if node is not None else None


def _literal_call(source: str, name: str) -> ast.Call | None:
    """`source` parsed, if it is one call of `name` whose arguments are usable literals."""
    node = literal_call(source, name)
    found = literal_arguments(node, name) if node is not None else None
    if found is None or not all(_usable(v) for v in [*found[0], *found[1].values()]):
        return None
    return node


def _unparse(node: ast.AST) -> str | None:
    try:
        return ast.unparse(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _literal(text: str) -> object:
    """A Python literal; `true`/`false`/`null` as other languages write them count too. A tuple
    must be written in brackets ("1, 2, or 3" is prose)."""
    text = text.strip()
    if not text:
        return _NOTHING
    if text.lower() in _WORDS:
        return _WORDS[text.lower()]
    try:
        value = ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NOTHING
    if isinstance(value, tuple) and not text.startswith("("):
        return _NOTHING
    return value if _usable(value) else _NOTHING


def _literal_prefix(text: str) -> tuple[object, str]:
    """The literal that starts `text` ("9.", "True  # note"), if only a remark follows it:
    in "19 - 5 - 6 = 8" the 19 is not the result. Returns (value, as written)."""
    whole = text.strip()
    text = whole[:MAX_RESULT]
    if text.endswith(".") and not text.endswith(".."):
        text = text[:-1]  # a full stop: "f(2) == 5." shows 5, not 5.0
    cuts = {m.start() for m in _RESULT_END.finditer(text)}
    if len(whole) <= MAX_RESULT:  # a cut is not an end: it would read 2**1000's first digits
        cuts.add(len(text))
    for end in sorted(cuts, reverse=True)[:MAX_CALLS_PER_LINE]:
        value = _literal(text[:end])
        if value is not _NOTHING:
            return value, text[:end].strip()
    return _NOTHING, ""


def _usable(value: object) -> bool:
    """Finite numbers, no `...`, nesting that is not absurd."""

    def ok(v: object, depth: int) -> bool:
        if depth > 20 or v is Ellipsis:
            return False
        if isinstance(v, float):
            return math.isfinite(v)
        if isinstance(v, complex):
            return math.isfinite(v.real) and math.isfinite(v.imag)
        if isinstance(v, (list, tuple, set, frozenset)):
            return all(ok(x, depth + 1) for x in v)
        if isinstance(v, dict):
            return all(ok(k, depth + 1) and ok(x, depth + 1) for k, x in v.items())
        return True

    return ok(value, 0)


def _assertion(ex: _Example) -> str | None:
    """`assert call == result`; floats compared to the precision shown; None if it can't be."""
    try:
        want = repr(ex.want)
    except ValueError:  # an int too long to print
        return None
    if not _has_float(ex.want):
        return f"assert {ex.call} == {want}"
    if not _flat(ex.want):
        return None  # pytest.approx does not compare nested data
    digits = max((len(d) for d in _DECIMALS.findall(ex.shown)), default=0)
    tolerance = f", abs={0.5 * 10.0**-digits:g}" if digits >= 2 else ""  # "1.41": ±0.005
    close = f"pytest.approx({want}{tolerance})"
    if isinstance(ex.want, (list, tuple)):  # approx takes a list for a tuple; the task does not
        kind = type(ex.want).__name__
        return f"got = {ex.call}\n    assert type(got) is {kind} and got == {close}, got"
    return f"assert {ex.call} == {close}"


def _has_float(value: object) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(_has_float(v) for v in value)
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    return False


def _flat(value: object) -> bool:
    """A float, or a list or tuple of numbers: what pytest.approx compares."""
    if isinstance(value, (list, tuple)):
        return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
    return isinstance(value, float)


def _consistent(examples: list[_Example]) -> list[_Example]:
    """Each call once; a call shown with two different results is left out altogether."""
    results: dict[str, list[_Example]] = {}
    for ex in examples:
        results.setdefault(ex.call, []).append(ex)
    return [
        shown[0]
        for shown in results.values()
        if all(_same(e.want, shown[0].want) for e in shown[1:])
    ]


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b


def _fits(call: str, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The call's arguments match the signature: count, keyword names, required ones given."""
    tree = parse(call)
    node = tree.body[0].value if tree and isinstance(tree.body[0], ast.Expr) else None
    if not isinstance(node, ast.Call):
        return False
    a = fn.args
    positional = [p.arg for p in (*a.posonlyargs, *a.args)]
    if len(node.args) > len(positional) and a.vararg is None:
        return False
    by_keyword = {p.arg for p in (*a.args, *a.kwonlyargs)}
    given = {k.arg for k in node.keywords}
    if not given <= by_keyword and a.kwarg is None:
        return False
    required = positional[: len(positional) - len(a.defaults)]
    missing = [p for p in required[len(node.args) :] if p not in given]
    required_kw = [p.arg for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is None]
    return not missing and all(p in given for p in required_kw)
