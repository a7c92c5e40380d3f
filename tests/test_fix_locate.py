"""Fault localisation for `localcode fix`: the traced run of a real project's tests (the real
sandbox, the pytest plugin loaded into the project's view) and Ochiai's ranking of its lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fix_projects import BUGS, git, make_project

from localcode.backends.mock import MockBackend
from localcode.fix import FixSettings, Workspace, fix, locate
from localcode.fix import outcomes as oc
from localcode.sandbox.project import run_command

ONE = FixSettings(n_candidates=1, max_iters=1, greedy=False)


def _line_of(project: Path, file: str, code: str) -> int:
    lines = (project / file).read_text(encoding="utf-8").splitlines()
    return next(i for i, ln in enumerate(lines, 1) if code.splitlines()[0].strip() in ln)


@pytest.mark.parametrize("name", ["inflection", "toolz"])
def test_the_planted_line_is_singled_out_and_shown_to_the_model(tmp_path: Path, name: str) -> None:
    bug = BUGS[name]
    project = make_project(tmp_path / name, name)
    line = _line_of(project, bug.file, bug.wrong)
    backend = MockBackend(replies=["I can't see the bug."])
    result = fix(Workspace.open(project), bug.command, lambda: backend, ONE)
    top = result.suspects[0].split(": ", 1)[0]
    assert top.rsplit(":", 1)[0] == bug.file
    assert any(s.startswith(f"{bug.file}:{line}: ") for s in result.suspects)
    assert result.spent["locate"] > 0
    prompt = backend.history[0].messages[1]["content"]
    hint = prompt.split("the most suspect first", 1)[1]
    assert f"{bug.file}:{line}: {bug.wrong.splitlines()[0].strip()}" in hint
    assert git(project, "status", "--porcelain") == ""  # the plugin went into the view only
    assert not (project / f"{locate.MODULE}.py").exists()


def test_no_locate_means_no_traced_run_and_no_hint(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "inflection")
    backend = MockBackend(replies=["no"])
    settings = FixSettings(n_candidates=1, max_iters=1, greedy=False, locate=False)
    result = fix(Workspace.open(project), BUGS["inflection"].command, lambda: backend, settings)
    assert result.suspects == [] and "locate" not in result.spent
    assert "most suspect" not in backend.history[0].messages[1]["content"]


def test_a_plugin_that_cannot_load_costs_the_hint_not_the_run(tmp_path: Path) -> None:
    """A bare `pytest` whose command sets its own PYTHONPATH cannot import the plugin: the traced
    run fails, nothing is singled out, and the edits are ranked as before."""
    project = make_project(tmp_path / "p", "inflection")
    command = "PYTHONPATH=/nonexistent pytest -q test_inflection.py"
    right = "```python\nreturn string[0].lower() + camelize(string)[1:]\n```"
    backend = MockBackend(replies=[right])
    result = fix(Workspace.open(project), command, lambda: backend, ONE)
    assert result.suspects == []
    assert result.repaired


def test_the_trace_comes_back_through_the_report_directory(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "inflection")
    ws = Workspace.open(project)
    tr = locate.traced(ws.root, ws.cwd)
    run = run_command(
        f"{BUGS['inflection'].command} {tr.args}",
        project,
        tr.files,
        report_arg=oc.JUNIT_ARG,
        env=tr.env,
        collect=locate.TRACE_FILE,
    )
    trace = json.loads(run.collected or "{}")
    failed = [t for t, r in trace.items() if r["failed"]]
    assert failed == ["test_inflection.py::test_camelize_with_lower_downcases_the_first_letter"]
    assert len(trace) > 100  # every test, each with the project lines it ran
    paths = {p for r in trace.values() for p in r["lines"]}  # project-relative, the tests too
    assert paths == {"inflection/__init__.py", "test_inflection.py"}
    assert oc.failing(oc.read(run, True)) == [BUGS["inflection"].failing]


def _trace(*runs: tuple[bool, dict[str, list[int]]]) -> str:
    return json.dumps({f"t{i}": {"failed": f, "lines": ls} for i, (f, ls) in enumerate(runs)})


def test_ochiai_ranks_the_line_only_failing_tests_run_first() -> None:
    text = "\n".join(f"line{i}" for i in range(1, 11))
    trace = _trace(
        (True, {"a.py": [1, 2, 3], "t.py": [1]}),
        (True, {"a.py": [1, 2]}),
        (False, {"a.py": [1, 4]}),
        (False, {"a.py": [1, 3]}),
        (False, {"a.py": [1]}),
    )
    found = locate.suspects(trace, {"a.py"}, lambda p: text)
    # line 2: both failing, no passing -> 1.0; line 1: 2 failing, 3 passing -> 0.63; line 3:
    # one of each -> 0.5, under MIN_SCORE; line 4 no failing test runs; t.py is not editable
    assert [(s.line, s.score) for s in found] == [(2, 1.0), (1, 0.632)]
    assert found[0].describe() == "a.py:2: line2"


@pytest.mark.parametrize("trace", [None, "", "not json", "[1, 2]", _trace((False, {"a.py": [1]}))])
def test_no_trace_or_no_failing_test_singles_out_nothing(trace: str | None) -> None:
    assert locate.suspects(trace, {"a.py"}, lambda p: "x = 1\n") == []


def test_a_tie_larger_than_the_limit_singles_out_nothing() -> None:
    """One failing test, no passing one, runs 8 lines: all score 1.0, and no cut of them by line
    number would mean anything. A smaller tie under a decisive top is dropped the same way."""
    text = "\n".join(f"line{i}" for i in range(1, 21))
    wide = _trace((True, {"a.py": list(range(1, 9))}), (False, {"a.py": [9]}))
    assert locate.suspects(wide, {"a.py"}, lambda p: text, limit=5) == []
    narrow = _trace(
        (True, {"a.py": [1, 2, 3, 4, 5, 6, 7]}),
        (False, {"a.py": [2, 3, 4, 5, 6, 7]}),
    )
    # line 1 alone scores 1.0; lines 2-7 tie at 0.707, six of them: only line 1 is shown
    assert [s.line for s in locate.suspects(narrow, {"a.py"}, lambda p: text, limit=5)] == [1]
