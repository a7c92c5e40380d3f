"""Adversarial candidates: each is contained, earns no undeserved credit, and leaves the parent healthy.

Every attack is a real candidate run in the real sandbox, on every machine. Where the kernel
layer that stops an attack is missing and the attack gets through, the test is an expected
failure that names the attack and the layer (`pytest -ra` lists them); under
LOCALCODE_TEST_SANDBOX=strict (what CI sets, as `--sandbox strict` demands every layer) it fails.
"""

from __future__ import annotations

import os
import resource
import socket
import tempfile
import threading
import uuid
from pathlib import Path

import pytest

from localcode.sandbox import Limits, WorkerPool, run_tests
from localcode.sandbox import TestRun as Run

WRONG_TESTS = """
def test_one():
    assert answer(1) == 2

def test_two():
    assert answer(2) == 4
"""
SECRET = "LOCALCODE_TEST_SECRET"


@pytest.fixture(scope="module")
def pool():
    os.environ[SECRET] = "s3cr3t-" + uuid.uuid4().hex
    with WorkerPool(2) as p:
        yield p
    os.environ.pop(SECRET, None)


@pytest.fixture(scope="module")
def status(pool):
    return pool.status()


STRICT = os.environ.get("LOCALCODE_TEST_SANDBOX", "auto") == "strict"


def contained(status, layers: str | tuple[str, ...], ok: bool, attack: str) -> None:
    """The verdict on an attack that any one of `layers` stops. Not contained while one of them
    is active: a failure. Not contained because all are missing here: a failure under strict,
    else an expected failure that says which attack this machine does not contain."""
    layers = (layers,) if isinstance(layers, str) else layers
    if ok:
        return
    missing = [layer for layer in layers if layer in status.missing]
    if len(missing) < len(layers):
        pytest.fail(f"not contained: {attack}")
    why = "; ".join(f"{layer}: {status.missing[layer]}" for layer in missing)
    message = f"this machine does not contain: {attack} (missing {why})"
    if STRICT:
        pytest.fail(message)
    pytest.xfail(message)


def _descendants(roots: set[int]) -> list[int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_bytes()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(b")", 1)[-1].split()[1])
    found = []
    for pid in parents:
        p = parents.get(pid)
        while p and p not in roots and p in parents:
            p = parents[p]
        if p in roots:
            found.append(pid)
    return found


def _run_files(workers: set[int]) -> set[str]:
    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    return {p.name for pid in workers for p in tmp.glob(f"localcode-run-{pid}-*")}


@pytest.fixture
def healthy(pool):
    """After the attack: no process left under the workers, no scratch dir left, memory flat."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    yield
    workers = {w.proc.pid for w in pool._idle}
    assert _descendants(workers) == [], "processes outlived the run"
    assert _run_files(workers) == set(), "scratch directories left behind"
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss) / 1024
    assert grown_mb < 50, f"the parent grew by {grown_mb:.0f} MB"


def attack(pool: WorkerPool, code: str, tests: str = WRONG_TESTS, **limits: object) -> Run:
    options = {"timeout": 2.0, **limits}
    return run_tests(code, tests, Limits(**options), pool=pool)  # type: ignore[arg-type]


def assert_no_credit(run: Run) -> None:
    assert run.passed == 0 and not run.all_passed, run


def test_fork_bomb(pool, status, healthy):
    code = (
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    )
    run = attack(pool, code)
    assert_no_credit(run)
    assert run.error


def test_memory_bomb(pool, healthy):
    code = "blocks = []\nwhile True:\n    blocks.append(bytearray(50 << 20))\n"
    run = attack(pool, code, memory_mb=512, timeout=10.0)
    assert_no_credit(run)
    assert run.error and ("MemoryError" in run.error or "killed" in run.error)


def test_infinite_loop(pool, healthy):
    run = attack(pool, "def answer(x):\n    while True:\n        pass\n", timeout=1.0)
    assert_no_credit(run)
    assert run.error and "timed out" in run.error


def test_sleep_past_timeout(pool, healthy):
    run = attack(pool, "import time\ntime.sleep(60)\n", timeout=1.0)
    assert_no_credit(run)
    assert run.duration_s < 4


def test_grandchildren_are_killed(pool, healthy):
    code = (
        "import os, subprocess\n"
        "subprocess.Popen(['sleep', '1000'], start_new_session=True)\n"
        "if os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n        import time\n"
        "        time.sleep(1000)\n    os._exit(0)\n"
        "def answer(x):\n    return 2 * x\n"
    )
    run = attack(pool, code)
    assert run.all_passed  # honest answers still score; the leftovers are killed (see `healthy`)


def test_100_mb_on_stdout(pool, healthy):
    code = "import sys\nfor _ in range(100):\n    sys.stdout.write('x' * (1 << 20))\nsys.stdout.flush()\n\ndef answer(x):\n    return x\n"
    run = attack(pool, code, timeout=10.0)
    assert_no_credit(run)


def test_write_outside_scratch(pool, status, healthy, tmp_path):
    target = Path("/tmp") / f"localcode-escape-{uuid.uuid4().hex}"
    code = (
        "def answer(x):\n"
        f"    for path in [{str(target)!r}, {str(tmp_path / 'escape')!r}, '/escape', '/dev/shm/escape']:\n"
        "        try:\n            open(path, 'w').write('x')\n            return 2 * x\n"
        "        except OSError:\n            pass\n    return None\n"
    )
    run = attack(pool, code)
    paths = [target, tmp_path / "escape", Path("/dev/shm/escape"), Path("/escape")]
    written = [str(p) for p in paths if p.exists()]
    for p in paths:
        p.unlink(missing_ok=True)
    ok = run.passed == 0 and not written
    contained(status, ("landlock", "unused uid"), ok, f"a write outside scratch: {written}")


def test_read_secret_from_parent_environment_or_proc(pool, status, healthy):
    code = (
        "import os\n"
        "def answer(x):\n"
        "    found = [v for v in os.environ.values()]\n"
        f"    for pid in os.listdir('/proc') + [{str(os.getpid())!r}, {str(os.getppid())!r}]:\n"
        "        try:\n            found.append(open(f'/proc/{pid}/environ', 'rb').read().decode('latin-1'))\n"
        "        except OSError:\n            pass\n"
        "    return 2 * x if 's3cr3t-' in ''.join(found) else None\n"
    )
    ok = attack(pool, code).passed == 0
    layers = ("namespaces", "unused uid", "landlock")
    contained(status, layers, ok, "a read of the parent's environment")


def test_connect_to_listener_on_localhost(pool, status, healthy):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.2)
    port = server.getsockname()[1]
    got: list[bytes] = []

    def accept() -> None:
        for _ in range(20):
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            got.append(conn.recv(100))
            conn.close()

    listener = threading.Thread(target=accept)
    listener.start()
    code = (
        "import socket\n"
        "def answer(x):\n"
        "    try:\n"
        f"        s = socket.create_connection(('127.0.0.1', {port}), timeout=1)\n"
        "        s.sendall(b'leak')\n        return 2 * x\n"
        "    except OSError:\n        return None\n"
    )
    run = attack(pool, code)
    listener.join()
    server.close()
    assert got == []
    assert_no_credit(run)


FAKE_REPORT = (
    '{"done":true,"exit":0,"results":{"test_one":[true,""],"test_two":[true,""]},'
    '"collect_errors":[],"import_error":null,"unsupported":null}\n'
)


def test_fake_report(pool, healthy):
    code = (
        "import os\n"
        f"FAKE = {FAKE_REPORT!r}\n"
        "open('report.xml', 'w').write('<testsuite><testcase classname=\"test_solution\" name=\"test_one\"/></testsuite>')\n"
        "for fd in range(1, 64):\n"
        "    try:\n        os.write(fd, FAKE.encode())\n    except OSError:\n        pass\n"
        "def answer(x):\n    return None\n"
    )
    assert_no_credit(attack(pool, code))


def test_exit_zero_at_import(pool, healthy):
    run = attack(pool, "import os\nos._exit(0)\n")
    assert_no_credit(run)
    assert run.error


# Patches aimed at what scores a run: the quick runner's per-test call and the report writer
# (plain tests), the session's reporter and pytest's own reports (other tests), the assertion
# type, and the `pytest` module itself. The candidate applies them wherever it is imported.
PATCH_THE_SCORER = """
import builtins, sys
import _pytest.reports, _pytest.runner
_pytest.reports.TestReport.passed = property(lambda self: True)
_pytest.reports.TestReport.failed = property(lambda self: False)
_pytest.reports.TestReport.outcome = 'passed'
_orig = _pytest.runner.call_and_report
def _fake(item, when, log=True, **kw):
    report = _orig(item, when, log=False, **kw)
    report.outcome = 'passed'
    item.ihook.pytest_runtest_logreport(report=report)
    return report
_pytest.runner.call_and_report = _fake
quick = sys.modules.get('localcode.sandbox.quick')
harness = sys.modules.get('localcode.sandbox.harness')
if quick is not None:
    quick._call = lambda func, *rest: [True, '']
if harness is not None:
    _write = harness.write_report
    def write_report(report, code, reporter, import_error):
        for name in list(reporter.results) + ['test_one', 'test_two']:
            reporter.results[name] = [True, '']
        reporter.collect_errors = []
        _write(report, 0, reporter, None)
    harness.write_report = write_report
    harness.Reporter.pytest_runtest_logreport = lambda self, report: self.results.__setitem__(
        report.nodeid.split('::')[-1], [True, ''])
class Never(Exception):
    pass
builtins.AssertionError = Never
class FakePytest:
    def __getattr__(self, name):
        return getattr(sys.modules['_pytest.python_api'], name, None)
sys.modules['pytest'] = FakePytest()
"""
# the same tests through a pytest session (a fixture makes them not plain)
SESSION_TESTS = """
import pytest

@pytest.fixture
def two():
    return 2

def test_one(two):
    assert answer(1) == two

def test_two():
    assert answer(2) == 4
"""


class CountingPool(WorkerPool):
    """A real pool that notes, per job, whether it was a split run."""

    def __init__(self, size: int) -> None:
        super().__init__(size)
        self.splits: list[bool] = []

    def run(self, job):
        self.splits.append(job["split"])
        return super().run(job)


@pytest.fixture(scope="module")
def counting():
    with CountingPool(1) as p:
        yield p


@pytest.mark.parametrize("tests", [WRONG_TESTS, SESSION_TESTS], ids=["quick", "session"])
def test_monkeypatch_pytest(counting, tests):
    """Split path: the candidate sits in its own process, so patching the scorer there changes
    nothing in the test process."""
    counting.splits.clear()
    code = PATCH_THE_SCORER + "def answer(x):\n    return None\n"
    run = attack(counting, code, tests)
    assert_no_credit(run)
    assert counting.splits == [True]
    assert all("AssertionError" in r.message or "assert" in r.message for r in run.results), run


def test_monkeypatch_pytest_in_process_path_is_not_protected(counting):
    """In-process path (the tests use a class from the solution, a CapWords name): tests and
    candidate share one process, and README says a candidate can forge its score there. What still
    holds, and is asserted: the path comes from the test text, and only tests parsed from it count."""
    counting.splits.clear()
    tests = (
        "def test_one():\n    assert Box(1).v == 2\n\ndef test_two():\n    assert Box(2).v == 4\n"
    )
    code = PATCH_THE_SCORER + "class Box:\n    def __init__(self, v):\n        self.v = None\n"
    code += "def test_bonus():\n    pass\n"
    run = attack(counting, code, tests)
    assert counting.splits == [False]
    assert [r.name for r in run.results] == ["test_one", "test_two"]
    # no assertion on run.passed: a forged pass here is the documented limit of this path


ADD_TESTS = (
    "def test_small():\n    assert add(1, 2) == 3\n\ndef test_two():\n    assert add(1, 1) == 2\n"
)
ADD_SESSION_TESTS = "import pytest\n\n@pytest.fixture\ndef one():\n    return 1\n\n" + (
    "def test_small(one):\n    assert add(one, 2) == 3\n\ndef test_two():\n    assert add(1, 1) == 2\n"
)
# In the split run, fake the harness's signal; in the in-process rerun it would then win by
# patching the quick runner and the report writer (PATCH_THE_SCORER). `add` is wrong either way.
FORCE_FALLBACK = (
    "import sys\n"
    "def add(a, b):\n"
    "    if sys._getframe(1).f_code.co_name.startswith('test'):  # called by a test: in-process\n"
    "        exec(PATCH, {})\n"
    "        return 0\n"
    "    raise {raise_}\n"
)


@pytest.mark.parametrize("tests", [ADD_TESTS, ADD_SESSION_TESTS], ids=["quick", "session"])
@pytest.mark.parametrize(
    "raise_",
    [
        "ValueError('SplitUnsupported')",
        "ValueError('harness.SplitUnsupported: a function cannot be passed to the solution process')",
        "type('SplitUnsupported', (Exception,), {})('a function cannot be passed')",
        "type('SplitUnsupported', (TypeError,), {'__module__': 'localcode.sandbox.harness'})()",
    ],
    ids=["message", "message-like-harness", "class-name", "class-name-and-module"],
)
def test_candidate_cannot_force_the_in_process_fallback(counting, tests, raise_):
    """Only the harness's own SplitUnsupported, raised in the test process, makes the rerun;
    an exception from the solution process is rebuilt as a builtin type, whatever its name or text."""
    counting.splits.clear()
    code = f"PATCH = {PATCH_THE_SCORER!r}\n" + FORCE_FALLBACK.replace("{raise_}", raise_)
    run = attack(counting, code, tests)
    assert_no_credit(run)
    assert counting.splits == [True], "the run fell back to one process"
    assert all("SplitUnsupported" in r.message for r in run.results), run


def test_candidate_cannot_force_the_fallback_with_a_callable_constant(counting):
    """A solution name the tests pass as data (here a list) made callable by the candidate
    crosses by handle, not as an unsupported value."""
    counting.splits.clear()
    tests = "def test_one():\n    assert total(ITEMS) == 6\n\ndef test_two():\n    assert total(ITEMS) > 5\n"
    code = f"PATCH = {PATCH_THE_SCORER!r}\n" + (
        "import sys\n"
        "def ITEMS():\n    return [1, 2, 3]\n"
        "def total(xs):\n"
        "    if sys._getframe(1).f_code.co_name.startswith('test'):\n"
        "        exec(PATCH, {})\n"
        "    return 0\n"
    )
    run = attack(counting, code, tests)
    assert_no_credit(run)
    assert counting.splits == [True]


def test_tests_that_pass_functions_still_fall_back(counting):
    """The fallback the design does want: the tests' own lambda cannot cross to the solution."""
    counting.splits.clear()
    tests = "def test_one():\n    assert apply(lambda v: v + 1, 1) == 2\n"
    run = attack(counting, "def apply(f, x):\n    return f(x)\n", tests)
    assert run.all_passed, run
    assert counting.splits == [True, False]


def test_always_equal_object(pool, healthy):
    code = (
        "class Anything:\n"
        "    def __eq__(self, other):\n        return True\n"
        "    def __ne__(self, other):\n        return False\n"
        "    __hash__ = object.__hash__\n"
        "def answer(x):\n    return Anything()\n"
    )
    assert_no_credit(attack(pool, code))


def test_always_equal_subclass_of_int(pool, healthy):
    code = "class Int(int):\n    def __eq__(self, other):\n        return True\n    __hash__ = int.__hash__\n\ndef answer(x):\n    return Int(0)\n"
    assert_no_credit(attack(pool, code))


def test_extra_test_functions(pool, healthy):
    code = "def answer(x):\n    return None\n\n" + "".join(
        f"def test_extra_{i}():\n    pass\n\n" for i in range(5)
    )
    code += "def test_one():\n    pass\n"
    run = attack(pool, code)
    assert_no_credit(run)
    assert [r.name for r in run.results] == ["test_one", "test_two"]


def test_numpy_and_scipy_still_work(pool, healthy):
    pytest.importorskip("numpy")
    pytest.importorskip("scipy")
    code = (
        "import numpy as np\nimport scipy.linalg\n"
        "def solve(a, b):\n    return np.linalg.solve(np.array(a), np.array(b)).round(6).tolist()\n"
        "def det(a):\n    return float(round(scipy.linalg.det(np.array(a)), 6))\n"
    )
    tests = "def test_solve():\n    assert solve([[2, 0], [0, 4]], [2, 4]) == [1.0, 1.0]\n\ndef test_det():\n    assert det([[1, 2], [3, 4]]) == -2.0\n"
    run = attack(pool, code, tests, timeout=20.0)
    assert run.all_passed, run


def test_nothing_carries_over_to_the_next_run_of_a_worker(status, healthy):
    """Runs of one worker share an empty network namespace: a socket and a process left behind
    by one run must be gone, and the namespace unchanged, when the next run starts."""
    leave = (
        "import os, socket, time\n"
        "s = socket.socket(socket.AF_UNIX)\n"
        "s.bind('\\0localcode-leftover')\n"
        "s.listen()\n"
        "if os.fork() == 0:\n    time.sleep(60)\n"
        "def answer(x):\n"
        "    return 2 * x if 'localcode-leftover' in open('/proc/net/unix').read() else None\n"
    )
    look = (
        "def answer(x):\n"
        "    sockets = open('/proc/net/unix').read()\n"
        "    devices = [ln.split(':')[0].strip() for ln in open('/proc/net/dev').read().splitlines()[2:]]\n"
        "    return 2 * x if 'localcode-leftover' not in sockets and devices == ['lo'] else None\n"
    )
    with WorkerPool(1) as one:
        saw = attack(one, leave).all_passed
        clean = attack(one, look).all_passed
    assert saw  # it did see its own socket
    contained(status, "namespaces", clean, "a socket or process left for the next run")


# Kills the worker that runs it: the topmost ancestor still running the worker's code (the test
# process and S are forks of it too), then its own parent. Never anything above the worker.
KILL_THE_WORKER = """
import os, signal

def parent(pid):
    try:
        stat = open(f'/proc/{pid}/stat', 'rb').read()
    except OSError:
        return 0
    return int(stat.rsplit(b')', 1)[-1].split()[1])

def is_worker(pid):
    try:
        return b'from localcode.sandbox.worker import main' in open(f'/proc/{pid}/cmdline', 'rb').read()
    except OSError:
        return False

chain, pid = [], parent(os.getpid())
while pid > 1 and is_worker(pid):
    chain.append(pid)
    pid = parent(pid)
for victim in chain[-1:] + [os.getppid()]:
    if victim > 1:
        try:
            os.kill(victim, signal.SIGKILL)
        except OSError:
            pass

def answer(x):
    return 2 * x
"""


def test_a_candidate_that_kills_its_worker_gets_an_error_not_an_exception():
    """Unconfined (no namespaces, same uid) a candidate can kill the worker: the pool replaces it,
    the candidate's run comes back with an error and no credit, and the next candidate runs."""
    with WorkerPool(1) as one:
        run = attack(one, KILL_THE_WORKER, isolation="none")
        assert_no_credit(run)
        assert run.error and run.error.startswith("sandbox:"), run.error
        assert attack(one, "def answer(x):\n    return 2 * x\n", isolation="none").all_passed


def test_a_confined_candidate_cannot_kill_its_worker(status):
    """With PID namespaces the worker is out of the candidate's sight (and, as root, of its uid)."""
    with WorkerPool(1) as one:
        assert attack(one, "def answer(x):\n    return 2 * x\n").all_passed
        worker = one._idle[0].proc.pid
        run = attack(one, KILL_THE_WORKER)
        ok = (
            not (run.error or "").startswith("sandbox:")
            and [w.proc.pid for w in one._idle] == [worker]
            and one._idle[0].proc.poll() is None
        )
    contained(status, "namespaces", ok, f"a candidate killing its worker ({run.error})")


# --- UNIX sockets outside the sandbox ------------------------------------------------------
# A host process listens; the candidate tries to reach it and earns credit only if it did.
# Landlock does not cover connecting to a pathname socket, so seccomp must stop it.

REACH = """
import os, socket

def _reach():
{how}

def _reached():
    try:
        _reach()
        return True
    except OSError:
        return False

def answer(x):
    if {grandchild}:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            if os.fork() == 0:
                os.write(w, b"1" if _reached() else b"0")
            os._exit(0)
        os.waitpid(pid, 0)
        os.close(w)
        ok = os.read(r, 1) == b"1"
    else:
        ok = _reached()
    return 2 * x if ok else None
"""
STREAM = "    s = socket.socket(socket.AF_UNIX)\n    s.connect({addr!r})\n    s.sendall(b'leak')"
DATAGRAM = (
    "    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n    s.sendto(b'leak', {addr!r})"
)
SENDMSG = (
    "    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
    "    s.sendmsg([b'leak'], [], 0, {addr!r})"
)


def _run_dir() -> str:
    for d in ("/run", os.environ.get("XDG_RUNTIME_DIR") or ""):
        if d and os.access(d, os.W_OK):
            return d
    pytest.fail("neither /run nor $XDG_RUNTIME_DIR is writable: no host socket to attack")


def _listener(where: str, kind: int) -> tuple[socket.socket, str]:
    name = f"localcode-attack-{uuid.uuid4().hex[:12]}"
    if where == "abstract":
        addr = "\0" + name
    else:
        base = tempfile.gettempdir() if where == "tmp" else _run_dir()
        addr = os.path.join(base, name + ".sock")
    sock = socket.socket(socket.AF_UNIX, kind)
    sock.bind(addr)
    if not addr.startswith("\0"):  # open to every uid, as X11's are: the uid drop alone won't do
        os.chmod(addr, 0o777)
    if kind == socket.SOCK_STREAM:
        sock.listen(5)
    sock.settimeout(0.2)
    return sock, addr


def _drain(sock: socket.socket, got: list[bytes], stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            if sock.type == socket.SOCK_STREAM:
                conn, _ = sock.accept()
                got.append(conn.recv(100) or b"(connected)")
                conn.close()
            else:
                got.append(sock.recv(100))
        except OSError:
            continue


@pytest.mark.parametrize("grandchild", [False, True], ids=["child", "grandchild"])
@pytest.mark.parametrize(
    ("where", "kind", "how"),
    [
        ("tmp", socket.SOCK_STREAM, STREAM),
        ("run", socket.SOCK_STREAM, STREAM),
        ("abstract", socket.SOCK_STREAM, STREAM),
        ("tmp", socket.SOCK_DGRAM, DATAGRAM),
        ("tmp", socket.SOCK_DGRAM, SENDMSG),
    ],
    ids=["pathname-tmp", "pathname-run", "abstract", "datagram-sendto", "datagram-sendmsg"],
)
def test_unix_socket_outside_the_sandbox_is_unreachable(
    pool, status, healthy, where, kind, how, grandchild
):
    sock, addr = _listener(where, kind)
    got: list[bytes] = []
    stop = threading.Event()
    drain = threading.Thread(target=_drain, args=(sock, got, stop))
    drain.start()
    try:
        code = REACH.format(how=how.format(addr=addr), grandchild=grandchild)
        run = attack(pool, code)
    finally:
        stop.set()
        drain.join()
        sock.close()
        if not addr.startswith("\0"):
            os.unlink(addr)
    contained(status, "seccomp", got == [] and run.passed == 0, f"{where} reached: {got}")


def test_socketpair_and_multiprocessing_pipes_still_work(pool, healthy):
    code = (
        "import multiprocessing, socket\n"
        "def _child(conn):\n    conn.send(conn.recv() * 2)\n"
        "def answer(x):\n"
        "    a, b = socket.socketpair()\n    a.sendall(b'hi')\n    assert b.recv(2) == b'hi'\n"
        "    ctx = multiprocessing.get_context('fork')\n"
        "    mine, theirs = ctx.Pipe()\n"
        "    p = ctx.Process(target=_child, args=(theirs,))\n    p.start()\n"
        "    mine.send(x)\n    got = mine.recv()\n    p.join()\n    return got\n"
    )
    assert attack(pool, code, timeout=10.0).all_passed
