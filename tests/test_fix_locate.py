"""Fault localisation for `localcode fix`: the traced run of a real project's tests (the real
sandbox, the pytest plugin loaded into the project's view) and Ochiai's ranking of its lines."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from fix_projects import BUGS, git, make_project

from localcode.backends.mock import MockBackend
from localcode.fix import FixSettings, Workspace, fix, holes, locate, plugged
from localcode.fix import outcomes as oc
from localcode.sandbox.project import CommandRun, run_command

ONE = FixSettings(n_candidates=1, max_iters=1, greedy=False)


def _traced_run(project: Path, command: str) -> CommandRun:
    """`command` run in the sandbox with the trace plugin, as `fix` runs it."""
    ws = Workspace.open(project)
    how = locate.traced(command, ws.root, ws.cwd)
    return run_command(
        how.command,
        project,
        how.files,
        report_arg=oc.JUNIT_ARG,
        env=how.env,
        collect=locate.TRACE_FILE,
    )


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


def test_a_plugin_that_cannot_load_costs_the_hint_not_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plugin that fails to import (a real pytest run, the plugin file replaced by one that
    raises) leaves no trace: nothing is singled out, the report says why, and the edits are
    ranked as before."""
    real = locate.traced

    def broken(command: str, root: str, cwd: str) -> plugged.Plugged:
        how = real(command, root, cwd)
        return replace(how, files={p: "raise ImportError('no trace')\n" for p in how.files})

    monkeypatch.setattr(locate, "traced", broken)
    project = make_project(tmp_path / "p", "inflection")
    right = "```python\nreturn string[0].lower() + camelize(string)[1:]\n```"
    backend = MockBackend(replies=[right])
    result = fix(Workspace.open(project), BUGS["inflection"].command, lambda: backend, ONE)
    assert result.suspects == []
    assert result.locate_note.startswith("the traced run wrote no trace (exit status ")
    assert "most suspect" not in backend.history[0].messages[1]["content"]
    assert result.repaired


def test_a_command_that_sets_its_own_pythonpath_is_traced_too(tmp_path: Path) -> None:
    bug = BUGS["cachetools"]  # PYTHONPATH=src python -m pytest ...
    project = make_project(tmp_path / "c", "cachetools")
    ws = Workspace.open(project)
    how = locate.traced(bug.command, ws.root, ws.cwd)
    assert how.command.startswith(f"PYTHONPATH=src:{plugged.PLUGIN_DIR} python -m pytest")
    run = _traced_run(project, bug.command)
    counts, outcomes = locate._read(run.collected), oc.read(run, True)
    assert counts is not None and counts.failed and counts.passed > 10
    assert len(counts.failed) == len(oc.failing(outcomes)) and bug.failing in oc.failing(outcomes)
    assert "src/cachetools/__init__.py" in counts.lines


def test_the_trace_comes_back_through_the_report_directory(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "inflection")
    run = _traced_run(project, BUGS["inflection"].command)
    counts = locate._read(run.collected)
    assert counts is not None
    assert counts.failed == [
        "test_inflection.py::test_camelize_with_lower_downcases_the_first_letter"
    ]
    assert counts.passed > 100
    assert set(counts.lines) == {"inflection/__init__.py", "test_inflection.py"}
    assert oc.failing(oc.read(run, True)) == [BUGS["inflection"].failing]


def test_under_xdist_the_workers_counts_are_added_up(tmp_path: Path) -> None:
    """With `-n 2` each worker traces its share of the tests; the controller adds them up."""
    project = make_project(tmp_path / "p", "inflection")
    command = "python -m pytest -q -n 2 test_inflection.py"
    ws = Workspace.open(project)
    plain = run_command(command, project, {}, report_arg=oc.JUNIT_ARG)
    run = _traced_run(project, command)
    counts = locate._read(run.collected)
    outcomes = oc.read(plain, True)
    assert counts is not None and len(counts.failed) == 1
    assert counts.passed == sum(o.passed for o in outcomes.values()) > 100
    found, _ = locate.find(run, 1, {BUGS["inflection"].file}, ws.read)
    assert [s.text.strip() for s in found] == [BUGS["inflection"].wrong]


@pytest.mark.parametrize("kind", ["fifo", "symlink"])
def test_a_trace_file_that_is_not_a_plain_file_is_not_read(tmp_path: Path, kind: str) -> None:
    """The tested code can write the report directory: a FIFO left as the trace would block a
    reader forever, and a link could point anywhere. Neither is opened."""
    project = make_project(tmp_path / "p", "inflection")
    make = {
        "fifo": 'mkfifo "$LOCALCODE_REPORT_DIR/trace.json"',
        "symlink": 'ln -s /etc/hostname "$LOCALCODE_REPORT_DIR/trace.json"',
    }[kind]
    run = run_command(make, project, {}, collect=locate.TRACE_FILE)
    assert run.returncode == 0 and run.collected is None


def _run(trace: str | None, timed_out: bool = False) -> CommandRun:
    return CommandRun(returncode=1, output="", elapsed=1.0, timed_out=timed_out, collected=trace)


def _trace(failed: int, passed: int, lines: dict[int, list[int]]) -> str:
    return json.dumps(
        {
            "failed": [f"t{i}" for i in range(failed)],
            "passed": passed,
            "lines": {"a.py": {str(k): v for k, v in lines.items()}, "t.py": {"1": [2, 0]}},
        }
    )


TEXT = "\n".join(f"line{i}" for i in range(1, 21))


def test_ochiai_ranks_the_line_only_failing_tests_run_first() -> None:
    # of 2 failing and 3 passing tests: line 2 run by both failing, no passing -> 1.0; line 1 by
    # all 5 -> 0.632; line 3 by one of each -> 0.5, under MIN_SCORE; line 4 by no failing test;
    # t.py is not editable
    trace = _trace(2, 3, {1: [2, 3], 2: [2, 0], 3: [1, 1], 4: [0, 1]})
    found, why = locate.find(_run(trace), 2, {"a.py"}, lambda p: TEXT)
    assert [(s.line, s.score) for s in found] == [(2, 1.0), (1, 0.632)] and why == ""
    assert found[0].describe() == "a.py:2: line2"


def test_a_tie_larger_than_the_limit_singles_out_nothing() -> None:
    """One failing test, no passing one, runs 8 lines: all score 1.0, and no cut of them by line
    number would mean anything. A smaller tie under a decisive top is dropped the same way."""
    wide = _trace(1, 1, {i: [1, 0] for i in range(1, 9)})
    assert locate.find(_run(wide), 1, {"a.py"}, lambda p: TEXT, limit=5) == (
        [],
        "no line is singled out by the failing tests",
    )
    # line 1 alone scores 1.0; lines 2-7 tie at 0.707, six of them: only line 1 is shown
    narrow = _trace(1, 1, {1: [1, 0], **{i: [1, 1] for i in range(2, 8)}})
    found, _ = locate.find(_run(narrow), 1, {"a.py"}, lambda p: TEXT, limit=5)
    assert [s.line for s in found] == [1]


def test_lines_are_numbered_as_python_numbers_them_past_a_form_feed() -> None:
    """A form feed (PEP 8 allows one between sections) is no line end for Python's line
    numbers; the suspect and its hole are the traced line 3, not the one above it."""
    text = "x = 1\n\x0c\ny = 2\nz = 3\n"
    found, _ = locate.find(_run(_trace(1, 0, {3: [1, 0]})), 1, {"a.py"}, lambda p: text)
    assert [s.describe() for s in found] == ["a.py:3: y = 2"]
    (hole,) = holes.holes(found, lambda p: text)
    assert hole.prefix == "x = 1\n\x0c\n" and hole.suffix == "\nz = 3\n"
    assert holes.filled(hole, text, "y = 3") == ("x = 1\n\x0c\ny = 3\nz = 3\n", "")


def test_holes_near_each_other_read_the_text_above_them_from_the_same_line() -> None:
    """So their prompts begin alike and the engine's cache reads that beginning once."""
    text = "".join(f"x{n} = {n}\n" for n in range(1, 201))
    ranked = [locate.Suspect("a.py", n, 1.0, f"x{n} = {n}") for n in (103, 70, 100, 150)]

    def first_lines(span: int) -> dict[int, str]:
        found = holes.holes(ranked, lambda p: text, span=span)
        assert [h.line for h in found] == [103, 70, 100, 150]  # still best-ranked first
        return {h.line: h.prefix.split("\n", 1)[0] for h in found}

    assert first_lines(holes.SPAN) == {
        103: "x30 = 30",
        70: "x30 = 30",
        100: "x30 = 30",
        150: "x110 = 110",
    }
    assert first_lines(0) == {103: "x63 = 63", 70: "x30 = 30", 100: "x60 = 60", 150: "x110 = 110"}
    # lines so long that the shared beginning would pass MAX_SHARED_CHARS: each its own window
    wide = "".join(f"x{n} = {n}  # {'.' * 80}\n" for n in range(1, 201))
    long = [locate.Suspect("a.py", n, 1.0, f"x{n} = {n}  # {'.' * 80}") for n in (70, 100)]
    found = holes.holes(long, lambda p: wide)
    assert [h.prefix.split(" ", 1)[0] for h in found] == ["x30", "x60"]
    (far,) = holes.holes(ranked[3:], lambda p: text)
    assert far.prefix.count("\n") == holes.BEFORE and far.suffix.count("\n") == holes.AFTER + 1


def test_a_hole_takes_one_line_and_only_the_line_it_took_out() -> None:
    text = "def f(x):\n    return x + 1\n"
    (hole,) = holes.holes([locate.Suspect("a.py", 2, 1.0, "    return x + 1")], lambda p: text)
    # a backend that did not stop at the line's end: the rest is not written
    assert holes.filled(hole, text, "  return x - 1\nprint('more')") == (
        "def f(x):\n    return x - 1\n",
        "",
    )
    assert holes.filled(hole, text, " return x + 1 ") == (
        None,
        "the model wrote the line as it was",
    )
    changed = "def f(x):\n    return x * 2\n"  # the file changed after the tests ran
    assert holes.filled(hole, changed, "return x - 1") == (
        None,
        "a.py:2 changed since the tests ran",
    )
    assert holes.filled(hole, text, "return (x") == (
        None,
        "the file does not parse with the line written as `return (x`",
    )


def test_a_traced_run_that_disagrees_with_the_plain_one_is_not_evidence() -> None:
    trace = _trace(3, 3, {2: [3, 0]})
    assert locate.find(_run(trace), 1, {"a.py"}, lambda p: TEXT) == (
        [],
        "the traced run failed 3 tests, the plain run 1: its lines are not evidence",
    )
    assert locate.find(_run(trace, timed_out=True), 3, {"a.py"}, lambda p: TEXT)[1] == (
        "the traced run of the tests timed out"
    )


@pytest.mark.parametrize(
    "trace",
    [
        None,
        "",
        "not json",
        "[1, 2]",
        "[" * 100_000 + "]" * 100_000,  # deeper than the JSON parser recurses
        json.dumps({"failed": ["t"], "passed": 0, "lines": {"a.py": {"2": [True, 0]}}}),
        json.dumps({"failed": ["t"], "passed": 0, "lines": {"a.py": {"2": [-1, 0]}}}),
        json.dumps({"failed": ["t"], "passed": 0, "lines": {"a.py": {"x": [1, 0]}}}),
        json.dumps({"failed": "t", "passed": 0, "lines": {}}),
    ],
)
def test_a_missing_or_malformed_trace_singles_out_nothing(trace: str | None) -> None:
    found, why = locate.find(_run(trace), 1, {"a.py"}, lambda p: "x = 1\n")
    assert found == [] and why == "the traced run wrote no trace (exit status 1)"


def test_a_syntax_error_names_its_line_as_pytest_and_a_plain_traceback_report_it() -> None:
    text = "def f(x):\n    return (x))\n"
    pytest_report = (
        "tests/__init__.py:5: in <module>\n    import pkg\n"
        'E     File "/work/p/pkg/a.py", line 2\n'
        "E       return (x))\n"
        "E                 ^\n"
        "E   SyntaxError: unmatched ')'\n"
    )
    plain = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/runpy.py", line 9, in run\n    exec(code)\n'
        '  File "pkg/a.py", line 2\n    return (x))\n              ^\n'
        "SyntaxError: unmatched ')'\n"
        '  File "/elsewhere/b.py", line 1\n    x = \nSyntaxError: invalid syntax\n'
    )
    projected = {"/work/p/pkg/a.py": "pkg/a.py", "pkg/a.py": "pkg/a.py"}
    for report in (pytest_report, plain, pytest_report + plain):
        found = locate.syntax_errors([report, report], projected.get, lambda p: text)
        assert found == [locate.Suspect("pkg/a.py", 2, 1.0, "    return (x))")]
    assert locate.unparsable([plain], projected.get) == [
        ("pkg/a.py", 2, "SyntaxError: unmatched ')'")
    ]
    indent = '  File "pkg/a.py", line 2\n    return x\nIndentationError: unexpected indent\n'
    assert locate.syntax_errors([indent], projected.get, lambda p: text) == []  # no hole for it
    assert locate.unparsable([indent], projected.get) == [
        ("pkg/a.py", 2, "IndentationError: unexpected indent")
    ]
    # a failure that is not a syntax error names no line
    other = '  File "pkg/a.py", line 2, in f\n    return (x))\nValueError: no\n'
    assert locate.syntax_errors([other], projected.get, lambda p: text) == []
