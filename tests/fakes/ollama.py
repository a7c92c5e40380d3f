"""A fake Ollama: /api/chat and /api/generate (NDJSON streams) and /api/tags, shaped as
ollama/ollama docs/api.md shows.

Like the real server it cuts a prompt longer than num_ctx to num_ctx tokens without an error,
and reports only `prompt_eval_count` — the trap the backend must catch.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from .server import FakeServer, Reply, Request, json_reply

CREATED = "2023-08-04T08:52:19.385406455-07:00"
TAGS = {
    "models": [
        {
            "name": "qwen2.5-coder:1.5b",
            "model": "qwen2.5-coder:1.5b",
            "modified_at": "2024-11-12T10:09:46.3393355-08:00",
            "size": 986062089,
            "digest": "6d3abb8d2d53e4a6e1c4ff32a8b04a0c7f7d5a5b0e4cf0b63a9f7e3c7b0d1a2f",
            "details": {
                "parent_model": "",
                "format": "gguf",
                "family": "qwen2",
                "families": ["qwen2"],
                "parameter_size": "1.5B",
                "quantization_level": "Q4_K_M",
            },
        },
        {
            "name": "llama3:latest",
            "model": "llama3:latest",
            "modified_at": "2024-05-01T09:00:00.000000000-07:00",
            "size": 4661224676,
            "digest": "365c0bd3c000a25d28ddbf732fe1c6add414de7275464c4e4d1c3b5fcb5d8ad1",
            "details": {
                "parent_model": "",
                "format": "gguf",
                "family": "llama",
                "families": ["llama"],
                "parameter_size": "8.0B",
                "quantization_level": "Q4_0",
            },
        },
    ]
}

Writer = Callable[[list[dict[str, str]], int], str]  # (messages, seed) -> reply text
Infiller = Callable[[str, str, int], str]  # (prompt, suffix, seed) -> the middle


def tokens(messages: list[dict[str, str]]) -> int:
    """The fake's tokenizer: 4 characters a token."""
    return sum(len(m["content"]) for m in messages) // 4


def check_chat(body: Any) -> None:
    """The request shape the docs give for /api/chat, as this client must send it."""
    assert isinstance(body["model"], str)
    assert body["stream"] is True
    assert all(set(m) == {"role", "content"} for m in body["messages"])
    assert all(m["role"] in ("system", "user", "assistant") for m in body["messages"])
    assert set(body["options"]) == {"seed", "temperature", "num_ctx", "num_predict"}
    assert isinstance(body["keep_alive"], str)


def check_generate(body: Any) -> None:
    """The request shape the docs give for /api/generate with a suffix (fill-in-the-middle)."""
    assert isinstance(body["model"], str)
    assert isinstance(body["prompt"], str) and isinstance(body["suffix"], str)
    assert body["stream"] is True
    assert set(body["options"]) == {"seed", "temperature", "num_ctx", "num_predict", "stop"}
    assert all(isinstance(s, str) for s in body["options"]["stop"])


def generate_stream(model: str, text: str, prompt_tokens: int) -> Iterator[bytes]:
    """The NDJSON stream of a successful /api/generate: pieces in `response`, then the counts."""
    for i in range(0, len(text), 8):
        piece = {"model": model, "created_at": CREATED, "response": text[i : i + 8], "done": False}
        yield (json.dumps(piece) + "\n").encode()
    final = {
        "model": model,
        "created_at": CREATED,
        "response": "",
        "done": True,
        "done_reason": "stop",
        "context": [1, 2, 3],
        "total_duration": 10706818083,
        "prompt_eval_count": prompt_tokens,
        "eval_count": max(1, len(text) // 4),
    }
    yield (json.dumps(final) + "\n").encode()


def chat_stream(
    model: str, text: str, prompt_tokens: int, done_reason: str = "stop"
) -> Iterator[bytes]:
    """The NDJSON stream of a successful /api/chat: pieces of text, then the final statistics."""
    for i in range(0, len(text), 16):
        piece = {
            "model": model,
            "created_at": CREATED,
            "message": {"role": "assistant", "content": text[i : i + 16]},
            "done": False,
        }
        yield (json.dumps(piece) + "\n").encode()
    final = {
        "model": model,
        "created_at": CREATED,
        "message": {"role": "assistant", "content": ""},
        "done_reason": done_reason,
        "done": True,
        "total_duration": 4883583458,
        "load_duration": 1334875,
        "prompt_eval_count": prompt_tokens,
        "prompt_eval_duration": 342546000,
        "eval_count": max(1, len(text) // 4),
        "eval_duration": 4535599000,
    }
    yield (json.dumps(final) + "\n").encode()


def error_line(message: str) -> bytes:
    return (json.dumps({"error": message}) + "\n").encode()


def not_found(model: str) -> Reply:
    return json_reply({"error": f'model "{model}" not found, try pulling it first'}, 404)


class FakeOllama(FakeServer):
    """Serves pulled `models`; each reply's text comes from `writer(messages, seed)`, each
    middle from `infiller(prompt, suffix, seed)`, for the models whose template has a suffix
    (`inserts`); the others are refused as Ollama refuses them."""

    def __init__(
        self,
        writer: Writer,
        models: tuple[str, ...] = ("qwen2.5-coder:1.5b",),
        infiller: Infiller | None = None,
        inserts: tuple[str, ...] = ("qwen2.5-coder:1.5b",),
    ) -> None:
        self.writer = writer
        self.models = models
        self.infiller = infiller
        self.inserts = inserts
        super().__init__(self.answer)

    def answer(self, req: Request) -> Reply:
        if req.method == "GET" and req.path == "/api/tags":
            return json_reply(TAGS)
        if req.method == "POST" and req.path == "/api/chat":
            check_chat(req.body)
            model, options = req.body["model"], req.body["options"]
            if model not in self.models:
                return not_found(model)
            messages = req.body["messages"]
            seen = min(tokens(messages), options["num_ctx"])  # silent truncation, as Ollama does
            text = self.writer(messages, options["seed"])
            return Reply(
                200, chat_stream(model, text, seen), {"Content-Type": "application/x-ndjson"}
            )
        if req.method == "POST" and req.path == "/api/generate":
            return self.generate(req.body)
        return Reply(404, b"404 page not found", {"Content-Type": "text/plain"})

    def generate(self, body: Any) -> Reply:
        check_generate(body)
        model, options = body["model"], body["options"]
        if model not in self.models:
            return not_found(model)
        if model not in self.inserts:
            return json_reply(
                {"error": f"registry.ollama.ai/library/{model} does not support insert"}, 400
            )
        assert self.infiller, "the test gave the fake no infiller"
        text = self.infiller(body["prompt"], body["suffix"], options["seed"])
        for stop in options["stop"]:  # the stop string ends the text, and is not in it
            text = text.split(stop, 1)[0]
        text = text[: options["num_predict"] * 4]
        seen = min((len(body["prompt"]) + len(body["suffix"])) // 4, options["num_ctx"])
        return Reply(
            200, generate_stream(model, text, seen), {"Content-Type": "application/x-ndjson"}
        )
