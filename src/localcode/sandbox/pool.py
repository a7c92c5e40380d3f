"""Warm sandbox workers, one per CPU slot, started on first use and safe to share between threads."""

from __future__ import annotations

import atexit
import itertools
import json
import os
import subprocess
import sys
import threading
from typing import IO, Any

from ..cpus import usable_cpus
from ..errors import SandboxError
from .records import PYTHON_ENV, IsolationStatus

_SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The worker needs only the sandbox. Registering `localcode` as a bare package skips its
# __init__ (the agent loop and HTTP backends: ~60 modules, ~4.5 MB) that every per-candidate fork
# would otherwise copy and tear down again. Its first act drops the '' (the working directory)
# that `-c` puts on sys.path, as `-I` would (see _Worker).
BOOT = (
    "import sys; sys.path[:] = [p for p in sys.path if p]; "
    f"sys.path.insert(0, {_SRC!r}); "
    "from localcode.sandbox.worker import main; main()"
)
_slots = itertools.count()


class WorkerDied(SandboxError):
    """A worker that had started ended during a job: the candidate's doing (it killed it) or a
    crash, unlike a worker that cannot start at all (a plain SandboxError: a broken setup)."""


class _Worker:
    """One worker process and its pipes."""

    def __init__(self, slot: int) -> None:
        # Not `-I`: it ignores PYTHONHASHSEED, and each worker would hash strings its own way,
        # so a program that returns `list(set(words))` would answer in another order (and pass
        # other tests, and look like another behaviour) depending on which worker ran it. The
        # environment is built here from nothing, which is what -I's -E ensures; -s keeps the
        # user's site-packages out, and BOOT drops the working directory from sys.path.
        env = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL") if k in os.environ}
        env.update(PYTHON_ENV, MKL_NUM_THREADS="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-s", "-B", "-c", BOOT, str(slot)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd="/",
            start_new_session=True,
        )
        line = self._readline()
        if not line:
            code = self.proc.wait()
            raise SandboxError(
                f"the sandbox worker exited (code {code}) before answering; run "
                "`localcode doctor` to see which isolation layer fails"
            )
        self.hello: dict[str, Any] = json.loads(line)

    def _readline(self) -> bytes:
        out: IO[bytes] | None = self.proc.stdout
        return out.readline() if out else b""

    def request(self, job: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(job).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError as exc:
            raise WorkerDied(f"the sandbox worker died: {exc}") from exc
        line = self._readline()
        if not line:
            code = self.proc.wait()
            raise WorkerDied(f"the sandbox worker died during the run (exit code {code})")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def close(self) -> None:
        if self.proc.poll() is None:
            if self.proc.stdin:
                self.proc.stdin.close()
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()


class WorkerPool:
    """Up to `size` warm workers; `run()` blocks while all are busy."""

    def __init__(self, size: int | None = None) -> None:
        self.size = size or usable_cpus()
        self._idle: list[_Worker] = []
        self._count = 0
        self._cond = threading.Condition()
        self._closed = False
        self._status: IsolationStatus | None = None

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, job: dict[str, Any]) -> dict[str, Any]:
        """Run one job on an idle worker; a worker that dies is replaced and the job retried once
        (WorkerDied if it dies again)."""
        for attempt in (1, 2):
            worker = self._acquire()
            try:
                reply = worker.request(job)
            except WorkerDied:
                self._discard(worker)
                if attempt == 2:
                    raise
                continue
            except BaseException as exc:
                # a garbled reply, an unencodable job, KeyboardInterrupt: the worker's state is
                # unknown, so it goes, and its slot with it
                self._discard(worker)
                if isinstance(exc, Exception):
                    raise SandboxError(f"the sandbox failed: {type(exc).__name__}: {exc}") from exc
                raise
            self._release(worker)
            if "worker_error" in reply:
                raise SandboxError(f"the sandbox failed: {reply['worker_error']}")
            return reply
        raise AssertionError("unreachable")

    def status(self) -> IsolationStatus:
        """The layers a worker found it can apply on this machine (asked once per pool)."""
        if self._status is None:
            worker = self._acquire()
            self._release(worker)  # _acquire noted its hello
        assert self._status is not None
        return IsolationStatus(list(self._status.active), dict(self._status.missing))

    def close(self) -> None:
        """Stop every idle worker; busy ones stop when their job returns."""
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
            self._count -= len(idle)
            self._cond.notify_all()
        for worker in idle:
            worker.close()

    def _acquire(self) -> _Worker:
        with self._cond:
            while True:
                if self._closed:
                    raise SandboxError("the sandbox pool is closed")
                if self._idle:
                    return self._idle.pop()
                if self._count < self.size:
                    self._count += 1
                    break
                self._cond.wait()
        try:
            worker = _Worker(next(_slots))
        except BaseException:
            with self._cond:
                self._count -= 1
                self._cond.notify()
            raise
        if self._status is None:  # every worker on this machine finds the same layers
            hello = worker.hello
            self._status = IsolationStatus(
                active=list(hello["active"]), missing=dict(hello["missing"])
            )
        return worker

    def _release(self, worker: _Worker) -> None:
        with self._cond:
            if not self._closed:
                self._idle.append(worker)
                self._cond.notify()
                return
            self._count -= 1
        worker.close()

    def _discard(self, worker: _Worker) -> None:
        worker.close()
        with self._cond:
            self._count -= 1
            self._cond.notify()


_default: WorkerPool | None = None
_default_lock = threading.Lock()


def default_pool() -> WorkerPool:
    """The process-wide pool, created on first use and closed at exit."""
    global _default
    with _default_lock:
        if _default is None or _default._closed:
            _default = WorkerPool()
            atexit.register(_default.close)
        return _default


def close_default_pool() -> None:
    """Stop the process-wide pool's workers (a later run starts new ones)."""
    with _default_lock:
        if _default is not None:
            _default.close()
