"""Tasks that say a call must leave its input unchanged (task.keeps_inputs): the checks, and
the mend of a candidate that fails them.

The checks call the function under test on the literal arguments of each call the tests make,
and on those calls with every list argument reversed (an input already in order hides a sort in
place), and fail where a list, dict or set it was passed differs afterwards. Only inputs come
from the tests, never an expected value: a check is as trusted as the task's words, and ranks as
one of the task's examples (ranking.anchored). A call that raises passes; what it raises is for
the tests to judge.

A candidate whose only fault there is that it changes its input is mended without the model
(`mend`): its parameters are copied on entry. What it returns stays the same, so a right program
that sorts the caller's list is not lost to a wrong one that does not.
"""

from __future__ import annotations

import ast
import re

from .extract import call_arguments, literal_arguments, parse
from .sandbox.harness import RAISED_NOTE
from .sandbox.records import TestRun

_KEEPS_HELPER = """import copy as _lc_copy
import os as _lc_os


def _lc_short(value):
    text = " ".join(repr(value).splitlines())
    return text if len(text) <= 160 else text[:157] + "..."


def _lc_raised(exc):
    # as harness.solution_raised: rebuilt from the solution's process, or raised in solution.py
    notes = getattr(exc, "__notes__", None) or ()
    if any(isinstance(n, str) and n.startswith(RAISED_NOTE) for n in notes):
        return True
    tb = exc.__traceback__
    while tb is not None:
        if _lc_os.path.basename(tb.tb_frame.f_code.co_filename) == "solution.py":
            return True
        tb = tb.tb_next
    return False


def _lc_keeps(_lc_function, _lc_call, /, *args, **kwargs):
    before = _lc_copy.deepcopy((args, kwargs))
    try:
        value = _lc_function(*args, **kwargs)
        if hasattr(value, "__next__"):  # a generator changes its arguments as it runs
            value = list(value)
    except Exception as exc:
        if _lc_raised(exc):
            return  # what the call raises is for the other tests to judge
        raise  # the harness's own trouble (the solution process died): no pass
    if value is None:
        return  # a call that returns nothing and changes its input is an operation in place
    changed = [
        (str(i + 1), old, new) for i, (old, new) in enumerate(zip(before[0], args)) if old != new
    ]
    changed += [(k, before[1][k], v) for k, v in kwargs.items() if before[1][k] != v]
    if changed:
        said = "; ".join(
            "argument " + where + " from " + _lc_short(old) + " to " + _lc_short(new)
            for where, old, new in changed
        )
        raise AssertionError(
            _lc_call + " changed its " + said + "; the task says a call must leave its input "
            "unchanged"
        )
""".replace("RAISED_NOTE", repr(RAISED_NOTE))


def keep_tests(calls: list[str], entry_point: str | None) -> str | None:
    """A test file that calls the entry point on each call's literal arguments and fails where
    a list, dict or set it was passed differs afterwards (`test_keeps_input_1..n`): for a task
    that says its input must not change (task.keeps_inputs). Only inputs are taken from the
    calls, never an expected value, so it is as trusted as the task's words; a call that
    raises passes (the tests judge that). None when no call passes a list, dict or set, or
    when the entry point is a class (see keep_sequence_tests)."""
    if not entry_point or entry_point[:1].isupper():
        return None
    checks = [_keeps(call, [], entry_point) for call in _with_reversed(calls)]
    return _keep_file([c for c in dict.fromkeys(checks) if c])


def keep_sequence_tests(sequences: list[tuple[str, ...]]) -> str | None:
    """The same for a class: each method call of sequence_calls that passes a list, dict or
    set, made after the calls before it, checked for leaving it as it was."""
    checks = [
        _keeps(last, list(seq[:-1]), None)
        for seq in sequences
        for last in _with_reversed(list(seq[-1:]))
    ]
    return _keep_file([c for c in dict.fromkeys(checks) if c])


def _keeps(call: str, setup: list[str], entry_point: str | None) -> str | None:
    """A test body: `setup`, then `call` made through _lc_keeps; None when it passes nothing
    a call could change."""
    node = _call(call)
    if node is None or (entry_point is None and not isinstance(node.func, ast.Attribute)):
        return None
    found = literal_arguments(node, entry_point) if entry_point else call_arguments(node)
    if found is None or not any(
        isinstance(v, (list, dict, set)) for v in [*found[0], *found[1].values()]
    ):
        return None
    shown = call if len(call) <= 160 else call[:157] + "..."
    node.args[:0] = [node.func, ast.Constant(shown)]
    node.func = ast.Name("_lc_keeps", ast.Load())
    return "\n".join(f"    {line}" for line in [*setup, ast.unparse(node)])


def _keep_file(bodies: list[str]) -> str | None:
    if not bodies:
        return None
    tests = [f"def test_keeps_input_{i}():\n{body}\n" for i, body in enumerate(bodies, 1)]
    return _KEEPS_HELPER + "\n\n" + "\n\n".join(tests)


def _with_reversed(calls: list[str]) -> list[str]:
    """Each call, then the same call with every list literal it passes reversed (where that
    changes it)."""
    out: list[str] = []
    for call in calls:
        out.append(call)
        node = _call(call)
        if node is None:
            continue
        values = [*node.args, *(k.value for k in node.keywords)]
        lists = [v for v in values if isinstance(v, ast.List) and len(v.elts) > 1]
        for value in lists:
            value.elts.reverse()
        turned = ast.unparse(node) if lists else call
        if turned != call:
            out.append(turned)
    return out


def _call(text: str) -> ast.Call | None:
    """`text` parsed, if it is one call; None otherwise, or where it cannot be parsed."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # a huge int, deep nesting
        return None
    return node if isinstance(node, ast.Call) else None


MEND_NOTE = "the task says a call must leave its input unchanged"


def changed_arguments(run: TestRun | None) -> dict[str, set[str]]:
    """The arguments the failed checks of `run` name as changed, by the function or method
    called (`f`, or `summary` for `s.summary(...)`): a position from 1 (after `self`), or a
    keyword's name."""
    out: dict[str, set[str]] = {}
    for result in run.failures() if run else []:
        said = _SAID.search(result.message)
        if said:
            out.setdefault(said.group(1), set()).update(_CHANGED.findall(said.group(0)))
    return out


_SAID = re.compile(r"AssertionError: (?:[A-Za-z_]\w*\.)?([A-Za-z_]\w*)\(.*? changed its .*")
_CHANGED = re.compile(r"\bargument (\w+) from ")


def mend(code: str, entry_point: str | None, changed: dict[str, set[str]]) -> str | None:
    """`code` with the parameters a check saw `changed` (changed_arguments) deep-copied on
    entry to the function, or to the class's methods, so that no call changes what it was
    passed; None where that cannot be done plainly: no such top-level function or class,
    none of its parameters named there, a body on the `def` line, a function that calls itself
    (its calls may share what they are passed), or both `copy` and `deepcopy` names of the
    code's own."""
    tree = parse(code)
    how = _deepcopy(tree) if tree else None
    top = [n for n in tree.body if getattr(n, "name", None) == entry_point] if tree else []
    if how is None or not top:
        return None
    if isinstance(top[-1], ast.ClassDef):
        methods = {n.name: n for n in top[-1].body if isinstance(n, _FUNCTIONS)}
        targets = [(methods[m], names, True) for m, names in changed.items() if m in methods]
    elif isinstance(top[-1], _FUNCTIONS) and entry_point in changed:
        targets = [(top[-1], changed[entry_point], False)]
    else:
        return None
    lines = code.splitlines(keepends=True)
    inserts = [_copy_line(fn, names, method, lines, how[0]) for fn, names, method in targets]
    if not inserts or None in inserts:
        return None
    for at, line in sorted((i for i in inserts if i), reverse=True):
        lines.insert(at, line)
    first = min([top[-1].lineno, *(d.lineno for d in top[-1].decorator_list)]) - 1
    text = "".join([*lines[:first], *([f"{how[1]}\n\n\n"] if how[1] else []), *lines[first:]])
    return text if parse(text) is not None else None


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _copy_line(
    fn: ast.FunctionDef | ast.AsyncFunctionDef,
    changed: set[str],
    method: bool,
    lines: list[str],
    call: str,
) -> tuple[int, str] | None:
    """Where in `lines` the copy of `fn`'s changed parameters goes, and the line itself."""
    if _calls_itself(fn):
        return None
    positional = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    static = any(getattr(d, "id", "") == "staticmethod" for d in fn.decorator_list)
    if method and not static:
        positional = positional[1:]  # self (or cls): the call does not pass it
    every = [*positional, *(a.arg for a in fn.args.kwonlyargs)]
    named = {
        positional[int(c) - 1] for c in changed if c.isdigit() and 0 < int(c) <= len(positional)
    }
    names = [n for n in every if n in named or n in changed]
    body = fn.body[1:] if ast.get_docstring(fn, clean=False) is not None else fn.body
    if not names or not body or body[0].lineno == fn.lineno:
        return None
    first = body[0]
    indent = lines[first.lineno - 1][: first.col_offset]
    if indent.strip():  # the statement shares its line with another: no plain place for ours
        return None
    value = names[0] if len(names) == 1 else f"({', '.join(names)})"
    return first.lineno - 1, f"{indent}{', '.join(names)} = {call}({value})  # {MEND_NOTE}\n"


def _deepcopy(tree: ast.Module) -> tuple[str, str] | None:
    """How the code can call copy.deepcopy: (the call, the import it needs, if any). None where
    the code gives both `copy` and `deepcopy` other meanings."""
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    has_copy = any(
        a.name == "copy" and not a.asname for n in top if isinstance(n, ast.Import) for a in n.names
    )
    has_deepcopy = any(
        n.module == "copy" and a.name == "deepcopy" and not a.asname
        for n in top
        if isinstance(n, ast.ImportFrom)
        for a in n.names
    )
    if not _binds(tree, "copy"):
        return "copy.deepcopy", "" if has_copy else "import copy"
    if not _binds(tree, "deepcopy"):
        return "deepcopy", "" if has_deepcopy else "from copy import deepcopy"
    return None


def _binds(tree: ast.Module, name: str) -> bool:
    """`name` is bound in the code to something other than what `import copy` or `from copy
    import deepcopy` binds it to."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, ast.arg) and node.arg == name:
            return True
        if getattr(node, "name", None) == name and not isinstance(node, ast.alias):
            return True  # a def or class of that name
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                plain = (
                    isinstance(node, ast.Import) and alias.name == "copy"
                    if name == "copy"
                    else isinstance(node, ast.ImportFrom) and node.module == "copy"
                )
                if bound == name and not (plain and not alias.asname):
                    return True
    return False


def _calls_itself(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A call of its own name, or of `self.<its name>`."""
    return any(
        isinstance(n, ast.Call)
        and (
            (isinstance(n.func, ast.Name) and n.func.id == fn.name)
            or (isinstance(n.func, ast.Attribute) and n.func.attr == fn.name)
        )
        for n in ast.walk(fn)
    )
