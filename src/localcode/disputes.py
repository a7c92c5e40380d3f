"""Settling disagreements: the model judges concrete behaviour, not votes of a shared misreading.

Candidates that pass the same trusted tests can still return different values. Generated tests
and votes cannot say which is right when the model's tests share its samples' misreading. So the
leading behaviour group meets each challenger on the smallest input where they differ, and the
model, shown only the task and that one call, says what it returns; the side whose result is
that answer wins. This is the adaptive selection of S* (arXiv 2502.14382), on inputs the probes
already ran (probes.py): the tests' own calls first, then those calls changed a little (where at
least one side returned a value).

S* shows the two results and asks which is right, in both orders. With Qwen2.5-Coder-1.5B that
answered "A" in every order on every input tried (or the same wrong value): no verdict. Asked
for the value alone, with no candidate answer in sight, it was right on 3 of 4 of the same inputs
and matched neither side on the fourth, which gives no verdict rather than a wrong one; and there
is no position to be biased by, so one greedy reply per input does.
"""

from __future__ import annotations

import ast
import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence

from .backends import Message
from .extract import compared_for_equality, literal_arguments, parse
from .probes import behaviour, sequences, shown
from .prompts import judge_prompt
from .ranking import distinct, position
from .records import Candidate, Dispute

MAX_CHALLENGERS = 2  # the strongest other groups the leader meets, per ranking
MAX_INPUTS = 2  # inputs tried per pair until one gets a verdict
OVERTURN_VERDICTS = 2  # verdicts a challenger needs, one per differing input, to take the lead
_FENCE = re.compile(r"```\w*")
_LEAD = re.compile(r"^.*?\b(?:returns?|is|be|gives|equals)\b\s*:?\s*|^.*?(?:=>|->|==|=|:)\s*", re.I)

Ask = Callable[[list[Message]], str]  # one greedy, short reply to a prompt


def seen(c: Candidate) -> dict[str, str]:
    """What it returned on every probe and changed input, by probe name (digests)."""
    return {**(behaviour(c.probe_run) or {}), **(behaviour(c.mutant_run) or {})}


def signature(c: Candidate) -> tuple[tuple[str, str], ...]:
    """Its behaviour as one comparable key: equal for candidates that behave alike."""
    return tuple(sorted(seen(c).items()))


def groups(pool: Sequence[Candidate], leader: Candidate) -> list[list[Candidate]]:
    """The pool's candidates split by behaviour, the leader's group first, then the others by
    distinct programs, then more generated tests passed, then earlier."""
    by: dict[tuple[tuple[str, str], ...], list[Candidate]] = defaultdict(list)
    for c in pool:
        if c.probe_run is not None and behaviour(c.probe_run) is not None:
            by[signature(c)].append(c)
    mine = signature(leader)
    first = by.pop(mine, [leader])
    if leader not in first:
        first.insert(0, leader)
    rest = sorted(by.values(), key=lambda g: (-distinct(g), -_passed(g[0]), position(g[0])))
    return [first, *rest]


def challengers(found: list[list[Candidate]]) -> list[list[Candidate]]:
    """The groups the leader (in found[0]) meets: the brute-force reference's group first,
    wherever it stands (a second reading of the task, not one more vote, and met before the
    judge's budget runs out), then the strongest others."""
    ref = [g for g in found[1:] if any(c.origin == "reference" for c in g)]
    return ref + [g for g in found[1 : 1 + MAX_CHALLENGERS] if g not in ref]


def contradictions(a: Candidate, b: Candidate, calls: dict[str, str]) -> list[tuple[str, str, str]]:
    """The differing inputs on which the two really disagree: both return different values,
    or one raises on an input the tests themselves use and the other returns a value (a
    changed input one side rejects may be outside what the task allows)."""
    return [
        (call, x, y)
        for changed, _, call, x, y, raised in _differences(a, b, calls)
        if raised == 0 or (raised == 1 and not changed)
    ]


def differing_inputs(
    a: Candidate, b: Candidate, calls: dict[str, str]
) -> list[tuple[str, str, str]]:
    """(call, what a returned, what b returned) where they differ: the tests' own inputs first,
    then changed inputs on which at least one returned a value (where one raises and the other
    answers, the model says which the task asks for), shortest call first in each."""
    return [(call, x, y) for _, _, call, x, y, _ in _differences(a, b, calls)]


def _differences(
    a: Candidate, b: Candidate, calls: dict[str, str]
) -> list[tuple[bool, int, str, str, str, int]]:
    """Where they differ, in differing_inputs' order: (a changed input, the call's length, the
    call, what each returned, how many of the two raised)."""
    da, db = seen(a), seen(b)
    sa = {**shown(a.probe_run), **shown(a.mutant_run)}
    sb = {**shown(b.probe_run), **shown(b.mutant_run)}
    found = []
    for name, call in calls.items():
        x, y = da.get(name, "?"), db.get(name, "?")
        if x == y or "?" in (x, y) or name not in sa or name not in sb or sa[name] == sb[name]:
            continue
        changed = not name.startswith("test_probe_")
        raised = (x[0] == "x") + (y[0] == "x")
        if changed and raised == 2:
            continue  # both raise on a changed input: it is probably outside what the task allows
        found.append((changed, len(call), call, sa[name], sb[name], raised))
    return sorted(found)


def expectations(
    tests: str, entry: str | None, is_class: bool = False
) -> dict[str, list[tuple[str, str]]]:
    """What each generated test asserts: test name -> [(call, expected value)], for each
    `assert f(...) == literal` (either way round) on the entry point with literal arguments,
    or, for a class, each `assert obj.method(...) == literal` on an instance the test made,
    the call then being the sequence of calls up to it. The call is written as the probes
    write it (probe_calls, sequence_calls), so it names the same input."""
    out: dict[str, list[tuple[str, str]]] = {}
    for fn in _tests(tests) if entry else ():
        if is_class:
            pairs = [
                ("; ".join(seq), want)
                for seq, call, stmt in sequences(fn.body, entry or "")
                if (want := _expected(stmt, call)) is not None
            ]
        else:
            pairs = [
                (ast.unparse(call), want)
                for node in ast.walk(fn)
                if (call := _called(node, entry or "")) is not None
                and (want := _expected(node, call)) is not None
            ]
        if pairs:
            out[fn.name] = pairs
    return out


def read_whole(
    tests: str, entry: str | None, read: dict[str, list[tuple[str, str]]], is_class: bool = False
) -> set[str]:
    """The generated tests that are nothing but what expectations() read from them (`read`):
    each statement an assertion it reads (for a class, or the instance made and its methods
    called, in sequence). For any other test, a failure may come from a line no assertion
    names."""
    whole = set()
    for fn in _tests(tests) if entry else ():
        asserts = sum(isinstance(stmt, ast.Assert) for stmt in fn.body)
        if is_class:  # the rest: the sequences' statements, and instances made
            covered = {id(stmt) for _, _, stmt in sequences(fn.body, entry or "")}
            rest = [st for st in fn.body if id(st) not in covered and not _makes(st, entry)]
        else:
            rest = [st for st in fn.body if not isinstance(st, ast.Assert)]
        if asserts == len(read.get(fn.name, [])) and not rest:
            whole.add(fn.name)
    return whole


def _makes(stmt: ast.stmt, class_name: str | None) -> bool:
    """`name = ClassName(...)`."""
    return (
        isinstance(stmt, ast.Assign)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Name)
        and stmt.value.func.id == class_name
    )


def _tests(source: str) -> list[ast.FunctionDef]:
    tree = parse(source)
    body = tree.body if tree else []
    return [f for f in body if isinstance(f, ast.FunctionDef) and f.name.startswith("test")]


def _called(node: ast.AST, entry: str) -> ast.expr | None:
    """The side of `assert x == y` that calls the entry point with literal arguments."""
    sides = _compared(node)
    return next((side for side in sides if literal_arguments(side, entry) is not None), None)


def _compared(node: ast.AST) -> list[ast.expr]:
    """The two sides of `assert x == y`; empty for anything else."""
    sides = compared_for_equality(node.test) if isinstance(node, ast.Assert) else None
    return list(sides) if sides else []


def _expected(node: ast.AST, call: ast.expr) -> str | None:
    """The repr of the literal `assert call == literal` (either way round) compares with."""
    sides = _compared(node)
    if call not in sides:
        return None
    value = sides[1] if sides[0] is call else sides[0]
    try:
        return repr(ast.literal_eval(value))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def against_test(
    leader: Candidate, asserted: list[tuple[str, str]], calls: dict[str, str]
) -> list[tuple[str, str, str]]:
    """(call, what the leader returned, what the test expects) where a test the leader fails
    asserts another value than the leader returns, shortest call first."""
    return sorted(
        (f for f in _read(leader, asserted, calls) if f is not None and f[1] != f[2]),
        key=lambda f: len(f[0]),
    )


def against_whole_test(
    leader: Candidate, asserted: list[tuple[str, str]], calls: dict[str, str]
) -> list[tuple[str, str, str]] | None:
    """As against_test, for a test read whole: None unless every assertion given was probed
    and the leader returned a value there (not raised), so that the differing ones listed are
    all the test has against it."""
    found = list(_read(leader, asserted, calls))
    if None in found:
        return None
    return [f for f in found if f is not None and f[1] != f[2]]


def _read(
    leader: Candidate, asserted: list[tuple[str, str]], calls: dict[str, str]
) -> Iterator[tuple[str, str, str] | None]:
    """Per assertion: (call, the leader's value, the test's) with the values equal when they
    compare equal, or None where there is no probe of the call, the leader raised, or its value
    has no literal to judge."""
    names = {call: name for name, call in calls.items() if name.startswith("test_probe_")}
    out = shown(leader.probe_run)
    for call, want in asserted:
        got = out.get(names.get(call, ""))
        if got is None or got.startswith("raises ") or _literal(got) is _NONE:
            yield None
        else:
            yield call, got, got if _loosely_equal(_literal(got), _literal(want)) else want


def judge(task: str, call: str, a: str, out_a: str, b: str, out_b: str, ask: Ask) -> Dispute:
    """Ask what the call returns; the one side (a label: a candidate's, or a test's) whose
    result is the answer wins."""
    answer = ask(judge_prompt(task, call)).strip()
    sides = {a: out_a, b: out_b}
    for same in (_strictly_equal, _loosely_equal):
        hits = [label for label, out in sides.items() if _matches(answer, out, same)]
        if len(hits) == 1:
            return Dispute(call, sides, answer, hits[0])
        if hits:  # both match: the answer can't tell them apart
            break
    return Dispute(call, sides, answer, None)


def _matches(answer: str, output: str, same: Callable[[object, object], bool]) -> bool:
    if output.startswith("raises "):  # the exception's name as a word ("raises Error" is
        # not answered by "ValueError", nor "raises KeyError" by "InvalidKeyError")
        name = re.escape(output[len("raises ") :])
        return re.search(rf"(?<![\w.]){name}\b", answer, re.I) is not None
    want = _literal(output)
    if want is _NONE:
        return _clean(answer) == output
    readings = _readings(answer)
    if any(got is not _NONE and same(got, want) for got in map(_literal, readings)):
        return True
    # a string answered without its quotes (YES for 'YES'): the words themselves, to the letter
    return isinstance(want, str) and any(r and r == want and _literal(r) is _NONE for r in readings)


def _readings(answer: str) -> list[str]:
    """The answer's first line, as it is and after a lead-in ("It returns 9", "result: 9")."""
    line = _clean(answer)
    return [line, _LEAD.sub("", line, count=1).rstrip(".")]


def _clean(answer: str) -> str:
    lines = [ln.strip().strip("`").strip() for ln in _FENCE.sub("", answer).splitlines()]
    first = next((ln for ln in lines if ln), "")
    return first[:-1] if first.endswith(".") and not first[:-1].isdigit() else first


_NONE = object()


def _literal(text: str) -> object:
    if len(text) > 2000:
        return _NONE
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _NONE


def _strictly_equal(x: object, y: object) -> bool:
    return repr(x) == repr(y)


def _loosely_equal(x: object, y: object) -> bool:
    if isinstance(x, float) or isinstance(y, float):
        try:
            return math.isclose(float(x), float(y), rel_tol=1e-6)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return False
    if isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
        return len(x) == len(y) and all(map(_loosely_equal, x, y))
    try:
        return bool(x == y)
    except Exception:
        return False


def settle(
    task: str,
    leader: Candidate,
    challenger: Candidate,
    calls: dict[str, str],
    ask: Ask,
    need: int = OVERTURN_VERDICTS,
) -> tuple[list[Dispute], str | None]:
    """Judge the pair on their smallest differing inputs; the disputes and the winner's label.

    One verdict keeps the leader. Overturning it takes more: the challenger must win `need`
    differing inputs (every one judged), and a pair that differs on fewer stays undecided. The
    judge is the same small model, and one answer that happens to match a challenger's value is
    weak evidence against a group at least as large: over the committed runs, a single verdict
    overturned such a leader that was right 4 times and one that was wrong once. (The loop asks
    for one verdict where more programs behave as the challenger does: vote and judge agree.)
    An undecided pair keeps the leader first, but a verdict against it still withholds its
    claim (loop._lost)."""
    inputs = differing_inputs(leader, challenger, calls)[:MAX_INPUTS]
    out: list[Dispute] = []
    for call, x, y in inputs:
        out.append(judge(task, call, leader.label, x, challenger.label, y, ask))
        if out[-1].winner == leader.label:
            return out, leader.label
    wins = [d for d in out if d.winner == challenger.label]
    return out, challenger.label if len(wins) == len(out) >= need else None


def _passed(c: Candidate) -> int:
    return c.run.passed if c.run else 0
