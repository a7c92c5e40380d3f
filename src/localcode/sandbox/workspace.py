"""What a candidate's processes get: the paths they may read, their environment, their folders."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from typing import Any

from .records import PYTHON_ENV

# what every sandboxed process may read of the system: programs, libraries, config, a few devices
SYSTEM_PATHS = (
    "/usr",
    "/lib",
    "/lib64",
    "/lib32",
    "/bin",
    "/sbin",
    "/etc",
    "/opt",
    "/sys/devices/system/cpu",
    "/dev/null",
    "/dev/zero",
    "/dev/urandom",
    "/dev/random",
    "/dev/full",
)


def readable_paths(own_proc: bool) -> list[str]:
    paths = [
        *SYSTEM_PATHS,
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
    ]
    paths += [p for p in sys.path if p not in ("", "/") and os.path.isdir(p)]
    if own_proc:
        paths.append("/proc")  # a fresh procfs that shows only the candidate's own processes
    return _outermost(paths)


def _outermost(paths: list[str]) -> list[str]:
    """`paths` without those inside another one: a Landlock rule or a bind mount of a directory
    already covers everything beneath it, so each extra one is only per-run work."""
    unique = sorted({os.path.abspath(p) for p in paths})
    kept: list[str] = []
    for path in unique:
        if not any(path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
    return kept


def child_env(home: str) -> dict[str, str]:
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        **PYTHON_ENV,  # Python the candidate starts hashes as the worker does
        "MKL_NUM_THREADS": "1",
    }


def write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def chown_tree(path: str, uid: int) -> None:
    for root, dirs, files in os.walk(path):
        for name in [root] + [os.path.join(root, n) for n in dirs + files]:
            os.chown(name, uid, uid)


def rmtree(path: str) -> None:
    def fix(func: Any, p: str, _exc: Any) -> None:
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(p), 0o700)
            os.chmod(p, 0o700)
            func(p)

    shutil.rmtree(path, onerror=fix)
