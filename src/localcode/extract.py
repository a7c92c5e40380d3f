"""Turn model replies into code: fenced blocks for code, the ast for tests."""

from __future__ import annotations

import ast
import builtins
import copy
import importlib.util
import re

_FENCE = re.compile(r"^[ \t]*```[ \t]*([\w+.-]*)[^\n]*\n(.*?)(?:^[ \t]*```[ \t]*$|\Z)", re.M | re.S)
_PY_LANGS = {"", "python", "py", "python3", "pycon"}
_CODE_START = re.compile(r"^(def |async def |class |import |from |@|[A-Za-z_][\w]* *=)")
MAX_TESTS = 12


def code_blocks(reply: str) -> list[str]:
    """Python code in fenced blocks (an unterminated last fence counts), in order."""
    blocks = []
    for lang, body in _FENCE.findall(reply):
        if lang.lower() in _PY_LANGS and body.strip():
            blocks.append(body.strip("\n"))
    return blocks


MAX_SOURCE_CHARS = 256_000  # model replies and user files beyond this are not code we parse


def parse(source: str) -> ast.Module | None:
    """The syntax tree of untrusted text, or None: never raises, whatever the text holds
    (NUL bytes, absurd nesting, megabytes of operators)."""
    if len(source) > MAX_SOURCE_CHARS:
        return None
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


def literal_arguments(node: ast.AST, name: str) -> tuple[list[object], dict[str, object]] | None:
    """The arguments of `node` if it is a call of `name` whose arguments are all literals (no
    `*args` or `**kwargs`); else None. Nothing is executed to read them."""
    if not (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    ):
        return None
    return call_arguments(node)


def literal_call(source: str, name: str) -> ast.Call | None:
    """`source` parsed, if it is one call of `name` whose arguments are all literals."""
    tree = parse(source)
    if tree is None or len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return None
    node = tree.body[0].value
    return (
        node if isinstance(node, ast.Call) and literal_arguments(node, name) is not None else None
    )


def closing(text: str, paren: int, end: int | None = None) -> int | None:
    """Where the bracket opened at `paren` closes (just past it), counting (), [] and {} alike
    and skipping string quotes; None when it does not close before `end` (default: the end of
    `text`). One pass, so a line of many calls reads in linear time."""
    depth, quote, i = 0, "", paren
    stop = len(text) if end is None else min(end, len(text))
    while i < stop:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def call_arguments(node: ast.Call) -> tuple[list[object], dict[str, object]] | None:
    """The arguments of any call if they are all literals (no `*args` or `**kwargs`); else None."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(
        k.arg is None for k in node.keywords
    ):
        return None
    try:
        args = [ast.literal_eval(a) for a in node.args]
        kwargs = {str(k.arg): ast.literal_eval(k.value) for k in node.keywords}
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return args, kwargs


def _compiles(source: str) -> bool:
    return parse(source) is not None


def _strip_prose(reply: str) -> str:
    """For an unfenced reply: the longest run of lines from the first code-looking line that parses."""
    lines = reply.strip().splitlines()
    starts = [i for i, line in enumerate(lines) if _CODE_START.match(line)]
    for start in starts:
        for end in range(len(lines), start, -1):
            chunk = "\n".join(lines[start:end]).strip()
            if chunk and _compiles(chunk):
                return chunk
    return reply.strip()


def extract_code(reply: str, entry_point: str | None = None) -> str:
    """The code in a model reply: prose dropped, several blocks handled, no fence tolerated."""
    blocks = code_blocks(reply)
    if not blocks:
        return _strip_prose(reply)
    if len(blocks) == 1:
        return blocks[0].strip()
    parsing = [b for b in blocks if _compiles(b)] or blocks
    if entry_point:
        defining = [
            b
            for b in parsing
            if re.search(rf"^\s*(async\s+)?def {re.escape(entry_point)}\b", b, re.M)
        ]
        if defining:
            # the block that defines the entry point, plus earlier blocks it may rely on (imports)
            last = parsing.index(defining[-1])
            return "\n\n".join(b.strip() for b in parsing[: last + 1] if not _is_usage_example(b))
    return "\n\n".join(b.strip() for b in parsing if not _is_usage_example(b)) or blocks[0]


def _is_usage_example(block: str) -> bool:
    """A block of only calls/prints (an example of use) adds nothing to the solution."""
    tree = parse(block)
    if tree is None:
        return False
    return bool(tree.body) and all(isinstance(n, (ast.Expr, ast.Assign)) for n in tree.body)


def test_names(tests: str) -> list[str]:
    """Names of module-level test functions, in order: the trusted side's list of what counts."""
    tree = parse(tests)
    if tree is None:
        return []
    return [
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.name.startswith("test")
    ]


def extract_tests(
    reply: str, entry_point: str | None = None, exclude: set[str] | None = None
) -> str:
    """The test functions of a reply and what they need; definitions of the code under test dropped.

    Keeps imports, constants, helper functions and classes, and at most MAX_TESTS test functions;
    drops any definition of `entry_point` (or of a name in `exclude`) so the tests exercise the
    candidate rather than their own copy, any import of it (`from your_module import f`: the
    module is the model's placeholder), any import from a module that does not exist (the code
    under test provides those names), and top-level statements that would run at import.
    A reply of bare top-level asserts (the "asserts" tests prompt) becomes test_case_1..n: each
    assert (or `with pytest.raises(...)`, or a loop of asserts) is one case, with the statements
    before it that it reads (see _needed). Returns "" when the reply holds no test.
    """
    drop = set(exclude or ())
    if entry_point:
        drop.add(entry_point)
    for source in _test_sources(reply):
        tree = parse(source) or _cut_tail(source)
        if tree is None:
            continue
        try:
            tests = _tests_from(tree, drop)
        except (RecursionError, MemoryError, ValueError):  # absurdly nested text is no test
            continue
        if tests:
            return tests
    return ""


def _finished_lines(reply: str) -> str:
    """The lines of a reply being written that are finished: all but a last one still open."""
    return reply[: reply.rfind("\n") + 1]


def cases_written(reply: str, entry_point: str | None, n: int) -> bool:
    """Whether a tests reply being written already holds `n` finished cases: its complete lines
    give at least `n` tests (as extract_tests reads them) and the last of those lines is at
    the top level, so the case before it is finished. A model asked for n cases often lists
    on (twelve for five); its reply can stop here."""
    if n < 1:
        return True
    done = _finished_lines(reply)
    last = done.rstrip("\n").rsplit("\n", 1)[-1]
    if not last or last[0].isspace() or last.startswith(("```", "#")):
        return False
    return len(test_names(extract_tests(done, entry_point))) >= n


LOOP_LINES = 32  # complete lines that repeat one cycle ...
LOOP_PERIOD = 4  # ... of at most this many lines: eight rounds of it at the least
_TEST_DEF = re.compile(r"^(?:async[ \t]+)?def[ \t]+test", re.M)


def looping(reply: str) -> bool:
    """Whether a reply being written has fallen into a loop: its last LOOP_LINES complete lines
    repeat one cycle of at most LOOP_PERIOD lines (a small model writing a test can push the
    same three values until its token limit), or are rows of one shape inside a bracket left
    open before them (a `pytest.mark.parametrize` list that runs on: `(2, 'a', 1, 1),`,
    `(2, 'b', 2, 2),`, ... until the limit). A test someone writes by hand does not repeat
    itself eight times over (24 equal rows of a grid would pass), nor lists 32 rows of one shape
    for five cases; 32 statements of one shape (`s.push(0)` ... `s.push(31)`) are no loop."""
    lines = _finished_lines(reply).splitlines()
    done = lines[-LOOP_LINES:]
    if len(done) < LOOP_LINES:
        return False
    return any(
        all(done[i] == done[i - period] for i in range(period, LOOP_LINES))
        for period in range(1, LOOP_PERIOD + 1)
    ) or _rows_running_on(lines[:-LOOP_LINES], done)


_STRING = re.compile(r"'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
_CONSTANT = re.compile(r"\b(?:True|False|None)\b")


def _rows_running_on(before: list[str], rows: list[str]) -> bool:
    """Whether `rows` all have one shape (the same text once strings, numbers, True, False and
    None are put aside) and stay inside a bracket that the lines `before` them left open."""
    shapes = {_CONSTANT.sub("B", _NUMBER.sub("N", _STRING.sub("S", r))).strip() for r in rows}
    if len(shapes) != 1 or not shapes.pop():
        return False
    depth = open_at = _depth("\n".join(before))
    if open_at < 1:
        return False
    for row in rows:
        depth += _depth(row)
        if depth < open_at:
            return False
    return True


def _depth(text: str) -> int:
    """Brackets opened less those closed, outside strings."""
    bare = _STRING.sub("S", text)
    return sum(bare.count(c) for c in "([{") - sum(bare.count(c) for c in ")]}")


def without_unfinished_test(reply: str) -> str:
    """A reply of test functions that was cut (at its token limit, or in a loop), less the test
    function it was writing: that one ends where the cut fell, not where its author meant it
    to, and may assert nothing at all. The tests before it stay."""
    starts = [m.start() for m in _TEST_DEF.finditer(reply)]
    if not starts:
        return reply
    body = reply[starts[-1] :].split("\n")[1:]
    if any(line[:1] not in ("", " ", "\t") for line in body):
        return reply  # a line at the margin came after it (a fence, prose, `def te`): finished
    return reply[: starts[-1]]


def _cut_tail(source: str, most: int = 40) -> ast.Module | None:
    """A reply cut at its token limit, without the lines the cut left unfinished: the longest
    prefix that parses, dropping at most `most` trailing lines."""
    lines = source.splitlines()
    for end in range(len(lines) - 1, max(0, len(lines) - 1 - most), -1):
        tree = parse("\n".join(lines[:end]))
        if tree is not None and tree.body:
            return tree
    return None


def _tests_from(tree: ast.Module, drop: set[str]) -> str:
    tree = ast.fix_missing_locations(_RaisesFromEquals().visit(tree))
    ordered: list[ast.stmt] = []  # what a reply of test functions keeps, in order
    head: list[ast.stmt] = []  # ... less its constants: what a reply of bare asserts keeps
    loose: list[ast.stmt] = []  # statements that run at import: the cases of bare asserts
    n_tests = 0
    for node in _top_level(tree.body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name in drop:
                continue
            if node.name.startswith("test") and not isinstance(node, ast.ClassDef):
                if n_tests >= MAX_TESTS:
                    continue
                n_tests += 1
            ordered.append(node)
            head.append(node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            kept = _without_own_names(node, drop)
            ordered += kept
            head += kept
        else:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and not _calls_anything(node):
                ordered.append(node)
            loose.append(node)
    if n_tests:
        return ast.unparse(ast.Module(body=_with_pytest(ordered), type_ignores=[])) + "\n"
    cases = [c for c in _cases(loose) if _runs_as_a_test(c)]
    if not cases:
        return ""
    named = [_case(i, body) for i, body in enumerate(cases[:MAX_TESTS], start=1)]
    return ast.unparse(ast.Module(body=_with_pytest(head + named), type_ignores=[])) + "\n"


class _RaisesFromEquals(ast.NodeTransformer):
    """`assert f(0) == ValueError` as what its author meant: `with pytest.raises(ValueError):
    f(0)`. Told to check a raise, a small model writes it so (a program that raises would
    fail it, and one that returned the class would pass)."""

    def visit_Assert(self, node: ast.Assert) -> ast.stmt:
        sides = compared_for_equality(node.test)
        if sides is None:
            return node
        for call, error in (sides, sides[::-1]):
            if _calls_the_code(call) and _names_an_exception(error):
                raises = ast.Call(
                    func=ast.Attribute(ast.Name("pytest", ast.Load()), "raises", ast.Load()),
                    args=[error],
                    keywords=[],
                )
                return ast.With(items=[ast.withitem(context_expr=raises)], body=[ast.Expr(call)])
        return node


def compared_for_equality(test: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """The two sides of `x == y` (one comparison, nothing chained); None for anything else."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        return test.left, test.comparators[0]
    return None


def _calls_the_code(node: ast.expr) -> bool:
    """A call of something the code under test defines: not of a builtin wrapped around it
    (`type(f(x)) == ValueError` asks what f returns; `next(it) == StopIteration` is no raise)."""
    return isinstance(node, ast.Call) and not (
        isinstance(node.func, ast.Name) and hasattr(builtins, node.func.id)
    )


_ERROR_NAME = re.compile(r"[A-Z]\w*(?:Error|Exception)$")


def _names_an_exception(node: ast.expr) -> bool:
    """A bare name of an exception class: a builtin one (not a warning, which a function
    issues rather than raises), or one named like one."""
    if not isinstance(node, ast.Name):
        return False
    builtin = getattr(builtins, node.id, None)
    if isinstance(builtin, type) and issubclass(builtin, Exception):
        return not issubclass(builtin, Warning)
    return _ERROR_NAME.match(node.id) is not None


def _with_pytest(body: list[ast.stmt]) -> list[ast.stmt]:
    """The tests, importing pytest first where they use it (`pytest.raises`) and do not: a
    reply of bare asserts begins at its first assert, past any import."""
    imported = {name for node in body for name in _imported(node)}
    if "pytest" not in _names(body, ast.Load) or "pytest" in imported:
        return body
    future = 0  # `from __future__ import ...` must stay first
    while future < len(body) and _from_future(body[future]):
        future += 1
    return [*body[:future], ast.Import(names=[ast.alias(name="pytest")]), *body[future:]]


def _from_future(node: ast.stmt) -> bool:
    return isinstance(node, ast.ImportFrom) and node.module == "__future__"


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a script as they run: the body of `if __name__ == "__main__":`, and of
    a `try` that catches failed asserts (which would make every case pass), in their place."""
    out: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            out += _top_level(node.body)
        elif isinstance(node, ast.Try) and any(_swallows(h) for h in node.handlers):
            out += _top_level(node.body + node.finalbody)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            out += test_functions(node, {n.name for n in out if isinstance(n, ast.FunctionDef)})
        else:
            out.append(node)
    return out


# unittest's assertions as the plain asserts they check (msg arguments dropped)
_COMPARISONS: dict[str, type[ast.cmpop]] = {
    **dict.fromkeys(
        ("Equal", "Equals", "ListEqual", "TupleEqual", "DictEqual", "SetEqual", "SequenceEqual"),
        ast.Eq,
    ),
    "MultiLineEqual": ast.Eq,
    "NotEqual": ast.NotEq,
    "Is": ast.Is,
    "IsNot": ast.IsNot,
    "In": ast.In,
    "NotIn": ast.NotIn,
    "Greater": ast.Gt,
    "GreaterEqual": ast.GtE,
    "Less": ast.Lt,
    "LessEqual": ast.LtE,
}
_ONE_ARGUMENT = {"True", "False", "IsNone", "IsNotNone"}


class _NotPlain(Exception):
    """A test method that uses what has no plain-assert form here (a helper method of its class)."""


def test_functions(cls: ast.ClassDef, taken: set[str]) -> list[ast.stmt]:
    """A test class as top-level test functions: unittest's (`self.assertEqual(a, b)`, `with
    self.assertRaises(E):`, a `setUp` that sets `self.x`) or pytest's (`def test_x(self):`
    with plain asserts). Each `test*` method becomes `def test...():` with setUp's statements
    first, `self.x` read as a local `x`, and each assertion as the assert it checks. A small
    model asked for a class's tests often writes a unittest class; read as it was, such a reply
    held no test, and the model was asked again. A method that calls a helper of its class is
    left out; the class's other methods, and the class itself, are dropped."""
    methods = [n for n in cls.body if isinstance(n, ast.FunctionDef)]
    helpers = {m.name for m in methods if not m.name.startswith("test") and m.name != "setUp"}
    setup = next((m.body for m in methods if m.name == "setUp"), [])
    out: list[ast.stmt] = []
    for method in methods:
        if not method.name.startswith("test"):
            continue
        name, i = method.name, 2
        while name in taken:
            name, i = f"{method.name}_{i}", i + 1
        try:
            statements = copy.deepcopy([*setup, *method.body])  # setUp's serve every method
            body = [_Plain(helpers).visit(s) for s in statements if not _docstring(s)]
        except _NotPlain:
            continue
        taken.add(name)
        func = ast.parse(f"def {name}():\n    pass\n").body[0]
        assert isinstance(func, ast.FunctionDef)
        func.body = body or func.body
        out.append(ast.fix_missing_locations(ast.copy_location(func, method)))
    return out


def _docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


class _Plain(ast.NodeTransformer):
    """A unittest method's statements as a plain function's (see test_functions)."""

    def __init__(self, helpers: set[str]) -> None:
        self.helpers = helpers

    def visit_Expr(self, node: ast.Expr) -> ast.stmt:
        call = node.value
        kind = _assertion(call)
        if kind is None or not isinstance(call, ast.Call):
            return self.generic_visit(node)  # type: ignore[return-value]
        args = [self.visit(a) for a in call.args]
        if kind in ("Raises", "RaisesRegex") and len(args) >= 2:
            # self.assertRaises(E, f, x) calls f(x) inside the check
            raised = ast.Call(func=args[1], args=args[2:], keywords=[])
            return ast.With(items=[ast.withitem(_raises(args[0]))], body=[ast.Expr(raised)])
        if kind in _COMPARISONS and len(args) >= 2:
            test: ast.expr = ast.Compare(args[0], [_COMPARISONS[kind]()], [args[1]])
        elif kind in _ONE_ARGUMENT and args:
            test = {
                "True": args[0],
                "False": ast.UnaryOp(ast.Not(), args[0]),
                "IsNone": ast.Compare(args[0], [ast.Is()], [ast.Constant(None)]),
                "IsNotNone": ast.Compare(args[0], [ast.IsNot()], [ast.Constant(None)]),
            }[kind]
        elif kind == "AlmostEqual" and len(args) >= 2:
            places = args[2] if len(args) > 2 else ast.Constant(7)
            diff = ast.BinOp(args[0], ast.Sub(), args[1])
            rounded = ast.Call(ast.Name("round", ast.Load()), [diff, places], [])
            test = ast.Compare(rounded, [ast.Eq()], [ast.Constant(0)])
        elif kind == "IsInstance" and len(args) >= 2:
            test = ast.Call(ast.Name("isinstance", ast.Load()), args[:2], [])
        else:
            raise _NotPlain(kind)
        return ast.Assert(test=test, msg=None)

    def visit_withitem(self, node: ast.withitem) -> ast.withitem:
        kind = _assertion(node.context_expr)
        if kind in ("Raises", "RaisesRegex") and isinstance(node.context_expr, ast.Call):
            return ast.withitem(_raises(self.visit(node.context_expr.args[0])))
        if kind is not None:
            raise _NotPlain(kind)
        return self.generic_visit(node)  # type: ignore[return-value]

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        if isinstance(node.value, ast.Name) and node.value.id == "self":
            if node.attr in self.helpers or node.attr.startswith("assert"):
                raise _NotPlain(node.attr)
            return ast.copy_location(ast.Name(node.attr, type(node.ctx)()), node)
        return self.generic_visit(node)  # type: ignore[return-value]

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id == "self":
            raise _NotPlain("self")
        return node


def _assertion(node: ast.expr) -> str | None:
    """ "Equal" for `self.assertEqual(...)`, and so on; None for any other expression."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    func = node.func
    mine = isinstance(func.value, ast.Name) and func.value.id == "self"
    return func.attr.removeprefix("assert") if mine and func.attr.startswith("assert") else None


def _raises(error: ast.expr) -> ast.Call:
    return ast.Call(
        func=ast.Attribute(ast.Name("pytest", ast.Load()), "raises", ast.Load()),
        args=[error],
        keywords=[],
    )


def _swallows(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught] if caught else []
    return caught is None or any(
        isinstance(n, ast.Name) and n.id in {"AssertionError", "Exception", "BaseException"}
        for n in names
    )


def _cases(loose: list[ast.stmt]) -> list[list[ast.stmt]]:
    cases: list[list[ast.stmt]] = []
    setup: list[ast.stmt] = []  # statements since the last case
    earlier: list[ast.stmt] = []  # every statement of the cases before
    for node in loose:
        setup.append(node)
        if _checks(node):
            cases.append(_needed(earlier, setup) + setup)
            earlier += setup
            setup = []
    return cases


def _checks(node: ast.stmt) -> bool:
    """An assert, a `with pytest.raises(...)`, or a statement holding either (a loop)."""
    return any(isinstance(n, ast.Assert) or _expects_raise(n) for n in ast.walk(node))


def _expects_raise(node: ast.AST) -> bool:
    return isinstance(node, ast.With) and any(
        isinstance(item.context_expr, ast.Call)
        and isinstance(item.context_expr.func, (ast.Attribute, ast.Name))
        and getattr(item.context_expr.func, "attr", getattr(item.context_expr.func, "id", ""))
        == "raises"
        for item in node.items
    )


def _needed(earlier: list[ast.stmt], body: list[ast.stmt]) -> list[ast.stmt]:
    """The earlier statements a case relies on, in order: those that bind a variable the case
    reads (`xs = build()` before several asserts on xs; an earlier assert's `:=`), those that
    change it in place (`xs.append(9)`, `xs[0] = 1`), and what those in turn read. An earlier
    check is brought along only for a name it binds: its own failure is its own case's."""
    variables = _names(earlier, ast.Store)
    wanted = _reads(body) & variables
    kept: list[ast.stmt] = []
    for stmt in reversed(earlier):
        binds = bool(_names([stmt], ast.Store) & wanted)
        changes = _changes_in_place(stmt) and bool(_reads([stmt]) & wanted)
        if binds or (changes and not _checks(stmt)):
            kept.append(stmt)
            wanted |= _reads([stmt]) & variables
    return kept[::-1]


def _changes_in_place(stmt: ast.stmt) -> bool:
    if isinstance(stmt, (ast.Expr, ast.Delete)):
        return True
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
    return any(isinstance(t, (ast.Subscript, ast.Attribute)) for t in targets)


def _reads(stmts: list[ast.stmt]) -> set[str]:
    """Names read, an augmented assignment's target (`n += 1` reads n) among them."""
    augmented = {
        n.target.id
        for stmt in stmts
        for n in ast.walk(stmt)
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)
    }
    return _names(stmts, ast.Load) | augmented


def _names(stmts: list[ast.stmt], ctx: type[ast.expr_context]) -> set[str]:
    return {
        n.id
        for stmt in stmts
        for n in ast.walk(stmt)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)
    }


_NOT_IN_A_TEST = (ast.Yield, ast.YieldFrom, ast.Return, ast.Await, ast.Nonlocal)


def _runs_as_a_test(body: list[ast.stmt]) -> bool:
    """A case that compiles as a test function and runs its checks: not one that would turn
    the test into a generator, return before its asserts, or fail to compile."""
    if any(isinstance(n, _NOT_IN_A_TEST) for stmt in body for n in ast.walk(stmt)):
        return False
    try:
        compile(ast.unparse(_case(1, body)), "<test>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _case(index: int, body: list[ast.stmt]) -> ast.stmt:
    func = ast.parse(f"def test_case_{index}():\n    pass\n").body[0]
    assert isinstance(func, ast.FunctionDef)
    func.body = body
    return func


def _without_own_names(node: ast.Import | ast.ImportFrom, drop: set[str]) -> list[ast.stmt]:
    """The import without the names the runner provides (all of `solution`'s, and all of a module
    that does not exist here, which can only be the model's name for the code under test:
    `from your_module import f, helper`; those in `drop` from anywhere, and `import Stack` of the
    class under test, as if it were a module); `f as g` of those becomes `g = f`."""
    placeholder = isinstance(node, ast.ImportFrom) and (
        node.module == "solution" or _missing_module(node)
    )
    own = [a for a in node.names if placeholder or a.name in drop]
    rest = [a for a in node.names if a not in own]
    kept: ast.stmt = (
        ast.ImportFrom(node.module, rest, node.level)
        if isinstance(node, ast.ImportFrom)
        else ast.Import(rest)
    )
    out: list[ast.stmt] = [kept] if rest else []
    for a in own:
        if a.asname and a.asname != a.name and a.name != "*":
            out.append(ast.Assign([ast.Name(a.asname, ast.Store())], ast.Name(a.name, ast.Load())))
    return [ast.copy_location(stmt, node) for stmt in out]


def _missing_module(node: ast.ImportFrom) -> bool:
    """A relative import, or a top-level module no finder knows (nothing is imported to ask)."""
    if node.level or not node.module:
        return True
    try:
        return importlib.util.find_spec(node.module.split(".")[0]) is None
    except (ImportError, ValueError):
        return True


def _calls_anything(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) for n in ast.walk(node))


def _test_sources(reply: str) -> list[str]:
    """Candidate sources for tests: all fenced blocks together, each block, the unfenced reply."""
    blocks = code_blocks(reply)
    sources = []
    if len(blocks) > 1:
        sources.append("\n\n".join(blocks))
    sources.extend(blocks)
    sources.append(_strip_prose(reply))
    return sources


def bound_names(code: str, imports: bool = True) -> set[str]:
    """Names bound at the top level of `code` by def, class, import (unless `imports` is off) or
    assignment."""
    tree = parse(code)
    names: set[str] = set()
    for node in tree.body if tree else []:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update(_imported(node) if imports else ())
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _imported(node: ast.stmt) -> set[str]:
    """The names an import statement binds (`import a.b` binds `a`); none for another statement."""
    if not isinstance(node, (ast.Import, ast.ImportFrom)):
        return set()
    return {(a.asname or a.name).split(".")[0] for a in node.names}
