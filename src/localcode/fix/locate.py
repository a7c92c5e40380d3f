"""Where the bug most likely is: the lines that the failing tests run and the passing tests do not
(spectrum-based fault localisation with Ochiai's score: ef / sqrt(F * (ef + ep)), where ef and ep
count the failing and passing tests that run a line and F all failing tests).

`fix` runs the test command once more with trace_plugin.py loaded (`traced(...)` says how) and
reads its trace here (`suspects(...)`). A small model shown a function and a failing assertion
tends to give the function back unchanged; told which lines the failures single out, it edits
those (docs/BENCHMARKS.md, issue 20). The ranking is evidence, not a verdict: the tests still
decide which edit wins.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

MODULE = "_localcode_trace"  # the plugin's module name in the view
TRACE_FILE = "trace.json"
MAX_SUSPECTS = 5
# a line the passing tests run more than twice as often as the failing ones (ef = F, ep > 2F)
# scores under this: it is not singled out, and is not shown
MIN_SCORE = 1 / math.sqrt(3)


@dataclass(frozen=True)
class Suspect:
    """A line of the project's code and how strongly the failing tests single it out (0-1]."""

    path: str
    line: int
    score: float
    text: str

    def describe(self) -> str:
        return f"{self.path}:{self.line}: {self.text.strip()}"


@dataclass(frozen=True)
class Traced:
    """What to add to a pytest run so that it writes the trace: the plugin as a file of the
    view, its module on the command line, and the environment it reads."""

    files: dict[str, str]
    args: str
    env: dict[str, str]


def traced(root: str | os.PathLike[str], cwd: str | os.PathLike[str]) -> Traced:
    """For a pytest command run in `cwd` (a directory of the project at `root`). The plugin lies
    in `cwd`, which `python -m pytest` puts on sys.path; PYTHONPATH names it for a bare `pytest`
    (a command that sets its own PYTHONPATH and runs bare pytest gets no trace)."""
    here = os.path.relpath(os.path.realpath(cwd), os.path.realpath(root))
    where = os.path.normpath(os.path.join(here, f"{MODULE}.py"))
    plugin = resources.files(__package__).joinpath("trace_plugin.py").read_text(encoding="utf-8")
    back = os.path.relpath(os.path.realpath(root), os.path.realpath(cwd))
    return Traced(
        files={where: plugin},
        args=f"-p {MODULE}",
        env={"PYTHONPATH": ".", "LOCALCODE_TRACE_ROOT": back},
    )


def suspects(
    trace: str | None,
    allowed: Iterable[str],
    read: Callable[[str], str],
    limit: int = MAX_SUSPECTS,
) -> list[Suspect]:
    """The lines of the `allowed` files (project-relative paths) ranked by Ochiai's score, best
    first, whole ties only (see _whole_ties); lines under MIN_SCORE are left out; [] when the trace is missing or holds no failing
    test. `read` gives a file's text, to quote the line."""
    runs = _read(trace)
    failed = [t for t, r in runs.items() if r["failed"]]
    if not failed:
        return []
    keep = set(allowed)
    ef: dict[tuple[str, int], int] = {}
    ep: dict[tuple[str, int], int] = {}
    for run in runs.values():
        counts = ef if run["failed"] else ep
        for path, lines in run["lines"].items():
            if path in keep:
                for line in lines:
                    counts[(path, line)] = counts.get((path, line), 0) + 1
    scored, sources = [], {p: read(p).splitlines() for p, _ in ef}
    for (path, line), bad in ef.items():
        score = bad / math.sqrt(len(failed) * (bad + ep.get((path, line), 0)))
        source = sources[path]
        text = source[line - 1] if 0 < line <= len(source) else ""
        if text.strip() and score >= MIN_SCORE - 1e-9:
            scored.append(Suspect(path, line, round(score, 3), text))
    scored.sort(key=lambda s: (-s.score, s.path, s.line))
    return _whole_ties(scored, limit)


def _whole_ties(ranked: list[Suspect], limit: int) -> list[Suspect]:
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


def _read(trace: str | None) -> dict[str, dict]:
    """The plugin's JSON, checked; {} for none or a malformed one."""
    try:
        data = json.loads(trace or "{}")
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    runs = {}
    for test, run in data.items():
        if isinstance(run, dict) and isinstance(run.get("lines"), dict):
            lines = {
                str(Path(p).as_posix()): [n for n in ns if isinstance(n, int)]
                for p, ns in run["lines"].items()
                if isinstance(ns, list)
            }
            runs[test] = {"failed": bool(run.get("failed")), "lines": lines}
    return runs
