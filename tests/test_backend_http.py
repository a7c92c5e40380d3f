"""What every HTTP backend shares: reading a reply that should be a JSON object."""

from __future__ import annotations

import httpx
import pytest

from localcode.backends.http import json_body
from localcode.errors import BackendUnavailable

WHERE = "The local llama.cpp server at http://127.0.0.1:1"


def reply(content: bytes, content_type: str = "application/json") -> httpx.Response:
    return httpx.Response(200, content=content, headers={"Content-Type": content_type})


def test_a_json_object_is_returned() -> None:
    assert json_body(reply(b'{"tokens": [1, 2]}'), WHERE) == {"tokens": [1, 2]}


@pytest.mark.parametrize(
    "content",
    [
        b"<html><body>Sign in</body></html>",  # a proxy's or a login page
        b"",  # an empty body
        b"\xff\xfe not utf-8",
        b"[1, 2]",  # JSON, but not the object every endpoint answers
        b'"ok"',
    ],
)
def test_anything_else_is_one_message_with_the_fix(content: bytes) -> None:
    with pytest.raises(BackendUnavailable) as err:
        json_body(reply(content, "text/html"), WHERE, "run again")
    assert str(err.value) == f"{WHERE} sent a non-JSON reply; run again."
    assert not err.value.retryable
