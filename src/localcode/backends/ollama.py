"""Ollama through its native /api/chat: seeds, num_ctx and truncation that does not stay silent;
and through /api/generate with a `suffix`, fill-in-the-middle for the code models whose template
has it (qwen2.5-coder, codellama:code, deepseek-coder, starcoder2, codestral)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from ..config import AgentConfig
from ..errors import BackendError, BackendUnavailable, PromptTooLong
from .base import Completion, Message
from .http import (
    Deadline,
    RetryPolicy,
    error_text,
    estimate_tokens,
    is_retryable,
    json_body,
    make_client,
    ndjson_lines,
    retry_after,
    sample_each,
    transport_error,
    with_retries,
)
from .provider import (
    DEFAULT_REQUEST_TIMEOUT,
    REQUEST_TIMEOUT,
    Flag,
    Provider,
    given,
    positive,
)

# Ollama decides concurrency (OLLAMA_NUM_PARALLEL) and queues the rest; --max-parallel matches it.
DEFAULT_PARALLEL = 4
DEFAULT_MODEL = "llama3"
DEFAULT_CTX = 8192


def default_url(environ: Mapping[str, str]) -> str:
    """The Ollama URL as the Ollama CLI reads OLLAMA_HOST (host, host:port or full URL)."""
    host = environ.get("OLLAMA_HOST", "").strip()
    if not host:
        return "http://localhost:11434"
    scheme, sep, rest = host.partition("://")
    if not sep:
        scheme, rest = "http", host
    rest = rest.rstrip("/")
    hostport = rest.split("/", 1)[0]
    has_port = "]:" in hostport if hostport.startswith("[") else ":" in hostport  # [IPv6]:port
    if not has_port:
        default_port = "443" if scheme == "https" else "11434"
        rest = rest.replace(hostport, f"{hostport or '127.0.0.1'}:{default_port}", 1)
    if rest.startswith("0.0.0.0"):
        rest = "localhost" + rest[len("0.0.0.0") :]
    return f"{scheme}://{rest}"


@dataclass(frozen=True)
class OllamaOptions:
    """Which Ollama server, which of its models, and how hard to press it."""

    model: str = DEFAULT_MODEL  # with its :tag
    url: str = "http://localhost:11434"
    ctx_size: int = DEFAULT_CTX  # sent as num_ctx
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT
    max_parallel: int = DEFAULT_PARALLEL

    def __post_init__(self) -> None:
        positive(self.ctx_size, "--ctx-size")
        positive(self.request_timeout, "--request-timeout")
        positive(self.max_parallel, "--max-parallel")

    @classmethod
    def read(cls, flags: Mapping[str, Any], environ: Mapping[str, str]) -> OllamaOptions:
        """--model over --ollama-model; --ollama-url over $OLLAMA_HOST."""
        return cls(
            model=flags.get("model") or flags.get("ollama_model") or DEFAULT_MODEL,
            url=flags.get("ollama_url") or default_url(environ),
            ctx_size=given(flags, "ctx_size", DEFAULT_CTX),
            request_timeout=given(flags, "request_timeout", DEFAULT_REQUEST_TIMEOUT),
            max_parallel=given(flags, "max_parallel", DEFAULT_PARALLEL),
        )

    def label(self) -> str:
        """Ollama's name for the model, with its tag."""
        return self.model


@dataclass
class OllamaModel:
    """One pulled model, as /api/tags lists it."""

    name: str
    size: int  # bytes on disk
    parameter_size: str = ""
    quantization: str = ""


class OllamaBackend:
    """Sends each sample as its own streamed /api/chat request with options.seed = seed + i."""

    name = "ollama"
    supports_n = False  # /api/chat returns one message; its OpenAI endpoint ignores "n"

    def __init__(
        self,
        model: str,
        url: str = "http://localhost:11434",
        *,
        num_ctx: int = 8192,
        keep_alive: str = "10m",
        request_timeout: float = 300.0,
        max_parallel: int = DEFAULT_PARALLEL,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.model = model
        self.url = url.rstrip("/")
        # The same num_ctx on every request: a different one makes Ollama reload the model.
        self.num_ctx = num_ctx
        self.keep_alive = keep_alive
        self.request_timeout = request_timeout
        self.max_parallel = max_parallel
        self.retry = retry or RetryPolicy()
        self._client = make_client(request_timeout)

    @classmethod
    def from_options(cls, options: OllamaOptions, cfg: AgentConfig) -> OllamaBackend:
        """A client of the server the options name."""
        return cls(
            options.model,
            options.url,
            num_ctx=options.ctx_size,
            request_timeout=options.request_timeout,
            max_parallel=options.max_parallel,
        )

    def __repr__(self) -> str:
        return f"<OllamaBackend {self.model} at {self.url}>"

    def complete(
        self,
        messages: Sequence[Message],
        *,
        n: int = 1,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 1024,
    ) -> list[Completion]:
        estimate = self._fits(messages)

        def one(s: int) -> Completion:
            body = self._body(messages, s, temperature, max_tokens)
            done = with_retries(lambda: self._stream("/api/chat", body), self.retry)
            return self._completion(done, s, estimate)

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
        """One reply; where `until` holds the stream is closed, and Ollama stops generating.
        `start` is not sent: continuing a begun reply depends on each model's template, which
        this client cannot check."""
        estimate = self._fits(messages)
        body = self._body(messages, seed, temperature, max_tokens)
        done = with_retries(lambda: self._stream("/api/chat", body, until), self.retry)
        return self._completion(done, seed, estimate)

    def infill(
        self,
        prefix: str,
        suffix: str,
        *,
        n: int = 1,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 64,
        stop: Sequence[str] = (),
    ) -> list[Completion]:
        """Middles from /api/generate with `prompt` = prefix and `suffix`: Ollama writes the
        model's own fill-in-the-middle prompt from its template, and refuses a model whose
        template has none ("does not support insert"), which is raised, not retried."""
        estimate = self._fits([{"role": "user", "content": prefix + suffix}])

        def one(s: int) -> Completion:
            body = {
                "model": self.model,
                "prompt": prefix,
                "suffix": suffix,
                "stream": True,
                "keep_alive": self.keep_alive,
                "options": {
                    **self._options(s, temperature, max_tokens),
                    "stop": list(stop),
                },
            }
            done = with_retries(lambda: self._stream("/api/generate", body), self.retry)
            return self._completion(done, s, estimate)

        return sample_each(one, n, seed, self.max_parallel)

    def _fits(self, messages: Sequence[Message]) -> int:
        """The prompt's estimated tokens, refused when it cannot fit num_ctx."""
        estimate = estimate_tokens([m["content"] for m in messages])
        if estimate // 2 > self.num_ctx:  # even at 8 characters a token it would not fit
            raise self._too_long(estimate, None)
        return estimate

    def _body(
        self, messages: Sequence[Message], seed: int, temperature: float, max_tokens: int
    ) -> dict[str, object]:
        return {
            "model": self.model,
            "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
            "stream": True,
            "keep_alive": self.keep_alive,
            "options": self._options(seed, temperature, max_tokens),
        }

    def _options(self, seed: int, temperature: float, max_tokens: int) -> dict[str, object]:
        return {
            "seed": seed,
            "temperature": temperature,
            "num_ctx": self.num_ctx,
            "num_predict": max_tokens,
        }

    def _stream(
        self, path: str, body: dict[str, object], until: Callable[[str], bool] | None = None
    ) -> dict[str, object]:
        """One streamed request to /api/chat (pieces in message.content) or /api/generate
        (pieces in response): the final object, the whole text put in its message.content;
        ended early, with done_reason "stop" and no counts, where `until` holds."""
        deadline = Deadline(self.request_timeout)
        parts: list[str] = []
        try:
            with self._client.stream("POST", f"{self.url}{path}", json=body) as resp:
                if resp.status_code != 200:
                    raise self._status_error(resp)
                for obj in ndjson_lines(resp, deadline):
                    if "error" in obj:  # an error after streaming began comes as one line
                        raise BackendError(
                            f"Ollama failed while generating with '{self.model}': "
                            f"{error_text(json.dumps(obj))}",
                            retryable=True,
                        )
                    message = obj.get("message")
                    if isinstance(message, dict):
                        piece = str(message.get("content") or "")
                    else:
                        piece = str(obj.get("response") or "")
                    parts.append(piece)
                    if until and "\n" in piece and until("".join(parts)):
                        obj = {"done": True, "done_reason": "stop"}  # closing the stream ends it
                    if obj.get("done"):
                        obj["message"] = {"role": "assistant", "content": "".join(parts)}
                        return obj
        except httpx.TransportError as exc:
            raise transport_error(exc, self._unreachable(), self._slow()) from None
        except TimeoutError:
            raise BackendError(self._slow(), retryable=True) from None
        except ValueError as exc:  # a line that is not JSON
            raise BackendError(f"Ollama at {self.url} sent a malformed stream: {exc}") from None
        raise BackendError(
            f"Ollama at {self.url} closed the stream before the reply was done.", retryable=True
        )

    def _completion(self, done: dict[str, object], seed: int, estimate: int) -> Completion:
        prompt_tokens = _int(done.get("prompt_eval_count"))
        if prompt_tokens is not None and self._truncated(prompt_tokens, estimate):
            raise self._too_long(estimate, prompt_tokens)
        message = done["message"]
        assert isinstance(message, dict)
        return Completion(
            text=message["content"],
            seed=seed,
            prompt_tokens=prompt_tokens,
            completion_tokens=_int(done.get("eval_count")),
            finish_reason=str(done.get("done_reason") or "stop"),
        )

    def _truncated(self, prompt_tokens: int, estimate: int) -> bool:
        """Ollama cuts a prompt longer than num_ctx to num_ctx tokens without a word.

        It filled the window, or we expected more than fits and it read far fewer (a prefix
        cache also lowers prompt_eval_count, so a low count alone proves nothing).
        """
        if prompt_tokens >= self.num_ctx:
            return True
        return estimate > self.num_ctx and prompt_tokens < 0.8 * estimate

    def _too_long(self, estimate: int, seen: int | None) -> PromptTooLong:
        seen_text = f"; Ollama read only {seen} of them" if seen is not None else ""
        return PromptTooLong(
            f"The prompt is about {estimate} tokens but Ollama's context window (num_ctx) is "
            f"{self.num_ctx}{seen_text}, so it would be cut silently. Raise it with --ctx-size "
            "(if the model allows), or shorten the task."
        )

    def _status_error(self, resp: httpx.Response) -> BackendError:
        resp.read()
        detail = error_text(resp.content)
        if resp.status_code == 404:
            return BackendUnavailable(
                f"Ollama at {self.url} has no model '{self.model}' ({detail}). Pull it with "
                f"`ollama pull {self.model}`, or pick one from `localcode --list-ollama-models`."
            )
        if "support insert" in detail:
            return BackendError(
                f"Ollama's '{self.model}' cannot fill in the middle ({detail}): its template has "
                "no suffix. A code model such as qwen2.5-coder has one."
            )
        return BackendError(
            f"Ollama at {self.url} answered HTTP {resp.status_code}: {detail}",
            retryable=is_retryable(resp.status_code),
            retry_after=retry_after(resp.headers),
        )

    def _unreachable(self) -> str:
        return (
            f"Couldn't reach Ollama at {self.url} — start it with `ollama serve`, "
            "or pass --ollama-url (or set OLLAMA_HOST)."
        )

    def _slow(self) -> str:
        return (
            f"Ollama at {self.url} did not answer within {self.request_timeout:g} s "
            "(--request-timeout). It may still be loading the model or busy with other requests: "
            "raise --request-timeout or lower --max-parallel."
        )

    def close(self) -> None:
        self._client.close()


def list_models(url: str, *, timeout: float = 10.0) -> list[OllamaModel]:
    """The models Ollama at `url` has pulled, from /api/tags."""
    base = url.rstrip("/")
    try:
        with make_client(timeout) as client:
            resp = client.get(f"{base}/api/tags")
    except httpx.TransportError as exc:
        raise transport_error(
            exc,
            f"Couldn't reach Ollama at {base} — start it with `ollama serve`, "
            "or pass --ollama-url (or set OLLAMA_HOST).",
            f"Ollama at {base} did not list its models within {timeout:g} s.",
        ) from None
    if resp.status_code != 200:
        raise BackendError(
            f"Ollama at {base} answered HTTP {resp.status_code}: {error_text(resp.content)}"
        )
    models = []
    for m in json_body(resp, f"Ollama at {base}", "check --ollama-url").get("models") or []:
        details = m.get("details") or {}
        models.append(
            OllamaModel(
                name=m.get("name") or m.get("model", "?"),
                size=int(m.get("size") or 0),
                parameter_size=details.get("parameter_size", ""),
                quantization=details.get("quantization_level", ""),
            )
        )
    return models


def format_size(size: int) -> str:
    """Bytes as Ollama's CLI shows them: '4.7 GB', '397 MB'."""
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}" if unit == "GB" else f"{size // scale} {unit}"
    return f"{size} B"


def _int(value: object) -> int | None:
    return value if isinstance(value, int) else None


def doctor(options: OllamaOptions) -> list[str]:
    """Whether the server answers, and the models it has pulled."""
    try:
        names = [m.name for m in list_models(options.url, timeout=2.0)]
    except BackendError as exc:
        return [f"ollama at {options.url}: not reachable: {exc}"]
    listed = ": " + ", ".join(names[:8]) if names else ""
    return [f"ollama at {options.url}: reachable, {len(names)} model(s){listed}"]


PROVIDER = Provider(
    "ollama",
    OllamaBackend.from_options,
    OllamaOptions.read,
    (
        Flag("--model", "the server's name for the model (overrides --ollama-model)"),
        Flag("--ollama-model", f"model name, with :tag (default {DEFAULT_MODEL})"),
        Flag("--ollama-url", "server URL (default $OLLAMA_HOST or http://localhost:11434)"),
        Flag("--ctx-size", f"num_ctx (default {DEFAULT_CTX})", int),
        REQUEST_TIMEOUT,
        Flag(
            "--max-parallel",
            "requests in flight at once (default 4: match OLLAMA_NUM_PARALLEL)",
            int,
            "N",
        ),
    ),
    label=OllamaOptions.label,
    doctor=doctor,
)
