"""Which isolation layers this machine allows (probed once per worker in throwaway children),
and entering the namespaces they need."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Any

from . import confine

NS_FLAGS = (
    confine.CLONE_NEWNS
    | confine.CLONE_NEWPID
    | confine.CLONE_NEWNET
    | confine.CLONE_NEWIPC
    | confine.CLONE_NEWUTS
)


@dataclass
class Plan:
    """Which layers this worker can apply, as found by `probe()`."""

    root: bool = False
    namespaces: bool = False
    userns: bool = False
    landlock: int = 0
    seccomp: bool = False
    missing: dict[str, str] = field(default_factory=dict)

    def active(self) -> list[str]:
        layers = ["rlimits", "process-group kill"]
        if self.namespaces:
            layers.append(
                "namespaces (mount, PID, network, IPC" + (", user)" if self.userns else ")")
            )
        if self.root:
            layers.append("unused uid")
        if self.landlock:
            layers.append(f"landlock (ABI {self.landlock})")
        if self.seccomp:
            layers.append("seccomp")
        return layers


def probe(seccomp_filter: Any) -> Plan:
    """Try each layer in a throwaway child; what fails goes into `missing` with the reason."""
    plan = Plan(root=os.geteuid() == 0)
    if not sys.platform.startswith("linux"):
        plan.missing["namespaces"] = f"not available on {sys.platform}"
        plan.missing["landlock"] = plan.missing["seccomp"] = plan.missing["namespaces"]
        return plan
    plan.userns = not plan.root
    ok, reason = _try_in_child(ns_enter if plan.userns else _probe_pid1_enter)
    plan.namespaces = ok
    if not ok:
        plan.missing["namespaces"] = (
            f"unshare/mount /proc refused ({reason}); enable unprivileged "
            "user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04+ "
            "kernel.apparmor_restrict_unprivileged_userns=0) or run inside a VM/container that allows them"
        )
    if not plan.root:
        plan.missing["unused uid"] = (
            "not root: candidates run as your uid (inside a user namespace when available)"
        )
    abi = confine.landlock_abi()
    if abi:
        ok, reason = _try_in_child(lambda: confine.landlock(["/usr"], [], abi))
        plan.landlock = abi if ok else 0
        if not ok:
            plan.missing["landlock"] = f"landlock refused: {reason}"
    else:
        plan.missing["landlock"] = "kernel without Landlock (needs Linux 5.13+ with lsm=landlock)"
    if plan.landlock and plan.landlock < 4:
        plan.missing["landlock TCP"] = f"Landlock ABI {plan.landlock} cannot block TCP (needs 6.7+)"
    if seccomp_filter is None:
        plan.missing["seccomp"] = (
            "pyseccomp is not installed: pip install 'localcode[seccomp]' (needs libseccomp2)"
        )
    else:

        def load() -> None:
            confine.set_no_new_privs()
            confine.load_seccomp(confine.compile_seccomp(seccomp_filter))

        ok, reason = _try_in_child(load)
        plan.seccomp = ok
        if not ok:
            plan.missing["seccomp"] = f"seccomp filter refused: {reason}"
    return plan


def _try_in_child(action: Any) -> tuple[bool, str]:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            action()
            os.write(w, b"ok")
        except BaseException as exc:  # noqa: BLE001
            os.write(w, str(exc).encode()[:500])
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        answer = f.read().decode()
    os.waitpid(pid, 0)
    return answer == "ok", answer or "the probe crashed"


def ns_enter() -> None:
    """Unprivileged: enter a user namespace and the others, then fork the PID 1 of the new PID
    namespace, which mounts its /proc. Returns in that child only; this process relays its exit."""
    confine.unshare(NS_FLAGS | confine.CLONE_NEWUSER)
    confine.map_own_ids()
    pid = os.fork()
    if pid:
        _relay_exit(pid)
    confine.set_pdeathsig(0)
    confine.mount_private_proc()


def pid1_enter(new_net: bool = True) -> None:
    """As root, in a process forked as PID 1 of a new PID namespace: new mount, IPC, UTS and
    (unless it joined the worker's empty one, see Worker.net_ns) network namespaces for itself;
    they apply at once, no fork needed. Then a /proc of its own."""
    flags = NS_FLAGS & ~confine.CLONE_NEWPID
    confine.unshare(flags if new_net else flags & ~confine.CLONE_NEWNET)
    confine.set_pdeathsig(0)
    confine.mount_private_proc()


def _probe_pid1_enter() -> None:
    own = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
    pid = confine.fork_into_new_pid_namespace(own)
    if pid:
        _relay_exit(pid)
    pid1_enter()


def shared_net_namespace() -> int:
    """One empty network namespace for all of this worker's runs, joined by each instead of a
    new one per run (~1 ms CPU less a run, and less cleanup work for the kernel). Nothing in it
    outlives a run: B is its PID namespace's PID 1, so every process of a run is gone once B is
    reaped, and their sockets with them; changing the namespace itself (bringing up the loopback,
    routes, sysctls) needs CAP_NET_ADMIN over it, which candidates never hold (unused uid, no
    capabilities). -1 (a new namespace per run) if it cannot be made."""
    try:
        return confine.empty_net_namespace()
    except OSError:
        return -1


def _relay_exit(pid: int) -> None:
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    os._exit(code if code >= 0 else 128 - code)
