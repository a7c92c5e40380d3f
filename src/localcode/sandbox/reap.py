"""Collecting a candidate's process tree: its output and report, capped and timed, then every
process it left behind, killed and reaped."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import time
from typing import Any

from .records import Limits

MAX_REPORT = 16 << 20


def collect(pid: int, out_r: int, rep_r: int, limits: Limits, started: float) -> dict[str, Any]:
    """Read output (capped) and the report until the child ends or the wall timeout passes."""
    deadline = started + limits.timeout
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
                output += data[: max(0, limits.max_output_bytes - len(output))]
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


def kill_descendants() -> None:
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
