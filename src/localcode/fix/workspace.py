"""The user's project as git sees it: its root, its Python files, what is uncommitted, and the
one place that writes an edit into the work tree (`apply`)."""

from __future__ import annotations

import difflib
import os
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import UsageError

MAX_FILE_BYTES = 512 * 1024  # a source file larger than this is not one we edit


@dataclass(frozen=True)
class Workspace:
    """A git work tree: `root` (its top), `cwd` (where the test command runs)."""

    root: Path
    cwd: Path

    @classmethod
    def open(cls, directory: str | os.PathLike[str]) -> Workspace:
        """The work tree holding `directory`, or a UsageError that says how to make one."""
        where = Path(directory).resolve()
        if not where.is_dir():
            raise UsageError(
                f"{where} is not a directory; pass the project's directory with --project."
            )
        top = _git(where, "rev-parse", "--show-toplevel")
        if top is None:
            raise UsageError(
                f"{where} is not inside a git work tree. `localcode fix` needs git to know which "
                "files are the project's and to apply an edit safely: run `git init && git add -A "
                "&& git commit -m init` there first."
            )
        return cls(Path(top).resolve(), where)

    def python_files(self) -> list[str]:
        """The project's tracked and untracked-but-not-ignored .py files, relative to the root."""
        listed = _git(
            self.root, "ls-files", "--cached", "--others", "--exclude-standard", "--", "*.py"
        )
        files = sorted({line for line in (listed or "").splitlines() if line})
        return [
            f
            for f in files
            if (self.root / f).is_file() and (self.root / f).stat().st_size <= MAX_FILE_BYTES
        ]

    def relative(self, path: str) -> str | None:
        """`path` (absolute, or relative to the root or to cwd) as a path in the project; None
        when it is outside."""
        p = Path(path)
        candidates = [p] if p.is_absolute() else [self.cwd / p, self.root / p]
        for c in candidates:
            try:
                rel = c.resolve().relative_to(self.root)
            except ValueError:
                continue
            if (self.root / rel).exists():
                return rel.as_posix()
        return None

    def own_file(self, path: str) -> str:
        """A --files entry as a project path, or a UsageError."""
        rel = self.relative(path)
        if rel is None:
            raise UsageError(f"--files {path}: not a file inside the project at {self.root}.")
        if not (self.root / rel).is_file() or not rel.endswith(".py"):
            raise UsageError(f"--files {path}: not a Python file (.py) of the project.")
        return rel

    def read(self, rel: str) -> str:
        return (self.root / rel).read_text(encoding="utf-8")

    def dirty(self, paths: Sequence[str]) -> list[str]:
        """Those of `paths` with uncommitted changes (staged, unstaged or untracked)."""
        if not paths:
            return []
        out = _git(self.root, "status", "--porcelain", "--untracked-files=all", "--", *paths) or ""
        return sorted(line[3:].strip() for line in out.splitlines() if line.strip())

    def apply(self, files: Mapping[str, str]) -> None:
        """Write `files` into the work tree, only if none of them has uncommitted changes."""
        dirty = self.dirty(list(files))
        if dirty:
            raise UsageError(
                "Not applied: uncommitted changes in " + ", ".join(dirty) + ". Commit or stash "
                "them, then run again with --apply (nothing was written)."
            )
        for rel, text in files.items():
            (self.root / rel).write_text(text, encoding="utf-8")

    def diff(self, files: Mapping[str, str]) -> str:
        """A unified diff of `files` against the work tree, `git apply`-able."""
        parts: list[str] = []
        for rel in sorted(files):
            old = self.read(rel).splitlines(keepends=True)
            new = files[rel].splitlines(keepends=True)
            parts.extend(difflib.unified_diff(old, new, f"a/{rel}", f"b/{rel}"))
        return "".join(
            p if p.endswith("\n") else p + "\n\\ No newline at end of file\n" for p in parts
        )


def _git(where: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(where), *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except FileNotFoundError:
        raise UsageError(
            "git is not installed; `localcode fix` needs it (apt install git)."
        ) from None
    except subprocess.TimeoutExpired:
        return None
    return done.stdout.strip("\n") if done.returncode == 0 else None
