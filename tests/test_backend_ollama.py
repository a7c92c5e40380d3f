"""The Ollama backend against a protocol-faithful fake Ollama on 127.0.0.1."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fakes.ollama import FakeOllama, chat_stream, error_line
from fakes.server import Reply, html_reply, json_reply, refused_url

from localcode import AgentConfig, solve
from localcode.backends import create_backend, provider
from localcode.backends.http import RetryPolicy
from localcode.backends.mock import MockBackend
from localcode.backends.ollama import OllamaBackend, format_size, list_models
from localcode.cli import main
from localcode.errors import BackendError, BackendUnavailable, PromptTooLong

MODEL = "qwen2.5-coder:1.5b"
FAST = RetryPolicy(attempts=3, backoff_base=0.01)
MESSAGES = [
    {"role": "system", "content": "You write code."},
    {"role": "user", "content": "Write add(a, b)."},
]


def scripted(messages: list[dict[str, str]], seed: int) -> str:
    """The mock backend's script, so the fake is a model that can pass the demo task."""
    return MockBackend("demo").complete(messages, seed=seed)[0].text


@pytest.fixture
def server() -> Iterator[FakeOllama]:
    fake = FakeOllama(scripted)
    yield fake
    fake.close()
    assert fake.violations == []


def backend(url: str, **kw: object) -> OllamaBackend:
    kw.setdefault("retry", FAST)
    return OllamaBackend(MODEL, url, **kw)  # type: ignore[arg-type]


def test_request_shape_seeds_and_usage(server: FakeOllama) -> None:
    out = backend(server.url, num_ctx=4096).complete(
        MESSAGES, n=3, temperature=0.7, seed=10, max_tokens=99
    )
    assert [c.seed for c in out] == [10, 11, 12]
    assert all(c.error is None and "```python" in c.text for c in out)
    assert all(c.prompt_tokens and c.completion_tokens and c.finish_reason == "stop" for c in out)
    bodies = [r.body for r in server.requests]
    assert sorted(b["options"]["seed"] for b in bodies) == [10, 11, 12]
    assert {
        (b["options"]["num_ctx"], b["options"]["num_predict"], b["options"]["temperature"])
        for b in bodies
    } == {(4096, 99, 0.7)}
    assert all(b["messages"] == MESSAGES and b["model"] == MODEL for b in bodies)


def test_a_streamed_reply_is_cut_where_until_holds(server: FakeOllama) -> None:
    server.writer = lambda messages, seed: "".join(f"assert f({i}) == {i}\n" for i in range(8))
    b = backend(server.url)
    three = b.complete_until(MESSAGES, until=lambda text: text.count("\n") == 3, seed=4)
    assert three.text.startswith("assert f(0) == 0\nassert f(1) == 1\nassert f(2) == 2\n")
    assert three.text.count("\n") == 3 and three.finish_reason == "stop" and three.seed == 4
    whole = b.complete_until(MESSAGES, until=lambda text: False, start="ignored", seed=4)
    assert whole.text.count("\n") == 8 and whole.completion_tokens  # the final counts
    assert server.requests[-1].body["messages"] == MESSAGES  # no begun reply is sent


def test_parallel_requests_bounded_by_max_parallel(server: FakeOllama) -> None:
    in_flight, peak = 0, 0

    def slow(req):  # type: ignore[no-untyped-def]
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        time.sleep(0.05)
        in_flight -= 1
        return server.answer(req)

    server.default = slow
    out = backend(server.url, max_parallel=2).complete(MESSAGES, n=5, seed=0)
    assert len(out) == 5 and all(c.error is None for c in out)
    assert peak == 2


def test_model_not_pulled_says_ollama_pull(server: FakeOllama) -> None:
    b = OllamaBackend("llama9:70b", server.url, retry=FAST)
    with pytest.raises(BackendUnavailable, match=r"`ollama pull llama9:70b`"):
        b.complete(MESSAGES)
    assert len(server.requests) == 1  # a 404 is not retried


def test_connection_refused_says_ollama_serve() -> None:
    url = refused_url()
    with pytest.raises(BackendUnavailable, match=r"`ollama serve`.*--ollama-url") as err:
        backend(url).complete(MESSAGES, n=2)
    assert url in str(err.value)


def test_500_then_success_is_retried(server: FakeOllama) -> None:
    server.enqueue(json_reply({"error": "llama runner process has terminated"}, 500))
    [c] = backend(server.url).complete(MESSAGES)
    assert c.error is None and "def second_largest_unique" in c.text
    assert len(server.requests) == 2


def test_429_waits_for_retry_after(server: FakeOllama) -> None:
    server.enqueue(json_reply({"error": "server busy"}, 429, {"Retry-After": "1"}))
    t0 = time.monotonic()
    [c] = backend(server.url).complete(MESSAGES)
    assert time.monotonic() - t0 >= 1.0
    assert c.error is None and len(server.requests) == 2


def test_other_4xx_is_not_retried(server: FakeOllama) -> None:
    server.enqueue(json_reply({"error": "invalid options"}, 400))
    with pytest.raises(BackendError, match="HTTP 400: invalid options"):
        backend(server.url).complete(MESSAGES)
    assert len(server.requests) == 1


def test_error_line_mid_stream_is_retried_then_reported(server: FakeOllama) -> None:
    broken = list(chat_stream(MODEL, "def f():\n    return 1\n", 10))[:1]
    failing = Reply(200, [*broken, error_line("an error was encountered while running the model")])
    server.enqueue(failing)
    [c] = backend(server.url).complete(MESSAGES)
    assert c.error is None and "def second_largest_unique" in c.text  # the retry succeeded

    server.enqueue(*[Reply(200, [*broken, error_line("unexpected EOF")]) for _ in range(3)])
    with pytest.raises(BackendError, match="Ollama failed while generating.*unexpected EOF"):
        backend(server.url).complete(MESSAGES)


def test_one_failed_sample_of_several_is_a_completion_with_error(server: FakeOllama) -> None:
    server.enqueue(json_reply({"error": "bad option"}, 400))
    out = backend(server.url, max_parallel=1).complete(MESSAGES, n=3, seed=5)
    assert [c.seed for c in out] == [5, 6, 7]
    assert [bool(c.error) for c in out] == [True, False, False]
    assert "bad option" in (out[0].error or "")


def test_reply_without_code_is_returned_as_is(server: FakeOllama) -> None:
    server.default = lambda req: Reply(200, chat_stream(MODEL, "I cannot help with that.", 12))
    [c] = backend(server.url).complete(MESSAGES)
    assert c.text == "I cannot help with that." and c.error is None


def test_hanging_server_times_out(server: FakeOllama) -> None:
    server.enqueue(Reply(hang=True), Reply(hang=True))
    t0 = time.monotonic()
    with pytest.raises(BackendError, match=r"did not answer within 0.3 s \(--request-timeout\)"):
        backend(
            server.url, request_timeout=0.3, retry=RetryPolicy(attempts=2, backoff_base=0.01)
        ).complete(MESSAGES)
    assert time.monotonic() - t0 < 3


def test_prompt_longer_than_num_ctx_is_reported_not_truncated(server: FakeOllama) -> None:
    long = [{"role": "user", "content": "x = 1\n" * 1000}]  # ~1500 tokens
    with pytest.raises(PromptTooLong, match=r"num_ctx\) is 1024; Ollama read only 1024"):
        backend(server.url, num_ctx=1024).complete(long)
    with pytest.raises(PromptTooLong, match="--ctx-size"):  # far too long: not even sent
        backend(server.url, num_ctx=256).complete(long)
    assert len(server.requests) == 1


def test_list_models_with_sizes(server: FakeOllama) -> None:
    models = list_models(server.url)
    assert [(m.name, format_size(m.size)) for m in models] == [
        ("qwen2.5-coder:1.5b", "986 MB"),
        ("llama3:latest", "4.7 GB"),
    ]
    assert models[0].parameter_size == "1.5B" and models[0].quantization == "Q4_K_M"
    with pytest.raises(BackendUnavailable, match="ollama serve"):
        list_models(refused_url())


def test_options_read_ollama_host(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "0.0.0.0:9999")
    options = provider("ollama").options({"max_parallel": 3})
    b = create_backend(AgentConfig(backend="ollama", options=options))
    assert isinstance(b, OllamaBackend)
    assert (b.url, b.model, b.max_parallel) == ("http://localhost:9999", "llama3", 3)
    b.close()


def test_whole_loop(server: FakeOllama, demo_task: str) -> None:
    cfg = AgentConfig(backend="ollama", n_candidates=4, max_iters=2)
    result = solve(demo_task, cfg, backend=backend(server.url))
    assert result.passed and result.score == 1.0
    assert "def second_largest_unique" in result.final_code
    assert result.prompt_tokens and result.completion_tokens


def test_cli_lists_models_with_sizes(
    server: FakeOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--list-ollama-models", "--ollama-url", server.url]) == 0
    out = capsys.readouterr().out
    assert "qwen2.5-coder:1.5b" in out and "986 MB" in out and "4.7 GB" in out and "Q4_K_M" in out


def test_cli_unreachable_exits_3_with_the_fix(capsys: pytest.CaptureFixture[str]) -> None:
    url = refused_url()
    code = main(["--backend", "ollama", "--ollama-url", url, "-q", "--max-parallel", "1"])
    err = capsys.readouterr().err
    assert code == 3 and "ollama serve" in err and url in err and "Traceback" not in err


def test_cli_model_not_pulled(server: FakeOllama, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--backend", "ollama", "--ollama-url", server.url, "--model", "x:1b", "-q"])
    assert code == 3 and "ollama pull x:1b" in capsys.readouterr().err


def test_stream_cut_before_done_is_retried(server: FakeOllama) -> None:
    cut = list(chat_stream(MODEL, "def f():\n    return 1\n", 10))[:-1]  # no final object
    server.enqueue(Reply(200, cut))
    [c] = backend(server.url).complete(MESSAGES)
    assert c.error is None and "def second_largest_unique" in c.text
    assert len(server.requests) == 2


def test_a_web_page_instead_of_the_model_list_says_check_the_url(
    server: FakeOllama, capsys: pytest.CaptureFixture[str]
) -> None:
    server.default = lambda req: html_reply()
    with pytest.raises(BackendUnavailable, match="non-JSON reply; check --ollama-url"):
        list_models(server.url)
    assert main(["--list-ollama-models", "--ollama-url", server.url]) == 3
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        f"error: Ollama at {server.url} sent a non-JSON reply; check --ollama-url."
    ]


def line_writer(prompt: str, suffix: str, seed: int) -> str:
    """A code model's middle: the line that the code around the hole implies, then more."""
    assert prompt.endswith("    ") and suffix.startswith("\n")
    return f"return a + b  # {seed}\n    print('more')\n"


def test_infill_asks_generate_for_the_middle_between_prefix_and_suffix() -> None:
    fake = FakeOllama(scripted, infiller=line_writer)
    try:
        b = backend(fake.url, num_ctx=2048)
        out = b.infill("def add(a, b):\n    ", "\n\nprint(add(1, 2))\n", n=2, seed=5, stop=["\n"])
        assert [c.text for c in out] == ["return a + b  # 5", "return a + b  # 6"]
        assert all(c.prompt_tokens and c.completion_tokens and c.error is None for c in out)
        bodies = sorted((r.body for r in fake.requests), key=lambda b: b["options"]["seed"])
        assert [r.path for r in fake.requests] == ["/api/generate"] * 2
        assert bodies[0]["prompt"] == "def add(a, b):\n    "
        assert bodies[0]["suffix"] == "\n\nprint(add(1, 2))\n"
        assert bodies[0]["options"]["stop"] == ["\n"] and bodies[0]["options"]["num_ctx"] == 2048
    finally:
        fake.close()
    assert fake.violations == []


def test_a_model_without_fill_in_the_middle_is_refused_in_one_line_not_retried() -> None:
    fake = FakeOllama(scripted, models=(MODEL, "llama3:latest"), infiller=line_writer)
    try:
        b = OllamaBackend("llama3:latest", fake.url, retry=FAST)
        with pytest.raises(BackendError) as info:
            b.infill("def add(a, b):\n    ", "\n", n=1)
        assert not isinstance(info.value, BackendUnavailable) and not info.value.retryable
        assert str(info.value) == (
            "Ollama's 'llama3:latest' cannot fill in the middle (registry.ollama.ai/library/"
            "llama3:latest does not support insert): its template has no suffix. A code model "
            "such as qwen2.5-coder has one."
        )
        assert len(fake.requests) == 1
    finally:
        fake.close()
