"""Real projects for `localcode fix` tests: released code of three PyPI packages (kept as released
under tests/fixtures/projects, with their licences), each with a one-line bug planted in a fresh git
repository."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures" / "projects"


@dataclass(frozen=True)
class Bug:
    project: str
    command: str
    file: str
    right: str  # the line as released
    wrong: str  # the planted bug
    failing: str  # a test id that the bug makes fail


BUGS = {
    "inflection": Bug(
        "inflection",
        "python -m pytest -q test_inflection.py",
        "inflection/__init__.py",
        "return string[0].lower() + camelize(string)[1:]",
        "return string[0].lower() + camelize(string)[2:]",
        "test_inflection::test_camelize_with_lower_downcases_the_first_letter",
    ),
    "cachetools": Bug(
        "cachetools",
        "PYTHONPATH=src python -m pytest -q tests/test_lru.py",
        "src/cachetools/__init__.py",
        "self.__order.move_to_end(key)\n        except KeyError:",
        "self.__order.move_to_end(key, last=False)\n        except KeyError:",
        "tests.test_lru.LRUCacheTest::test_lru",
    ),
    "toolz": Bug(
        "toolz",
        "python -m pytest -q toolz/tests/test_dicttoolz.py",
        "toolz/dicttoolz.py",
        "        if predicate(k):\n            rv[k] = v",
        "        if not predicate(k):\n            rv[k] = v",
        "toolz.tests.test_dicttoolz.TestDict::test_keyfilter",
    ),
}


def make_project(dest: Path, name: str, planted: bool = True) -> Path:
    """A git work tree at `dest` holding the project, with its bug committed when `planted`."""
    shutil.copytree(FIXTURES / name, dest)
    bug = BUGS[name]
    if planted:
        path = dest / bug.file
        text = path.read_text(encoding="utf-8")
        assert text.count(bug.right) == 1, f"{bug.right!r} must occur once in {bug.file}"
        path.write_text(text.replace(bug.right, bug.wrong), encoding="utf-8")
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-qm", "project")
    return dest


def committed(dest: Path, files: dict[str, str]) -> Path:
    """A git work tree at `dest` holding `files` (relative path -> text), committed."""
    for rel, text in files.items():
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / rel).write_text(text, encoding="utf-8")
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-qm", "project")
    return dest


def git(where: Path, *args: str) -> str:
    cmd = ["git", "-C", str(where), "-c", "user.email=t@localcode", "-c", "user.name=t", *args]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
