"""The default backend: a GGUF model served by llama.cpp inside this process (see llama_server.py)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from .. import models
from ..config import AgentConfig
from ..errors import BackendError, BackendUnavailable, LocalCodeError, PromptTooLong, UsageError
from .base import Completion, Message, fan_out
from .http import estimate_tokens, json_body
from .llama_server import ENGINE_REQUIREMENT, LlamaServer, start_server
from .provider import DEFAULT_REQUEST_TIMEOUT, REQUEST_TIMEOUT, Flag, Provider, given, positive

DEFAULT_CTX = 8192


@dataclass(frozen=True)
class LocalOptions:
    """Which GGUF model to serve in this process, and how."""

    model: str | None = None  # a known model's name (default models.DEFAULT_MODEL)
    model_path: str | None = None  # any GGUF file instead
    ctx_size: int = DEFAULT_CTX  # per parallel slot: prompt + reply
    threads: int | None = None  # default: every core
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT
    max_parallel: int | None = None  # slots; default: the run's --n-candidates

    def __post_init__(self) -> None:
        if self.ctx_size < 256:
            raise UsageError(f"--ctx-size must be at least 256 tokens (got {self.ctx_size}).")
        if self.threads is not None and self.threads < 1:
            raise UsageError(f"--threads must be at least 1 (got {self.threads}).")
        positive(self.request_timeout, "--request-timeout")
        if self.max_parallel is not None:
            positive(self.max_parallel, "--max-parallel")

    @classmethod
    def read(cls, flags: Mapping[str, Any], environ: Mapping[str, str]) -> LocalOptions:
        """From the flags; the local backend reads no environment variable."""
        return cls(
            model=flags.get("model"),
            model_path=flags.get("model_path"),
            ctx_size=given(flags, "ctx_size", DEFAULT_CTX),
            threads=flags.get("threads"),
            request_timeout=given(flags, "request_timeout", DEFAULT_REQUEST_TIMEOUT),
            max_parallel=flags.get("max_parallel"),
        )

    def label(self) -> str:
        """The model file's stem or the known model's name."""
        if self.model_path:
            return Path(self.model_path).stem
        return self.model or models.DEFAULT_MODEL


class LocalBackend:
    """Chat completions from the embedded llama.cpp server; the model's own chat template applies.

    The n samples of a call go as one request with `"n"` (the prompt is processed once; choice i
    is sampled with seed `seed + i`, as llama.cpp does), in batches of at most one per slot.
    """

    name = "local"
    supports_n = True
    max_parallel = 4

    def __init__(
        self,
        model_path: str | os.PathLike[str],
        *,
        slots: int = 4,
        ctx_size: int = 8192,
        threads: int | None = None,
        request_timeout: float = 300.0,
        use_n: bool = True,
        sampling: Mapping[str, float] | None = None,
    ) -> None:
        self.supports_n = use_n
        self.sampling = dict(sampling or {})  # extra sampler settings for temperature > 0
        self.max_parallel = slots
        self.ctx_size = ctx_size  # per slot: the most prompt + reply tokens one sample may use
        self.server: LlamaServer = start_server(
            model_path, slots=slots, ctx_per_slot=ctx_size, threads=threads
        )
        self._http = httpx.Client(base_url=self.server.root_url, timeout=request_timeout)

    @classmethod
    def from_options(cls, options: LocalOptions, cfg: AgentConfig) -> LocalBackend:
        """Serve the chosen model with a slot per candidate (or --max-parallel)."""
        path = models.resolve(options.model, options.model_path)
        if options.model_path:  # a known model's file brings its sampling advice wherever it lies
            known = models.identify(path)
        else:
            known = models.get_model(options.model or models.DEFAULT_MODEL)
        return cls(
            path,
            slots=options.max_parallel or cfg.n_candidates,
            ctx_size=options.ctx_size,
            threads=options.threads,
            request_timeout=options.request_timeout,
            sampling=dict(known.sampling) if known else None,
        )

    @property
    def model_path(self) -> Path:
        return self.server.model_path

    def complete(
        self,
        messages: Sequence[Message],
        *,
        n: int = 1,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 1024,
    ) -> list[Completion]:
        body, prompt_tokens = self._body(messages, temperature, max_tokens)
        if not self.supports_n:
            return fan_out(
                lambda s: self._request({**body, "seed": s}, s, prompt_tokens)[0],
                n,
                seed,
                self.max_parallel,
            )
        out: list[Completion] = []
        for start in range(0, n, self.max_parallel):
            k = min(self.max_parallel, n - start)
            out += self._request(
                {**body, "n": k, "seed": seed + start}, seed + start, prompt_tokens
            )
        return out

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
        """One reply, streamed; where `until` holds, the stream is closed and the server,
        seeing its client gone, stops writing (no tokens are spent on what would be cut).
        A `start` goes as a last assistant message, which llama.cpp continues (it streams
        only what follows)."""
        begun = [{"role": "assistant", "content": start}] if start else []
        body, prompt_tokens = self._body([*messages, *begun], temperature, max_tokens)
        text, finish = start, None
        with (
            self._errors(),
            self._http.stream(
                "POST", "/v1/chat/completions", json={**body, "seed": seed, "stream": True}
            ) as resp,
        ):
            if resp.status_code != 200:
                resp.read()
                raise self._http_error(resp)
            for piece, ended in _stream_pieces(resp.iter_lines()):
                text += piece
                finish = ended or finish
                if "\n" in piece and until(text):
                    finish = "stop"
                    break  # leaving the block closes the stream
        return Completion(
            text=text,
            seed=seed,
            prompt_tokens=prompt_tokens,
            completion_tokens=self._tokens(text[len(start) :]),
            finish_reason=finish,
        )

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
        """Middles from llama.cpp's /infill, which writes the model's own fill-in-the-middle
        prompt (Qwen2.5-Coder's <|fim_prefix|>, <|fim_suffix|>, <|fim_middle|>). The n samples
        go as one request with "n" (the prompt is read once), at most one a slot."""
        body: dict[str, Any] = {
            "input_prefix": prefix,
            "input_suffix": suffix,
            "n_predict": max_tokens,
            "temperature": temperature,
            "stop": list(stop),
            "cache_prompt": True,
        }
        if temperature > 0:
            body.update(self.sampling)
        out: list[Completion] = []
        for start in range(0, n, self.max_parallel):
            k = min(self.max_parallel, n - start)
            with self._errors():
                resp = self._http.post("/infill", json={**body, "n": k, "seed": seed + start})
            if resp.status_code != 200:
                raise self._http_error(resp)
            data = _json_list(resp)
            if len(data) != k:
                raise BackendError(
                    f"The local server returned {len(data)} infills for n={k}.", retryable=True
                )
            out += [_middle(d, seed + start + i, i == 0) for i, d in enumerate(data)]
        return out

    def generating(self) -> list[int]:
        """Tokens each busy slot has written so far, from the server's /slots report."""
        try:
            resp = self._http.get("/slots", timeout=1.0)
            slots = resp.json() if resp.status_code == 200 else []
            return [
                int(s["next_token"][0]["n_decoded"])
                for s in slots
                if s.get("is_processing") and s.get("next_token")
            ]
        except (httpx.HTTPError, ValueError, KeyError, TypeError, IndexError, AttributeError):
            return []  # a display aid: no report is no count, never an error

    def share_prefix(self, messages: Sequence[Message]) -> Completion | None:
        """One idle slot reads the prefix; its state is saved and restored into the other idle
        slots, so requests that begin with it (the server gives a request the idle slot whose
        cache matches it best) read only their own rest: a run's first 4 prompts read ~260
        prompt tokens instead of ~640 on three tasks (bench/prefix_sharing.py: 0.87x the wall
        time of that step with the 1.5B model on 2 cores).
        llama.cpp shares a prompt across slots only within one "n" request, and keeps a
        finished slot's state in host memory only once that slot takes another request."""
        try:
            slots = self._http.get("/slots", timeout=5.0).json()
            idle = [int(s["id"]) for s in slots if not s.get("is_processing")]
            if len(idle) < 2:
                return None
            body, _ = self._body(messages, 0.0, 1)
            resp = self._http.post("/v1/chat/completions", json={**body, "id_slot": idle[0]})
            if resp.status_code != 200:
                return None
            usage = resp.json().get("usage") or {}
            read = Completion(
                "", None, usage.get("prompt_tokens"), usage.get("completion_tokens"), "length"
            )
            saved = {"filename": "prefix.bin"}
            if self._slot(idle[0], "save", saved):
                for slot in idle[1:]:
                    self._slot(slot, "restore", saved)
            return read
        except (httpx.HTTPError, ValueError, KeyError, TypeError, AttributeError, LocalCodeError):
            return None  # each prompt is then read whole, as without sharing

    def _slot(self, slot: int, action: str, body: dict[str, str]) -> bool:
        resp = self._http.post(f"/slots/{slot}", params={"action": action}, json=body)
        return resp.status_code == 200

    def count_tokens(self, messages: Sequence[Message]) -> int:
        """Prompt tokens after the chat template, as the server counts them."""
        try:
            resp = self._http.post(
                "/v1/chat/completions/input_tokens", json={"messages": list(messages)}
            )
        except httpx.TransportError as exc:
            raise self._unavailable(exc) from exc
        counted = self._json(resp).get("input_tokens") if resp.status_code == 200 else None
        if isinstance(counted, int):
            return counted
        # An engine without the counting endpoint: the rough estimate every backend uses.
        return estimate_tokens([m["content"] for m in messages])

    def close(self) -> None:
        self._http.close()
        self.server.close()

    def _body(
        self, messages: Sequence[Message], temperature: float, max_tokens: int
    ) -> tuple[dict[str, Any], int]:
        """A chat request's body (without its seed) and its prompt's tokens, refused before it
        is sent when prompt and reply cannot fit a slot."""
        msgs = [dict(m) for m in messages]
        prompt_tokens = self.count_tokens(msgs)
        self._check_fits(prompt_tokens, max_tokens)
        body: dict[str, Any] = {
            "messages": msgs,
            "temperature": temperature,
            "max_tokens": max_tokens,
        }
        if temperature > 0:
            body.update(self.sampling)
        return body, prompt_tokens

    def _check_fits(self, prompt_tokens: int, max_tokens: int) -> None:
        if prompt_tokens + max_tokens > self.ctx_size:
            raise PromptTooLong(
                f"The prompt is {prompt_tokens} tokens and the reply may take {max_tokens}, but a "
                f"slot holds {self.ctx_size}. Shorten the task or raise --ctx-size "
                f"(memory grows with --ctx-size x --n-candidates)."
            )

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """A request's timeout or lost connection as the error that says what to do."""
        try:
            yield
        except httpx.TimeoutException as exc:
            raise BackendError(
                f"The local model did not answer within {self._http.timeout.read}s; "
                "raise --request-timeout or lower --max-tokens.",
                retryable=True,
            ) from exc
        except httpx.TransportError as exc:
            raise self._unavailable(exc) from exc

    def _request(self, body: dict[str, Any], seed: int, prompt_tokens: int) -> list[Completion]:
        with self._errors():
            resp = self._http.post("/v1/chat/completions", json=body)
        if resp.status_code != 200:
            raise self._http_error(resp)
        data = self._json(resp)
        usage = data.get("usage") or {}
        choices = sorted(data.get("choices", []), key=lambda c: c.get("index", 0))
        if len(choices) != body.get("n", 1):
            raise BackendError(
                f"The local server returned {len(choices)} choices for n={body.get('n', 1)}.",
                retryable=True,
            )
        return [
            Completion(
                text=c["message"].get("content") or "",
                seed=seed + i,
                # The prompt is read once per request: counted on choice 0, as OpenAIBackend does,
                # so sums over completions stay right.
                prompt_tokens=usage.get("prompt_tokens", prompt_tokens) if i == 0 else None,
                # llama.cpp's usage counts choice 0 only; count the others' tokens the same way
                completion_tokens=usage.get("completion_tokens")
                if i == 0
                else self._reply_tokens(c),
                finish_reason=c.get("finish_reason"),
            )
            for i, c in enumerate(choices)
        ]

    def _reply_tokens(self, choice: dict[str, Any]) -> int | None:
        tokens = self._tokens(choice["message"].get("content") or "")
        return None if tokens is None else tokens + (choice.get("finish_reason") == "stop")

    def _tokens(self, text: str) -> int | None:
        """How many tokens `text` is, as the model reads it; None when the server cannot say."""
        try:
            resp = self._http.post("/tokenize", json={"content": text})
        except httpx.TransportError:
            return None
        if resp.status_code != 200:
            return None
        return len(self._json(resp).get("tokens") or [])

    def _json(self, resp: httpx.Response) -> dict[str, Any]:
        return json_body(
            resp,
            f"The local llama.cpp server at {self.server.root_url}",
            f"run again; if it repeats, reinstall the engine: pip install '{ENGINE_REQUIREMENT}'",
        )

    def _http_error(self, resp: httpx.Response) -> BackendError:
        status = resp.status_code
        try:
            data = resp.json()
        except ValueError:
            data = None
        err = (data.get("error") if isinstance(data, dict) else None) or {}
        if not isinstance(err, dict):  # {"error": "text"}
            err = {"message": str(err)}
        message = err.get("message") or resp.text[:300]
        if err.get("type") == "exceed_context_size_error":
            return PromptTooLong(f"{message} (per-slot --ctx-size is {self.ctx_size})")
        return BackendError(
            f"The local llama.cpp server answered HTTP {status}: {message}",
            retryable=status >= 500,
        )

    def _unavailable(self, exc: Exception) -> BackendUnavailable:
        return BackendUnavailable(
            f"The local llama.cpp server at {self.server.base_url} stopped answering ({exc}); "
            "run again, with fewer --n-candidates or a smaller --ctx-size if memory is short."
        )


def _json_list(resp: httpx.Response) -> list[dict[str, Any]]:
    """/infill's answer: one result, or a list of them in order when "n" > 1."""
    try:
        data = resp.json()
    except ValueError as exc:
        raise BackendError(
            f"The local llama.cpp server's /infill answered with no JSON: {resp.text[:200]}",
            retryable=True,
        ) from exc
    items = data if isinstance(data, list) else [data]
    if not all(isinstance(d, dict) for d in items):
        raise BackendError("The local llama.cpp server's /infill answered malformed JSON.")
    return sorted(items, key=lambda d: d.get("index", 0))


def _middle(data: dict[str, Any], seed: int, first: bool) -> Completion:
    """One /infill result; the prompt, read once a request, is counted on its first."""
    return Completion(
        text=str(data.get("content") or ""),
        seed=seed,
        prompt_tokens=data.get("tokens_evaluated") if first else None,
        completion_tokens=data.get("tokens_predicted"),
        finish_reason="length" if data.get("stop_type") == "limit" else "stop",
    )


def _stream_pieces(lines: Iterator[str]) -> Iterator[tuple[str, str | None]]:
    """The text pieces of a streamed chat completion (server-sent events), each with the
    finish reason its event carries (None until the last)."""
    for line in lines:
        if not line.startswith("data: "):
            continue
        data = line[len("data: ") :].strip()
        if data == "[DONE]":
            return
        try:
            event = json.loads(data)
        except ValueError:
            continue
        for choice in event.get("choices") or []:
            delta = choice.get("delta") or {}
            yield delta.get("content") or "", choice.get("finish_reason")


def doctor(options: LocalOptions) -> list[str]:
    """The known models, which one is the default, and which are pulled."""
    rows = ["local: llama.cpp in this process; models (* default):"]
    for s in models.list_status():
        star = "*" if s.model.name == models.DEFAULT_MODEL else ""
        state = "installed" if s.installed else "not pulled (localcode models pull NAME)"
        rows.append(f"  {s.model.name}{star}: {state} - {s.path}")
    return rows


PROVIDER = Provider(
    "local",
    LocalBackend.from_options,
    LocalOptions.read,
    (
        Flag("--model", f"a known model (default {models.DEFAULT_MODEL}; see `localcode models`)"),
        Flag("--model-path", "load this GGUF file instead of a known model", metavar="FILE"),
        Flag("--threads", "CPU threads (default: all cores)", int),
        Flag(
            "--ctx-size",
            f"context tokens per parallel slot, prompt + reply (default {DEFAULT_CTX})",
            int,
        ),
        REQUEST_TIMEOUT,
        Flag("--max-parallel", "parallel slots (default: --n-candidates)", int, "N"),
    ),
    label=LocalOptions.label,
    doctor=doctor,
)
