"""A fake OpenAI-compatible /v1: chat completions and models, shaped as the OpenAI API reference."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from .server import FakeServer, Reply, Request, json_reply


def error(message: str, status: int, kind: str = "invalid_request_error") -> Reply:
    return json_reply(
        {"error": {"message": message, "type": kind, "param": None, "code": None}}, status
    )


def completion(model: str, texts: list[str], prompt_tokens: int = 20) -> dict[str, Any]:
    return {
        "id": "chatcmpl-123",
        "object": "chat.completion",
        "created": 1677652288,
        "model": model,
        "choices": [
            {
                "index": i,
                "message": {"role": "assistant", "content": t},
                "logprobs": None,
                "finish_reason": "stop",
            }
            for i, t in enumerate(texts)
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": sum(len(t) // 4 for t in texts),
            "total_tokens": prompt_tokens + sum(len(t) // 4 for t in texts),
        },
    }


def chunks(model: str, text: str) -> Iterator[bytes]:
    """A streamed completion as server-sent events: a chunk a line, the finish, then [DONE]."""

    def event(delta: dict[str, str], finish: str | None) -> bytes:
        chunk = {
            "id": "chatcmpl-123",
            "object": "chat.completion.chunk",
            "created": 1694268190,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
        }
        return f"data: {json.dumps(chunk)}\n\n".encode()

    yield event({"role": "assistant", "content": ""}, None)
    for line in text.splitlines(keepends=True):
        yield event({"content": line}, None)
    yield event({}, "stop")
    yield b"data: [DONE]\n\n"


class FakeOpenAI(FakeServer):
    """Choice i is `writer(messages, seed + i)` ("reply <seed>" by default).

    `honours_n=False` answers one choice whatever n is asked, as Ollama's /v1 does.
    """

    def __init__(
        self,
        models: tuple[str, ...] = ("m",),
        honours_n: bool = True,
        writer: Callable[[list[dict[str, str]], int], str] | None = None,
    ) -> None:
        self.models = models
        self.honours_n = honours_n
        self.writer = writer or (lambda messages, seed: f"reply {seed}")
        super().__init__(self.answer)

    def answer(self, req: Request) -> Reply:
        if req.method == "GET" and req.path == "/v1/models":
            return json_reply(
                {
                    "object": "list",
                    "data": [
                        {"id": m, "object": "model", "created": 1686935002, "owned_by": "me"}
                        for m in self.models
                    ],
                }
            )
        if req.method == "POST" and req.path == "/v1/chat/completions":
            body = req.body
            assert body["model"] in self.models and isinstance(body["stream"], bool)
            assert isinstance(body["messages"], list) and "seed" in body
            if body["stream"]:
                text = self.writer(body["messages"], body["seed"])
                return Reply(
                    200, chunks(body["model"], text), {"Content-Type": "text/event-stream"}
                )
            n = body.get("n", 1) if self.honours_n else 1
            texts = [self.writer(body["messages"], body["seed"] + i) for i in range(n)]
            return json_reply(completion(body["model"], texts))
        return error("Not found", 404)
