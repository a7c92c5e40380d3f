"""What the model sees and may replace: whole functions, methods or classes (or, named with
--files and nothing narrower found, a whole small file). A whole unit either parses or it does
not; small models break diff formats. Which units: the project's own code in the failing
tracebacks, innermost first, then the functions the failing tests call, then their helpers."""

from __future__ import annotations

import ast
import builtins
import difflib
import re
import textwrap
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from ..errors import UsageError
from ..extract import code_blocks, parse
from .outcomes import Outcomes, failing
from .workspace import Workspace

MAX_UNITS = 4
MAX_UNIT_CHARS = 9000  # all units together: ~2.5k tokens, so prompt and reply fit 8k tokens
MAX_INDEXED_FILES = 2000
LINE_MATCH = 0.6  # how alike a changed line must be to the line it replaces
_FRAME = re.compile(
    r'^\s*File "(?P<a>[^"]+)", line (?P<b>\d+)|^(?P<c>[^\s:"]+\.py):(?P<d>\d+):', re.M
)
_BUILTINS = set(dir(builtins))


@dataclass(frozen=True)
class Unit:
    """A replaceable piece of one file: `qualname` ("f", "Cls", "Cls.method"), or None for the file."""

    path: str
    qualname: str | None = None


def is_test_file(rel: str) -> bool:
    parts = rel.split("/")
    name = parts[-1]
    return (
        name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
        or any(p in ("tests", "test", "testing") for p in parts[:-1])
    )


def _node(text: str, qualname: str) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | None:
    tree = parse(text)
    return _find(tree.body, qualname.split(".")) if tree is not None else None


def _first_line(node: ast.AST) -> int:
    """A definition's first line: its first decorator's, else its own."""
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])  # type: ignore[attr-defined]


def span(text: str, qualname: str) -> tuple[int, int, str] | None:
    """First line (its decorators included), last line (1-based) and indent of `qualname`."""
    node = _node(text, qualname)
    if node is None or node.end_lineno is None:
        return None
    start = _first_line(node)
    line = text.splitlines()[start - 1]
    return start, node.end_lineno, line[: len(line) - len(line.lstrip())]


def holds(unit: Unit, text: str, line: int) -> bool:
    """`line` of the unit's file (whose text is `text`) is in the code shown as `unit`."""
    if unit.qualname is None:
        return True
    found = span(text, unit.qualname)
    return found is not None and found[0] <= line <= found[1]


def reader(ws: Workspace) -> Callable[[str], str]:
    """A project file's text by relative path, read once; '' for one that can't be read."""
    return _Texts(ws).get


def source(text: str, unit: Unit) -> str | None:
    if unit.qualname is None:
        return text
    found = span(text, unit.qualname)
    if found is None:
        return None
    start, end, _ = found
    return "\n".join(text.splitlines()[start - 1 : end]) + "\n"


def label(unit: Unit, text: str) -> str:
    if unit.qualname is None:
        return f"{unit.path} (the whole file)"
    node = _node(text, unit.qualname)
    lines = f", lines {_first_line(node)}-{node.end_lineno}" if node is not None else ""
    kind = "class" if isinstance(node, ast.ClassDef) else "function"
    return f"{unit.path}: {kind} {unit.qualname}{lines}"


def editable(ws: Workspace, files: Iterable[str] = ()) -> set[str]:
    """The files an edit may change: those named with --files, else the project's own Python
    files that are not tests."""
    named = list(files)
    return set(named) if named else {f for f in ws.python_files() if not is_test_file(f)}


def choose(
    ws: Workspace,
    outcomes: Outcomes,
    files: Iterable[str] = (),
    budget: int = MAX_UNIT_CHARS,
    suspects: Iterable[tuple[str, int]] = (),
) -> list[Unit]:
    """The units to show for these failures; a UsageError when none can be found or fits.
    Those that hold the `suspects` (path, line) come first (fix/locate.py), in their order."""
    named = list(files)
    allowed = editable(ws, named)
    texts = _Texts(ws)
    index = _index(sorted(allowed)[:MAX_INDEXED_FILES], texts)
    ordered: list[Unit] = []
    for rel, line in suspects:
        name = _enclosing(texts.get(rel), line) if rel in allowed else None
        if name:
            ordered.append(Unit(rel, name))
    for test_id in failing(outcomes):
        frames = _frames(ws, outcomes[test_id].message)
        o = outcomes[test_id]
        if o.file and o.line and ws.relative(o.file):
            frames.insert(0, (ws.relative(o.file) or "", o.line))  # the test itself: outermost
        for rel, line in reversed(frames):  # innermost first
            if rel in allowed:
                name = _enclosing(texts.get(rel), line)
                if name:
                    ordered.append(Unit(rel, name))
            else:
                ordered.extend(_called(texts.get(rel), line, index))
    ordered += [h for u in list(ordered) for h in _helpers(u, texts, index)]
    chosen = _within_budget(_unique(ordered), texts, budget)
    if not chosen and named:
        chosen = _within_budget([Unit(f) for f in named], texts, budget)
    if not chosen:
        hint = "name the file to edit with --files" if not named else "name a smaller file"
        raise UsageError(
            "Could not find the code the failing tests exercise in a size the model can read "
            f"({budget} characters at most); {hint}."
        )
    return chosen


def apply_reply(
    reply: str, units: list[Unit], texts: Mapping[str, str]
) -> tuple[dict[str, str], str]:
    """The edited files a reply makes (path -> new text), or {} and the reason it makes none."""
    code = "\n\n".join(code_blocks(reply)) or reply
    tree = parse(code)
    given = _definitions(tree) if tree is not None else {}
    if not any(_named(u, given) for u in units):
        return _line_edits(code, units, texts)
    assert tree is not None
    edits: dict[str, list[tuple[int, int, str, str]]] = {}
    new: dict[str, str] = {}
    for unit in units:
        text = texts[unit.path]
        if unit.qualname is None:
            new[unit.path] = code.rstrip() + "\n"
            continue
        node = _named(unit, given)
        found = span(text, unit.qualname)
        if node is None or found is None:
            continue
        start, end, indent = found
        replacement = _keep_docstring(_node_source(code, node), node, text, start, end)
        edits.setdefault(unit.path, []).append((start, end, indent, replacement))
    for path, spans in edits.items():
        lines = texts[path].splitlines()
        for start, end, indent, replacement in sorted(spans, reverse=True):
            lines[start - 1 : end] = textwrap.indent(replacement, indent).splitlines()
        new[path] = _with_imports("\n".join(lines) + "\n", tree, code)
    changed = {p: t for p, t in new.items() if t != texts[p]}
    if not new:
        return {}, "the reply replaces none of the functions shown"
    if not changed:
        return {}, "the reply changes nothing"
    broken = [p for p, t in changed.items() if parse(t) is None]
    if broken:
        return {}, f"the edit leaves {broken[0]} unparsable"
    return changed, ""


def _named(unit: Unit, given: dict[str, ast.AST]) -> ast.AST | None:
    if unit.qualname is None:
        return None
    return given.get(unit.qualname) or given.get(unit.qualname.rsplit(".", 1)[-1])


def _line_edits(
    code: str, units: list[Unit], texts: Mapping[str, str]
) -> tuple[dict[str, str], str]:
    """A reply of changed lines only: each replaces the most similar line of the units shown,
    keeping its indentation. Small models echo a whole function unchanged far less often when
    asked for the one line that changes."""
    spans = []
    for unit in units:
        found = (
            span(texts[unit.path], unit.qualname)
            if unit.qualname
            else (1, len(texts[unit.path].splitlines()), "")
        )
        if found:
            spans.append((unit.path, found[0], found[1]))
    lines = {p: texts[p].splitlines() for p, _, _ in spans}
    wanted = [ln for ln in code.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    if not wanted:
        return {}, "the reply has no code"
    changed = False
    for line in wanted:
        best, where = 0.0, None
        for path, start, end in spans:
            for i in range(start - 1, end):
                old = lines[path][i]
                if old.strip() == line.strip():
                    best, where = 1.0, None
                    break
                ratio = difflib.SequenceMatcher(None, old.strip(), line.strip()).ratio()
                if ratio > best:
                    best, where = ratio, (path, i)
            if best == 1.0:
                break
        if where is None or best < LINE_MATCH:
            continue
        path, i = where
        old = lines[path][i]
        lines[path][i] = old[: len(old) - len(old.lstrip())] + _keep_return(old, line.strip())
        changed = True
    if not changed:
        return {}, "the reply changes nothing"
    new = {p: "\n".join(ls) + "\n" for p, ls in lines.items()}
    new = {p: t for p, t in new.items() if t != texts[p]}
    broken = [p for p, t in new.items() if parse(t) is None]
    if broken:
        return {}, f"the edit leaves {broken[0]} unparsable"
    return new, ""


def _keep_return(old: str, new: str) -> str:
    """A changed line for `return <expression>` that gives only the expression (small models
    drop the keyword when they quote the part they fix) keeps the `return`."""
    if not old.lstrip().startswith("return ") or new.startswith("return"):
        return new
    try:
        ast.parse(new, mode="eval")
    except SyntaxError:
        return new
    return f"return {new}"


class _Texts:
    """Project files read once, by relative path; '' for one that can't be read."""

    def __init__(self, ws: Workspace) -> None:
        self.ws, self.cache = ws, {}  # type: ignore[var-annotated]

    def get(self, rel: str) -> str:
        if rel not in self.cache:
            try:
                self.cache[rel] = self.ws.read(rel)
            except (OSError, UnicodeDecodeError):
                self.cache[rel] = ""
        return self.cache[rel]


def _frames(ws: Workspace, message: str) -> list[tuple[str, int]]:
    frames = []
    for m in _FRAME.finditer(message):
        path, line = (m.group("a"), m.group("b")) if m.group("a") else (m.group("c"), m.group("d"))
        rel = ws.relative(path)
        if rel and rel.endswith(".py"):
            frames.append((rel, int(line)))
    return frames


def _find(
    body: list[ast.stmt], parts: list[str]
) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | None:
    for node in body:
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node.name == parts[0]
        ):
            if len(parts) == 1:
                return node
            if isinstance(node, ast.ClassDef):
                return _find(node.body, parts[1:])
    return None


def _enclosing(text: str, line: int) -> str | None:
    """The function (or method, as Cls.method) of `text` that holds `line`; a function nested in
    another counts as the outer one."""
    tree = parse(text)
    body, prefix = (tree.body if tree else []), ""
    while True:
        node = next((n for n in body if _holds(n, line)), None)
        if node is None:
            return prefix.rstrip(".") or None
        if not isinstance(node, ast.ClassDef):
            return prefix + getattr(node, "name", "")
        prefix, body = f"{prefix}{node.name}.", node.body


def _holds(node: ast.stmt, line: int) -> bool:
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False
    return _first_line(node) <= line <= (node.end_lineno or 0)


def _index(files: list[str], texts: _Texts) -> dict[str, list[Unit]]:
    """Bare name -> the units that define it: top-level functions and classes, and methods."""
    index: dict[str, list[Unit]] = {}
    for rel in files:
        tree = parse(texts.get(rel))
        for node in tree.body if tree else []:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                index.setdefault(node.name, []).append(Unit(rel, node.name))
            if isinstance(node, ast.ClassDef):
                for sub in node.body:
                    if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        index.setdefault(sub.name, []).append(Unit(rel, f"{node.name}.{sub.name}"))
    return index


def _called(text: str, line: int, index: dict[str, list[Unit]]) -> list[Unit]:
    """Units the test at `line` uses: what that line calls, then the rest of its function, then
    the names its class sets (`Cache = LRUCache`), then what its module imports."""
    tree = parse(text)
    if tree is None:
        return []
    test, cls = None, None
    for node in ast.walk(tree):  # outside in, so the innermost wins
        if _holds(node, line):  # type: ignore[arg-type]
            if isinstance(node, ast.ClassDef):
                cls = node
            else:
                test = node
    on_line = [n for n in ast.walk(test or tree) if getattr(n, "lineno", None) == line]
    names = (
        _call_names(on_line) + _call_names([test] if test else []) + _names([test] if test else [])
    )
    if cls is not None:
        names += _names(
            [n for n in cls.body if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        )
    names += [a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names]
    local = (
        {n.id for n in ast.walk(test) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        if test
        else set()
    )
    return _resolve([n for n in names if n not in local], index)


def _call_names(nodes: Iterable[ast.AST]) -> list[str]:
    names = []
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                f = sub.func
                names.append(
                    f.id
                    if isinstance(f, ast.Name)
                    else f.attr
                    if isinstance(f, ast.Attribute)
                    else ""
                )
    return [n for n in names if n and n not in _BUILTINS]


def _names(nodes: Iterable[ast.AST]) -> list[str]:
    found = []
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                found.append(sub.id)
            elif isinstance(sub, ast.Attribute):
                found.append(sub.attr)
    return [n for n in found if n not in _BUILTINS]


def _resolve(names: list[str], index: dict[str, list[Unit]]) -> list[Unit]:
    found = []
    for name in names:
        units = index.get(name, [])
        if 0 < len(units) <= 2:  # a name defined in many places says little
            found.extend(units)
    return found


def _helpers(unit: Unit, texts: _Texts, index: dict[str, list[Unit]]) -> list[Unit]:
    """Functions of the same file that `unit` calls."""
    code = source(texts.get(unit.path), unit) if unit.qualname else None
    tree = parse(textwrap.dedent(code)) if code else None
    if tree is None:
        return []
    return [u for u in _resolve(_call_names([tree]), index) if u.path == unit.path and u != unit]


def _unique(units: list[Unit]) -> list[Unit]:
    """First occurrence wins; a method is dropped once its class is in."""
    seen: list[Unit] = []
    for u in units:
        covered = any(
            s.path == u.path
            and s.qualname
            and u.qualname
            and u.qualname.startswith(s.qualname + ".")
            for s in seen
        )
        if u not in seen and not covered:
            seen.append(u)
    return seen


def _within_budget(units: list[Unit], texts: _Texts, budget: int) -> list[Unit]:
    chosen, used = [], 0
    for u in units:
        code = source(texts.get(u.path), u)
        if not code or used + len(code) > budget:
            continue
        chosen.append(u)
        used += len(code)
        if len(chosen) == MAX_UNITS:
            break
    return chosen


def _definitions(tree: ast.Module) -> dict[str, ast.AST]:
    """What a reply defines, by qualified and by bare name (the first of each wins)."""
    found: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.setdefault(node.name, node)
        if isinstance(node, ast.ClassDef):
            for sub in node.body:
                if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found.setdefault(f"{node.name}.{sub.name}", sub)
                    found.setdefault(sub.name, sub)
    return found


def _node_source(code: str, node: ast.AST) -> str:
    lines = code.splitlines()
    start = _first_line(node)
    return textwrap.dedent("\n".join(lines[start - 1 : node.end_lineno])) + "\n"  # type: ignore[attr-defined]


def _docstring(node: ast.AST) -> ast.Expr | None:
    body = getattr(node, "body", [])
    first = body[0] if body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return first
    return None


def _keep_docstring(replacement: str, node: ast.AST, text: str, start: int, end: int) -> str:
    """`replacement` with the original function's docstring put back when the reply has none."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or _docstring(node):
        return replacement
    old_source = textwrap.dedent("\n".join(text.splitlines()[start - 1 : end]))
    original = parse(old_source)
    old = original.body[0] if original and original.body else None
    doc = _docstring(old) if old is not None else None
    if old is None or doc is None or not node.body or node.body[0].lineno == node.lineno:
        return replacement
    old_lines = old_source.splitlines()
    doc_lines = textwrap.dedent("\n".join(old_lines[doc.lineno - 1 : doc.end_lineno])).splitlines()
    at = node.body[0].lineno - _first_line(node)
    body_indent = " " * (node.body[0].col_offset - node.col_offset)
    lines = replacement.splitlines()
    lines[at:at] = [body_indent + line if line.strip() else line for line in doc_lines]
    return "\n".join(lines) + "\n"


def _with_imports(text: str, reply: ast.Module, code: str) -> str:
    """Add the reply's top-level imports that the file lacks, after the file's own imports."""
    have = {line.strip() for line in text.splitlines()}
    wanted = [
        ast.get_source_segment(code, n) or ""
        for n in reply.body
        if isinstance(n, (ast.Import, ast.ImportFrom))
    ]
    missing = [w for w in wanted if w and w.strip() not in have]
    if not missing:
        return text
    tree = parse(text)
    after = 0
    for node in tree.body if tree else []:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            after = node.end_lineno or after
        elif isinstance(node, ast.Expr) and after == 0 and node is tree.body[0]:  # type: ignore[union-attr]
            after = node.end_lineno or 0  # the module docstring
    lines = text.splitlines()
    lines[after:after] = missing
    return "\n".join(lines) + "\n"
