"""The CLI end to end, as a real subprocess: output, JSON, files, every bad input and exit code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def localcode(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "localcode", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
    )


def test_mock_demo_shows_the_rounds_and_exits_0() -> None:
    proc = localcode("--backend", "mock")
    assert proc.returncode == 0, proc.stderr
    # the greedy reply fails a test, so round 0 draws its other two candidates after all
    assert "=== Round 0: the greedy reply and a brute-force reference first" in proc.stderr
    lines = [ln.strip() for ln in proc.stderr.splitlines() if ln.strip().startswith("candidate")]
    assert lines == [
        "candidate 0 (greedy): 4/5 passing",
        "candidate 1 (brute-force reference): 5/5 passing",
        "candidate 2: 3/5 passing",
        "candidate 3: 5/5 passing",
    ]
    more = proc.stderr.index("they fail a test or disagree: generating 2 more in parallel")
    assert proc.stderr.index("candidate 1 (brute") < more < proc.stderr.index("candidate 2:")
    assert "All tests passed." in proc.stderr
    assert "=== SCORE: 100% ===" in proc.stdout and "=== Rounds used: 1 ===" in proc.stdout
    assert "def second_largest_unique" in proc.stdout


def test_all_samples_draws_round_0_at_once() -> None:
    proc = localcode("--backend", "mock", "--all-samples")
    assert proc.returncode == 0, proc.stderr
    assert "=== Round 0: generating 4 candidate solutions in parallel ===" in proc.stderr
    assert "more in parallel" not in proc.stderr


def test_fix_scenario_shows_each_kind_of_later_round() -> None:
    # round 0's best passes 4 of 5 generated tests (and there is no trusted test): by default
    # no fresh round is drawn for it (docs/METHOD.md, "Rounds that pay for themselves")
    proc = localcode("--backend", "mock", "--model", "fix")
    assert proc.returncode == 1 and "=== Round 1" not in proc.stderr
    assert "stopped after round 0: the best passes every trusted test" in proc.stdout
    # a task alone: fresh samples; the scenario's reference is wrong, so the pass is not claimed
    proc = localcode("--backend", "mock", "--model", "fix", "--all-rounds")
    assert proc.returncode == 1
    assert "the brute-force reference r0c1 returns 20 for second_largest_unique([10, 20])" in (
        proc.stdout
    )
    proc = localcode("--backend", "mock", "--model", "fix", "--no-reference", "--all-rounds")
    assert proc.returncode == 0
    assert "=== Round 1: generating 4 fresh candidates in parallel ===" in proc.stderr
    assert "best so far: round 1 candidate 0 (a fresh sample), 5/5" in proc.stderr
    assert "=== Rounds used: 2 ===" in proc.stdout
    proc = localcode(
        "--backend", "mock", "--model", "fix", "--later-rounds", "mixed", "--no-reference"
    )
    assert proc.returncode == 0
    assert (
        "=== Round 1: generating 2 fix candidates and 2 fresh ones in parallel ===" in proc.stderr
    )
    assert "candidate 2 (fresh):" in proc.stderr
    assert "best so far: round 1 candidate 0 (a fix), 5/5" in proc.stderr
    proc = localcode("--backend", "mock", "--model", "fix", "--later-rounds", "fix")
    assert "=== Round 1: generating 4 fix candidates in parallel ===" in proc.stderr
    proc = localcode("--backend", "mock", "--later-rounds", "fresher")
    assert proc.returncode == 2 and "invalid choice: 'fresher'" in proc.stderr


def test_json_output_is_the_whole_result() -> None:
    proc = localcode("--backend", "mock", "--json", "--quiet")
    assert proc.returncode == 0 and proc.stderr == ""
    data = json.loads(proc.stdout)
    assert data["score"] == 1.0 and data["passed"] is True and data["rounds_used"] == 1
    cands = data["rounds"][0]["candidates"]
    assert [c["passed"] for c in cands] == [4, 5, 3, 5]
    assert cands[0]["run"]["results"][1]["passed"] is False
    assert cands[0]["run"]["results"][1]["message"]
    assert data["final_code"].startswith("def second_largest_unique")
    assert data["seconds"] > 0 and data["completion_tokens"] > 0


def test_output_writes_the_final_code(tmp_path: Path) -> None:
    out = tmp_path / "solution.py"
    proc = localcode("--backend", "mock", "--quiet", "--output", str(out))
    assert proc.returncode == 0
    ns: dict[str, object] = {}
    exec(out.read_text(), ns)
    assert ns["second_largest_unique"]([3, 1, 3, 2]) == 2  # type: ignore[operator]


def test_task_file_and_stdin(tmp_path: Path) -> None:
    task = tmp_path / "task.txt"
    task.write_text("Write `second_largest_unique(nums)`.")
    assert localcode("--backend", "mock", "-q", "--task-file", str(task)).returncode == 0
    proc = localcode("--backend", "mock", "-q", "--task-file", "-", stdin="Write `f(x)`.")
    assert proc.returncode in (0, 1)


def test_no_full_pass_exits_1() -> None:
    proc = localcode("--backend", "mock", "--model", "fix", "--max-iters", "1")
    assert proc.returncode == 1
    assert "Max iterations reached" in proc.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--task", ""], "task is empty"),
        (["--task", "   \n\t"], "task is empty"),
        (["--task-file", "/nonexistent/task.txt"], "does not exist"),
        (["--task-file", "/"], "directory"),
        (["--n-candidates", "0"], "--n-candidates"),
        (["--max-iters", "0"], "--max-iters"),
        (["--timeout", "0"], "--timeout"),
        (["--timeout", "-1"], "--timeout"),
        (["--backend", "nonsense"], "Unknown backend 'nonsense'"),
        (["--n-candidates", "two"], "invalid int value"),
        (["--no-such-flag"], "unrecognized arguments"),
        (["--task", "x", "--task-file", "y"], "not both"),
        (["--model", "nope"], "Unknown mock scenario"),
        (["--output", "/nonexistent/dir/out.py"], "does not exist"),
        (["--temperature", "-0.5"], "--temperature"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], words: str) -> None:
    proc = localcode("--backend", "mock", *args)
    assert proc.returncode == 2, proc.stderr
    message = proc.stderr.strip()
    assert len(message.splitlines()) == 1 and words in message
    assert "Traceback" not in proc.stderr


def test_unreadable_task_file_is_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe\xfa not utf-8")
    proc = localcode("--backend", "mock", "--task-file", str(bad))
    assert proc.returncode == 2 and "Can't read task file" in proc.stderr


def test_backend_unavailable_exits_3() -> None:
    proc = localcode("--backend", "ollama", "--ollama-url", "http://127.0.0.1:9", "-q")
    assert proc.returncode == 3, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_own_tests_and_code_from_files(tmp_path: Path) -> None:
    tests = tmp_path / "my_tests.py"
    tests.write_text("def test_mine():\n    assert second_largest_unique([1, 3, 2]) == 2\n")
    code = tmp_path / "start.py"
    code.write_text("def second_largest_unique(nums):\n    return sorted(nums)[-2]\n")
    proc = localcode("--backend", "mock", "--tests", str(tests), "--code", str(code))
    assert proc.returncode == 0, proc.stderr
    assert "given code: 2/5 passing, your tests 1/1" in proc.stderr
    assert "=== Round 1: generating 2 fix candidates and 2 fresh ones" in proc.stderr


@pytest.mark.parametrize(
    ("flag", "content", "words"),
    [
        ("--tests", "def test_x(:\n", "syntax error at line 1"),
        ("--tests", "x = 1\n", "No test functions"),
        ("--code", "def f(:\n", "code has a syntax error"),
        ("--code", "  \n", "code file is empty"),
    ],
)
def test_bad_tests_or_code_files_are_exit_2(
    tmp_path: Path, flag: str, content: str, words: str
) -> None:
    f = tmp_path / "file.py"
    f.write_text(content)
    proc = localcode("--backend", "mock", flag, str(f))
    assert proc.returncode == 2 and words in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_missing_tests_file_is_exit_2() -> None:
    proc = localcode("--backend", "mock", "--tests", "/nonexistent/t.py")
    assert proc.returncode == 2 and "does not exist" in proc.stderr


def test_sandbox_none_is_said_out_loud() -> None:
    proc = localcode("--backend", "mock", "--sandbox", "none", "-q")
    assert proc.returncode == 0 and "ran without isolation" in proc.stdout


def test_check_rejects_a_non_positive_timeout(tmp_path: Path) -> None:
    code, tests = tmp_path / "s.py", tmp_path / "t.py"
    code.write_text("def f():\n    return 1\n")
    tests.write_text("def test_f():\n    assert f() == 1\n")
    proc = localcode("check", "--code", str(code), "--tests", str(tests), "--timeout", "0")
    assert proc.returncode == 2 and "--timeout" in proc.stderr


def test_a_reader_that_leaves_early_gets_no_traceback() -> None:
    # `localcode ... | head -1`: the pipe closes before everything is written
    proc = subprocess.Popen(
        [sys.executable, "-m", "localcode", "--backend", "mock", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--backend", "ollama", "--request-timeout", "0"], "--request-timeout must be a positive"),
        (["--backend", "openai", "--max-parallel", "0"], "--max-parallel must be a positive"),
        (["--backend", "local", "--ctx-size", "0"], "--ctx-size must be at least 256"),
        (["--backend", "ollama", "--ctx-size", "0"], "--ctx-size must be a positive"),
    ],
)
def test_a_backend_flag_of_zero_is_refused_not_replaced_by_the_default(
    flags: list[str], message: str
) -> None:
    done = localcode(*flags, "-q")
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
