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
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import select
import shutil
import signal
import socket
import sys
import tempfile
import time
from dataclasses import dataclass, field
from types import CodeType
from typing import Any

from . import confine, harness, quick, wire
from .records import PYTHON_ENV

UID_BASE = 0x6C630000  # unused uids for candidates when running as root: BASE + 2*slot (+1)
MAX_REPORT = 16 << 20
PR_SET_CHILD_SUBREAPER = 36
_NS_FLAGS = (
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
    ok, reason = _try_in_child(_ns_enter if plan.userns else _probe_pid1_enter)
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


def _ns_enter() -> None:
    """Unprivileged: enter a user namespace and the others, then fork the PID 1 of the new PID
    namespace, which mounts its /proc. Returns in that child only; this process relays its exit."""
    confine.unshare(_NS_FLAGS | confine.CLONE_NEWUSER)
    confine.map_own_ids()
    pid = os.fork()
    if pid:
        _relay_exit(pid)
    confine.set_pdeathsig(0)
    confine.mount_private_proc()


def _pid1_enter(new_net: bool = True) -> None:
    """As root, in a process forked as PID 1 of a new PID namespace: new mount, IPC, UTS and
    (unless it joined the worker's empty one, see Worker.net_ns) network namespaces for itself;
    they apply at once, no fork needed. Then a /proc of its own."""
    flags = _NS_FLAGS & ~confine.CLONE_NEWPID
    confine.unshare(flags if new_net else flags & ~confine.CLONE_NEWNET)
    confine.set_pdeathsig(0)
    confine.mount_private_proc()


def _probe_pid1_enter() -> None:
    own = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
    pid = confine.fork_into_new_pid_namespace(own)
    if pid:
        _relay_exit(pid)
    _pid1_enter()


def _shared_net_namespace() -> int:
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


# ---------------------------------------------------------------- one job


@dataclass
class Job:
    code: str
    tests: str
    needed: list[str]
    split: bool
    plain: bool  # plain test functions: the quick runner instead of a pytest session
    timeout: float
    cpu_seconds: int
    memory_mb: int
    max_output_bytes: int
    max_processes: int
    max_file_mb: int
    isolation: str
    slot: int


class Worker:
    def __init__(self, slot: int, config: Any = None) -> None:
        self.slot = slot
        self.config = config  # the warm pytest config, for the quick runner's failure texts
        self.compiled = quick.CompiledTests(config)
        seccomp = confine.seccomp_filter() if sys.platform.startswith("linux") else None
        self.plan = probe(seccomp)
        self.bpf = confine.compile_seccomp(seccomp) if self.plan.seccomp else b""
        self.readable = _readable_paths(self.plan.namespaces)
        # as root, B is forked straight into a new PID namespace; this fd brings the worker back
        self.own_pid_ns = self.net_ns = -1
        if self.plan.namespaces and not self.plan.userns:
            self.own_pid_ns = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)
            self.net_ns = _shared_net_namespace()
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
            _rmtree(base)

    def _run_in(self, base: str, job: Job) -> dict[str, Any]:
        tests_dir, sol_dir = os.path.join(base, "tests"), os.path.join(base, "solution")
        for d in (tests_dir, sol_dir):
            os.mkdir(d, 0o700)
        _write(os.path.join(sol_dir, "solution.py"), job.code)
        test_text = "from solution import *  # noqa\n\n" + job.tests
        _write(quick.tests_path(tests_dir), test_text)
        code = self.compiled.get(test_text, quick.tests_path(tests_dir)) if job.plain else None
        if not job.plain:  # a pytest session reads it (and stops looking for other config)
            _write(os.path.join(tests_dir, "pytest.ini"), "[pytest]\n")
        confined = job.isolation != "none"
        if confined and self.plan.root:
            os.chmod(base, 0o711)
            _chown_tree(tests_dir, UID_BASE + 2 * self.slot)
            _chown_tree(sol_dir, UID_BASE + 2 * self.slot + (1 if job.split else 0))
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
        result = _collect(pid, out_r, rep_r, job, started)
        if not pid_ns:  # B reparented here when A is killed, or leftovers without a PID namespace
            _kill_descendants()  # (with B as PID 1 here, reaping B means its namespace is empty)
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
                _pid1_enter(new_net=self.net_ns < 0)
            else:
                _ns_enter()
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
                _pid1_enter(new_net=self.net_ns < 0)
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
            cpu_s=job.cpu_seconds,
            memory_mb=job.memory_mb,
            file_mb=job.max_file_mb,
            nofile=256,
            nproc=job.max_processes if (uid is not None or not self.plan.root) else None,
        )
        os.chdir(home)
        os.environ.clear()
        os.environ.update(_child_env(home))
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


def _collect(pid: int, out_r: int, rep_r: int, job: Job, started: float) -> dict[str, Any]:
    """Read output (capped) and the report until the child ends or the wall timeout passes."""
    deadline = started + job.timeout
    output, report = bytearray(), bytearray()
    out_total = 0
    fds = {out_r, rep_r}
    status: int | None = None
    timed_out = False
    ended_at = None
    while fds:
        now = time.monotonic()
        if now >= deadline:
            timed_out = status is None
            break
        if ended_at is not None and now - ended_at > 0.2:
            break  # a leftover process holds the pipe open; it is killed below
        ready, _, _ = select.select(list(fds), [], [], min(deadline - now, 0.05))
        for fd in ready:
            data = os.read(fd, 1 << 16)
            if not data:
                fds.discard(fd)
            elif fd == out_r:
                out_total += len(data)
                output += data[: max(0, job.max_output_bytes - len(output))]
            elif len(report) + len(data) <= MAX_REPORT:
                report += data
        if status is None:
            done, raw = os.waitpid(pid, os.WNOHANG)
            if done:
                status, ended_at = os.waitstatus_to_exitcode(raw), time.monotonic()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    if status is None:
        status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    os.close(out_r)
    os.close(rep_r)
    return {
        "status": status,
        "timed_out": timed_out,
        "output": output.decode("utf-8", "replace"),
        "output_bytes": out_total,
        "report": report.decode("utf-8", "replace"),
        "elapsed": time.monotonic() - started,
    }


def _kill_descendants() -> None:
    """Without a PID namespace: kill every process that got reparented to this (subreaper) worker."""
    me = os.getpid()
    for _ in range(50):
        victims = [pid for pid in _children_of(me)]
        if not victims:
            return
        for pid in victims:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for pid in victims:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)


def _children_of(ppid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            fields = stat.rsplit(b")", 1)[-1].split()
            if len(fields) > 1 and int(fields[1]) == ppid:
                found.append(int(entry))
    return found


def _readable_paths(own_proc: bool) -> list[str]:
    paths = [
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


def _child_env(home: str) -> dict[str, str]:
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        **PYTHON_ENV,  # Python the candidate starts hashes as the worker does
        "MKL_NUM_THREADS": "1",
    }


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _chown_tree(path: str, uid: int) -> None:
    for root, dirs, files in os.walk(path):
        for name in [root] + [os.path.join(root, n) for n in dirs + files]:
            os.chown(name, uid, uid)


def _rmtree(path: str) -> None:
    def fix(func: Any, p: str, _exc: Any) -> None:
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(p), 0o700)
            os.chmod(p, 0o700)
            func(p)

    shutil.rmtree(path, onerror=fix)


class _Keep:
    """pytest plugin that keeps the session's config for the quick runner."""

    config: Any = None

    def pytest_configure(self, config: Any) -> None:
        self.config = config


# shaped like generated tests: a failure with more code after it makes pytest tokenize the
# source to find the statement's end (the tokenizer's regex alone costs ~4 ms to compile)
WARM_TESTS = """
def test_fail():
    assert [1, 2] == [1, 3]

def test_pass():
    assert [1] == [1]
"""


def _warm_up() -> Any:
    """Run pytest and the quick runner once here, a passing and a failing test, so their lazy
    imports and caches (inspect's module-by-file map costs ~50 ms cold) are filled before the first
    fork instead of in every child. Returns the pytest config the quick runner reuses."""
    import pytest

    keep = _Keep()
    with tempfile.TemporaryDirectory(prefix="localcode-warm-") as d:
        path = os.path.join(d, "test_solution.py")
        _write(path, WARM_TESTS)
        _write(os.path.join(d, "pytest.ini"), "[pytest]\n")
        unused = [f"-pno:{name}" for name in harness.UNUSED_PLUGINS]
        args = [*unused, path, "-c", os.path.join(d, "pytest.ini"), "--rootdir", d]
        pytest.main(args, plugins=[keep, harness.Reporter()])
        with open(os.devnull, "wb") as sink:
            quick.run_plain(d, sink, None, None, [], keep.config)
    for name in ("test_solution", "solution"):
        sys.modules.pop(name, None)
    sys.path[:] = [p for p in sys.path if p != d]
    return keep.config


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
    worker = Worker(slot, _warm_up())
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
            job = Job(**json.loads(line))
            reply = worker.run(job)
        except Exception as exc:  # noqa: BLE001 - the pool turns this into a SandboxError
            reply = {"worker_error": f"{type(exc).__name__}: {exc}"}
        proto.write(json.dumps(reply) + "\n")
