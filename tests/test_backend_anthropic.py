"""The Anthropic backend against a protocol-faithful fake Messages API on 127.0.0.1."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator

import pytest
from fakes.anthropic import KEY, FakeAnthropic, error_body, message_stream
from fakes.server import Reply, json_reply, refused_url

from localcode import AgentConfig, solve
from localcode.backends import create_backend
from localcode.backends.anthropic import AnthropicBackend
from localcode.backends.http import RetryPolicy
from localcode.backends.mock import MockBackend
from localcode.errors import BackendError, BackendUnavailable, PromptTooLong

MODEL = "claude-haiku-4-5"
FAST = RetryPolicy(attempts=3, backoff_base=0.01)
MESSAGES = [
    {"role": "system", "content": "You write code."},
    {"role": "user", "content": "Write add(a, b)."},
]


def scripted() -> Callable[[str, list[dict[str, str]]], str]:
    """The mock backend's script, so the fake is a model that can pass the demo task.

    The API has no seed; like sampling at temperature > 0, each call gets the next reply.
    """
    calls = itertools.count()

    def write(system: str, messages: list[dict[str, str]]) -> str:
        prompt = [{"role": "system", "content": system}, *messages]
        text = MockBackend("demo").complete(prompt, seed=next(calls))[0].text
        if messages[-1]["role"] == "assistant":  # tests begun as assert lines: the same cases
            cases = [
                line.strip() for line in text.splitlines() if line.strip().startswith("assert")
            ]
            text = "```python\n" + "\n".join(cases) + "\n```"
        return text

    return write


@pytest.fixture
def server() -> Iterator[FakeAnthropic]:
    fake = FakeAnthropic(scripted())
    yield fake
    fake.close()
    assert fake.violations == []


def backend(url: str, key: str = KEY, **kw: object) -> AnthropicBackend:
    kw.setdefault("retry", FAST)
    return AnthropicBackend(key, MODEL, url, **kw)  # type: ignore[arg-type]


def test_request_shape_and_usage(server: FakeAnthropic) -> None:
    out = backend(server.url).complete(MESSAGES, n=2, temperature=0.8, seed=3, max_tokens=77)
    assert [c.seed for c in out] == [3, 4]
    assert all(c.error is None and "```python" in c.text for c in out)
    assert all(c.prompt_tokens and c.completion_tokens and c.finish_reason == "stop" for c in out)
    body = server.requests[0].body
    assert body["system"] == "You write code."
    assert body["messages"] == [{"role": "user", "content": "Write add(a, b)."}]
    assert (body["model"], body["max_tokens"], body["temperature"]) == (MODEL, 77, 0.8)


def test_a_reply_begun_for_the_model_and_cut_where_until_holds(server: FakeAnthropic) -> None:
    server.writer = lambda system, messages: (
        "```python\n" + "".join(f"assert f({i}) == {i}\n" for i in range(8))
    )
    b = backend(server.url)
    seen: list[str] = []

    def three(text: str) -> bool:
        seen.append(text)
        return text.count("\n") == 4

    cut = b.complete_until(MESSAGES, until=three, start="```python\nassert", seed=2)
    assert cut.text.startswith("```python\nassert f(0) == 0\nassert f(1) == 1\nassert f(2)")
    assert cut.text.count("\n") == 4 and cut.finish_reason == "stop" and cut.seed == 2
    assert all(text.startswith("```python\nassert") for text in seen)
    sent = server.requests[-1].body["messages"]
    assert sent[-1] == {"role": "assistant", "content": "```python\nassert"}
    whole = b.complete_until(MESSAGES, until=lambda text: False)
    assert whole.text.count("assert") == 8 and whole.finish_reason == "stop"


def test_temperature_is_clamped_to_the_api_range(server: FakeAnthropic) -> None:
    backend(server.url).complete(MESSAGES, temperature=1.5)
    assert server.requests[0].body["temperature"] == 1.0


def test_missing_key_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(BackendUnavailable, match="ANTHROPIC_API_KEY"):
        create_backend(AgentConfig(backend="anthropic"))


def test_options_read_the_environment(
    monkeypatch: pytest.MonkeyPatch, server: FakeAnthropic
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
    b = create_backend(AgentConfig(backend="anthropic"))
    assert isinstance(b, AnthropicBackend)
    assert (b.model, b.base_url) == (MODEL, server.url)
    assert KEY not in repr(b)
    assert b.complete(MESSAGES)[0].error is None


def test_wrong_key_is_not_retried_and_not_echoed(server: FakeAnthropic) -> None:
    secret = "sk-ant-wrong-secret"
    server.enqueue(json_reply(error_body("authentication_error", f"bad key {secret}"), 401))
    with pytest.raises(BackendUnavailable, match="Check ANTHROPIC_API_KEY") as err:
        backend(server.url, key=secret).complete(MESSAGES)
    assert secret not in str(err.value) and len(server.requests) == 1


def test_unknown_model_404(server: FakeAnthropic) -> None:
    with pytest.raises(BackendUnavailable, match=r"model: claude-nope.*Check --model"):
        AnthropicBackend(KEY, "claude-nope", server.url, retry=FAST).complete(MESSAGES)
    assert len(server.requests) == 1


def test_connection_refused() -> None:
    with pytest.raises(BackendUnavailable, match="Couldn't reach Anthropic"):
        backend(refused_url()).complete(MESSAGES)


def test_500_then_success_is_retried(server: FakeAnthropic) -> None:
    server.enqueue(json_reply(error_body("api_error", "Internal server error"), 500))
    [c] = backend(server.url).complete(MESSAGES)
    assert c.error is None and len(server.requests) == 2


def test_overloaded_529_then_success(server: FakeAnthropic) -> None:
    server.enqueue(json_reply(error_body("overloaded_error", "Overloaded"), 529))
    assert backend(server.url).complete(MESSAGES)[0].error is None


def test_429_waits_for_retry_after(server: FakeAnthropic) -> None:
    server.enqueue(
        json_reply(
            error_body(
                "rate_limit_error",
                "Number of request tokens has exceeded your per-minute rate limit",
            ),
            429,
            {"retry-after": "1"},
        )
    )
    t0 = time.monotonic()
    [c] = backend(server.url).complete(MESSAGES)
    assert time.monotonic() - t0 >= 1.0 and c.error is None


def test_retry_after_beyond_the_cap_is_raised_not_waited(server: FakeAnthropic) -> None:
    server.enqueue(
        json_reply(error_body("rate_limit_error", "slow down"), 429, {"retry-after": "3600"})
    )
    t0 = time.monotonic()
    with pytest.raises(BackendError, match="HTTP 429: slow down") as err:
        backend(server.url).complete(MESSAGES)
    assert err.value.retryable and err.value.retry_after == 3600
    assert time.monotonic() - t0 < 1


def test_stream_that_ends_in_an_error_event(server: FakeAnthropic) -> None:
    failing = [
        Reply(
            200,
            message_stream(MODEL, "def f(", 5, end_with_error="overloaded_error"),
            {"Content-Type": "text/event-stream"},
        )
        for _ in range(3)
    ]
    server.enqueue(failing[0])
    assert backend(server.url).complete(MESSAGES)[0].error is None  # retried
    server.enqueue(*failing)
    with pytest.raises(BackendError, match=r"failed mid-reply \(overloaded_error\)"):
        backend(server.url).complete(MESSAGES)


def test_prompt_too_long(server: FakeAnthropic) -> None:
    server.enqueue(
        json_reply(
            error_body(
                "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"
            ),
            400,
        )
    )
    with pytest.raises(PromptTooLong):
        backend(server.url).complete(MESSAGES)


def test_reply_without_code(server: FakeAnthropic) -> None:
    server.writer = lambda system, messages: "Sorry, I can't write that."
    [c] = backend(server.url).complete(MESSAGES)
    assert c.text == "Sorry, I can't write that." and c.error is None


def test_hanging_server_times_out(server: FakeAnthropic) -> None:
    server.enqueue(Reply(hang=True), Reply(hang=True))
    t0 = time.monotonic()
    with pytest.raises(BackendError, match=r"did not answer within 0.3 s"):
        backend(
            server.url, request_timeout=0.3, retry=RetryPolicy(attempts=2, backoff_base=0.01)
        ).complete(MESSAGES)
    assert time.monotonic() - t0 < 3


def test_whole_loop(server: FakeAnthropic, demo_task: str) -> None:
    cfg = AgentConfig(backend="anthropic", n_candidates=3, max_iters=2)
    result = solve(demo_task, cfg, backend=backend(server.url))
    assert result.passed and "def second_largest_unique" in result.final_code
    assert result.prompt_tokens and result.completion_tokens
