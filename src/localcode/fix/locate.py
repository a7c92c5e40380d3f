"""Where the bug most likely is: the lines that the failing tests run and the passing tests do not
(spectrum-based fault localisation with Ochiai's score: ef / sqrt(F * (ef + ep)), where ef and ep
count the failing and passing tests that run a line and F all failing tests).

`fix` runs the test command once more with trace_plugin.py loaded (`traced(...)` says how) and
reads its counts here (`find(...)`). A small model shown a function and a failing assertion
tends to give the function back unchanged; told which lines the failures single out, it edits
those (docs/BENCHMARKS.md, issue 20). The ranking is evidence, not a verdict: the tests still
decide which edit wins.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..sandbox.project import CommandRun
from .plugged import Plugged, plugged

MODULE = "_localcode_trace"  # the plugin's module name
TRACE_FILE = "trace.json"
SLOWER = 3  # the traced run may take this many times the plain run's time limit
MAX_SUSPECTS = 5
# a line the passing tests run more than twice as often as the failing ones (ef = F, ep > 2F)
# scores under this: it is not singled out, and is not shown
MIN_SCORE = 1 / math.sqrt(3)
NOTHING_SINGLED_OUT = "no line is singled out by the failing tests"
# Python's report of a file that does not parse, as pytest quotes it (each line after "E ") or
# as a plain traceback prints it: the file and line, up to 3 lines of code and caret, the error
_SYNTAX = re.compile(
    r'^(?:E )?\s*File "(?P<path>[^"]+)", line (?P<line>\d+)\n(?:.*\n){0,3}?'
    r"(?:E )?\s*(?P<error>(?:SyntaxError|IndentationError|TabError): .*)$",
    re.M,
)


@dataclass(frozen=True)
class Suspect:
    """A line of the project's code and how strongly the failing tests single it out (0-1]."""

    path: str
    line: int
    score: float
    text: str

    def describe(self) -> str:
        return f"{self.path}:{self.line}: {self.text.strip()}"


def traced(command: str, root: str | os.PathLike[str], cwd: str | os.PathLike[str]) -> Plugged:
    """`command` (pytest, run in `cwd`, a directory of the project at `root`) with the trace
    plugin loaded (fix/plugged.py says how)."""
    back = os.path.relpath(os.path.realpath(root), os.path.realpath(cwd))
    return plugged(
        command, root, cwd, MODULE, "trace_plugin.py", env={"LOCALCODE_TRACE_ROOT": back}
    )


def find(
    run: CommandRun,
    failing: int,
    allowed: Iterable[str],
    read: Callable[[str], str],
    limit: int | None = MAX_SUSPECTS,
) -> tuple[list[Suspect], str]:
    """The suspects of a traced run whose plain run had `failing` failing tests, or [] and why
    there are none (the run timed out, wrote no trace, failed other tests, or singled out no
    line). `limit=None`: every line scored, best first, ties in line order."""
    if run.timed_out:
        return [], "the traced run of the tests timed out"
    counts = _read(run.collected)
    if counts is None:
        return [], f"the traced run wrote no trace (exit status {run.returncode})"
    if len(counts.failed) != failing:
        return [], (
            f"the traced run failed {len(counts.failed)} tests, the plain run {failing}: "
            "its lines are not evidence"
        )
    found = suspects(counts, allowed, read, limit)
    return found, "" if found else NOTHING_SINGLED_OUT


@dataclass(frozen=True)
class Counts:
    """The plugin's counts, checked: the failing tests, how many passed, and for each line of
    each file how many failing and passing tests ran it."""

    failed: list[str]
    passed: int
    lines: dict[str, dict[int, tuple[int, int]]]


def suspects(
    counts: Counts,
    allowed: Iterable[str],
    read: Callable[[str], str],
    limit: int | None = MAX_SUSPECTS,
) -> list[Suspect]:
    """The lines of the `allowed` files (project-relative paths) ranked by Ochiai's score, best
    first, whole ties only (see whole_ties; all of them with `limit=None`); lines under
    MIN_SCORE are left out. `read` gives a file's text, to quote the line."""
    total = len(counts.failed)
    if not total:
        return []
    scored = []
    for path in set(allowed) & set(counts.lines):
        source = [t.rstrip("\r\n") for t in lines_of(read(path))]
        for line, (bad, good) in counts.lines[path].items():
            if not bad or not 0 < line <= len(source) or not source[line - 1].strip():
                continue
            score = min(1.0, bad / math.sqrt(total * (bad + good)))
            if score >= MIN_SCORE - 1e-9:
                scored.append(Suspect(path, line, round(score, 3), source[line - 1]))
    scored.sort(key=lambda s: (-s.score, s.path, s.line))
    return scored if limit is None else whole_ties(scored, limit)


def syntax_errors(
    messages: Iterable[str], relative: Callable[[str], str | None], read: Callable[[str], str]
) -> list[Suspect]:
    """The lines of the project's files that the failures report as not parsing (a SyntaxError
    while importing them), each once, in the order first reported: nothing else in such a file
    runs, so the trace cannot rank anything there, and these come first. `relative` maps a
    reported path to a project path (None outside the project). Not an IndentationError: a
    line written anew keeps the indent of the line it replaces."""
    found: list[Suspect] = []
    for path, line, error in unparsable(messages, relative):
        source = lines_of(read(path))
        if error.startswith("SyntaxError") and 0 < line <= len(source) and source[line - 1].strip():
            found.append(Suspect(path, line, 1.0, source[line - 1].rstrip("\r\n")))
    return found


def unparsable(
    messages: Iterable[str], relative: Callable[[str], str | None]
) -> list[tuple[str, int, str]]:
    """(project path, line, error) for each place in the project's files that the failures
    report as not parsing (a SyntaxError, IndentationError or TabError), each once, in the
    order first reported."""
    found: list[tuple[str, int, str]] = []
    for message in messages:
        for m in _SYNTAX.finditer(message):
            path = relative(m["path"])
            said = (path, int(m["line"]), m["error"].strip()) if path is not None else None
            if said is not None and said not in found:
                found.append(said)
    return found


def lines_of(text: str) -> list[str]:
    """A file's lines, with their ends, numbered as Python numbers them: split only at \\n,
    \\r\\n and \\r (str.splitlines also splits at a form feed, and the numbers after it shift)."""
    return io.StringIO(text, newline="").readlines()


def whole_ties(ranked: list[Suspect], limit: int) -> list[Suspect]:
    """The best lines, a whole tie at a time, while they fit in `limit`: where more lines than
    that share the top score (one failing test, and no passing test, runs a whole module's
    worth), the trace singles nothing out, and a cut by line number would only mislead."""
    kept: list[Suspect] = []
    for score in sorted({s.score for s in ranked}, reverse=True):
        tie = [s for s in ranked if s.score == score]
        if len(kept) + len(tie) > limit:
            break
        kept += tie
    return kept


def _read(trace: str | None) -> Counts | None:
    """The plugin's JSON, checked; None for none or a malformed one. It comes from a directory
    the tested code could write: every field is checked, and nothing in it is trusted further."""
    try:
        data = json.loads(trace or "null")
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("lines"), dict):
        return None
    failed, passed = data.get("failed"), data.get("passed")
    if not isinstance(failed, list) or type(passed) is not int:
        return None
    lines: dict[str, dict[int, tuple[int, int]]] = {}
    for path, per_line in data["lines"].items():
        if not isinstance(per_line, dict):
            return None
        for line, both in per_line.items():
            if not (str(line).isdigit() and isinstance(both, list) and len(both) == 2):
                return None
            if not all(type(n) is int and n >= 0 for n in both):
                return None
            lines.setdefault(path, {})[int(line)] = (both[0], both[1])
    return Counts([str(t) for t in failed], passed, lines)
