"""Behaviour probes: every candidate is called on the same inputs and what it returns is compared.

The inputs are the calls the tests already make (`f(2, [1, 3])`, literal arguments only, or
literal rows of `pytest.mark.parametrize` put in place of the parameters), so no
model-written expected value is trusted: candidates that return the same values on every input
behave alike, whatever the tests expect. Grouping programs by their outputs is AlphaCode's
clustering (arXiv 2203.07814) and MBR-exec (arXiv 2204.11454); `ranking.rank_codet` uses it to
split consensus sets and to see when candidates that pass the same tests still disagree.

Small changes of those inputs (`mutant_calls`: a number one step further from zero, or one step
back without reaching it; a string or list reversed, one shorter, or with its last item made a
repeat of its first) go further: tests a small model writes often leave the cases that tell two
readings of a task apart untried. A changed input may fall outside what the task allows, so it
only ever splits programs that already pass the same tests and return the same on the tests' own
inputs (see ranking.py), and only where every one of them returns a value. The changed inputs run
separately from the tests' own, so a candidate that hangs on one loses only those.

A probe is a test that always fails with a digest of the value: it runs in the sandbox like any
other test. The test and a function under test run in separate processes, so the digest is
computed from the value that came back, out of the candidate's reach. Its message also carries a
short repr of the value, for the judge (disputes.py) and the user.

A class under test is probed by the method calls the tests make on an instance made with literal
arguments, each call replayed with the calls before it (`sequence_calls`). A class runs in the
test's process, so there a candidate could reach the digest; probes only group candidates and
never earn credit, so the worst it could do is disguise its own behaviour.
"""

from __future__ import annotations

import ast
import copy
import itertools
import math
import re
from collections.abc import Iterable, Iterator

from .extract import call_arguments, literal_arguments, parse
from .sandbox.records import TestRun

MAX_PROBES = 24
MAX_MUTANTS = 24
MAX_CALL_CHARS = 2000
MUTANT_PREFIX = "test_mutant_"
_DIGEST = re.compile(r"localcode-probe=([vx][0-9a-f]{16})")
_SHOWN = re.compile(r"localcode-probe=[vx][0-9a-f]{16} (.*)$", re.M)

_HELPER = """import hashlib as _lc_hashlib


def _lc_canon(value):
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        value = int(value)  # 2.0 == 2 in any test: alike
    if isinstance(value, int):
        return "int:" + str(value)
    if isinstance(value, float):
        return "float:" + format(value, ".9g")
    if isinstance(value, (str, bytes, complex)):
        return type(value).__name__ + ":" + repr(value)
    if isinstance(value, (list, tuple)):
        return type(value).__name__ + "[" + ",".join(_lc_canon(v) for v in value) + "]"
    if isinstance(value, dict):
        items = sorted((_lc_canon(k), _lc_canon(v)) for k, v in value.items())
        return "dict{" + ",".join(k + ":" + v for k, v in items) + "}"
    if isinstance(value, (set, frozenset)):
        return type(value).__name__ + "{" + ",".join(sorted(_lc_canon(v) for v in value)) + "}"
    if hasattr(value, "__next__"):  # an iterator: what it yields (the wire sent it as a list)
        return "iter[" + ",".join(_lc_canon(v) for v in value) + "]"
    return "object:" + type(value).__name__  # its repr may hold an address: never alike


def _lc_show(value):
    try:
        text = " ".join(repr(value).splitlines())
    except Exception:
        text = "<" + type(value).__name__ + " with no repr>"
    return text if len(text) <= 160 else text[:157] + "..."


def _lc_probe(_lc_function, /, *args, **kwargs):
    try:
        value = _lc_function(*args, **kwargs)
        if hasattr(value, "__next__"):  # what it yields, shown as a list
            value = list(value)
            kind, text, shown = "v", "iter[" + ",".join(map(_lc_canon, value)) + "]", _lc_show(value)
        else:
            kind, text, shown = "v", _lc_canon(value), _lc_show(value)
    except Exception as exc:
        kind, text = "x", type(exc).__name__
        shown = "raises " + text
    digest = _lc_hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]
    raise AssertionError("localcode-probe=" + kind + digest + " " + shown)
"""


def probe_calls(sources: Iterable[str | None], entry_point: str | None) -> list[str]:
    """Distinct calls of `entry_point` with literal arguments found in `sources`, in order."""
    if not entry_point:
        return []
    calls: dict[str, None] = {}
    for source in sources:
        tree = parse(source) if source else None
        for node in _with_parameters(ast.walk(tree) if tree else (), entry_point):
            if len(calls) >= MAX_PROBES:
                return list(calls)
            if literal_arguments(node, entry_point) is not None:
                text = _unparse(node)
                if text is not None and len(text) <= MAX_CALL_CHARS:
                    calls.setdefault(text, None)
    return list(calls)


def _with_parameters(nodes: Iterable[ast.AST], entry_point: str) -> Iterator[ast.AST]:
    """The nodes, and for a test under `@pytest.mark.parametrize("a, b", [(1, 2), ...])` its
    calls of `entry_point` once per row, with the row's values in place of the parameters
    (stacked decorators: their combinations, at most MAX_PROBES of them)."""
    for node in nodes:
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        calls = [
            c
            for c in ast.walk(node)
            if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == entry_point
        ]
        used = {n.id for c in calls for n in ast.walk(c) if isinstance(n, ast.Name)}
        tables = [t for t in map(_parameter_rows, node.decorator_list) if t and used & set(t[0])]
        combos = itertools.product(*tables) if tables else iter(())
        for rows in itertools.islice(combos, MAX_PROBES):
            row = {k: v for part in rows for k, v in part.items()}
            for call in calls:
                try:
                    changed = _Substitute(row).visit(copy.deepcopy(call))
                except (RecursionError, MemoryError):  # absurd nesting: no probe from it
                    continue
                yield changed


def _parameter_rows(decorator: ast.expr) -> list[dict[str, ast.expr]] | None:
    """The rows of a `parametrize(names, values)` decorator, each as {name: value}; else None."""
    if not (
        isinstance(decorator, ast.Call)
        and isinstance(decorator.func, ast.Attribute)
        and decorator.func.attr == "parametrize"
        and len(decorator.args) >= 2
        and isinstance(decorator.args[1], (ast.List, ast.Tuple))
    ):
        return None
    spec = decorator.args[0]
    if isinstance(spec, ast.Constant) and isinstance(spec.value, str):
        names = [n.strip() for n in spec.value.split(",") if n.strip()]
    elif isinstance(spec, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in spec.elts
    ):
        names = [str(e.value) for e in spec.elts]  # type: ignore[attr-defined]
    else:
        return None
    rows = []
    for value in decorator.args[1].elts:
        if isinstance(value, ast.Call) and getattr(value.func, "attr", "") == "param":
            if len(value.args) != len(names):  # pytest.param(1, 2, marks=...)
                continue
            value = value.args[0] if len(names) == 1 else ast.Tuple(value.args, ast.Load())
        if len(names) == 1:
            rows.append({names[0]: value})
        elif isinstance(value, (ast.List, ast.Tuple)) and len(value.elts) == len(names):
            rows.append(dict(zip(names, value.elts, strict=True)))
    return rows


class _Substitute(ast.NodeTransformer):
    def __init__(self, row: dict[str, ast.expr]) -> None:
        self.row = row

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return copy.deepcopy(self.row[node.id]) if node.id in self.row else node


def _unparse(node: ast.AST) -> str | None:
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError):  # an int of more than 4,300 digits, absurd nesting
        return None


def mutant_calls(calls: list[str], limit: int = MAX_MUTANTS) -> list[str]:
    """Calls like `calls` with one argument changed a little, taken from each call in turn."""
    per_call = [_mutants(call) for call in calls]
    seen = set(calls)
    out: list[str] = []
    for depth in range(max((len(m) for m in per_call), default=0)):
        for mutants in per_call:
            if depth < len(mutants) and mutants[depth] not in seen and len(out) < limit:
                seen.add(mutants[depth])
                out.append(mutants[depth])
    return out


def _mutants(call: str) -> list[str]:
    try:
        return _changed_calls(call)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # a huge int, deep nesting
        return []


def _changed_calls(call: str) -> list[str]:
    node = ast.parse(call, mode="eval").body
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    found = literal_arguments(node, node.func.id)
    if found is None:
        return []
    args, kwargs = found
    out = []
    for i, value in enumerate(args):
        for changed in _changes(value):
            out.append(_render(node.func.id, [*args[:i], changed, *args[i + 1 :]], kwargs))
    for key, value in kwargs.items():
        for changed in _changes(value):
            out.append(_render(node.func.id, args, {**kwargs, key: changed}))
    return [text for text in out if len(text) <= MAX_CALL_CHARS]


def _render(name: str, args: list[object], kwargs: dict[str, object]) -> str:
    shown = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return f"{name}({', '.join(shown)})"


def _changes(value: object) -> list[object]:
    """The value changed a little, keeping its type; a number keeps its sign and never becomes 0
    (a loop that counts down to 0 may never end from elsewhere)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        if abs(value) > 10**6:
            return []
        step = -1 if value < 0 else 1
        return [value + step, *([value - step] if abs(value) > 1 else [])]
    if isinstance(value, float):
        if not math.isfinite(value):
            return []
        return [value - 1.0 if value < 0 else value + 1.0]
    if isinstance(value, (str, list, tuple)) and value:
        if len(value) == 1:
            return [value * 2]
        repeat = value[:-1] + value[:1]  # type: ignore[operator]  # same type on both sides
        changed: list[object] = [value[::-1], value[:-1], repeat]  # reversed, shorter, a repeat
        return [c for c in changed if c != value]
    return []


def probe_tests(
    calls: list[str], entry_point: str | None, prefix: str = "test_probe_"
) -> str | None:
    """A test file with one probe per call (`test_probe_1..n`, or `test_mutant_1..n` for changed
    calls); None when there are no calls, or when the entry point is a class."""
    if not calls or not entry_point or entry_point[:1].isupper():
        return None
    tests = []
    for name, call in ((f"{prefix}{i}", c) for i, c in enumerate(calls, start=1)):
        node = ast.parse(call, mode="eval").body
        assert isinstance(node, ast.Call)
        node.args.insert(0, ast.Name(entry_point, ast.Load()))
        node.func = ast.Name("_lc_probe", ast.Load())
        tests.append(f"def {name}():\n    {ast.unparse(node)}\n")
    return _HELPER + "\n\n" + "\n\n".join(tests)


def sequence_calls(sources: Iterable[str | None], class_name: str | None) -> list[tuple[str, ...]]:
    """For a class under test: the tests' method calls on an instance, each with the statements
    before it (`c = Stack()`, `c.push(1)`, `c.pop()`), where the instance is made and every call
    made with literal arguments. A sequence ends at any other use of the instance. Calls whose
    value the test uses (`assert c.pop() == 1`) come first, then calls made for their effect
    (`c.push(1)`, which the later sequences replay anyway), MAX_PROBES in all: a test's
    checked calls are not crowded out by the calls that set them up."""
    if not class_name:
        return []
    used: dict[tuple[str, ...], None] = {}
    effect: dict[tuple[str, ...], None] = {}
    for source in sources:
        tree = parse(source) if source else None
        tests = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)] if tree else []
        for test in tests:
            for seq, call, stmt in sequences(test.body, class_name):
                if sum(map(len, seq)) <= MAX_CALL_CHARS:
                    bare = isinstance(stmt, ast.Expr) and stmt.value is call
                    (effect if bare else used).setdefault(seq, None)
                if len(used) == MAX_PROBES:
                    return list(used)
    return [*used, *(seq for seq in effect if seq not in used)][:MAX_PROBES]


def sequences(
    body: list[ast.stmt], class_name: str
) -> Iterator[tuple[tuple[str, ...], ast.Call, ast.stmt]]:
    """Each method call a test body makes on an instance of the class, in order: (the sequence
    up to and including it, as sequence_calls writes it, the call, the statement it is in)."""
    var, steps = "", []
    for stmt in body:
        made = _made(stmt, class_name)
        if made is not None:
            var, steps = made[0], [made[1]]
            continue
        if not var:
            continue
        calls = sorted(_method_calls(stmt, var), key=lambda c: (c.lineno, c.col_offset))
        uses = sum(isinstance(n, ast.Name) and n.id == var for n in ast.walk(stmt))
        if len(calls) != uses or any(call_arguments(c) is None for c in calls):
            var = ""  # the instance used otherwise: what follows is not a sequence we can replay
            continue
        for call in calls:
            text = _unparse(call)
            if text is None:
                var = ""
                break
            yield (*steps, text), call, stmt
            steps.append(text)


def _made(stmt: ast.stmt, class_name: str) -> tuple[str, str] | None:
    """(name, source) of `name = ClassName(literals)`; else None."""
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and literal_arguments(stmt.value, class_name) is not None
    ):
        text = _unparse(stmt)
        return (stmt.targets[0].id, text) if text else None
    return None


def _method_calls(stmt: ast.stmt, var: str) -> list[ast.Call]:
    return [
        n
        for n in ast.walk(stmt)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == var
    ]


def sequence_tests(sequences: list[tuple[str, ...]]) -> str | None:
    """A test file with one probe per sequence: the value of its last call, compared."""
    if not sequences:
        return None
    tests = []
    for i, seq in enumerate(sequences, start=1):
        *setup, last = seq
        lines = [f"        {line}" for line in setup] + [f"        return {last}"]
        body = "\n".join(lines)
        tests.append(
            f"def test_probe_{i}():\n    def _lc_steps():\n{body}\n\n    _lc_probe(_lc_steps)\n"
        )
    return _HELPER + "\n\n" + "\n\n".join(tests)


def behaviour(run: TestRun | None) -> dict[str, str] | None:
    """What a candidate returned on each probe, by test name: a digest that starts with `v` for a
    value and `x` for an exception; None when the probes did not run."""
    if run is None or run.error is not None or not run.results:
        return None
    out = {}
    for result in run.results:
        found = _DIGEST.findall(result.message)  # the last one: the harness's own line
        out[result.name] = found[-1] if found else "?"
    return out


def shown(run: TestRun | None) -> dict[str, str]:
    """What a candidate returned on each probe, as a short repr for people and the judge (the
    digest in `behaviour` is what compares); empty when the probes did not run."""
    if run is None or run.error is not None:
        return {}
    out = {}
    for result in run.results:
        found = _SHOWN.findall(result.message)
        if found:
            out[result.name] = found[-1].strip()
    return out
