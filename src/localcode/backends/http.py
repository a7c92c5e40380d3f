"""What every HTTP backend shares: one client setup, one retry policy, one way to read errors."""

from __future__ import annotations

import email.utils
import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx

from ..errors import BackendError, BackendUnavailable
from .base import Completion, fan_out

T = TypeVar("T")

RETRY_STATUS = {408, 409, 425, 429}  # plus every 5xx


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries with exponential backoff and full jitter; the server's Retry-After wins.

    Full jitter as in "Exponential Backoff And Jitter" (AWS Architecture Blog, 2015).
    """

    attempts: int = 4  # tries in all, the first included
    backoff_base: float = 0.5  # seconds; the wait before try k+1 is up to base * 2**k
    backoff_max: float = 20.0
    max_retry_after: float = 60.0  # a longer Retry-After is not waited for: the error is raised

    def delay(self, attempt: int, retry_after: float | None) -> float | None:
        """Seconds to wait after failed try `attempt` (0-based), or None to give up now."""
        if retry_after is not None:
            return retry_after if retry_after <= self.max_retry_after else None
        return random.uniform(0, min(self.backoff_max, self.backoff_base * 2**attempt))


def with_retries(call: Callable[[], T], policy: RetryPolicy) -> T:
    """Run `call`, again after a wait while it raises a retryable BackendError."""
    for attempt in range(policy.attempts):
        try:
            return call()
        except BackendError as exc:
            wait = policy.delay(attempt, exc.retry_after) if exc.retryable else None
            if wait is None or attempt == policy.attempts - 1:
                raise
            time.sleep(wait)
    raise AssertionError("unreachable: attempts >= 1")


def make_client(request_timeout: float, headers: dict[str, str] | None = None) -> httpx.Client:
    """A client whose every read waits at most `request_timeout` (connects: at most 10 s)."""
    timeout = httpx.Timeout(request_timeout, connect=min(request_timeout, 10.0))
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=16)
    # trust_env=False: a stray HTTP(S)_PROXY must not capture 127.0.0.1 or see the key.
    return httpx.Client(timeout=timeout, headers=headers or {}, limits=limits, trust_env=False)


def retry_after(headers: httpx.Headers) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or HTTP date), None if absent or bad."""
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def is_retryable(status: int) -> bool:
    """429, 408 and every 5xx may succeed later; other 4xx will not."""
    return status in RETRY_STATUS or status >= 500


def error_text(body: bytes | str, limit: int = 300) -> str:
    """The human part of an error body: {"error": "..."}, {"error": {"message": ...}} or text."""
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    try:
        data = json.loads(text)
    except ValueError:
        return " ".join(text.split())[:limit]
    err = data.get("error", data) if isinstance(data, dict) else data
    if isinstance(err, dict):
        err = err.get("message") or err.get("type") or err
    return " ".join(str(err).split())[:limit]


def json_body(resp: httpx.Response, where: str, fix: str = "check --base-url") -> dict[str, Any]:
    """The reply's JSON object; anything else (a wrong URL, a proxy's page) is BackendUnavailable.

    Unavailable, not a plain BackendError: the next request would get the same page, so the run
    stops with the message instead of failing every candidate. `where` names the server
    ("Ollama at http://localhost:11434"), `fix` says what to do.
    """
    try:
        data = resp.json()
    except ValueError:  # both JSONDecodeError and UnicodeDecodeError are ValueErrors
        data = None
    if not isinstance(data, dict):
        raise BackendUnavailable(f"{where} sent a non-JSON reply; {fix}.")
    return data


def transport_error(exc: httpx.TransportError, unreachable: str, slow: str) -> BackendError:
    """A failed connect as BackendUnavailable(`unreachable`), a timeout as BackendError(`slow`),
    a dropped connection as a plain BackendError. All are retryable; the messages are the
    backend's own, so they can say how to fix it.
    """
    if isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout)):
        return BackendUnavailable(unreachable, retryable=True)
    if isinstance(exc, httpx.TimeoutException):
        return BackendError(slow, retryable=True)
    return BackendError(f"The connection broke mid-request ({type(exc).__name__}).", retryable=True)


class Deadline:
    """A whole-request time limit for streams, where the client's timeout bounds only each read."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    def expired(self) -> bool:
        return time.monotonic() > self._end


def ndjson_lines(resp: httpx.Response, deadline: Deadline) -> Iterator[dict[str, object]]:
    """Objects from a newline-delimited JSON stream; raises TimeoutError past the deadline."""
    for line in resp.iter_lines():
        if deadline.expired():
            raise TimeoutError
        if line.strip():
            yield json.loads(line)


def sse_events(resp: httpx.Response, deadline: Deadline) -> Iterator[tuple[str, str]]:
    """(event, data) pairs from a Server-Sent Events stream; TimeoutError past the deadline."""
    event = ""
    data: list[str] = []
    for line in resp.iter_lines():
        if deadline.expired():
            raise TimeoutError
        if not line:
            if data:
                yield event or "message", "\n".join(data)
            event, data = "", []
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip())
    if data:
        yield event or "message", "\n".join(data)


def redact(text: str, *secrets: str | None) -> str:
    """`text` with every secret replaced, for messages built from what a server sent back."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text


def estimate_tokens(texts: list[str]) -> int:
    """A rough token count (~4 characters a token) for checks that tolerate a wide margin."""
    return sum(len(t) for t in texts) // 4 + 4 * len(texts)


def sample_each(
    one: Callable[[int], Completion], n: int, seed: int, max_parallel: int
) -> list[Completion]:
    """`fan_out` that raises the first error when every sample failed: then the request failed."""
    errors: dict[int, BackendError] = {}

    def guarded(s: int) -> Completion:
        try:
            return one(s)
        except BackendError as exc:
            errors[s] = exc
            raise

    out = fan_out(guarded, n, seed, max_parallel)
    if len(errors) == n:
        raise errors[seed]
    return out
