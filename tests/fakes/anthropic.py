"""A fake Anthropic Messages API: POST /v1/messages streamed as the docs' server-sent events."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from .server import FakeServer, Reply, Request, json_reply

Writer = Callable[[str, list[dict[str, str]]], str]  # (system, messages) -> reply text
KEY = "sk-ant-test-0123456789abcdef"


def event(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


def check_messages(headers: dict[str, str], body: Any) -> None:
    """The request shape the docs give for /v1/messages."""
    assert headers["anthropic-version"] == "2023-06-01"
    assert headers["content-type"] == "application/json"
    assert isinstance(body["model"], str) and isinstance(body["max_tokens"], int)
    assert body["stream"] is True
    assert 0.0 <= body["temperature"] <= 1.0
    assert "seed" not in body and "n" not in body
    assert all(m["role"] in ("user", "assistant") for m in body["messages"])
    assert body["messages"][0]["role"] == "user"


def error_body(kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


def message_stream(
    model: str, text: str, input_tokens: int, *, end_with_error: str = ""
) -> Iterator[bytes]:
    """message_start, one text block in deltas, message_delta, message_stop (or an error event)."""
    yield event(
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": "msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY",
                "type": "message",
                "role": "assistant",
                "content": [],
                "model": model,
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": input_tokens, "output_tokens": 1},
            },
        },
    )
    yield event(
        "content_block_start",
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    )
    yield event("ping", {"type": "ping"})
    for i in range(0, len(text), 16):
        yield event(
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": text[i : i + 16]},
            },
        )
    if end_with_error:
        yield event("error", error_body(end_with_error, "Overloaded"))
        return
    yield event("content_block_stop", {"type": "content_block_stop", "index": 0})
    yield event(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": max(1, len(text) // 4)},
        },
    )
    yield event("message_stop", {"type": "message_stop"})


class FakeAnthropic(FakeServer):
    """Accepts only `KEY` and `models`; reply text from `writer(system, messages)`."""

    def __init__(self, writer: Writer, models: tuple[str, ...] = ("claude-haiku-4-5",)) -> None:
        self.writer = writer
        self.models = models
        super().__init__(self.answer)

    def answer(self, req: Request) -> Reply:
        if req.method != "POST" or req.path != "/v1/messages":
            return json_reply(error_body("not_found_error", "Not found"), 404)
        if req.headers.get("x-api-key") != KEY:
            return json_reply(error_body("authentication_error", "invalid x-api-key"), 401)
        check_messages(req.headers, req.body)
        model = req.body["model"]
        if model not in self.models:
            return json_reply(error_body("not_found_error", f"model: {model}"), 404)
        messages = req.body["messages"]
        text = self.writer(req.body.get("system", ""), messages)
        if messages[-1]["role"] == "assistant":  # a prefill: the model goes on from it
            begun = messages[-1]["content"]
            if begun != begun.rstrip():
                message = "final assistant content cannot end with trailing whitespace"
                return json_reply(error_body("invalid_request_error", message), 400)
            assert text.startswith(begun), "the fake's writer must write the whole reply"
            text = text[len(begun) :]
        tokens = sum(len(m["content"]) for m in messages) // 4
        return Reply(
            200, message_stream(model, text, tokens), {"Content-Type": "text/event-stream"}
        )
