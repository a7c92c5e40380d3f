"""`localcode bench` end to end over the scripted mock backend, with the real sandbox judging."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from localcode.backends.local import LocalOptions
from localcode.backends.mock import MockBackend
from localcode.bench import load_problems, run_bench
from localcode.bench.judge import judge
from localcode.config import AgentConfig
from localcode.errors import BackendUnavailable, UsageError
from localcode.sandbox import Limits
from localcode.task import given_code, parse_task

# The mock's scripted code is always second_largest_unique: right for SOLVED (given its best
# candidate), wrong for UNSOLVED, whose hidden test the mock's own tests never look at.
SOLVED = {
    "task_id": "mock/solved",
    "prompt": "from typing import List, Optional\n\n\n"
    "def second_largest_unique(nums: List[int]) -> Optional[int]:\n"
    '    """The second largest unique number in nums, or None if there are fewer than two."""\n',
    "entry_point": "second_largest_unique",
    "test": "def check(candidate):\n"
    "    assert candidate([1, 2, 3, 4]) == 3\n"
    "    assert candidate([4, 4, 3]) == 3\n"
    "    assert candidate([5, 5]) is None\n",
}
UNSOLVED = {
    "task_id": "mock/unsolved",
    "prompt": 'def add(a: int, b: int) -> int:\n    """Return a + b."""\n',
    "entry_point": "add",
    "test": "def check(candidate):\n    assert candidate(1, 2) == 3\n",
}


def write_problems(path: Path, rows: list[dict[str, str]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "localcode", "bench", "--backend", "mock", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def table(stdout: str) -> dict[str, list[str]]:
    """The printed table as strategy -> cells (the pass-rate cell split on its space)."""
    rows = {}
    for line in stdout.splitlines():
        cells = line.split()
        if cells and cells[0] in ("greedy", "best-of-n", "prototype", "localcode"):
            rows[cells[0]] = cells[1:]
    return rows


@pytest.fixture
def problems(tmp_path: Path) -> Path:
    return write_problems(tmp_path / "problems.jsonl", [SOLVED, UNSOLVED])


def test_four_strategies_end_to_end(tmp_path: Path, problems: Path) -> None:
    out = tmp_path / "out"
    proc = bench("--problems", str(problems), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    # greedy (seed 0) gets the mock's no-dedupe reply: wrong on [4, 4, 3], and it claims nothing.
    # The loops keep a 5/5 candidate: right on SOLVED; on UNSOLVED they claim a full pass on
    # their own (second_largest_unique) tests while add() does not exist: false confidence.
    rows = table(proc.stdout)
    assert rows["greedy"][:5] == ["0/2", "(0.0%)", "-", "-", "0"]
    for name in ("best-of-n", "prototype", "localcode"):
        assert rows[name][:5] == ["1/2", "(50.0%)", "2", "1", "0"], name
    results = lines(out / "results.jsonl")
    assert [(r["task_id"], r["strategy"]) for r in results] == [
        (t, s)
        for t in ("mock/solved", "mock/unsolved")
        for s in ("greedy", "best-of-n", "prototype", "localcode")
    ]
    greedy = results[0]
    assert greedy["self_reported"] is None and greedy["hidden_passed"] is False
    assert "assert 4 == 3" in greedy["hidden_detail"]
    assert greedy["prompt_tokens"] > 0 and greedy["completion_tokens"] > 0
    unsolved_loop = results[5]
    assert unsolved_loop["self_reported"] is True and unsolved_loop["hidden_passed"] is False
    assert "add" in unsolved_loop["hidden_detail"]  # NameError: add is not defined
    summary = json.loads((out / "summary.json").read_text())
    by_name = {s["strategy"]: s for s in summary["strategies"]}
    assert by_name["best-of-n"]["false_confidence"] == 1
    assert by_name["greedy"]["claims"] == 0 and by_name["greedy"]["pass_rate"] == 0.0
    assert summary["task_ids"] == ["mock/solved", "mock/unsolved"]
    assert (out / "pass_rate.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_tokens_and_time_are_means_per_problem(tmp_path: Path, problems: Path) -> None:
    out = tmp_path / "out"
    proc = bench("--problems", str(problems), "--out", str(out), "--strategies", "greedy")
    assert proc.returncode == 0, proc.stderr
    results = lines(out / "results.jsonl")
    tokens = [r["prompt_tokens"] + r["completion_tokens"] for r in results]  # type: ignore[operator]
    assert table(proc.stdout)["greedy"][-1] == f"{sum(tokens) / 2:.0f}"
    seconds = [r["seconds"] for r in results]
    assert table(proc.stdout)["greedy"][-2] == f"{sum(seconds) / 2:.1f}"  # type: ignore[arg-type]


def test_a_fix_round_separates_best_of_n_from_the_prototype(tmp_path: Path, problems: Path) -> None:
    # the mock's "fix" scenario: no round-0 candidate passes its tests; the fix round does
    proc = bench(
        "--problems", str(problems), "--out", str(tmp_path / "out"),
        "--model", "fix", "--ids", "mock/solved", "--strategies", "best-of-n,prototype",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rows = table(proc.stdout)
    assert rows["best-of-n"][:4] == ["0/1", "(0.0%)", "0", "0"]
    assert rows["prototype"][:4] == ["1/1", "(100.0%)", "1", "0"]
    # which round turned a wrong answer into a right one, judged on the hidden tests
    by_strategy = {r["strategy"]: r for r in lines(tmp_path / "out" / "results.jsonl")}
    history = by_strategy["prototype"]["history"]
    assert [(h["kind"], h["best_hidden"]) for h in history] == [("initial", False), ("fix", True)]
    assert [h["best_hidden"] for h in by_strategy["best-of-n"]["history"]] == [False]


def test_default_out_dir_names_the_model(tmp_path: Path, problems: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "localcode", "bench", "--backend", "mock", "--model", "fix",
         "--problems", str(problems), "--strategies", "greedy", "--limit", "1", "--no-chart"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "runs" / "bench-mock-fix"
    assert len(lines(out / "results.jsonl")) == 1
    assert not (out / "pass_rate.png").exists()


def test_a_strategy_that_gives_no_answer_is_a_recorded_failure(
    tmp_path: Path, problems: Path
) -> None:
    backend = MockBackend("demo", replies=["no tests here", "none again"])
    outcomes = run_bench(
        load_problems(problems)[:1], ["best-of-n"], AgentConfig(backend="mock"), backend,
        tmp_path, model="mock",
    )  # fmt: skip
    (o,) = outcomes
    assert o.error and "no test functions" in o.error
    assert o.hidden_passed is False and o.self_reported is None and not o.false_confidence
    assert o.hidden_detail == "no code to judge"
    assert len(lines(tmp_path / "results.jsonl")) == 1


def test_an_unavailable_backend_stops_the_run_and_records_nothing(
    tmp_path: Path, problems: Path
) -> None:
    backend = MockBackend("demo", replies=[BackendUnavailable("server gone")])
    with pytest.raises(BackendUnavailable):
        run_bench(
            load_problems(problems), ["greedy"], AgentConfig(backend="mock"), backend, tmp_path,
            model="mock",
        )  # fmt: skip
    assert not (tmp_path / "results.jsonl").exists()


# --- resume -------------------------------------------------------------------------------


def test_a_half_written_last_line_is_redone_once(tmp_path: Path, problems: Path) -> None:
    out = tmp_path / "out"
    args = ("--problems", str(problems), "--out", str(out), "--strategies", "greedy,best-of-n")
    assert bench(*args).returncode == 0
    path = out / "results.jsonl"
    first = path.read_text().splitlines()
    path.write_text(
        "\n".join(first[:3]) + "\n" + first[3][: len(first[3]) // 2]
    )  # killed mid-write
    proc = bench(*args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("already done") == 3
    again = path.read_text().splitlines()
    assert again[:3] == first[:3] and len(again) == 4
    assert json.loads(again[3])["strategy"] == "best-of-n"
    assert table(proc.stdout)["best-of-n"][:4] == ["1/2", "(50.0%)", "2", "1"]


def test_a_killed_run_resumes_without_duplicates(tmp_path: Path) -> None:
    many = [dict(SOLVED, task_id=f"mock/{i}") for i in range(8)]
    problems = write_problems(tmp_path / "many.jsonl", many)
    out = tmp_path / "out"
    path = out / "results.jsonl"
    cmd = [sys.executable, "-m", "localcode", "bench", "--backend", "mock", "--model", "fix",
           "--problems", str(problems), "--out", str(out), "--strategies", "greedy,prototype"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not path.exists() or path.read_text().count("\n") < 3):
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    before = path.read_text().splitlines()
    assert 3 <= len(before) < 16, "the run should have been killed part way"
    rerun = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    after = path.read_text().splitlines()
    keys = [(r["task_id"], r["strategy"]) for r in map(json.loads, after)]
    assert len(keys) == len(set(keys)) == 16
    done_before = len([ln for ln in before if ln.endswith("}")])
    assert after[:done_before] == before[:done_before]
    assert rerun.stderr.count("already done") >= done_before
    assert table(rerun.stdout)["prototype"][:2] == ["8/8", "(100.0%)"]


def test_other_settings_refuse_to_mix_into_old_results(tmp_path: Path, problems: Path) -> None:
    out = tmp_path / "out"
    assert (
        bench("--problems", str(problems), "--out", str(out), "--strategies", "greedy").returncode
        == 0
    )
    proc = bench(
        "--problems", str(problems), "--out", str(out), "--strategies", "greedy", "--seed", "1"
    )
    assert proc.returncode == 2
    assert "seed: 0 then 1" in proc.stderr and "--out" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("changed", "diff"),
    [
        ({"timeout": 9.0}, "timeout: 5.0 then 9.0"),
        ({"sandbox": "none"}, "sandbox: auto then none"),
        ({"options": LocalOptions(ctx_size=4096)}, "ctx_size: 8192 then 4096"),
    ],
)
def test_judging_settings_refuse_to_mix(
    tmp_path: Path, problems: Path, changed: dict[str, object], diff: str
) -> None:
    # the local backend's settings (its context window counts), answered by the mock
    first = load_problems(problems)[:1]
    run_bench(
        first, ["greedy"], AgentConfig(backend="local"), MockBackend("demo"), tmp_path, model="m"
    )
    with pytest.raises(UsageError, match=diff):
        cfg = AgentConfig(backend="local", **changed)  # type: ignore[arg-type]
        run_bench(first, ["greedy"], cfg, MockBackend("demo"), tmp_path, model="m")


def test_results_from_before_judging_settings_were_recorded_resume(
    tmp_path: Path, problems: Path
) -> None:
    # A line written before timeout, sandbox and ctx_size were recorded was judged under
    # their defaults: it resumes a default run and refuses any other.
    first = load_problems(problems)[:1]
    local = AgentConfig(backend="local")  # a backend with a context window, answered by the mock
    run_bench(first, ["greedy"], local, MockBackend("demo"), tmp_path, model="m")
    path = tmp_path / "results.jsonl"
    (row,) = lines(path)
    for key in ("timeout", "sandbox", "ctx_size"):
        del row["settings"][key]  # type: ignore[attr-defined]
    path.write_text(json.dumps(row) + "\n")
    again = run_bench(first, ["greedy"], local, MockBackend("demo"), tmp_path, model="m")
    assert again[0].final_code == row["final_code"] and len(lines(path)) == 1
    with pytest.raises(UsageError, match="sandbox: auto then strict"):
        cfg = AgentConfig(backend="local", sandbox="strict")
        run_bench(first, ["greedy"], cfg, MockBackend("demo"), tmp_path, model="m")


def test_a_backend_without_a_context_window_resumes_lines_that_recorded_one(
    tmp_path: Path, problems: Path
) -> None:
    # lines written before backends owned their options recorded ctx_size for every backend
    first = load_problems(problems)[:1]
    mock = AgentConfig(backend="mock")
    run_bench(first, ["greedy"], mock, MockBackend("demo"), tmp_path, model="m")
    path = tmp_path / "results.jsonl"
    (row,) = lines(path)
    assert "ctx_size" not in row["settings"]  # type: ignore[operator]
    row["settings"]["ctx_size"] = 8192  # type: ignore[index]
    path.write_text(json.dumps(row) + "\n")
    again = run_bench(first, ["greedy"], mock, MockBackend("demo"), tmp_path, model="m")
    assert again[0].final_code == row["final_code"] and len(lines(path)) == 1


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"task_id": "x", "prompt": "p"\n', "line 1 is not JSON"),
        (json.dumps(SOLVED) + "\n[1, 2]\n", "line 2 is not a JSON object"),
        (json.dumps({"task_id": "x", "prompt": "def f(): pass"}) + "\n", "lacks entry_point, test"),
        (json.dumps(dict(SOLVED, test=3)) + "\n", "lacks test"),
        ("", "holds no problems"),
        ("\n\n", "holds no problems"),
        (json.dumps(dict(SOLVED, test="def helper(): pass\n")) + "\n", "does not define check"),
        (json.dumps(dict(SOLVED, entry_point="not a name")) + "\n", "is not a function name"),
        (json.dumps(SOLVED) + "\n" + json.dumps(SOLVED) + "\n", "'mock/solved' twice"),
    ],
)
def test_bad_problem_files_get_a_one_line_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    proc = bench("--problems", str(path), "--out", str(tmp_path / "out"))
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: Problem file") and message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--problems", "missing.jsonl"), "'missing.jsonl' does not exist"),
        (("--ids", "mock/nope"), "no problem mock/nope"),
        (("--strategies", "greedy,magic"), "Unknown strategy magic"),
        (("--limit", "0"), "--limit must be at least 1"),
        (("--n-candidates", "0"), "--n-candidates must be at least 1"),
        (("--backend", "nope"), "Unknown backend 'nope'"),
        (("--timeout", "0"), "--timeout must be a positive number"),
        (("--sandbox", "loose"), "invalid choice: 'loose'"),
    ],
)
def test_bad_flags_get_a_one_line_error(
    tmp_path: Path, problems: Path, args: tuple[str, ...], message: str
) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "localcode", "bench", "--problems", str(problems), *args],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_report_tabulates_an_unfinished_run_without_running_anything(
    tmp_path: Path, problems: Path
) -> None:
    out = tmp_path / "out"
    first = bench(
        "--problems", str(problems), "--out", str(out), "--strategies", "greedy,prototype"
    )
    assert first.returncode == 0, first.stderr
    # localcode was never run; one prototype line more is cut off, as an interrupted run leaves it
    results = out / "results.jsonl"
    kept = results.read_text().splitlines()[:3]  # greedy both, prototype on mock/solved only
    results.write_text("\n".join(kept) + "\n")
    (out / "pass_rate.png").unlink()
    proc = bench("--problems", str(problems), "--out", str(out), "--report")
    assert proc.returncode == 0, proc.stderr
    assert results.read_text().splitlines() == kept  # nothing run, nothing appended
    assert not (out / "pass_rate.png").exists() and "no chart" in proc.stdout
    overall, _, common = proc.stdout.partition("every strategy has finished")
    assert table(overall)["greedy"][:2] == ["0/2", "(0.0%)"]
    assert table(overall)["prototype"][:2] == ["1/1", "(100.0%)"]
    assert table(overall)["localcode"][:2] == ["0/0", "(0.0%)"]
    assert "on the 0 problems" in overall
    narrowed = bench(
        "--problems", str(problems), "--out", str(out), "--report",
        "--strategies", "greedy,prototype",
    )  # fmt: skip
    assert (out / "pass_rate.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"  # redrawn
    _, _, common = narrowed.stdout.partition("every strategy has finished")
    assert "on the 1 problems" in narrowed.stdout
    assert table(common)["greedy"][:2] == ["0/1", "(0.0%)"]
    assert table(common)["prototype"][:2] == ["1/1", "(100.0%)"]


def test_report_with_no_results_or_other_settings_says_what_to_do(
    tmp_path: Path, problems: Path
) -> None:
    out = tmp_path / "out"
    empty = bench("--problems", str(problems), "--out", str(out), "--report")
    assert empty.returncode == 2 and "run without --report" in empty.stderr
    assert (
        bench("--problems", str(problems), "--out", str(out), "--strategies", "greedy").returncode
        == 0
    )
    other = bench("--problems", str(problems), "--out", str(out), "--report", "--seed", "7")
    assert other.returncode == 2 and "other settings (seed: 0 then 7)" in other.stderr
    assert len(other.stderr.strip().splitlines()) == 1


def test_timeout_and_sandbox_flags_reach_judging_and_the_results(
    tmp_path: Path, problems: Path
) -> None:
    out = tmp_path / "out"
    args = ("--problems", str(problems), "--out", str(out), "--strategies", "greedy")
    proc = bench(*args, "--timeout", "7", "--sandbox", "none", "--ids", "mock/solved")
    assert proc.returncode == 0, proc.stderr
    (row,) = lines(out / "results.jsonl")
    assert row["settings"]["timeout"] == 7.0 and row["settings"]["sandbox"] == "none"  # type: ignore[index]
    again = bench(*args, "--ids", "mock/solved")  # default timeout: refuses to mix
    assert again.returncode == 2 and "timeout: 7.0 then 5.0" in again.stderr


def test_missed_counts_problems_where_an_unchosen_candidate_was_right(tmp_path: Path) -> None:
    # Hidden tests that want duplicates counted: only the mock's NO_DEDUPE candidate (4/5 on
    # its own tests, seed 0) is right. Greedy returns it; best-of-n produces it and picks a 5/5.
    dupes = dict(
        SOLVED,
        task_id="mock/dupes",
        test="def check(candidate):\n"
        "    assert candidate([4, 4, 3]) == 4\n"
        "    assert candidate([1, 2, 3, 4]) == 3\n",
    )
    problems = write_problems(tmp_path / "p.jsonl", [dupes, UNSOLVED])
    out = tmp_path / "out"
    strategies = "greedy,best-of-n,localcode"
    proc = bench("--problems", str(problems), "--out", str(out), "--strategies", strategies)
    assert proc.returncode == 0, proc.stderr
    by_key = {(r["strategy"], r["task_id"]): r for r in lines(out / "results.jsonl")}
    assert by_key[("greedy", "mock/dupes")]["hidden_passed"] is True
    assert by_key[("greedy", "mock/dupes")]["missed"] is False
    assert by_key[("best-of-n", "mock/dupes")]["hidden_passed"] is False
    assert by_key[("best-of-n", "mock/dupes")]["missed"] is True
    assert by_key[("best-of-n", "mock/unsolved")]["missed"] is False  # no candidate defines add
    assert by_key[("greedy", "mock/dupes")]["winner"] is None  # one sample: nothing chosen
    assert by_key[("best-of-n", "mock/dupes")]["winner"] in {f"r0c{i} sample" for i in range(4)}
    assert by_key[("best-of-n", "mock/dupes")]["winner"] != "r0c0 sample"  # NO_DEDUPE lost
    # where the time went, and what each round left
    best_of_n = by_key[("best-of-n", "mock/dupes")]
    assert set(best_of_n["spent"]) == {"tests", "candidates", "judging", "later rounds", "sandbox"}
    assert best_of_n["spent"]["candidates"]["tokens"] > 0
    assert [h["kind"] for h in best_of_n["history"]] == ["initial"]
    assert best_of_n["history"][0]["best"] == best_of_n["winner"].split()[0]
    assert best_of_n["history"][0]["best_hidden"] is False  # the 5/5 it chose is wrong
    # each candidate, judged too: a rule for drawing them can be replayed from the results
    drawn = best_of_n["history"][0]["candidates"]
    assert [(c["label"], c["origin"], c["hidden"]) for c in drawn] == [
        ("r0c0", "sample", True),  # NO_DEDUPE, 4/5 on its own tests
        ("r0c1", "sample", False),
        ("r0c2", "sample", False),
        ("r0c3", "sample", False),
    ]
    assert drawn[0]["passed"] == 4 and drawn[0]["total"] == 5 and drawn[0]["group"] is None
    loop = by_key[("localcode", "mock/dupes")]["history"][0]["candidates"]
    assert [c["origin"] for c in loop] == ["greedy", "reference", "sample", "sample"]
    assert [c["hidden"] for c in loop] == [True, False, False, False]
    brute, alt = loop[1], loop[3]  # BRUTE and CORRECT_ALT behave alike; NO_DEDUPE does not
    assert brute["group"] == alt["group"] != loop[0]["group"] and loop[2]["group"]
    rows = table(proc.stdout)
    assert rows["greedy"][5] == "0" and rows["best-of-n"][5] == "1"  # the "missed" column


def test_lines_from_before_missed_was_recorded_show_a_dash(tmp_path: Path, problems: Path) -> None:
    out = tmp_path / "out"
    assert (
        bench("--problems", str(problems), "--out", str(out), "--strategies", "greedy").returncode
        == 0
    )
    path = out / "results.jsonl"
    rows = lines(path)
    for row in rows:
        del row["missed"]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    proc = bench(
        "--problems", str(problems), "--out", str(out), "--strategies", "greedy", "--report"
    )
    assert proc.returncode == 0, proc.stderr
    assert table(proc.stdout)["greedy"][5] == "-"


def test_only_localcodes_lines_depend_on_the_examples_setting(
    tmp_path: Path, problems: Path
) -> None:
    out = tmp_path / "out"
    args = ("--problems", str(problems), "--out", str(out), "--ids", "mock/solved")
    first = bench(*args, "--strategies", "greedy,localcode", "--no-examples")
    assert first.returncode == 0, first.stderr
    path = out / "results.jsonl"
    rows = lines(path)
    assert "examples" not in rows[0]["settings"]  # type: ignore[operator]  # greedy never reads it
    assert rows[1]["settings"]["examples"] is False  # type: ignore[index]
    # greedy's line serves a run with examples on: reused, not rerun
    reused = bench(*args, "--strategies", "greedy")
    assert reused.returncode == 0, reused.stderr
    assert "already done" in reused.stderr and len(lines(path)) == 2
    # localcode's does not
    refused = bench(*args, "--strategies", "localcode")
    assert refused.returncode == 2 and "examples: False then True" in refused.stderr


# repairs in the folders of one clause each (keeps, keeps2: "the input must not change", and
# keeps2's tasks that ask for a change in place)
REPAIRS_ELSEWHERE = {"second_largest", "add_counts", "schedule", "add_matrices", "dedupe"}


def test_user_style_task_sets_are_bench_problems_their_right_programs_pass(tmp_path: Path) -> None:
    """The task folders under docs/bench/task-trials, written as problems by
    bench/task_trials.py --jsonl: each task's right program passes its hidden check through
    the bench's own judge, and a program that defines nothing fails it."""
    root = Path(__file__).resolve().parent.parent
    trials = root / "docs" / "bench" / "task-trials"
    folders = [trials / name for name in ("tasks", "tasks2", "repairs", "keeps", "keeps2")]
    out = tmp_path / "trials.jsonl"
    script = root / "bench" / "task_trials.py"
    done = subprocess.run(
        [sys.executable, str(script), *map(str, folders), "--jsonl", str(out)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    problems = load_problems(out)
    assert len(problems) == sum(len(list(f.glob("*_check.py"))) for f in folders) >= 40
    limits = Limits(timeout=30)
    for p in problems:
        folder, name = p.task_id.split("/")
        right = (trials / folder / f"{name}_solution.py").read_text()
        assert judge(p, right, limits).all_passed, p.task_id
        assert not judge(p, "def nothing():\n    pass\n", limits).all_passed, p.task_id
        # the code a repair task writes out is what it calls wrong
        given = given_code(parse_task(p.prompt))
        assert bool(given) == (folder == "repairs" or name in REPAIRS_ELSEWHERE), p.task_id
        assert not (given and judge(p, given, limits).all_passed), p.task_id
