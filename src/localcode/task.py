"""Reading a task: plain sentence, or a function signature with a docstring."""

from __future__ import annotations

import ast
import builtins
import itertools
import re
import sys
import textwrap
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from .errors import TaskError
from .extract import MAX_SOURCE_CHARS, bound_names, closing, literal_call, parse, test_names

_BACKTICK_CALL = re.compile(r"`([A-Za-z_]\w*)\s*\(")
# "a class `Stack`", "class Stack", "a `Stack` class"
_CLASS = re.compile(r"\bclass\s+`?([A-Z]\w*)\b|`([A-Z]\w*)`\s+class\b")
# ... the same, asked for: "write a class `LRUCache`", "implement a `MinStack` class"
_CLASS_ASKED = re.compile(
    rf"\b(?i:write|implement|design|create|build|define|make|code|need|want)\b[^.\n`]*?(?:{_CLASS.pattern})"
)
_LINE_END = re.compile(r"(?<=\n)|(?<=\r)(?!\n)")
# a definition at the start of a line, with its indent: `def f(`, `async def f(`, `class C:`
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEF = re.compile(r"^([ \t]*)(?:async[ \t]+)?(def|class)[ \t]+([A-Za-z_]\w*)\s*[(:]", re.M)
# an example line of a sentence task: `assert f(3) == 9`, or `f(3) == 9` / `f(3) -> 9` / `f(3) => 9`
_ASSERT_LINE = re.compile(r"^\s*assert\b(.{1,1000})$", re.M)
# a call's name (not a method's), then what may follow its closing parenthesis when an example
# shows its result: `f(3) == 9`, `f(3) -> 9`, `f(3) returns 9`, `f(3) should return 9`
_CALL_START = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\(")
_SHOWN_AFTER = re.compile(r"\s*(?:==|->|=>|➞|→|returns\b|should\s+return\b)")
_INLINE_ASSERT = re.compile(r"\bassert\s+([A-Za-z_]\w*)\(")
MAX_SCANNED = 20_000  # characters of a task read for an example's call
MAX_ARGUMENTS = 1_000  # characters between a call's parentheses
MAX_CALLS_SCANNED = 200  # calls looked at, so that reading a task stays linear


@dataclass(frozen=True)
class Task:
    """A task and the name of the function it asks for, when one can be told."""

    text: str
    entry_point: str | None = None
    # the task's code, a signature with a docstring (or a class's): the whole text when it is
    # code, or the fenced block of a task that wraps it in prose and defines the entry point
    code: str = ""

    @property
    def is_signature(self) -> bool:
        """The task gives the entry point as code."""
        return bool(self.code)

    @property
    def is_class(self) -> bool:
        """The entry point is a class (a capitalised name): its cases are method-call sequences."""
        return self.entry_point is not None and self.entry_point[:1].isupper()


def parse_task(text: str, entry_point: str | None = None) -> Task:
    """Validate a task and find its entry point: the last outermost `def` or `class` of its
    code (a signature, a class skeleton), else a `name(` in backticks, a class it asks for,
    or the function its example lines call."""
    if not text or not text.strip():
        raise TaskError("The task is empty; pass --task 'what to write' or --task-file FILE.")
    text = text.strip("\n")
    definitions = _DEF.findall(text)
    if definitions:
        is_code = _looks_like_code(text)
        last = _last_definition(definitions)
        if not is_code:
            # prose around code: a function it asks for in backticks and does not define
            # ("given this class, write `reverse(head)`", "write `g(x)` using this helper")
            # before what the code defines; a builtin it speaks of (`len(xs)`) is not one
            defined = {n for _, _, n in definitions}
            calls = (m.group(1) for m in _BACKTICK_CALL.finditer(text))
            last = next((c for c in calls if c not in defined and c not in _BUILTINS), last)
        entry = entry_point or last
        return Task(text, entry, code=text if is_code else _fenced_definition(text, entry))
    # a class the task asks to be written, before any call in backticks ("write a class
    # `LRUCache` with `get(key)`"); a class it only uses ("given a `Node` class, write
    # `reverse(head)`") gives way to the call
    call, asked = _BACKTICK_CALL.search(text), _CLASS_ASKED.search(text)
    if asked and (call is None or asked.start() < call.start()):
        found: re.Match[str] | None = asked
    else:
        found = call or _CLASS.search(text)
    name = next((g for g in found.groups() if g), None) if found else None
    return Task(text, entry_point or name or _example_name(text))


# a fenced block of code in a task's prose: ```python ... ``` (or ```py, or no language)
_FENCE = re.compile(r"^[ \t]*```[ \t]*(?:python3?|py)?[ \t]*\n(.*?)^[ \t]*```", re.M | re.S)


def _fenced_definition(text: str, name: str) -> str:
    """The first fenced block of `text` that is code defining `name` at its top level ("" if
    none): "Implement this function:" and a ```python block read as the signature they give
    (its docstring's examples, its imports), and not a docstring's closing quotes and the fence
    taken for lines of an example's result."""
    span = _fenced_span(text, name)
    return textwrap.dedent(text[span[0] : span[1]]).strip("\n") if span else ""


def given_code(task: Task) -> str:
    """The entry point written out in full in the task, "" if it is not: a user who pastes
    their function ("It returns 5 for [5, 5, 3], not 3. Fix it." and the `def`, fenced or
    not) gives code to start from, as `--code` does. A signature or a class skeleton is not
    code to start from: a function whose body is only a docstring, `pass`, `...`, imports or
    `raise NotImplementedError`, or a class with such a method (or none), is a stub. The code
    is the task's fenced block that defines it, the whole task when it is code, else its
    definition's lines in the prose with the imports, helpers and constants just above them."""
    found = _given(task)
    return found.code if found else ""


def as_specification(task: Task) -> str:
    """The task's text with the body of its given code's entry point left out (`...` after
    its docstring; each method's, for a class): what the model is shown of a task that writes
    its function out in full (given_code). Shown the code, the 1.5B copies it: asked to fix a
    function that mishandles duplicates, all 8 candidates of two rounds, fixes and fresh
    samples, were the function as given; shown only its signature and the task's words, the
    greedy reply was right. The text as it is where there is no given code, or a one-line
    definition (`def f(x): return x`) has no body to leave out."""
    found = _given(task)
    if found is None:
        return task.text
    lines = _NEWLINE.split(found.code)  # numbered as ast numbers them
    for node in reversed(found.bodies):
        body = [b for b in node.body if not _stub(b)]
        if not body or body[0].lineno == node.lineno:
            return task.text
        start, end = body[0].lineno, node.end_lineno or body[-1].lineno
        indent = lines[start - 1][: len(lines[start - 1]) - len(lines[start - 1].lstrip())]
        lines[start - 1 : end] = [f"{indent}..."]
    shown = textwrap.indent("\n".join(lines), found.prefix, lambda line: bool(line.strip()))
    return task.text[: found.start] + shown + task.text[found.end :]


def asks_for_change(task: Task) -> bool:
    """Whether the words around the code a task writes out ask for its behaviour to change:
    a fix ("fix", "bug", "wrong", "crashes", "fails", "doesn't work"), or what it should do
    ("should", "supposed to", "expected", "instead"). A task that is only code says nothing
    either way (its docstring states what the code is for, not that it is wrong)."""
    found = _given(task)
    if found is None:
        return False
    words = task.text[: found.start] + "\n" + task.text[found.end :]
    return _CHANGE.search(words) is not None


_CHANGE = re.compile(
    r"\b(?:fix\w*|bugs?|buggy|wrong\w*|incorrect\w*|broken|crash\w*|errors?|fail\w*|"
    r"(?:does|do|is|are)\s*n[o']t\s+work\w*|not\s+working|should|supposed|expected|instead)\b",
    re.I,
)


def keeps_inputs(task: Task) -> bool:
    """Whether the task says a call must leave what it is passed as it was. One sentence says
    so: it rules out side effects ("no side effects", "non-destructively"), or it both forbids a
    change ("must not be modified", "without mutating", "rather than changing", "don't touch",
    "left as is", "unchanged", "intact", "read-only", "stay the same", "not in place") and
    names what it is about (the input, an argument, the caller's or given or original one, what
    is passed in, a list, dict, array or set: "leave the caller's list unchanged", "don't
    change the given array"). A task that asks elsewhere for a change in place ("sort the list
    in place", "the same list object", "change the list I pass in") says the opposite."""
    names, text = _parameter_names(task), task.text
    if task.entry_point:  # its call or signature names them, but says nothing of them
        text = _call_of(task.entry_point).sub(" ", text)
    sentences = _SENTENCE_END.split(text)
    named = re.compile(rf"\b(?:{'|'.join(map(re.escape, names))})\b") if names else None
    return any(
        _NO_SIDE_EFFECTS.search(s)
        or (
            (_NO_CHANGE.search(s) or _KEPT.search(s))
            and (_ARGUMENT.search(s) or (named is not None and named.search(s)))
        )
        for s in sentences
    ) and not any(_changes_in_place(s) for s in sentences)


def _parameter_names(task: Task) -> list[str]:
    """The entry point's parameters, as the task writes its call or signature: `f(deck, n)`."""
    if not task.entry_point:
        return []
    names: list[str] = []
    for found in itertools.islice(_call_of(task.entry_point).finditer(task.text), 20):
        for part in found.group(1).split(","):
            name = re.match(r"\s*\*{0,2}([A-Za-z_]\w*)\s*(?:[:=]|$)", part)
            if name and name.group(1) not in ("self", "cls") and name.group(1) not in names:
                names.append(name.group(1))
    return names


def _call_of(name: str) -> re.Pattern[str]:
    """`name(...)` as the task writes its call or signature; group 1 is what the brackets hold."""
    return re.compile(rf"\b{re.escape(name)}\s*\(([^()]{{0,300}})\)")


def _changes_in_place(sentence: str) -> bool:
    """The sentence asks for its argument to be changed: "in place" or "the same list object"
    with no negation before it, or a change of what the caller passes in."""
    return any(
        not _NEGATED_BEFORE.search(sentence[: found.start()])
        for pattern in (_IN_PLACE, _CHANGE_PASSED)
        for found in pattern.finditer(sentence)
    )


_NEGATION = r"(?:\bnot|\bnever|n't|\bwithout|\brather\s+than|\binstead\s+of|\bavoid\w*)"
_NO_CHANGE = re.compile(
    rf"{_NEGATION}\s+(?:\w+\s+){{0,3}}?"
    r"(?:modif|mutat|chang|alter|touch|destroy|clobber|overwrit)\w*",
    re.I,
)
_KEPT = re.compile(
    r"\b(?:unchanged|unmodified|untouched|intact|unaltered|pristine|read[\s-]only|as[\s-]is\b|"
    r"as\s+(?:it|they)\s+(?:was|were|is|are)\b|"
    r"(?:stays?|remains?|be\s+left)\s+(?:the\s+)?same\b|same\s+(?:as|like)\s+before\b)|"
    rf"{_NEGATION}\s+(?:\w+\s+){{0,3}}?in[\s-]place\b",
    re.I,
)
_NO_SIDE_EFFECTS = re.compile(
    r"\bnon-?destructive\w*|\bside[\s-]effect[\s-]free\b|"
    rf"(?:{_NEGATION}|\bno|\bfree\s+of|\bzero)\s+(?:\w+\s+){{0,2}}?side[\s-]effects?\b",
    re.I,
)
_IN_PLACE = re.compile(r"\bin[\s-]place\b|\b(?:same|very)\s+(?:\w+\s+)?object\b", re.I)
_CHANGE_PASSED = re.compile(
    r"\b(?:modif|mutat|chang|alter|updat)\w*\s+(?:\w+\s+){0,3}?"
    r"(?:(?:I|you)\s+(?:pass|give)|passed\s+in)\b",
    re.I,
)
# a negation a few words before: "not in place", "don't sort it in place", "rather than changing"
_NEGATED_BEFORE = re.compile(rf"{_NEGATION}\s+(?:\S+\s+){{0,4}}$", re.I)
_ARGUMENT = re.compile(
    r"\b(?:inputs?|arguments?|args|parameters?|caller'?s?|pass(?:ed)?[\s-]in|original(?!\s+order)|"
    r"I\s+(?:give|pass|send|provide)|in[\s-]place|lists?|dicts?|dictionar(?:y|ies)|arrays?|"
    r"sets?|sequences?|matri(?:x|ces)|grids?|rows|sublists?|mappings?|collections?)\b",
    re.I,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n[ \t]*\n")


@dataclass(frozen=True)
class _Given:
    """Code a task writes out in full: the code, where its lines stand in the text (from
    `start` to `end`), the indent taken off them, and the functions whose bodies make it
    more than a stub (the entry point, or a class's methods)."""

    code: str
    start: int
    end: int
    prefix: str
    bodies: list[ast.FunctionDef | ast.AsyncFunctionDef]


def _given(task: Task) -> _Given | None:
    name = task.entry_point
    if not name:
        return None
    if task.code == task.text:  # the task is code
        span: tuple[int, int] | None = (0, len(task.text))
    else:
        span = _fenced_span(task.text, name) if task.code else _prose_span(task.text, name)
    if span is None:
        return None
    start, end = span
    raw = task.text[start:end]
    code = textwrap.dedent(raw.rstrip()).strip("\r\n")
    tree = parse(code)
    found = [n for n in tree.body if isinstance(n, _DEFINITIONS) and n.name == name] if tree else []
    if not found or not _implemented(found[-1]):
        return None
    node = found[-1]
    bodies = (
        [n for n in node.body if isinstance(n, _FUNCTIONS)]
        if isinstance(node, ast.ClassDef)
        else [node]
    )
    first = next(line for line in _NEWLINE.split(raw) if line.strip())
    prefix = first[: len(first) - len(first.lstrip())]
    # the code's place in the text: its first and last lines, without the blank ones around
    lead = len(raw) - len(raw.lstrip("\r\n"))
    return _Given(code, start + lead, start + len(raw.rstrip()), prefix, bodies)


def _fenced_span(text: str, name: str) -> tuple[int, int] | None:
    """Where the first fenced block that defines `name` at its top level stands in `text`."""
    for block in _FENCE.finditer(text):
        code = textwrap.dedent(block.group(1)).strip("\n")
        tree = parse(code) or parse(code + "\n    pass\n")
        if tree and any(isinstance(n, _DEFINITIONS) and n.name == name for n in tree.body):
            return block.start(1), block.end(1)
    return None


# what code pasted above the function it asks about may hold: its imports, helpers, constants
_CODE_ABOVE = (ast.Import, ast.ImportFrom, *_DEFINITIONS, ast.Assign, ast.AnnAssign)
MAX_LINES_ABOVE = 60
_LINES = re.compile(r"[^\n]*\n|[^\n]+$")
_NEWLINE = re.compile(r"\r\n|\r|\n")  # where ast counts a new line (not "\f", as splitlines does)


def _prose_span(text: str, name: str) -> tuple[int, int] | None:
    """Where the last outermost `def name`/`class name` stands in prose: its header, every line
    after it that is blank or indented deeper, and the most lines just above it that make code
    of imports, helpers and constants with it (a sentence does not parse as those)."""
    heads = [m for m in _DEF.finditer(text) if m.group(3) == name]
    if not heads:
        return None
    lines = _LINES.findall(text)  # split where _DEF's `^` can match: after "\n" only
    offsets = list(itertools.accumulate((len(line) for line in lines), initial=0))
    h = offsets.index(heads[-1].start())
    indent = len(heads[-1].group(1).expandtabs())
    last = h
    for k in range(h + 1, len(lines)):
        line = lines[k]
        if line.strip() and len(line.expandtabs()) - len(line.expandtabs().lstrip()) <= indent:
            break
        last = k
    end, first = offsets[last + 1], h
    for k in range(h - 1, max(-1, h - 1 - MAX_LINES_ABOVE), -1):
        tree = parse(textwrap.dedent(text[offsets[k] : end]))
        if tree and tree.body and all(isinstance(n, _CODE_ABOVE) for n in tree.body):
            first = k
    return offsets[first], end


def _implemented(node: ast.stmt) -> bool:
    """A function with a body beyond a stub's, or a class whose every method has one."""
    if isinstance(node, ast.ClassDef):
        methods = [n for n in node.body if isinstance(n, _FUNCTIONS)]
        return bool(methods) and all(_implemented(m) for m in methods)
    body = getattr(node, "body", [])
    return any(not _stub(stmt) for stmt in body)


def _stub(stmt: ast.stmt) -> bool:
    """A docstring, `pass`, `...`, an import, or `raise NotImplementedError` (called or not):
    nothing a stub's caller could tell from not being there (HumanEval/115's signature imports
    math before its docstring)."""
    if isinstance(stmt, ast.Pass | ast.Import | ast.ImportFrom):
        return True
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
        return isinstance(stmt.value.value, str) or stmt.value.value is Ellipsis
    if isinstance(stmt, ast.Raise) and stmt.exc is not None:
        exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
        return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"
    return False


def _last_definition(found: list[tuple[str, str, str]]) -> str:
    """Of the definitions _DEF found (indent, kind, name), the last at the outermost indent:
    a class's methods are not what a task asks for (a class skeleton names its class), and a
    function given after a class it uses names the function."""
    outer = min(len(indent.expandtabs()) for indent, _, _ in found)
    return next(n for i, _, n in reversed(found) if len(i.expandtabs()) == outer)


def _example_name(text: str) -> str | None:
    """The function a sentence task's examples call: the first name an `assert` line calls
    that is not a builtin (`assert set(f(x)) == ...` names f), else the first non-builtin call
    that a shown result follows, on a line of its own or inside a sentence ("for example,
    `f(3) -> 9`", "... assert f(3) == 9")."""
    for line in _ASSERT_LINE.findall(text):
        tree = parse(line.strip())
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)] if tree else []
        for call in sorted(calls, key=lambda c: (c.lineno, c.col_offset)):
            if isinstance(call.func, ast.Name) and call.func.id not in _BUILTINS:
                return call.func.id
    text = text[:MAX_SCANNED]
    for found in itertools.islice(_INLINE_ASSERT.finditer(text), MAX_CALLS_SCANNED):
        name, end = found.group(1), _arguments_end(text, found.end() - 1)
        if name not in _BUILTINS and end and _written_as_code(text[found.start(1) : end], name):
            return name
    for found in itertools.islice(_CALL_START.finditer(text), MAX_CALLS_SCANNED):
        name, end = found.group(1), _arguments_end(text, found.end() - 1)
        if name in _BUILTINS or not end or not _SHOWN_AFTER.match(text, end):
            continue
        line = text[text.rfind("\n", 0, found.start()) + 1 : found.start()]
        if not line.strip() or _written_as_code(text[found.start() : end], name):  # a line of
            return name  # its own, or a call inside a sentence an example test can be made of
    return None


def _arguments_end(text: str, paren: int) -> int | None:
    """Just past the bracket that closes the one at `paren`, within MAX_ARGUMENTS characters."""
    return closing(text, paren, paren + MAX_ARGUMENTS)


def _written_as_code(call: str, name: str) -> bool:
    """Whether `call` is written as code is, `name(` with no space, with literal arguments
    only: `sq(3)`, not prose such as "the input n (a number)"."""
    return call.startswith(name + "(") and literal_call(call, name) is not None


_BUILTINS = frozenset(dir(builtins))


def with_preamble(task: Task, code: str) -> str:
    """`code` with what a signature task defines around its entry point and the code lacks.

    A task given as code may import names (`from typing import List`) or define helpers
    (`def is_palindrome(s)`) that the requested function relies on; a model often writes just
    the function. Those pieces are put in front, unless the code defines or imports them itself.
    """
    if not task.is_signature or not code.strip():
        return code
    defined = bound_names(code)
    missing = [src for names, src in _preamble(task) if not names <= defined and src not in code]
    return "\n\n".join([*missing, code]) if missing else code


def _preamble(task: Task) -> list[tuple[set[str], str]]:
    """Top-level statements of a signature task other than the entry point: (names, source)."""
    tree = parse(task.code)
    source = task.code
    if tree is None:
        source = task.code + "\n    pass\n"
        tree = parse(source)
    pieces = []
    for node in tree.body if tree else []:
        if isinstance(node, _DEFINITIONS) and node.name == task.entry_point:
            continue
        if isinstance(node, ast.Expr):  # a module docstring or a stray expression
            continue
        segment = ast.get_source_segment(source, node)
        if segment:
            pieces.append((bound_names(segment), segment))
    return pieces


def _looks_like_code(text: str) -> bool:
    """A signature with a docstring parses, as it is or once a body is added."""
    return parse(text + "\n    pass\n") is not None or parse(text) is not None


def read_text_file(path: str, what: str) -> str:
    """Read a user's file, or raise TaskError saying why it can't be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TaskError(f"{what} '{path}' does not exist.") from None
    except IsADirectoryError:
        raise TaskError(f"{what} '{path}' is a directory, not a file.") from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise TaskError(f"Can't read {what.lower()} '{path}': {reason}.") from None


def validate_user_tests(tests: str) -> str:
    """The user's pytest tests, checked: they parse and hold at least one test function."""

    _check_parses(tests, "tests")
    if not test_names(tests):
        raise TaskError(
            "No test functions found in the tests; name them test_... at the top level."
        )
    return tests


def import_solution(
    tests: str, code: str = "", names: Collection[str] = (), modules: Collection[str] = ()
) -> str:
    """The user's tests with their imports of the code under test pointed at `solution`, the
    module the runner provides: `from mycode import f` becomes `from solution import f` and
    `import mycode` becomes `import solution as mycode`, where mycode is one of `modules` or a
    module (not the standard library's) that `f` is imported from, `f` being one of `names` or a
    name `code` defines (not one it imports). Only those words change, so every line keeps its
    number; a line the rewrite would break is left alone."""
    tree = parse(tests)
    if tree is None:
        return tests
    ours_names = set(names) | bound_names(code, imports=False)
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    named = {
        n.module
        for n in imports
        if isinstance(n, ast.ImportFrom) and n.module and not n.level
        if ours_names & {a.name for a in n.names}
    }
    ours = set(modules) | {m for m in named if m.split(".")[0] not in sys.stdlib_module_names}
    ours.discard("solution")
    lines = _LINE_END.split(tests)  # as the parser counts lines
    for node in sorted(imports, key=lambda n: (n.lineno, n.col_offset), reverse=True):
        line = lines[node.lineno - 1].encode()  # the parser's columns count bytes
        try:
            head, rest = line[: node.col_offset].decode(), line[node.col_offset :].decode()
        except UnicodeDecodeError:  # its lines and these disagree: leave this one alone
            continue
        if isinstance(node, ast.ImportFrom) and node.module in ours and not node.level:
            pattern, to = rf"from\s+{re.escape(node.module)}(?=\s)", "from solution"
        elif (
            isinstance(node, ast.Import)
            and len(node.names) == 1
            and node.names[0].name in ours
            and ("." not in node.names[0].name or node.names[0].asname)  # `as a.b` is no name
        ):
            alias = node.names[0]
            pattern = rf"import\s+{re.escape(alias.name)}(\s+as\s+\w+)?(?=\s|;|#|$)"
            to = f"import solution as {alias.asname or alias.name}"
        else:
            continue
        lines[node.lineno - 1] = head + re.sub(pattern, to, rest, count=1)
    out = "".join(lines)
    return out if parse(out) is not None else tests


def validate_user_code(code: str) -> str:
    """The user's starting code, checked: not empty and it parses."""
    if not code.strip():
        raise TaskError("The code file is empty.")
    _check_parses(code, "code")
    return code


def _check_parses(source: str, what: str) -> None:
    if len(source) > MAX_SOURCE_CHARS:
        raise TaskError(
            f"The {what} file is over {MAX_SOURCE_CHARS // 1000} KB; that is not a test or a solution."
        )
    try:
        ast.parse(source)
    except SyntaxError as exc:
        verb = "has" if what == "code" else "have"
        raise TaskError(
            f"The {what} {verb} a syntax error at line {exc.lineno}: {exc.msg}."
        ) from None
    except (ValueError, MemoryError, RecursionError) as exc:
        raise TaskError(f"The {what} cannot be parsed: {type(exc).__name__}.") from None
