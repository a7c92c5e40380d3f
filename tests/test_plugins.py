"""A backend from another package, registered through the `localcode.backends` entry point."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = Path(__file__).parent / "plugins" / "localcode-echo"
SRC = Path(__file__).resolve().parents[1] / "src"


ENTRY_POINT = 'echo = "localcode_echo:PROVIDER"'


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder where the plugin is installed as pip would lay it out: the module and a
    .dist-info with its entry points (written here: building a wheel needs `wheel`, and the
    network for build isolation)."""
    assert ENTRY_POINT in (PLUGIN / "pyproject.toml").read_text()
    target = tmp_path_factory.mktemp("site")
    shutil.copy(PLUGIN / "localcode_echo.py", target)
    info = target / "localcode_echo-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: localcode-echo\nVersion: 0.1.0\n")
    group, line = "[localcode.backends]", ENTRY_POINT.replace('"', "")
    (info / "entry_points.txt").write_text(f"{group}\n{line}\n")
    return target


def localcode(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(SRC), str(site)]))
    cmd = [sys.executable, "-m", "localcode", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)


def test_an_installed_backend_is_listed(site: Path) -> None:
    out = localcode(site, "--help").stdout
    assert "one of: local, mock, ollama, openai, anthropic, echo" in " ".join(out.split())


def test_an_installed_backend_solves_a_task_from_the_cli(site: Path) -> None:
    task = "Write a function `add(a, b)` that returns the sum of a and b."
    done = localcode(site, "--backend", "echo", "--task", task, "--n-candidates", "2", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["passed"] is True
    assert result["final_code"].startswith("def add(a, b):")
    assert "Writing tests first" in done.stderr


def test_without_the_plugin_the_name_is_unknown(tmp_path: Path) -> None:
    done = localcode(tmp_path, "--backend", "echo")
    assert done.returncode == 2
    assert "Unknown backend 'echo'" in done.stderr


def test_an_installed_backend_brings_its_own_flag(site: Path) -> None:
    help_text = " ".join(localcode(site, "--help").stdout.split())
    assert "--echo-offset ECHO_OFFSET echo: added to every sum the code returns" in help_text
    task = "Write a function `add(a, b)` that returns the sum of a and b."
    done = localcode(site, "--backend", "echo", "--echo-offset", "1", "--task", task, "--json")
    assert done.returncode == 1, done.stderr  # its code now adds 1: the tests fail
    result = json.loads(done.stdout)
    assert result["passed"] is False and "+ 1" in result["final_code"]


def test_a_broken_backend_package_fails_only_when_chosen(site: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(site, broken)
    (broken / "localcode_echo.py").write_text("import no_such_module_here\n")
    assert localcode(broken, "--backend", "mock", "-q").returncode == 0  # the others still work
    done = localcode(broken, "--backend", "echo", "-q")
    assert done.returncode == 2
    assert "Backend 'echo'" in done.stderr and "failed to load" in done.stderr
    assert "no_such_module_here" in done.stderr and "Traceback" not in done.stderr


def test_doctor_asks_an_installed_backend_and_keeps_shared_flags_to_the_one_named(
    site: Path,
) -> None:
    done = localcode(site, "doctor", "--backend", "mock")
    assert done.returncode == 0, done.stderr
    assert "mock: scripted replies" in done.stdout and "ollama at" not in done.stdout
    broken = localcode(site.parent / "nowhere", "doctor", "--backend", "echo")
    assert broken.returncode == 2 and "invalid choice: 'echo'" in broken.stderr
