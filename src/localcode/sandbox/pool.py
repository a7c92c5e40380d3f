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

from ..errors import SandboxError
from .records import IsolationStatus

_SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The worker needs only the sandbox. Registering `localcode` as a bare package skips its
# __init__ (the agent loop and HTTP backends: ~60 modules, ~4.5 MB) that every per-candidate fork
# would otherwise copy and tear down again.
_BOOT = (
    f"import sys, types; sys.path.insert(0, {_SRC!r}); "
    "package = types.ModuleType('localcode'); "
    f"package.__path__ = [{os.path.join(_SRC, 'localcode')!r}]; "
    "sys.modules['localcode'] = package; "
    "from localcode.sandbox.worker import main; main()"
)
_slots = itertools.count()


class _Worker:
    """One worker process and its pipes."""

    def __init__(self, slot: int) -> None:
        env = {k: os.environ[k] for k in ("PATH", "LANG", "LC_ALL") if k in os.environ}
        env.update(
            PYTEST_DISABLE_PLUGIN_AUTOLOAD="1",
            OPENBLAS_NUM_THREADS="1",
            OMP_NUM_THREADS="1",
            MKL_NUM_THREADS="1",
            PYTHONDONTWRITEBYTECODE="1",
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-B", "-c", _BOOT, str(slot)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd="/",
            start_new_session=True,
        )
        self.hello = self._read()

    def _read(self) -> dict[str, Any]:
        out: IO[bytes] | None = self.proc.stdout
        line = out.readline() if out else b""
        if not line:
            code = self.proc.wait()
            raise SandboxError(
                f"the sandbox worker exited (code {code}) before answering; run "
                "`localcode doctor` to see which isolation layer fails"
            )
        reply: dict[str, Any] = json.loads(line)
        return reply

    def request(self, job: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(job).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError as exc:
            raise SandboxError(f"the sandbox worker died: {exc}") from exc
        return self._read()

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
        self.size = size or _cpu_slots()
        self._idle: list[_Worker] = []
        self._count = 0
        self._cond = threading.Condition()
        self._closed = False

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, job: dict[str, Any]) -> dict[str, Any]:
        """Run one job on an idle worker; a worker that dies is replaced and the job retried once."""
        for attempt in (1, 2):
            worker = self._acquire()
            try:
                reply = worker.request(job)
            except SandboxError:
                self._discard(worker)
                if attempt == 2:
                    raise
                continue
            self._release(worker)
            if "worker_error" in reply:
                raise SandboxError(f"the sandbox failed: {reply['worker_error']}")
            return reply
        raise AssertionError("unreachable")

    def status(self) -> IsolationStatus:
        """The layers a worker found it can apply on this machine."""
        worker = self._acquire()
        try:
            hello = worker.hello
        finally:
            self._release(worker)
        return IsolationStatus(active=list(hello["active"]), missing=dict(hello["missing"]))

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
            return _Worker(next(_slots))
        except BaseException:
            with self._cond:
                self._count -= 1
                self._cond.notify()
            raise

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


def _cpu_slots() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


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
