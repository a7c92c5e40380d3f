"""A warm sandbox worker: imports pytest once, then forks a locked-down child per candidate.

Runs as its own process (`python -s -B -c ...`, started by pool.py) with an environment built
from nothing and a fixed PYTHONHASHSEED.
Protocol: one JSON line per job on stdin, one JSON line per result on the original stdout.

Per candidate, as root:  worker -> B (PID 1 of new namespaces: the tests, the report pipe)
                                     -> S (split runs: PID 1 of a PID namespace below B's, its
                                           own mounts: the candidate; forked first thing, so it
                                           sets itself up while B does)
Unprivileged, a middle process A first enters a user namespace and the others, then forks B,
which forks S. Every fork is a new task that waits for a CPU on a loaded machine, so there are
as few as the isolation allows. B and S exchange plain data only (harness.py, wire.py).
Its parts: layers.py (what this machine allows, entering namespaces), workspace.py (paths and
environment a candidate gets), reap.py (output collection, killing what is left), warm.py.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import socket
import sys
import tempfile
import time
from types import CodeType
from typing import Any

from . import confine, harness, layers, quick, reap, warm, wire, workspace
from .records import Job

UID_BASE = 0x6C630000  # unused uids for candidates when running as root: BASE + 2*slot (+1)
PR_SET_CHILD_SUBREAPER = 36


# ---------------------------------------------------------------- one job


class Worker:
    def __init__(self, slot: int, config: Any = None) -> None:
        self.slot = slot
        self.config = config  # the warm pytest config, for the quick runner's failure texts
        self.compiled = quick.CompiledTests(config)
        seccomp = confine.seccomp_filter() if sys.platform.startswith("linux") else None
        self.plan = layers.probe(seccomp)
        self.bpf = confine.compile_seccomp(seccomp) if self.plan.seccomp else b""
        self.readable = workspace.readable_paths(self.plan.namespaces)
        # as root, B is forked straight into a new PID namespace; this fd brings the worker back
        self.own_pid_ns = self.net_ns = -1
        if self.plan.namespaces and not self.plan.userns:
            self.own_pid_ns = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
            self.net_ns = layers.shared_net_namespace()
        if self.plan.root and self.plan.namespaces:
            # once, in the worker's own mount namespace, which every run's B and S copy:
            # cheaper than twice a run, and the same view for them
            confine.private_mounts()
            confine.expose_to_others(self.readable)

    def run(self, job: Job) -> dict[str, Any]:
        base = tempfile.mkdtemp(prefix=f"localcode-run-{os.getpid()}-")
        try:
            return self._run_in(base, job)
        finally:
            workspace.rmtree(base)

    def _run_in(self, base: str, job: Job) -> dict[str, Any]:
        tests_dir, sol_dir = os.path.join(base, "tests"), os.path.join(base, "solution")
        for d in (tests_dir, sol_dir):
            os.mkdir(d, 0o700)
        workspace.write(os.path.join(sol_dir, "solution.py"), job.code)
        test_text = "from solution import *  # noqa\n\n" + job.tests
        workspace.write(quick.tests_path(tests_dir), test_text)
        code = self.compiled.get(test_text, quick.tests_path(tests_dir)) if job.plain else None
        if not job.plain:  # a pytest session reads it (and stops looking for other config)
            workspace.write(os.path.join(tests_dir, "pytest.ini"), "[pytest]\n")
        confined = job.limits.isolation != "none"
        if confined and self.plan.root:
            os.chmod(base, 0o711)
            workspace.chown_tree(tests_dir, UID_BASE + 2 * self.slot)
            workspace.chown_tree(sol_dir, UID_BASE + 2 * self.slot + (1 if job.split else 0))
        out_r, out_w = os.pipe()
        rep_r, rep_w = os.pipe()
        started = time.monotonic()
        pid_ns = confined and self.own_pid_ns >= 0
        pid = confine.fork_into_new_pid_namespace(self.own_pid_ns) if pid_ns else os.fork()
        if pid == 0:
            try:
                os.close(out_r)
                os.close(rep_r)
                self._child(job, code, tests_dir, sol_dir, out_w, rep_w, confined)
            except BaseException:  # noqa: BLE001 - shown in the run's output, then exit 70
                import traceback

                traceback.print_exc()
                sys.stderr.flush()
            finally:
                os._exit(70)
        os.close(out_w)
        os.close(rep_w)
        result = reap.collect(pid, out_r, rep_r, job.limits, started)
        if not pid_ns:  # B reparented here when A is killed, or leftovers without a PID namespace
            reap.kill_descendants()  # (with B as PID 1 here, reaping B means its namespace is empty)
        result["layers"] = self.plan.active() if confined else ["rlimits", "process-group kill"]
        return result

    def _child(
        self,
        job: Job,
        code: CodeType | None,
        tests_dir: str,
        sol_dir: str,
        out_w: int,
        rep_w: int,
        confined: bool,
    ) -> None:
        """Its own session, then (confined) new namespaces, with this process or (unprivileged,
        via A) its child as their PID 1: B."""
        os.setsid()
        if confined and self.net_ns >= 0:
            confine.setns(self.net_ns, confine.CLONE_NEWNET)  # before its fd is closed below
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out_w, 1)
        os.dup2(out_w, 2)
        os.dup2(rep_w, 3)
        confine.close_fds_except([0, 1, 2, 3])
        parent = os.getppid()
        sys.stdout = os.fdopen(1, "w", buffering=1)
        sys.stderr = os.fdopen(2, "w", buffering=1)
        # as root, S can start before B enters its namespaces: S enters its own from the
        # worker's, so B's setup is no longer in front of it
        early = confined and self.own_pid_ns >= 0
        channel = self._start_solution(job, tests_dir, sol_dir, confined) if early else None
        if confined and self.plan.namespaces:
            if self.own_pid_ns >= 0:
                layers.pid1_enter(new_net=self.net_ns < 0)
            else:
                layers.ns_enter()
        else:
            confine.set_pdeathsig(parent)
        if job.split and not early:
            channel = self._start_solution(job, tests_dir, sol_dir, confined)
        self._tests_process(job, code, channel, tests_dir, sol_dir, confined)

    def _start_solution(
        self, job: Job, tests_dir: str, sol_dir: str, confined: bool
    ) -> socket.socket | None:
        """Fork S (split runs); B's end of the channel to it, the name lookup already sent."""
        if not job.split:
            return None
        mine, theirs = socket.socketpair()
        if self._fork_solution(confined) == 0:
            os.close(3)  # the report pipe: never in the candidate's reach
            mine.close()
            self._solution_process(job, theirs, tests_dir, sol_dir, confined)
        theirs.close()
        mine.sendall(wire.dumps(harness.lookup_message(job.needed)))  # answered after the import
        return mine

    def _tests_process(
        self,
        job: Job,
        code: CodeType | None,
        channel: socket.socket | None,
        tests_dir: str,
        sol_dir: str,
        confined: bool,
    ) -> None:
        """Process B: lock itself down, then run the tests (against S when `channel` is set)."""
        report = os.fdopen(3, "wb")
        module: Any = None
        import_error = None
        self._confine(job, tests_dir, [sol_dir] if not job.split else [], 0, confined)
        if channel is not None:
            client = harness.SolutionClient(channel.makefile("rb"), channel.makefile("wb"))
            module, import_error = _connect(client)
        else:
            module, import_error = _import_solution(sol_dir)
        if job.plain:
            quick.run_plain(tests_dir, report, module, import_error, job.needed, self.config, code)
        else:
            harness.run_pytest(tests_dir, report, module, import_error, job.needed)
        report.close()
        sys.stdout.flush()
        os._exit(0)

    def _fork_solution(self, confined: bool) -> int:
        """Fork S, as PID 1 of a PID namespace below this one (the tests' process out of its
        sight) when namespaces apply: one hop, where unshare-then-fork in S took two."""
        if not (confined and self.plan.namespaces):
            return os.fork()
        own = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
        try:
            return confine.fork_into_new_pid_namespace(own)
        finally:
            os.close(own)

    def _solution_process(
        self, job: Job, sock: socket.socket, tests_dir: str, sol_dir: str, confined: bool
    ) -> None:
        """Process S: its own PID and mount namespace (the tests' files and processes out of
        sight), locked down, then the candidate is imported and serves calls."""
        try:
            if confined and self.own_pid_ns >= 0:  # forked before B entered its namespaces
                layers.pid1_enter(new_net=self.net_ns < 0)
                confine.hide_dir(tests_dir)
            elif confined and self.plan.namespaces:  # forked by B, in B's user namespace
                confine.unshare(confine.CLONE_NEWNS)
                confine.set_pdeathsig(0)
                confine.mount_private_proc()
                confine.hide_dir(tests_dir)
            self._confine(job, sol_dir, [], 1, confined)
            harness.serve(sock.makefile("rb"), sock.makefile("wb"), sol_dir)
        finally:
            os._exit(0)

    def _confine(
        self, job: Job, home: str, also_read: list[str], which: int, confined: bool
    ) -> None:
        """Limits, then identity, then Landlock and seccomp, in the order the kernel needs."""
        ppid = os.getppid()
        uid = UID_BASE + 2 * self.slot + which if confined and self.plan.root else None
        confine.set_rlimits(
            cpu_s=job.limits.cpu_seconds,
            memory_mb=job.limits.memory_mb,
            file_mb=job.limits.max_file_mb,
            nofile=256,
            nproc=job.limits.max_processes if (uid is not None or not self.plan.root) else None,
        )
        os.chdir(home)
        os.environ.clear()
        os.environ.update(workspace.child_env(home))
        tempfile.tempdir = home
        if not confined:
            return
        if uid is not None:
            confine.drop_to_uid(uid)
        elif self.plan.userns and self.plan.namespaces:
            confine.drop_capabilities()
        confine.set_pdeathsig(ppid)
        confine.set_undumpable()
        confine.set_no_new_privs()
        if self.plan.landlock:
            confine.landlock(self.readable + also_read, [home, os.devnull], self.plan.landlock)
        if self.bpf:
            confine.load_seccomp(self.bpf)


def _connect(client: harness.SolutionClient) -> tuple[Any, str | None]:
    """The solution process's hello, then its answer to the lookup sent when it started."""
    line = client.rfile.readline(harness.MAX_LINE)
    if not line.endswith(b"\n"):
        return None, "the solution process died while importing the solution (os._exit? crash?)"
    hello = wire.loads(line)
    if "import_error" in hello:
        where = f" ({hello.get('where')})" if hello.get("where") else ""
        return None, f"{hello.get('type')}: {hello['import_error']}{where}"
    try:
        found = client.found(client.receive())
    except Exception as exc:
        return None, f"the solution process failed: {exc}"
    return harness.ProxyModule(client, found), None


def _import_solution(sol_dir: str) -> tuple[Any, str | None]:
    """In-process runs: the candidate imported next to the tests."""
    sys.path.insert(0, sol_dir)
    try:
        import solution
    except BaseException as exc:  # noqa: BLE001
        return None, _import_error_text(exc)
    return solution, None


def _import_error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def main() -> None:
    """Serve jobs from stdin until it closes."""
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 1)
    os.dup2(null, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    slot = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    import ctypes

    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    # No PR_SET_PDEATHSIG here: it fires when the *thread* that started the worker exits (the
    # agent starts the pool from a short-lived scoring thread), which killed healthy workers.
    # The worker still ends with its parent: stdin reaches EOF and the loop below returns.
    worker = Worker(slot, warm.warm_up())
    gc.freeze()  # children skip the worker's objects when they collect: less work, fewer page copies
    plan = worker.plan
    proto.write(
        json.dumps(
            {
                "hello": True,
                "active": plan.active(),
                "missing": plan.missing,
                "namespaces": plan.namespaces,
                "landlock": plan.landlock,
                "seccomp": plan.seccomp,
                "root": plan.root,
            }
        )
        + "\n"
    )
    for line in sys.stdin:
        try:
            job = Job.from_wire(json.loads(line))
            reply = worker.run(job)
        except Exception as exc:  # noqa: BLE001 - the pool turns this into a SandboxError
            reply = {"worker_error": f"{type(exc).__name__}: {exc}"}
        proto.write(json.dumps(reply) + "\n")
