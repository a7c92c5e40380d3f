"""OpenAI-compatible /chat/completions: vLLM, llama.cpp server, LM Studio, hosted OpenAI."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

import httpx

from ..config import AgentConfig
from ..errors import BackendError, BackendUnavailable, LocalCodeError, PromptTooLong, UsageError
from .base import Completion, Message
from .http import (
    Deadline,
    RetryPolicy,
    error_text,
    is_retryable,
    json_body,
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

DEFAULT_BASE_URL = "http://localhost:8000/v1"
DEFAULT_PARALLEL = 4
_CONTEXT_MARKERS = (
    "context length",
    "context_length",
    "context size",
    "too many tokens",
    "exceed_context",
)


class _NRejected(Exception):
    """The server refused a request with n > 1."""


class OpenAIBackend:
    """Asks for all n choices in one request; falls back to n requests if the server balks."""

    name = "openai"

    def __init__(
        self,
        model: str | None = None,
        base_url: str = DEFAULT_BASE_URL,
        *,
        api_key: str | None = None,
        request_timeout: float = 300.0,
        max_parallel: int = DEFAULT_PARALLEL,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.max_parallel = max_parallel
        self.request_timeout = request_timeout
        self.retry = retry or RetryPolicy()
        # Flips to False for the rest of the run once the server rejects or ignores "n".
        self.supports_n = True
        self._max_tokens_key = "max_tokens"  # newer OpenAI models want max_completion_tokens
        self._model = model
        self._key = api_key
        self._lock = threading.Lock()
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = make_client(request_timeout, headers)

    @classmethod
    def from_options(cls, options: ApiOptions, cfg: AgentConfig) -> OpenAIBackend:
        """A client of the server the options name."""
        return cls(
            options.model,
            options.base_url,
            api_key=options.api_key,
            request_timeout=options.request_timeout,
            max_parallel=options.max_parallel,
        )

    def __repr__(self) -> str:  # never the key
        return f"<OpenAIBackend {self._model or '?'} at {self.base_url}>"

    @property
    def model(self) -> str:
        """--model, or the one model the server offers when none was given."""
        with self._lock:
            if self._model is None:
                self._model = self._only_model()
            return self._model

    def complete(
        self,
        messages: Sequence[Message],
        *,
        n: int = 1,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 1024,
    ) -> list[Completion]:
        body = self._body(messages, temperature, stream=False)
        if n > 1 and self.supports_n:
            out = self._complete_n(body, n, seed, max_tokens)
            if out is not None:
                return out

        def one(s: int) -> Completion:
            return self._choices(self._post({**body, "seed": s}, max_tokens), s)[0]

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
        """One reply, streamed; where `until` holds the stream is closed, which servers such as
        llama.cpp's and vLLM take as the end of the request. `start` is not sent: the chat
        completions API has no portable way to continue a begun reply, so the model writes it
        all."""
        body = {**self._body(messages, temperature, stream=True), "seed": seed}
        return with_retries(lambda: self._stream(body, until, max_tokens), self.retry)

    def _body(
        self, messages: Sequence[Message], temperature: float, *, stream: bool
    ) -> dict[str, Any]:
        """A chat request's body, without its seed, n and token budget."""
        return {
            "model": self.model,
            "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
            "temperature": temperature,
            "stream": stream,
        }

    def _stream(
        self, body: dict[str, Any], until: Callable[[str], bool], max_tokens: int
    ) -> Completion:
        deadline = Deadline(self.request_timeout)
        out = Completion(text="", seed=body["seed"])
        try:
            sent = {**body, self._max_tokens_key: max_tokens}
            with self._client.stream(
                "POST", f"{self.base_url}/chat/completions", json=sent
            ) as resp:
                if resp.status_code != 200:
                    resp.read()
                    if resp.status_code == 400 and self._switch_max_tokens(resp):
                        return self._stream(body, until, max_tokens)
                    raise self._status_error(resp)
                if not resp.headers.get("content-type", "").startswith("text/event-stream"):
                    resp.read()  # a server that does not stream: its whole reply, or a page
                    return self._choices(json_body(resp, self._where), body["seed"])[0]
                for _, data in sse_events(resp, deadline):
                    if data.strip() == "[DONE]":
                        break
                    chunk = json.loads(data)
                    if chunk.get("error"):  # a failure after the stream began comes as an event
                        detail = redact(error_text(data), self._key)
                        raise BackendError(
                            f"{self._where} failed mid-reply: {detail}", retryable=True
                        )
                    for choice in chunk.get("choices") or []:
                        piece = (choice.get("delta") or {}).get("content") or ""
                        out.text += piece
                        out.finish_reason = choice.get("finish_reason") or out.finish_reason
                        if "\n" in piece and until(out.text):
                            out.finish_reason = "stop"
                            return out  # leaving the block closes the stream
        except httpx.TransportError as exc:
            raise self._transport_error(exc) from None
        except TimeoutError:
            raise BackendError(self._slow, retryable=True) from None
        except ValueError as exc:  # an event whose data is not JSON
            raise BackendError(f"{self.base_url} sent a malformed event stream: {exc}") from None
        return out

    def _complete_n(
        self, body: dict[str, Any], n: int, seed: int, max_tokens: int
    ) -> list[Completion] | None:
        """All n from one request (the prompt is read once), or None to fall back."""
        try:
            data = self._post({**body, "seed": seed, "n": n}, max_tokens, n_request=True)
        except _NRejected:
            self._drop_n()
            return None
        out = self._choices(data, seed)
        if len(out) < n:  # the server ignored "n" (Ollama's /v1 does): ask for the rest one by one
            self._drop_n()
            rest = sample_each(
                lambda s: self._choices(self._post({**body, "seed": s}, max_tokens), s)[0],
                n - len(out),
                seed + len(out),
                self.max_parallel,
            )
            out = out[:n] + rest
        return out[:n]

    def _drop_n(self) -> None:
        with self._lock:
            self.supports_n = False

    def _choices(self, data: dict[str, Any], seed: int) -> list[Completion]:
        # Choice i is labelled seed + i; with "n" the server derives all choices from one seed.
        # The request's usage goes on the first choice, so sums over completions stay right.
        usage = data.get("usage") or {}
        choices = sorted(data.get("choices") or [], key=lambda c: c.get("index", 0))
        if not choices:
            raise BackendError(f"{self.base_url} returned no choices.", retryable=True)
        return [
            Completion(
                text=(c.get("message") or {}).get("content") or "",
                seed=seed + i,
                prompt_tokens=usage.get("prompt_tokens") if i == 0 else None,
                completion_tokens=usage.get("completion_tokens") if i == 0 else None,
                finish_reason=c.get("finish_reason"),
            )
            for i, c in enumerate(choices)
        ]

    def _post(
        self, body: dict[str, Any], max_tokens: int, *, n_request: bool = False
    ) -> dict[str, Any]:
        def attempt() -> dict[str, Any]:
            sent = {**body, self._max_tokens_key: max_tokens}
            resp = self._send("POST", "/chat/completions", sent)
            if resp.status_code == 400 and self._switch_max_tokens(resp):
                return attempt()
            if resp.status_code != 200:
                err = self._status_error(resp)
                # Servers without "n" answer 400 (or 422, or 500) to it: no retry, fall back.
                if (
                    n_request
                    and resp.status_code in (400, 422, 500)
                    and not isinstance(err, PromptTooLong)
                ):
                    raise _NRejected
                raise err
            return json_body(resp, self._where)

        return with_retries(attempt, self.retry)

    def _switch_max_tokens(self, resp: httpx.Response) -> bool:
        """Some hosted models reject max_tokens and want max_completion_tokens; switch once."""
        if self._max_tokens_key == "max_tokens" and "max_completion_tokens" in resp.text:
            self._max_tokens_key = "max_completion_tokens"
            return True
        return False

    @property
    def _where(self) -> str:
        return f"The OpenAI-compatible server at {self.base_url}"

    def _send(self, method: str, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        try:
            return self._client.request(method, f"{self.base_url}{path}", json=body)
        except httpx.TransportError as exc:
            raise self._transport_error(exc) from None

    def _transport_error(self, exc: httpx.TransportError) -> BackendError:
        return transport_error(
            exc,
            f"Couldn't reach an OpenAI-compatible server at {self.base_url} — start it "
            "(vLLM, llama.cpp server, LM Studio), or pass --base-url (or set OPENAI_BASE_URL).",
            self._slow,
        )

    @property
    def _slow(self) -> str:
        return (
            f"{self.base_url} did not answer within {self.request_timeout:g} s "
            "(--request-timeout): raise it, or lower --max-parallel."
        )

    def _status_error(self, resp: httpx.Response) -> BackendError:
        status = resp.status_code
        detail = redact(error_text(resp.content), self._key)
        where = f"{self.base_url} answered HTTP {status}: {detail}"
        err: BackendError
        if status in (401, 403):
            err = BackendUnavailable(f"{where}. Check the key (OPENAI_API_KEY or --api-key).")
        elif status == 404:
            err = BackendUnavailable(
                f"{where}. Check --base-url (it usually ends in /v1) and --model "
                f"(now '{self._model}')."
            )
        elif status == 400 and any(m in detail.lower() for m in _CONTEXT_MARKERS):
            err = PromptTooLong(f"{where}. Shorten the task or give the server a larger context.")
        else:
            err = BackendError(
                where, retryable=is_retryable(status), retry_after=retry_after(resp.headers)
            )
        return err

    def models(self) -> list[str]:
        """The model ids the server offers (`GET /models`)."""
        resp = with_retries(lambda: self._send("GET", "/models"), self.retry)
        if resp.status_code != 200:
            raise self._status_error(resp)
        data = json_body(resp, self._where).get("data") or []
        return [str(m["id"]) for m in data if isinstance(m, dict) and m.get("id")]

    def _only_model(self) -> str:
        ids = self.models()
        if len(ids) != 1:
            offered = ", ".join(ids[:10]) or "none"
            raise UsageError(f"Pass --model: {self.base_url} offers {offered}.")
        return str(ids[0])

    def close(self) -> None:
        self._client.close()


# --base-url over $OPENAI_BASE_URL, --api-key over $OPENAI_API_KEY
read = api_reader(
    url_variable="OPENAI_BASE_URL",
    key_variable="OPENAI_API_KEY",
    default_url=DEFAULT_BASE_URL,
    default_parallel=DEFAULT_PARALLEL,
)


def doctor(options: ApiOptions) -> list[str]:
    """Whether the server answers GET /models, and what it offers."""
    server = OpenAIBackend.from_options(
        ApiOptions(None, options.base_url, options.api_key, request_timeout=2.0), AgentConfig()
    )
    server.retry = RetryPolicy(1)
    try:
        names = server.models()
    except LocalCodeError as exc:
        return [f"openai at {options.base_url}: not reachable: {exc}"]
    finally:
        server.close()
    listed = ": " + ", ".join(names[:8]) if names else ""
    return [f"openai at {options.base_url}: reachable, {len(names)} model(s){listed}"]


PROVIDER = Provider(
    "openai",
    OpenAIBackend.from_options,
    read,
    (
        Flag("--model", "the server's name for the model (default: the one it serves)"),
        Flag(
            "--base-url",
            f"server URL ending in /v1 (default $OPENAI_BASE_URL or {DEFAULT_BASE_URL})",
        ),
        Flag(
            "--api-key",
            "API key (default $OPENAI_API_KEY, which other users cannot see in `ps`); optional for local servers",
        ),
        REQUEST_TIMEOUT,
        MAX_PARALLEL,
    ),
    label=lambda options: named_model("openai", options.model),
    doctor=doctor,
)
