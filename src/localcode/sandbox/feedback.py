"""The failure text a run gives the model, the same from every runner: trimmed, capped, and the
cause of a crash named (a signal and the limit it means, or the exit code)."""

from __future__ import annotations

import signal

MAX_MESSAGE_LINES = 8
MAX_LINE_CHARS = 300
_LIMIT_HINTS = {
    "SIGXCPU": " (CPU time limit)",
    "SIGXFSZ": " (file size limit)",
    "SIGKILL": " (memory or process limit?)",
}


def trim(text: str, max_lines: int = MAX_MESSAGE_LINES) -> str:
    """pytest's short traceback cut to the assertion and its values, the location and last lines."""
    lines = [ln.rstrip() for ln in str(text).strip().splitlines() if ln.strip()]
    if len(lines) > max_lines:
        keep = [ln for ln in lines if ln.startswith("E ")][: max_lines - 2]
        head = [ln for ln in lines if not ln.startswith("E ")][-2:]
        lines = head + keep if keep else lines[:2] + ["..."] + lines[-(max_lines - 3) :]
    return "\n".join(ln[:MAX_LINE_CHARS] for ln in lines)


def last_error(output: str) -> str:
    """The line of a run's output that most likely says what went wrong: the last that names an
    Error, else the last line."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    errors = [ln for ln in lines if "Error" in ln]
    return (errors[-1] if errors else lines[-1] if lines else "")[:MAX_LINE_CHARS]


def crash_reason(status: int, output: str) -> str:
    """Why a test run ended without a complete report, from its exit status and output."""
    detail = last_error(output)
    if status > 128 or status < 0:
        sig = status - 128 if status > 128 else -status
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = str(sig)
        reason = f"the test run was killed by {name}{_LIMIT_HINTS.get(name, '')}"
    elif status == 0:
        reason = "the test run ended without a complete report (os._exit or a crash)"
    else:
        reason = f"the test run exited with code {status} before reporting"
    return f"{reason}: {detail}" if detail else reason


def stopped_early(exit_code: object) -> str:
    """A pytest session that reported, but ended with an exit code other than pass or fail."""
    return f"pytest stopped early (exit code {exit_code})"
