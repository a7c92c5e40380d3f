"""Run one shell command confined, on a private view of a project: `python -m localcode.sandbox.jail SPEC`.

Started by project.py, one process per run. It enters new mount, PID, network, IPC and UTS
namespaces (and a user namespace when not root), mounts a size-capped tmpfs on its scratch
directory, and covers the project's own path with an overlay whose lower layer is the project
(never written: the kernel sends every write to the upper layer, on that tmpfs) and whose upper
layer holds the candidate's edited files. The project is seen at its real path, so an editable
install, a conftest.py or a config file that names that path still finds it, and tracebacks name
it. Then its child, PID 1 of the new PID namespace, drops every capability, sets rlimits, Landlock
(read the system, the project's Python and the project; write only the project view, its temp
directory and the report directory) and seccomp (no connect, no sending to an address, no new
namespaces), and execs `/bin/sh -c COMMAND`. When PID 1 ends, the kernel kills every process left
in its namespace, and the tmpfs with the upper layer goes with the mount namespace.

What it could and could not set up goes to REPORT_DIR/jail.json before the exec.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from . import confine

SETUP_FAILED = 125  # exit status when the jail itself could not be built
NS = (
    confine.CLONE_NEWNS
    | confine.CLONE_NEWPID
    | confine.CLONE_NEWNET
    | confine.CLONE_NEWIPC
    | confine.CLONE_NEWUTS
)


def main(spec_path: str) -> None:
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    status: dict[str, Any] = {"layers": ["rlimits", "timeout kill"], "missing": {}}
    try:
        _enter_namespaces(spec, status)
        upper = _prepare_view(spec)
        status["layers"].append("overlay (writes never reach the project)")
    except OSError as exc:
        _fail(spec, status, f"could not build the project view: {exc}")
    pid = os.fork()
    if pid:
        _, raw = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(raw)
        os._exit(code if code >= 0 else 128 - code)
    try:
        confine.set_pdeathsig(0)
        confine.mount_private_proc()
        _lock_down(spec, status, upper)
    except OSError as exc:
        _fail(spec, status, f"could not confine the test command: {exc}")
    _write_status(spec, status)
    os.chdir(spec["cwd"])
    os.execve("/bin/sh", ["/bin/sh", "-c", spec["command"]], spec["env"])


def _enter_namespaces(spec: dict[str, Any], status: dict[str, Any]) -> None:
    root = os.geteuid() == 0
    confine.unshare(NS if root else NS | confine.CLONE_NEWUSER)
    if not root:
        confine.map_own_ids()
    status["layers"].append("namespaces (mount, PID, network, IPC" + (")" if root else ", user)"))


def _prepare_view(spec: dict[str, Any]) -> str:
    """Scratch tmpfs with upper, work and tmp; the edited files into upper; the overlay on top."""
    scratch = spec["scratch"]
    confine.keep_mounts_private()
    confine.mount_tmpfs(scratch, spec["scratch_mb"])
    upper, work, tmp = (os.path.join(scratch, d) for d in ("upper", "work", "tmp"))
    for d in (upper, work, tmp):
        os.mkdir(d, 0o755)
    for rel, text in spec["files"].items():
        path = os.path.join(upper, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    confine.mount_overlay(spec["project"], spec["project"], upper, work)
    return tmp


def _lock_down(spec: dict[str, Any], status: dict[str, Any], tmp: str) -> None:
    limits = spec["limits"]
    confine.set_rlimits(
        cpu_s=limits["cpu_seconds"],
        memory_mb=limits["memory_mb"],
        file_mb=limits["max_file_mb"],
        nofile=1024,
        nproc=None,  # uid 0 here: the PID namespace and the timeout bound the processes
    )
    _cap_processes(limits["max_processes"])
    spec["env"]["TMPDIR"] = spec["env"]["HOME"] = tmp
    confine.drop_capabilities()
    confine.set_undumpable()
    confine.set_no_new_privs()
    status["layers"].append("no capabilities")
    abi = confine.landlock_abi()
    if abi:
        write = [spec["project"], tmp, spec["report_dir"], os.devnull]
        confine.landlock(spec["readable"] + ["/proc"], write, abi)
        status["layers"].append(f"landlock (ABI {abi})")
    else:
        status["missing"]["landlock"] = "kernel without Landlock (needs Linux 5.13+)"
    seccomp = confine.seccomp_filter()
    if seccomp is None:
        status["missing"]["seccomp"] = "pyseccomp is not installed: pip install pyseccomp"
    else:
        confine.load_seccomp(confine.compile_seccomp(seccomp))
        status["layers"].append("seccomp")
    if spec["strict"] and status["missing"]:
        raise OSError(f"--sandbox strict, but missing: {', '.join(status['missing'])}")


def _cap_processes(n: int) -> None:
    """Linux 6.14+ keeps pid_max per PID namespace: cap this one's, so a fork bomb stops there."""
    try:
        with open("/proc/sys/kernel/pid_max", "w") as f:
            f.write(str(max(n, 32)))
    except OSError:
        pass


def _write_status(spec: dict[str, Any], status: dict[str, Any]) -> None:
    with open(os.path.join(spec["report_dir"], "jail.json"), "w", encoding="utf-8") as f:
        json.dump(status, f)


def _fail(spec: dict[str, Any], status: dict[str, Any], reason: str) -> None:
    status["error"] = reason
    try:
        _write_status(spec, status)
    finally:
        os._exit(SETUP_FAILED)


if __name__ == "__main__":
    main(sys.argv[1])
