"""`localcode fix`: real projects (inflection, cachetools, toolz as released, one bug planted), the
real sandbox, the scripted mock backend for the model's replies."""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from fakes.ollama import FakeOllama
from fix_projects import BUGS, committed, git, make_project

from localcode.backends.base import Completion
from localcode.backends.mock import MockBackend
from localcode.cli.fix import print_fix
from localcode.errors import BackendError, UsageError
from localcode.fix import FixSettings, Workspace, fix, plugged
from localcode.fix import outcomes as oc
from localcode.fix.units import Unit, apply_reply, choose
from localcode.sandbox.project import run_command

INFLECTION = BUGS["inflection"]
RIGHT = """```python
def camelize(string, uppercase_first_letter=True):
    if uppercase_first_letter:
        return re.sub(r"(?:^|_)(.)", lambda m: m.group(1).upper(), string)
    else:
        return string[0].lower() + camelize(string)[1:]
```"""
# fixes the failing test (lower case first) and breaks upper camel case, which passed before
BREAKS_ANOTHER = """```python
def camelize(string, uppercase_first_letter=True):
    if uppercase_first_letter:
        return string
    else:
        return string[0].lower() + re.sub(r"_(.)", lambda m: m.group(1).upper(), string)[1:]
```"""
STILL_WRONG = """```python
def camelize(string, uppercase_first_letter=True):
    if uppercase_first_letter:
        return re.sub(r"(?:^|_)(.)", lambda m: m.group(1).upper(), string)
    return string[0].upper() + camelize(string)[1:]
```"""
ONE = FixSettings(n_candidates=1, max_iters=1, greedy=False)
ONE_GREEDY = FixSettings(n_candidates=1, max_iters=1)


def run_fix(
    project: Path, replies: list[str], settings: FixSettings, command: str = INFLECTION.command
):
    backend = MockBackend(replies=replies)
    return fix(Workspace.open(project), command, lambda: backend, settings), backend


def test_the_edit_that_fixes_the_failing_test_wins_and_the_project_is_untouched(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path / "p", "inflection")
    result, backend = run_fix(
        project,
        [STILL_WRONG, "I would rewrite it all.", RIGHT, BREAKS_ANOTHER],
        FixSettings(n_candidates=4, max_iters=1),
    )
    assert result.failing_before == [INFLECTION.failing]
    assert result.repaired and result.best is not None
    assert result.best.files["inflection/__init__.py"].count(INFLECTION.right) == 1
    assert (
        f"-        {INFLECTION.wrong}" in result.diff
        and f"+        {INFLECTION.right}" in result.diff
    )
    tries = result.rounds[0].tries
    assert [t.origin for t in tries] == ["greedy", "sample", "sample", "sample"]
    assert tries[1].reason == "the reply changes nothing"
    assert tries[3].broken and INFLECTION.failing in tries[3].fixed
    assert git(project, "status", "--porcelain") == ""  # nothing written without --apply
    assert INFLECTION.wrong in (project / INFLECTION.file).read_text()
    prompt = backend.history[0].messages[1]["content"]
    assert INFLECTION.wrong in prompt and "def camelize" in prompt


def test_an_edit_that_breaks_a_passing_test_never_wins(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "inflection")
    result, _ = run_fix(project, [BREAKS_ANOTHER], ONE)
    (only,) = result.rounds[0].tries
    assert INFLECTION.failing in only.fixed and only.broken
    assert result.best is None and result.diff == "" and not result.repaired


def test_an_edit_runs_the_failing_tests_first_and_the_rest_only_when_it_fixes_one(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path / "p", "inflection")
    settings = FixSettings(
        n_candidates=3, max_iters=1, greedy=False, rewrite_lines=False, max_alone=math.inf
    )
    result, _ = run_fix(project, [STILL_WRONG, BREAKS_ANOTHER, RIGHT], settings)
    wrong, breaks, right = result.rounds[0].tries
    assert wrong.only_failing and wrong.failing == [INFLECTION.failing] and wrong.passed == 0
    assert wrong.to_dict()["ran"] == "the failing tests"
    assert not breaks.only_failing and breaks.broken  # it fixed the test: the rest ran
    assert not right.only_failing and right.all_pass and right.passed > 100
    assert result.best is right
    report = io.StringIO()
    print_fix(result, report, apply=False)
    assert "(1 of 3 edits ran only the failing tests)" in report.getvalue()
    # switched off, every edit runs the whole command
    result, _ = run_fix(
        project, [STILL_WRONG], replace(settings, n_candidates=1, failing_first=False)
    )
    (wrong,) = result.rounds[0].tries
    assert (
        not wrong.only_failing
        and wrong.passed > 100
        and wrong.to_dict()["ran"] == "the whole command"
    )


def test_a_test_that_fails_otherwise_alone_runs_every_edit_whole(tmp_path: Path) -> None:
    """test_get needs what test_register leaves behind: alone it fails with a KeyError, not the
    planted bug's AssertionError, so the failing tests alone would hide the right edit."""
    project = committed(
        tmp_path / "p",
        {
            "pkg/__init__.py": "",
            "pkg/reg.py": (
                "REGISTRY = {}\n\n\ndef register(name, value):\n    REGISTRY[name] = value\n\n\n"
                "def get(name):\n    return REGISTRY[name] + 1\n"
            ),
            "tests/test_reg.py": (
                "from pkg.reg import get, register\n\n\ndef test_register():\n"
                '    register("a", 1)\n\n\ndef test_get():\n    assert get("a") == 1\n'
            ),
        },
    )
    right = "```python\ndef get(name):\n    return REGISTRY[name]\n```"
    settings = FixSettings(n_candidates=1, max_iters=1, greedy=False, rewrite_lines=False)
    result, _ = run_fix(project, [right], settings, command="python -m pytest -q tests")
    assert result.failing_first_note == (
        "tests.test_reg::test_get fails otherwise alone than among the other tests"
    )
    assert result.repaired and not result.rounds[0].tries[0].only_failing
    report = io.StringIO()
    print_fix(result, report, apply=False)
    assert "(every edit ran the whole command: tests.test_reg::test_get fails" in report.getvalue()


REGISTRY = {
    "pkg/__init__.py": "",
    "pkg/reg.py": (
        "REGISTRY = {}\n\n\ndef register(name, value):\n    REGISTRY[name] = value\n\n\n"
        "def get(name):\n    return REGISTRY[name]\n\n\ndef double(x):\n    return x * 2 + 1\n"
    ),
    "tests/test_reg.py": (
        "from pkg.reg import double, get, register\n\n\n"
        'def test_register():\n    register("a", 1)\n\n\n'
        'def test_get():\n    assert double(2) == 4\n    assert get("a") == 1\n'
    ),
}
DOUBLE_RIGHT = "```python\ndef double(x):\n    return x * 2\n```"


def test_an_edit_after_which_a_failing_test_fails_elsewhere_runs_the_whole_command(
    tmp_path: Path,
) -> None:
    """test_get fails alike alone at first (double is wrong), but once double is right it needs
    what test_register leaves behind: alone it now fails elsewhere (a KeyError in get), so the
    whole command decides, and the right edit wins."""
    project = committed(tmp_path / "p", REGISTRY)
    settings = FixSettings(
        n_candidates=1, max_iters=1, greedy=False, rewrite_lines=False, max_alone=math.inf
    )
    result, _ = run_fix(project, [DOUBLE_RIGHT], settings, command="python -m pytest -q tests")
    assert result.failing_first_note == ""  # test_get fails alike alone at first
    (edit,) = result.rounds[0].tries
    assert not edit.only_failing and result.repaired


def test_failing_tests_that_take_most_of_the_command_s_time_are_not_run_first(
    tmp_path: Path,
) -> None:
    project = committed(tmp_path / "p", REGISTRY)
    settings = FixSettings(
        n_candidates=1, max_iters=1, greedy=False, rewrite_lines=False, max_alone=0.01
    )
    wrong = "```python\ndef double(x):\n    return x * 3\n```"
    result, _ = run_fix(project, [wrong], settings, command="python -m pytest -q tests")
    assert result.failing_first_note.startswith("the failing tests alone take ")
    assert not result.rounds[0].tries[0].only_failing
    assert result.spent["tests"] > result.rounds[0].tries[0].seconds  # the check's run counts


def test_a_failure_raises_at_the_same_site_when_only_lines_of_edited_files_moved() -> None:
    def report(site: str) -> str:
        return f"    def f():\n>       g(object at 0x7f3a12)\nE       KeyError: 'a'\n\n{site}"

    before = report("pkg/reg.py:9: KeyError")
    assert oc.same_site(report("pkg/reg.py:9: KeyError"), before)
    assert not oc.same_site(report("pkg/reg.py:11: KeyError"), before)
    assert oc.same_site(report("pkg/reg.py:11: KeyError"), before, ["pkg/reg.py"])
    assert not oc.same_site(report("pkg/reg.py:9: ValueError"), before, ["pkg/reg.py"])
    assert not oc.same_site(report("tests/t.py:4: KeyError"), before, ["pkg/reg.py"])
    # addresses and the sandbox's private temporary paths differ between two runs alike
    a = "E   assert <A object at 0x7f01> == 1 in /tmp/localcode-fix-ab12_x/tmp/f\nt.py:3: Error"
    b = "E   assert <A object at 0x7e99> == 1 in /tmp/localcode-fix-zz9q0w/tmp/f\nt.py:3: Error"
    assert oc.signature(a) == oc.signature(b) != oc.signature(b.replace("== 1", "== 2"))


def test_an_edit_that_hangs_the_failing_tests_is_not_run_whole(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "inflection")
    hangs = RIGHT.replace(
        "    if uppercase_first_letter:",
        "    while True:\n        pass\n    if uppercase_first_letter:",
    )
    settings = FixSettings(
        n_candidates=1,
        max_iters=1,
        greedy=False,
        rewrite_lines=False,
        test_timeout=10,
        max_alone=math.inf,
    )
    result, _ = run_fix(project, [hangs], settings)
    (edit,) = result.rounds[0].tries
    assert edit.only_failing and not edit.eligible()
    assert edit.seconds < 2 * settings.test_timeout  # one timed-out run, not two


def test_the_failing_tests_alone_are_named_as_pytest_reports_them(tmp_path: Path) -> None:
    """Classes, parameters (with a slash in one), a package of tests and a top-level module."""
    project = committed(
        tmp_path / "p",
        {
            "tests/__init__.py": "",
            "tests/test_a.py": (
                "import pytest\n\n\nclass TestK:\n    def test_one(self):\n        assert False\n\n"
                "    def test_two(self):\n        pass\n\n\n"
                '@pytest.mark.parametrize("x", [1, 2, "a/b"])\ndef test_p(x):\n    assert x == 1\n'
            ),
            "test_top.py": "def test_top():\n    assert False\n\n\ndef test_ok():\n    pass\n",
        },
    )
    ws, command = Workspace.open(project), "python -m pytest -q"
    every = oc.read(run_command(command, project, {}, report_arg=oc.JUNIT_ARG), True)
    failing = oc.failing(every)
    assert len(failing) == 4 and len(every) == 7
    how = plugged.only(command, ws.root, ws.cwd, failing)
    run = run_command(how.command, project, how.files, report_arg=oc.JUNIT_ARG, env=how.env)
    assert sorted(oc.read(run, True)) == sorted(failing)
    assert git(project, "status", "--porcelain") == ""  # the plugin went into the view only


def test_a_later_round_repairs_the_best_edit_with_its_failures(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "inflection")
    result, backend = run_fix(
        project, ["no code here", RIGHT], FixSettings(n_candidates=1, max_iters=3, greedy=False)
    )
    assert [r.kind for r in result.rounds] == ["edit", "repair"]
    assert result.repaired
    assert len(backend.history) == 2  # it stopped once everything passed


def test_a_reply_of_changed_lines_replaces_the_most_similar_line(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "inflection")
    text = (project / INFLECTION.file).read_text()
    unit = [Unit(INFLECTION.file, "camelize")]
    reply = f"The slice is off by one:\n```python\n{INFLECTION.right}\n```"
    files, reason = apply_reply(reply, unit, {INFLECTION.file: text})
    assert reason == ""
    assert files[INFLECTION.file] == text.replace(INFLECTION.wrong, INFLECTION.right)
    echo = f"```python\n{INFLECTION.wrong}\n```"
    assert apply_reply(echo, unit, {INFLECTION.file: text}) == ({}, "the reply changes nothing")
    unrelated = "```python\nprint('hello world')\n```"
    assert apply_reply(unrelated, unit, {INFLECTION.file: text}) == (
        {},
        "the reply changes nothing",
    )


def test_a_changed_line_that_drops_return_keeps_it(tmp_path: Path) -> None:
    """Small models quote the expression they fix: `string[0].lower() + ...` for a line that
    reads `return string[1].lower() + ...`. The edit keeps the `return`."""
    project = make_project(tmp_path / "p", "inflection")
    text = (project / INFLECTION.file).read_text()
    unit = [Unit(INFLECTION.file, "camelize")]
    reply = "```python\nstring[0].lower() + camelize(string)[1:]\n```"
    changed, reason = apply_reply(reply, unit, {INFLECTION.file: text})
    assert reason == ""
    assert "        return string[0].lower() + camelize(string)[1:]\n" in changed[INFLECTION.file]


def test_the_kept_docstring_and_imports_of_a_reply(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "inflection")
    text = (project / INFLECTION.file).read_text()
    reply = "```python\nimport functools\n\n" + RIGHT.split("\n", 1)[1]
    files, reason = apply_reply(reply, [Unit(INFLECTION.file, "camelize")], {INFLECTION.file: text})
    assert reason == ""
    new = files[INFLECTION.file]
    assert "import functools\n" in new and new.index("import functools") < new.index("def camelize")
    assert new.count("Convert strings to CamelCase.") == 1  # the original docstring stays
    assert new.count(INFLECTION.right) == 1


def test_units_come_from_the_traceback_innermost_first(tmp_path: Path) -> None:
    project = committed(
        tmp_path / "p",
        {
            "pkg/__init__.py": "",
            "pkg/core.py": (
                "def parse(text):\n    return [_word(w) for w in text.split()]\n\n\n"
                "def _word(w):\n    return int(w) / 0\n\n\ndef unrelated():\n    return 1\n"
            ),
            "test_core.py": (
                "from pkg.core import parse\n\n\ndef test_parse():\n    assert parse('1 2') == [1, 2]\n"
            ),
        },
    )
    ws = Workspace.open(project)
    before = oc.read(run_command("python -m pytest -q", project, report_arg=oc.JUNIT_ARG), True)
    assert choose(ws, before) == [Unit("pkg/core.py", "_word"), Unit("pkg/core.py", "parse")]
    with pytest.raises(UsageError, match="size the model can read"):
        choose(ws, before, budget=10)


def test_an_edit_cannot_write_to_the_project_or_outside_or_reach_the_network(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path / "p", "inflection")
    outside = tmp_path / "outside.txt"
    attack = f"""```python
def camelize(string, uppercase_first_letter=True):
    import socket
    for path in ({str(project / INFLECTION.file)!r}, {str(outside)!r}):
        try:
            open(path, "a").write("# tampered")
        except OSError:
            pass
    try:
        socket.create_connection(("127.0.0.1", 22), timeout=1)
        return "NETWORK"
    except OSError:
        pass
    if uppercase_first_letter:
        return re.sub(r"(?:^|_)(.)", lambda m: m.group(1).upper(), string)
    return string[0].lower() + camelize(string)[1:]
```"""
    result, _ = run_fix(project, [attack], ONE)
    assert result.repaired  # the edit ran, and its writes went to its private view only
    assert "tampered" not in (project / INFLECTION.file).read_text()
    assert not outside.exists()
    assert git(project, "status", "--porcelain") == ""
    assert any(layer.startswith("overlay") for layer in result.layers)


@pytest.mark.parametrize("name", sorted(BUGS))
def test_each_real_projects_failure_is_found_and_pointed_at(tmp_path: Path, name: str) -> None:
    bug = BUGS[name]
    project = make_project(tmp_path / name, name)
    result, backend = run_fix(project, ["I can't see the bug."], ONE, bug.command)
    assert bug.failing in result.failing_before and result.passed_before > 0
    assert any(u.startswith(bug.file) for u in result.units)
    assert bug.wrong.strip().splitlines()[0].strip() in backend.history[0].messages[1]["content"]


def test_apply_writes_only_a_clean_tree(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "inflection")
    ws = Workspace.open(project)
    fixed = (project / INFLECTION.file).read_text().replace(INFLECTION.wrong, INFLECTION.right)
    (project / INFLECTION.file).write_text((project / INFLECTION.file).read_text() + "# mine\n")
    with pytest.raises(UsageError, match=r"uncommitted changes in inflection/__init__.py"):
        ws.apply({INFLECTION.file: fixed})
    assert (project / INFLECTION.file).read_text().endswith("# mine\n")  # nothing was written
    git(project, "checkout", "--", INFLECTION.file)
    ws.apply({INFLECTION.file: fixed})
    assert INFLECTION.right in (project / INFLECTION.file).read_text()


# ------------------------------------------------------------------ the command line


def cli(*args: str, cwd: Path, backend: str = "mock") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    return subprocess.run(
        [sys.executable, "-m", "localcode", "fix", "--backend", backend, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_cli_nothing_fails(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "inflection", planted=False)
    done = cli("--test-cmd", INFLECTION.command, cwd=project)
    assert done.returncode == 0, done.stderr
    assert "Nothing fails" in done.stdout and "455 tests" in done.stdout


def test_cli_reports_no_fix_as_json_and_writes_nothing(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "inflection")
    done = cli(
        "--test-cmd",
        INFLECTION.command,
        "--json",
        "--apply",
        "--n-candidates",
        "2",
        "--max-iters",
        "1",
        cwd=project,
    )
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    assert data["repaired"] is False and data["applied"] is False
    assert data["tests_still_failing"] == [INFLECTION.failing]
    assert [e["discarded"] for e in data["history"][0]["edits"]] == [
        "the reply changes nothing"
    ] * 2
    assert git(project, "status", "--porcelain") == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--test-cmd", "no-such-runner -q"],
            "test command was not found in the sandbox: `no-such-runner`",
        ),
        (["--test-cmd", "sleep 30", "--test-timeout", "1"], "did not finish within 1 s"),
        (["--test-cmd", "python -m pytest -q -k no_such_test"], "collected no tests"),
        (
            ["--test-cmd", "python -m pytest -q", "--files", "/etc/passwd"],
            "not a file inside the project",
        ),
        (
            ["--test-cmd", "python -m pytest -q", "--files", "test_inflection.py", "--apply"],
            "uncommitted changes in test_inflection.py",
        ),
        (
            ["--test-cmd", "python -m pytest -q test_net.py"],
            "need the network, which the sandbox cuts off",
        ),
        (
            ["--test-cmd", "python -m pytest -q", "--test-timeout", "0"],
            "--test-timeout must be a positive",
        ),
    ],
)
def test_cli_bad_input_gets_one_clear_line(tmp_path: Path, args: list[str], message: str) -> None:
    project = make_project(tmp_path / "p", "inflection")
    (project / "test_net.py").write_text(
        "import urllib.request\n\ndef test_download():\n    urllib.request.urlopen('http://example.com', timeout=2)\n"
    )
    if "--apply" in args:
        (project / "test_inflection.py").write_text(
            (project / "test_inflection.py").read_text() + "\n"
        )
    else:
        git(project, "add", "-A")
        git(project, "commit", "-qm", "net")
    done = cli(*args, cwd=project)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert message in done.stderr
    assert done.stderr.endswith("\n") and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith("error: ")  # one line says what to do


def test_cli_outside_a_git_work_tree(tmp_path: Path) -> None:
    done = cli("--test-cmd", "python -m pytest", cwd=tmp_path)
    assert done.returncode == 2
    assert "not inside a git work tree" in done.stderr and "git init" in done.stderr


class LineWriter(MockBackend):
    """The mock backend that also writes a line into a hole (fill-in-the-middle): the middles
    are scripted in order; each call is recorded with its prefix and suffix."""

    def __init__(self, middles: list[str | BackendError], replies: list[str]) -> None:
        super().__init__(replies=replies)
        self.middles = list(middles)
        self.holes: list[tuple[str, str, int, float]] = []

    def infill(self, prefix, suffix, *, n=1, temperature=0.0, seed=0, max_tokens=64, stop=()):  # noqa: ANN001, ANN201
        self.holes.append((prefix, suffix, n, temperature))
        out = []
        for i in range(n):
            middle = self.middles.pop(0) if self.middles else ""
            if isinstance(middle, BackendError):
                raise middle
            out.append(Completion(middle, seed + i, 10, 3, "stop"))
        return out


TOOLZ = BUGS["toolz"]


def test_a_singled_out_line_written_anew_fixes_the_bug_without_an_edit_round(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path / "p", "toolz")
    backend = LineWriter(
        ["rv = factory()", "if predicate(k) and not k:", "if predicate(k):"], replies=[]
    )
    settings = FixSettings(n_candidates=1, max_iters=1)
    result = fix(Workspace.open(project), TOOLZ.command, lambda: backend, settings)
    assert result.repaired and [r.kind for r in result.rounds] == ["lines"]
    tries = result.rounds[0].tries
    assert tries[0].reason == "the model wrote the line as it was" and not tries[0].seconds
    assert tries[0].to_dict()["ran"] is None  # discarded: nothing ran
    assert tries[1].tested and not tries[1].all_pass
    assert tries[2] is result.best and tries[2].origin == "line"
    assert "-        if not predicate(k):\n+        if predicate(k):" in result.diff
    # the model never saw the line it rewrote: neither above the hole nor below it
    wrong_prefix, wrong_suffix = backend.holes[2][:2]
    assert wrong_prefix.endswith("\n        ") and "if not predicate(k)" not in wrong_prefix
    assert wrong_suffix.startswith("\n            rv[k] = v") and "if not" not in wrong_suffix
    assert not backend.history  # no whole-function edit was asked for
    assert git(project, "status", "--porcelain") == ""


def test_lines_are_written_greedily_first_then_sampled(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "toolz")
    backend = LineWriter([], replies=["no idea"] * 4)
    settings = FixSettings(n_candidates=3, max_iters=1, temperature=0.7)
    result = fix(Workspace.open(project), TOOLZ.command, lambda: backend, settings)
    holes = len(result.suspects)
    assert holes >= 1 and not result.repaired
    calls = [(n, t) for _, _, n, t in backend.holes]
    assert calls == [(1, 0.0)] * holes + [(2, 0.7)] * holes
    assert [r.kind for r in result.rounds] == ["lines", "edit"]  # then the edit round, as before


def test_a_request_that_fails_after_lines_were_written_costs_only_its_hole(
    tmp_path: Path,
) -> None:
    project = make_project(tmp_path / "p", "toolz")
    timeout = BackendError("The local server did not answer within 300 s.", retryable=True)
    backend = LineWriter(["", timeout, "if predicate(k):"], replies=[])
    result = fix(Workspace.open(project), TOOLZ.command, lambda: backend, ONE_GREEDY)
    assert len(backend.holes) == 3 and "did not answer" in result.lines_note
    assert result.repaired and [r.kind for r in result.rounds] == ["lines"]


def long_function_project(dest: Path) -> Path:
    """A bug in a function too long to show the model whole (over MAX_UNIT_CHARS)."""
    filler = "".join(f"    total += {i}  # a step of the long way round\n" for i in range(250))
    return committed(
        dest,
        {
            "pkg/__init__.py": "",
            "pkg/long.py": (
                "def long(x):\n    if x > 0:\n        return x + 2\n    total = 0\n"
                + filler
                + "    return total\n"
            ),
            "tests/test_long.py": (
                "from pkg.long import long\n\n\ndef test_positive():\n    assert long(3) == 4\n\n\n"
                "def test_negative():\n    assert long(-1) == sum(range(250))\n"
            ),
        },
    )


def test_code_too_long_to_show_whole_is_still_repaired_by_a_line_written_anew(
    tmp_path: Path,
) -> None:
    project = long_function_project(tmp_path / "p")
    command = "python -m pytest -q tests"
    backend = LineWriter(["return x + 1"], replies=[])
    result = fix(Workspace.open(project), command, lambda: backend, ONE_GREEDY)
    assert result.repaired and [r.kind for r in result.rounds] == ["lines"]
    assert "-        return x + 2\n+        return x + 1" in result.diff
    assert result.units == [] and "in a size the model can read" in result.units_note
    assert result.to_dict()["units_note"] == result.units_note
    report = io.StringIO()
    print_fix(result, report, apply=False)
    assert "edited:  only lines written anew - Could not find the code" in report.getvalue()
    assert not backend.history  # no whole-function edit was asked for
    # without fill-in-the-middle, or with the line round off, nothing can be edited: said at once
    for connect, settings in (
        (lambda: MockBackend(replies=["no idea"]), ONE_GREEDY),
        (lambda: LineWriter([], replies=[]), replace(ONE_GREEDY, rewrite_lines=False)),
    ):
        with pytest.raises(UsageError, match="in a size the model can read"):
            fix(Workspace.open(project), command, connect, settings)


def test_a_line_that_does_not_parse_is_the_suspect_and_is_written_anew(tmp_path: Path) -> None:
    """Nothing in a file that does not parse runs, so no trace ranks it: the SyntaxError's line
    is the suspect, and the line round writes it anew (no traced run is made)."""
    project = committed(
        tmp_path / "p",
        {
            "pkg/__init__.py": "",
            "pkg/calc.py": "def double(x):\n    y = x * 2\n    return (y))\n",
            "tests/test_calc.py": (
                "from pkg.calc import double\n\n\ndef test_double():\n    assert double(2) == 4\n"
            ),
        },
    )
    backend = LineWriter(["return (y)"], replies=[])
    result = fix(Workspace.open(project), "python -m pytest -q tests", lambda: backend, ONE_GREEDY)
    assert result.suspects == ["pkg/calc.py:3: return (y)) (1)"]
    assert "locate" not in result.spent
    # pytest stops at a collection error: nothing passed, so nothing is gained by running first
    assert result.failing_first_note.startswith("no test passed")
    assert result.repaired and [r.kind for r in result.rounds] == ["lines"]
    assert "-    return (y))\n+    return (y)" in result.diff
    prefix, suffix, _, _ = backend.holes[0]
    assert prefix.endswith("y = x * 2\n    ") and "(y))" not in prefix + suffix
    # a line indented wrong is no hole (a line written anew keeps its indent): named, at once
    (project / "pkg/calc.py").write_text("def double(x):\n    y = x * 2\n      return y\n")
    git(project, "commit", "-qam", "indent")
    with pytest.raises(UsageError) as refused:
        fix(Workspace.open(project), "python -m pytest -q tests", lambda: backend, ONE_GREEDY)
    assert str(refused.value).startswith(
        "pkg/calc.py:3: IndentationError: unexpected indent - this file of the project does not"
    )


def test_a_model_that_cannot_fill_in_the_middle_goes_on_to_whole_edits(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "toolz")
    refusal = BackendError("The local llama.cpp server answered HTTP 501: infill not supported")
    backend = LineWriter([refusal], replies=["no idea"])
    result = fix(Workspace.open(project), TOOLZ.command, lambda: backend, ONE)
    assert "infill not supported" in result.lines_note
    assert [r.kind for r in result.rounds] == ["lines", "edit"] and backend.history
    assert result.to_dict()["lines_note"] == result.lines_note


TWO_MODULES = {
    "calc/__init__.py": "",
    "calc/total.py": (
        "from .scale import double\n\n\ndef total(xs):\n    out = 0\n    for x in xs:\n"
        "        y = double(x)\n        out += y\n    return out\n"
    ),
    "calc/scale.py": "def double(x):\n    return x * 3\n",
    "tests/test_total.py": (
        "from calc.total import total\n\n\ndef test_total():\n    assert total([1, 2]) == 6\n"
    ),
    "tests/test_scale.py": (
        "from calc.scale import double\n\n\ndef test_double_zero():\n    assert double(0) == 0\n"
    ),
}


def test_a_line_outside_the_functions_shown_is_written_anew_and_edited(tmp_path: Path) -> None:
    """The failing test runs total's five lines alone (the functions shown: total) and
    double's line beside a passing test: that line, in another module, is the sixth hole."""
    project = committed(tmp_path / "p", TWO_MODULES)
    backend = LineWriter(["", "", "", "", "", "return x * 2"], replies=[])
    settings = FixSettings(n_candidates=1, max_iters=2)
    result = fix(Workspace.open(project), "python -m pytest -q tests", lambda: backend, settings)
    assert [u.split(":")[0] for u in result.units] == ["calc/total.py"]
    assert len(backend.holes) == 6 and backend.holes[5][0].endswith("def double(x):\n    ")
    assert result.repaired and result.best is not None
    assert result.best.files == {"calc/scale.py": "def double(x):\n    return x * 2\n"}
    assert "+    return x * 2" in result.diff


def test_an_ollama_code_model_writes_the_line_through_its_suffix_template(tmp_path: Path) -> None:
    """`fix --backend ollama`, a real process against an Ollama on 127.0.0.1 whose model writes
    what the code around a hole implies: the singled-out line is written anew and applied."""
    project = make_project(tmp_path / "p", "toolz")

    def reads_the_code(prompt: str, suffix: str, seed: int) -> str:
        loop = prompt.endswith("for k, v in d.items():\n        ")
        return ("if predicate(k):" if loop else "pass") + "\n        return rv\n"

    fake = FakeOllama(lambda messages, seed: "no idea", infiller=reads_the_code)
    try:
        done = ollama_fix(project, fake, "qwen2.5-coder:1.5b", "--json", "--apply")
    finally:
        fake.close()
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["repaired"] and [r["kind"] for r in data["history"]] == ["lines"]
    assert {r.path for r in fake.requests} == {"/api/generate"}  # no chat: no edit round
    assert fake.violations == []
    assert TOOLZ.right in (project / TOOLZ.file).read_text()


def ollama_fix(
    project: Path, fake: FakeOllama, model: str, *args: str
) -> subprocess.CompletedProcess[str]:
    return cli(
        *["--max-iters", "1", "--ollama-url", fake.url, "--model", model],
        *["--test-cmd", TOOLZ.command, *args],
        cwd=project,
        backend="ollama",
    )


def test_no_rewrite_lines_asks_for_whole_edits_at_once(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "toolz")
    fake = FakeOllama(lambda messages, seed: "no idea", infiller=lambda *a: "if predicate(k):")
    try:
        done = ollama_fix(project, fake, "qwen2.5-coder:1.5b", "--no-rewrite-lines")
    finally:
        fake.close()
    assert done.returncode == 1, done.stderr
    assert "result:  NO FIX" in done.stdout and "round 1: sampling 4 edits" in done.stderr
    assert {r.path for r in fake.requests} == {"/api/chat"}


def test_a_model_ollama_cannot_infill_with_is_named_in_the_report(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", "toolz")
    models = ("qwen2.5-coder:1.5b", "llama3:latest")
    fake = FakeOllama(lambda messages, seed: "no idea", models=models, infiller=lambda *a: "")
    try:
        done = ollama_fix(project, fake, "llama3:latest")
    finally:
        fake.close()
    assert done.returncode == 1, done.stderr
    assert (
        "lines:   a line was not written anew: Ollama's 'llama3:latest' cannot fill in the middle"
        in done.stdout
    )
    assert [r.path for r in fake.requests][:2] == ["/api/generate", "/api/chat"]


# ------------------------------------------------------------------ the real model


@pytest.mark.model
@pytest.mark.parametrize("name", sorted(BUGS))
def test_real_model_end_to_end_on_a_real_project(tmp_path: Path, name: str) -> None:
    """The small model's edits, tried, ranked and (with --apply) applied: what it claims holds."""
    bug = BUGS[name]
    model = os.environ.get("LOCALCODE_TEST_MODEL", "qwen2.5-coder-0.5b")
    project = make_project(tmp_path / name, name)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "localcode",
            "fix",
            "--test-cmd",
            bug.command,
            "--model",
            model,
            "--n-candidates",
            "2",
            "--max-iters",
            "1",
            "--max-tokens",
            "400",
            "--json",
            "--apply",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert done.returncode in (0, 1), done.stderr
    data = json.loads(done.stdout)
    assert bug.failing in data["failing_before"]
    assert data["tokens"] > 0
    kinds = [r["kind"] for r in data["history"]]
    # where the trace singles out lines, they are written anew first (the fill-in-the-middle round)
    assert kinds[0] == ("lines" if data["suspects"] else "edit")
    for rnd in data["history"]:
        assert len(rnd["edits"]) == (2 if rnd["kind"] == "edit" else len(rnd["edits"]))
        assert rnd["kind"] != "lines" or all(e["origin"] == "line" for e in rnd["edits"])
    path = f"{Path(sys.executable).parent}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    after = subprocess.run(
        ["sh", "-c", bug.command],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PATH": path},
    )
    if data["applied"]:
        assert data["tests_broken"] == []
        assert (after.returncode == 0) == data["repaired"]
    else:
        assert git(project, "status", "--porcelain") == ""
        assert after.returncode != 0
