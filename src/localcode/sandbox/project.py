"""Run a project's test command in the sandbox, on a private view with some files replaced:
`run_command(command, project, files, limits) -> CommandRun`.

The view costs no copy: the jail (jail.py) covers the project's path with an overlay in its own
mount namespace, so unchanged files are the project's own and every write lands on a tmpfs that
is gone when the run ends. Without namespaces (`--sandbox auto` on a kernel that refuses them) the
project is copied instead and only rlimits and the timeout apply; `strict` refuses that.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import SandboxError
from .records import HASH_SEED
from .workspace import SYSTEM_PATHS

SRC_ROOT = str(Path(__file__).resolve().parents[2])  # the directory that holds `localcode`
CONFIG_NAMES = ("pyproject.toml", "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg")
SCRATCH_MB = 512  # the tmpfs that takes the run's writes
MAX_OUTPUT_BYTES = 256 * 1024
_UNSAFE_IN_MOUNT_OPTIONS = (",", ":", "\\")


@dataclass(frozen=True)
class ProjectLimits:
    """Bounds on one run of a project's test command."""

    timeout: float = 120.0
    cpu_seconds: int = 300
    memory_mb: int = 2048
    max_file_mb: int = 64
    max_processes: int = 256
    isolation: str = "auto"  # "auto" | "strict" | "none"


@dataclass
class CommandRun:
    """What one run of the command did. `report` is pytest's JUnit XML when it wrote one."""

    returncode: int
    output: str
    elapsed: float
    timed_out: bool = False
    report: str | None = None
    layers: list[str] = field(default_factory=list)
    missing: dict[str, str] = field(default_factory=dict)
    collected: str | None = None  # the file named by `collect`, as the command left it


def run_command(
    command: str,
    project: str | os.PathLike[str],
    files: Mapping[str, str] | None = None,
    *,
    limits: ProjectLimits | None = None,
    python: str | None = None,
    report_arg: str | None = None,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
    collect: str | None = None,
) -> CommandRun:
    """Run `command` with `/bin/sh -c` in a private view of `project` where `files` (relative
    path -> text) replace or add files. `report_arg` is appended with the report file's path
    (e.g. "--junitxml=" for pytest). It runs in `cwd` (a directory in the project; its root by
    default), with `env` added to its environment. The command may write files into the
    directory $LOCALCODE_REPORT_DIR names; the one named `collect` is read back."""
    limits = limits or ProjectLimits()
    root = os.path.realpath(project)
    if any(c in root for c in _UNSAFE_IN_MOUNT_OPTIONS):
        raise SandboxError(
            f"The project path {root} contains ',', ':' or '\\', which an overlay "
            "mount cannot name; move or link the project to a plain path."
        )
    with tempfile.TemporaryDirectory(prefix="localcode-fix-") as base:
        report_dir = os.path.join(base, "report")
        os.mkdir(report_dir)
        report = os.path.join(report_dir, "report.xml")
        full = f"{command} {report_arg}{report}" if report_arg else command
        environ = {**_environment(python), **(env or {}), "LOCALCODE_REPORT_DIR": report_dir}
        if limits.isolation == "none":
            run = _run_copied(full, root, cwd, dict(files or {}), environ, limits, report, base)
            return _collected(run, report_dir, collect)
        spec = {
            "command": full,
            "project": root,
            "cwd": os.path.realpath(cwd) if cwd else root,
            "scratch": os.path.join(base, "scratch"),
            "scratch_mb": SCRATCH_MB,
            "report_dir": report_dir,
            "files": dict(files or {}),
            "readable": _readable(root, python),
            "env": environ,
            "limits": {
                "cpu_seconds": limits.cpu_seconds,
                "memory_mb": limits.memory_mb,
                "max_file_mb": limits.max_file_mb,
                "max_processes": limits.max_processes,
            },
            "strict": limits.isolation == "strict",
        }
        os.mkdir(os.path.join(base, "scratch"), 0o700)
        spec_path = os.path.join(base, "spec.json")
        with open(spec_path, "w", encoding="utf-8") as f:
            json.dump(spec, f)
        argv = [sys.executable, "-s", "-B", "-m", "localcode.sandbox.jail", spec_path]
        run = _supervise(argv, base, limits, {"PYTHONPATH": SRC_ROOT, **_own_env()})
        status = _read_json(os.path.join(report_dir, "jail.json"))
        if "error" in status:
            if limits.isolation == "strict":
                raise SandboxError(
                    f"The sandbox refused to run the test command: {status['error']}"
                )
            copied = _run_copied(full, root, cwd, dict(files or {}), environ, limits, report, base)
            copied.missing["namespaces"] = status["error"]
            return _collected(copied, report_dir, collect)
        run.layers, run.missing = status.get("layers", []), status.get("missing", {})
        run.report = _read_capped(report)
        return _collected(run, report_dir, collect)


def _collected(run: CommandRun, report_dir: str, name: str | None) -> CommandRun:
    if name:
        run.collected = _read_capped(os.path.join(report_dir, os.path.basename(name)), 16 << 20)
    return run


def _supervise(
    argv: Sequence[str],
    base: str,
    limits: ProjectLimits,
    env: Mapping[str, str],
    cwd: str | None = None,
    rlimits: bool = False,
) -> CommandRun:
    """Start `argv` in its own session, output to a capped file; kill the session at the timeout."""
    out_path = os.path.join(base, "output.txt")
    started = time.monotonic()
    with open(out_path, "wb") as out:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=dict(env),
            cwd=cwd,
            start_new_session=True,
            preexec_fn=_limits_for(limits) if rlimits else None,  # noqa: PLW1509 - no threads run in the child
        )
        timed_out = False
        try:
            proc.wait(timeout=limits.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return CommandRun(
        returncode=proc.returncode,
        output=_read_capped(out_path) or "",
        elapsed=time.monotonic() - started,
        timed_out=timed_out,
    )


def _run_copied(
    command: str,
    root: str,
    cwd: str | None,
    files: dict[str, str],
    env: dict[str, str],
    limits: ProjectLimits,
    report: str,
    base: str,
) -> CommandRun:
    """No namespaces: a plain copy of the project, rlimits and the timeout only."""
    copy = os.path.join(base, "copy")
    shutil.copytree(root, copy, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    for rel, text in files.items():
        path = os.path.join(copy, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    tmp = os.path.join(base, "tmp")
    os.mkdir(tmp)
    run = _supervise(
        ["/bin/sh", "-c", command],
        base,
        limits,
        {**env, "TMPDIR": tmp, "HOME": tmp},
        cwd=os.path.join(copy, os.path.relpath(os.path.realpath(cwd or root), root)),
        rlimits=True,
    )
    run.layers = ["rlimits", "timeout kill", "a copy of the project"]
    run.missing = {} if limits.isolation == "none" else {"namespaces": "not available"}
    run.output = run.output.replace(copy, root)
    run.report = _read_capped(report)
    if run.report:
        run.report = run.report.replace(copy, root)
    return run


def _limits_for(limits: ProjectLimits):  # noqa: ANN202
    def apply() -> None:
        for which, value in (
            (resource.RLIMIT_CPU, limits.cpu_seconds),
            (resource.RLIMIT_AS, limits.memory_mb << 20),
            (resource.RLIMIT_FSIZE, limits.max_file_mb << 20),
        ):
            resource.setrlimit(which, (value, value))

    return apply


def python_prefix(python: str | None) -> str | None:
    """The environment whose `bin/` holds the project's Python: `python`'s, else the active venv
    (VIRTUAL_ENV), else the venv localcode runs in; None for a system Python."""
    if python:
        return str(Path(python).absolute().parent.parent)
    if os.environ.get("VIRTUAL_ENV"):
        return os.environ["VIRTUAL_ENV"]
    return sys.prefix if sys.prefix != sys.base_prefix else None


def _environment(python: str | None) -> dict[str, str]:
    prefix = python_prefix(python)
    path = "/usr/local/bin:/usr/bin:/bin"
    env = {
        "PATH": f"{prefix}/bin:{path}" if prefix else path,
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": HASH_SEED,
        "PYTHONDONTWRITEBYTECODE": "1",
        "HOME": "/nonexistent",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
    }
    if prefix:
        env["VIRTUAL_ENV"] = prefix
    return env


def _readable(root: str, python: str | None) -> list[str]:
    prefix = python_prefix(python)
    paths = [*SYSTEM_PATHS, root, sys.base_prefix, sys.base_exec_prefix] + _ancestor_configs(root)
    if prefix:
        paths.append(prefix)
        with contextlib.suppress(OSError):  # a venv's python links to its base interpreter
            paths.append(
                str(Path(os.path.realpath(os.path.join(prefix, "bin", "python"))).parent.parent)
            )
    return sorted({p for p in paths if os.path.exists(p)})


def _ancestor_configs(root: str) -> list[str]:
    """Config files above the project that test runners read while they look for their root
    (pytest reads every pyproject.toml up to /): readable, so the search ends as it would."""
    found = []
    for parent in Path(root).parents:
        found += [str(parent / n) for n in CONFIG_NAMES if (parent / n).is_file()]
    return found


def _own_env() -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}


def _read_json(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {"error": "the jail ended before it could set up (see the command's output)"}
    return data if isinstance(data, dict) else {"error": "the jail wrote a bad status"}


def _read_capped(path: str, limit: int = MAX_OUTPUT_BYTES) -> str | None:
    """A file the sandboxed command may have written, read without trusting it: a link, a FIFO
    or a device left in its place is not followed or waited on (None), and at most `limit`
    bytes are read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    text = data[:limit].decode("utf-8", "replace")
    return text + ("\n[... output cut]" if len(data) > limit else "")
