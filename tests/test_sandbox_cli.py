"""`localcode check` and `localcode doctor`, driven end to end as a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from fakes.ollama import FakeOllama
from fakes.openai import FakeOpenAI
from fakes.server import html_reply


def localcode(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "localcode", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def test_check_exit_codes(tmp_path):
    code, tests = tmp_path / "solution.py", tmp_path / "tests.py"
    code.write_text("def double(x):\n    return 2 * x\n")
    tests.write_text("def test_a():\n    assert double(2) == 4\n")
    assert localcode("check", "--code", str(code), "--tests", str(tests)).returncode == 0
    tests.write_text(
        "def test_a():\n    assert double(2) == 4\n\ndef test_b():\n    assert double(1) == 3\n"
    )
    done = localcode("check", "--code", str(code), "--tests", str(tests), "--json")
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert [t["passed"] for t in report["tests"]] == [True, False]
    assert "assert 2 == 3" in report["tests"][1]["message"]
    missing = localcode("check", "--code", str(tmp_path / "nope.py"), "--tests", str(tests))
    assert missing.returncode == 2 and "nope.py' does not exist" in missing.stderr
    tests.write_text("def test_a(:\n")
    broken = localcode("check", "--code", str(code), "--tests", str(tests))
    assert broken.returncode == 2 and "line 1: SyntaxError" in broken.stderr
    tests.write_text("x = 1\n")
    empty = localcode("check", "--code", str(code), "--tests", str(tests))
    assert empty.returncode == 2 and "has no test functions" in empty.stderr
    folder = localcode("check", "--code", str(tmp_path), "--tests", str(tests))
    assert folder.returncode == 2 and "is a directory" in folder.stderr


def test_check_runs_tests_that_import_the_code_by_its_file_name(tmp_path):
    code, tests = tmp_path / "mycode.py", tmp_path / "test_mycode.py"
    code.write_text("from fractions import Fraction\n\ndef double(x):\n    return 2 * x\n")
    tests.write_text(  # Fraction: the code imports it, but it is not the code under test
        "import mycode\nfrom mycode import double as twice\nfrom fractions import Fraction\n\n"
        "def test_a():\n    assert mycode.double(2) == 4\n\n"
        "def test_b():\n    assert twice(Fraction(1, 2)) == 3\n"
    )
    done = localcode("check", "--code", str(code), "--tests", str(tests), "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["error"] is None
    assert [t["passed"] for t in report["tests"]] == [True, False]
    assert tests.read_text().startswith("import mycode\n")  # the user's file is left as it was


def test_doctor_lists_layers_and_backends():
    done = localcode("doctor", "--ollama-url", "http://127.0.0.1:9")
    assert done.returncode == 0
    assert "sandbox:" in done.stdout and "backends:" in done.stdout and "mock" in done.stdout
    assert "not reachable" in done.stdout and "ollama serve" in done.stdout
    # each layer says what it covers, active or missing
    seccomp = next(ln for ln in done.stdout.splitlines() if " seccomp" in ln)
    assert "pathname socket" in seccomp and "socketpair() works" in seccomp


def test_doctor_lists_the_models_ollama_has() -> None:
    fake = FakeOllama(lambda messages, seed: "")
    try:
        done = localcode("doctor", "--ollama-url", fake.url)
        fake.default = lambda req: html_reply()
        page = localcode("doctor", "--ollama-url", fake.url)
    finally:
        fake.close()
    assert done.returncode == 0 and page.returncode == 0
    assert (
        f"ollama at {fake.url}: reachable, 2 model(s): qwen2.5-coder:1.5b, llama3:latest"
        in done.stdout
    )
    assert "not reachable" in page.stdout and "check --ollama-url" in page.stdout


def test_doctor_probes_the_openai_compatible_server_and_the_anthropic_key() -> None:
    fake = FakeOpenAI(models=("qwen", "llama"))
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    try:
        env["OPENAI_BASE_URL"] = f"{fake.url}/v1"
        up = subprocess.run([sys.executable, "-m", "localcode", "doctor"], capture_output=True,
                            text=True, timeout=60, env=env)  # fmt: skip
    finally:
        fake.close()
    assert up.returncode == 0
    assert f"openai at {fake.url}/v1: reachable, 2 model(s): qwen, llama" in up.stdout
    assert "anthropic: no ANTHROPIC_API_KEY set" in up.stdout
    env.update(OPENAI_BASE_URL="http://127.0.0.1:9/v1", ANTHROPIC_API_KEY="sk-secret-123")
    down = subprocess.run([sys.executable, "-m", "localcode", "doctor"], capture_output=True,
                          text=True, timeout=60, env=env)  # fmt: skip
    assert "openai at http://127.0.0.1:9/v1: not reachable" in down.stdout
    assert "anthropic: an API key is set" in down.stdout and "sk-secret-123" not in down.stdout


# A kernel without Landlock, for real: a seccomp filter makes its syscall fail with ENOSYS, as an
# older kernel does, for this process and every sandbox worker it starts.
WITHOUT_LANDLOCK = """
import errno, sys
import pyseccomp as sc
f = sc.SyscallFilter(defaction=sc.ALLOW)
f.add_rule(sc.ERRNO(errno.ENOSYS), "landlock_create_ruleset")
f.load()
from localcode.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_strict_refuses_when_a_layer_is_missing_and_auto_says_which(tmp_path):
    code, tests = tmp_path / "solution.py", tmp_path / "tests.py"
    code.write_text("def double(x):\n    return 2 * x\n")
    tests.write_text("def test_a():\n    assert double(2) == 4\n")

    def without_landlock(*args: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-c", WITHOUT_LANDLOCK, *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60)

    files = ("--code", str(code), "--tests", str(tests))
    strict = without_landlock("check", *files, "--sandbox", "strict")
    assert strict.returncode == 2 and strict.stdout == ""
    assert "--sandbox strict refused to run: landlock" in strict.stderr
    assert len(strict.stderr.strip().splitlines()) == 1
    auto = without_landlock("check", *files, "--json")
    assert auto.returncode == 0, auto.stderr
    layers = json.loads(auto.stdout)["isolation"]
    assert "landlock" not in layers and any(x.startswith("missing: landlock") for x in layers)
    assert "seccomp" in layers and any(x.startswith("namespaces") for x in layers)  # still hold
    doctor = without_landlock("doctor")
    assert "--sandbox strict: refused" in doctor.stdout
    assert localcode("check", *files, "--sandbox", "strict").returncode == 0  # here it is allowed
