"""Anthropic's Messages API, streamed. It has no seed: diversity comes from temperature alone."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import httpx

from ..config import AgentConfig
from ..errors import BackendError, BackendUnavailable, PromptTooLong
from .base import Completion, Message
from .http import (
    Deadline,
    RetryPolicy,
    error_text,
    is_retryable,
    make_client,
    redact,
    retry_after,
    sample_each,
    sse_events,
    transport_error,
    with_retries,
)
from .provider import (
    MAX_PARALLEL,
    REQUEST_TIMEOUT,
    ApiOptions,
    Flag,
    Provider,
    api_reader,
    named_model,
)

DEFAULT_BASE_URL = "https://api.anthropic.com"
DEFAULT_MODEL = "claude-haiku-4-5"
API_VERSION = "2023-06-01"
DEFAULT_PARALLEL = 4
_STOP = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length"}


class AnthropicBackend:
    """One streamed /v1/messages request per sample; `seed` only labels the sample."""

    name = "anthropic"
    supports_n = False

    def __init__(
        self,
        api_key: str,
        model: str = DEFAULT_MODEL,
        base_url: str = DEFAULT_BASE_URL,
        *,
        request_timeout: float = 300.0,
        max_parallel: int = DEFAULT_PARALLEL,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.request_timeout = request_timeout
        self.max_parallel = max_parallel
        self.retry = retry or RetryPolicy()
        self._key = api_key
        headers = {"x-api-key": api_key, "anthropic-version": API_VERSION}
        self._client = make_client(request_timeout, headers)

    @classmethod
    def from_options(cls, options: ApiOptions, cfg: AgentConfig) -> AnthropicBackend:
        """A client of the API with the options' key; without one, BackendUnavailable."""
        if not options.api_key:
            raise BackendUnavailable(
                "No Anthropic API key: set ANTHROPIC_API_KEY (or pass --api-key)."
            )
        return cls(
            options.api_key,
            options.model or DEFAULT_MODEL,
            options.base_url,
            request_timeout=options.request_timeout,
            max_parallel=options.max_parallel,
        )

    def __repr__(self) -> str:  # never the key
        return f"<AnthropicBackend {self.model} at {self.base_url}>"

    def complete(
        self,
        messages: Sequence[Message],
        *,
        n: int = 1,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 1024,
    ) -> list[Completion]:
        body = self._body(messages, temperature, max_tokens)

        def one(s: int) -> Completion:
            return with_retries(lambda: self._message(body, s), self.retry)

        return sample_each(one, n, seed, self.max_parallel)

    def complete_until(
        self,
        messages: Sequence[Message],
        *,
        until: Callable[[str], bool],
        start: str = "",
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 1024,
    ) -> Completion:
        """One reply; where `until` holds the stream is closed. A `start` goes as the last
        assistant message, which the API continues (its "prefill")."""
        begun = [{"role": "assistant", "content": start}] if start else []
        body = self._body([*messages, *begun], temperature, max_tokens)
        return with_retries(lambda: self._message(body, seed, until, start), self.retry)

    def _body(
        self, messages: Sequence[Message], temperature: float, max_tokens: int
    ) -> dict[str, Any]:
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": max_tokens,
            "messages": [
                {"role": m["role"], "content": m["content"]}
                for m in messages
                if m["role"] != "system"
            ],
            "temperature": min(max(temperature, 0.0), 1.0),  # the API accepts 0..1
            "stream": True,
        }
        if system:
            body["system"] = system
        return body

    def _message(
        self,
        body: dict[str, Any],
        seed: int,
        until: Callable[[str], bool] | None = None,
        start: str = "",
    ) -> Completion:
        deadline = Deadline(self.request_timeout)
        out = Completion(text="", seed=seed)
        parts: list[str] = [start]
        try:
            with self._client.stream("POST", f"{self.base_url}/v1/messages", json=body) as resp:
                if resp.status_code != 200:
                    raise self._status_error(resp)
                for event, data in sse_events(resp, deadline):
                    done = self._apply(event, json.loads(data), out, parts)
                    if not done and until and "\n" in parts[-1] and until("".join(parts)):
                        out.finish_reason, done = "stop", True  # leaving closes the stream
                    if done:
                        out.text = "".join(parts)
                        return out
        except httpx.TransportError as exc:
            raise transport_error(exc, self._unreachable(), self._slow()) from None
        except TimeoutError:
            raise BackendError(self._slow(), retryable=True) from None
        except ValueError as exc:  # an event whose data is not JSON
            raise BackendError(f"{self.base_url} sent a malformed event stream: {exc}") from None
        raise BackendError(
            f"{self.base_url} closed the stream before message_stop.", retryable=True
        )

    def _apply(self, event: str, data: dict[str, Any], out: Completion, parts: list[str]) -> bool:
        """Fold one stream event into `out`; True at message_stop."""
        if event == "error" or data.get("type") == "error":
            err = data.get("error") or {}
            kind = err.get("type", "error")
            detail = redact(error_text(json.dumps(data)), self._key)
            raise BackendError(
                f"Anthropic failed mid-reply ({kind}): {detail}",
                retryable=kind in ("overloaded_error", "api_error", "rate_limit_error"),
            )
        if event == "message_start":
            usage = (data.get("message") or {}).get("usage") or {}
            out.prompt_tokens = usage.get("input_tokens")
        elif event == "content_block_delta":
            delta = data.get("delta") or {}
            if delta.get("type") == "text_delta":
                parts.append(delta.get("text", ""))
        elif event == "message_delta":
            stop = (data.get("delta") or {}).get("stop_reason")
            out.finish_reason = _STOP.get(stop, stop) if stop else None
            out.completion_tokens = (data.get("usage") or {}).get("output_tokens")
        return event == "message_stop"

    def _status_error(self, resp: httpx.Response) -> BackendError:
        resp.read()
        status = resp.status_code
        detail = redact(error_text(resp.content), self._key)
        where = f"Anthropic at {self.base_url} answered HTTP {status}: {detail}"
        if status in (401, 403):
            return BackendUnavailable(f"{where}. Check ANTHROPIC_API_KEY (or --api-key).")
        if status == 404:
            return BackendUnavailable(f"{where}. Check --model (now '{self.model}').")
        if status in (400, 413) and "too long" in detail.lower():
            return PromptTooLong(f"{where}. Shorten the task.")
        return BackendError(
            where, retryable=is_retryable(status), retry_after=retry_after(resp.headers)
        )

    def _unreachable(self) -> str:
        return (
            f"Couldn't reach Anthropic at {self.base_url} — check your network, "
            "or ANTHROPIC_BASE_URL if you set it."
        )

    def _slow(self) -> str:
        return (
            f"Anthropic at {self.base_url} did not answer within {self.request_timeout:g} s "
            "(--request-timeout): raise it, or lower --max-parallel."
        )

    def close(self) -> None:
        self._client.close()


# --base-url over $ANTHROPIC_BASE_URL, --api-key over $ANTHROPIC_API_KEY
read = api_reader(
    url_variable="ANTHROPIC_BASE_URL",
    key_variable="ANTHROPIC_API_KEY",
    default_url=DEFAULT_BASE_URL,
    default_parallel=DEFAULT_PARALLEL,
)


def doctor(options: ApiOptions) -> list[str]:
    """Whether a key is set; no request is made, as it would be billed."""
    if options.api_key:
        return ["anthropic: an API key is set (not checked: a request would be billed)"]
    return ["anthropic: no ANTHROPIC_API_KEY set"]


PROVIDER = Provider(
    "anthropic",
    AnthropicBackend.from_options,
    read,
    (
        Flag("--model", f"model name (default {DEFAULT_MODEL})"),
        Flag("--base-url", f"API URL (default $ANTHROPIC_BASE_URL or {DEFAULT_BASE_URL})"),
        Flag(
            "--api-key",
            "API key (default $ANTHROPIC_API_KEY, which other users cannot see in `ps`)",
        ),
        REQUEST_TIMEOUT,
        MAX_PARALLEL,
    ),
    label=lambda options: named_model("anthropic", options.model),
    doctor=doctor,
)
