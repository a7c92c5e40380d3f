"""The OpenAI-compatible backend: end to end against the real llama.cpp server with the 0.5B model,
and its edge cases against a fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from fakes.openai import FakeOpenAI, completion, error
from fakes.server import Reply, html_reply, json_reply, refused_url

from localcode import AgentConfig, models, prompts, solve
from localcode.backends import create_backend, provider
from localcode.backends.http import RetryPolicy
from localcode.backends.llama_server import LlamaServer, start_server
from localcode.backends.mock import MockBackend
from localcode.backends.openai import OpenAIBackend
from localcode.cli import main
from localcode.errors import BackendError, BackendUnavailable, PromptTooLong, UsageError

FAST = RetryPolicy(attempts=3, backoff_base=0.01)
ADD = [
    {"role": "system", "content": "You write Python. Reply with one ```python block."},
    {"role": "user", "content": "Write add(a, b) that returns a + b."},
]
SLOTS = 2  # llama.cpp answers 400 to n > slots: the fallback test relies on it


# --- the real llama.cpp server --------------------------------------------------------------
@pytest.fixture(scope="module")
def llama() -> Iterator[LlamaServer]:
    path = models.installed_path("qwen2.5-coder-0.5b")  # CI: `localcode models pull` first
    with start_server(path, slots=SLOTS, ctx_per_slot=2048, threads=2) as server:
        yield server


@pytest.mark.model
def test_n_choices_in_one_request(llama: LlamaServer) -> None:
    b = OpenAIBackend(None, llama.base_url, retry=FAST)  # the model comes from /v1/models
    out = b.complete(ADD, n=SLOTS, temperature=0.8, seed=1, max_tokens=32)
    assert b.supports_n and len(out) == SLOTS
    assert [c.seed for c in out] == [1, 2] and all(c.text and not c.error for c in out)
    # one request: its usage sits on the first choice only
    assert out[0].prompt_tokens and out[0].completion_tokens and out[1].prompt_tokens is None
    b.close()


@pytest.mark.model
def test_falls_back_to_one_request_per_seed_when_n_is_refused(llama: LlamaServer) -> None:
    b = OpenAIBackend(None, llama.base_url, retry=FAST)
    out = b.complete(ADD, n=SLOTS + 1, temperature=0.8, seed=1, max_tokens=32)
    assert not b.supports_n  # remembered for the rest of the run
    assert [c.seed for c in out] == [1, 2, 3]
    assert all(c.text and not c.error and c.prompt_tokens for c in out)
    b.close()


@pytest.mark.model
def test_same_seed_same_reply(llama: LlamaServer) -> None:
    b = OpenAIBackend(None, llama.base_url, retry=FAST)
    one, again = (b.complete(ADD, temperature=0.8, seed=7, max_tokens=24)[0] for _ in range(2))
    assert one.text == again.text
    b.close()


@pytest.mark.model
def test_a_streamed_reply_ends_where_it_is_enough_and_the_server_stops_writing(
    llama: LlamaServer,
) -> None:
    b = OpenAIBackend(None, llama.base_url, retry=FAST)
    messages = prompts.tests_prompt("Write add(a, b) that returns a + b.", "add", 5)
    cut = b.complete_until(messages, until=lambda text: text.count("\n") >= 2, max_tokens=300)
    assert cut.error is None and cut.finish_reason == "stop" and cut.text.count("\n") == 2
    whole = b.complete_until(messages, until=lambda text: False, max_tokens=300)
    assert whole.text.startswith(cut.text) and whole.text.count("\n") > 2  # greedy: same start
    slots = httpx.get(f"{llama.root_url}/slots").json()  # nothing left writing after the cut
    assert not any(s.get("is_processing") for s in slots)
    b.close()


@pytest.mark.model
def test_whole_loop(llama: LlamaServer, demo_task: str) -> None:
    cfg = AgentConfig(
        backend="openai", n_candidates=SLOTS, max_iters=1, max_tokens=256, max_test_tokens=400
    )
    result = solve(demo_task, cfg, backend=OpenAIBackend(None, llama.base_url, retry=FAST))
    assert result.tests and len(result.rounds) == 1
    assert len(result.rounds[0].candidates) == SLOTS
    assert result.prompt_tokens and result.completion_tokens
    assert all(c.error is None or "no code" in c.error for c in result.rounds[0].candidates)


# --- a fake OpenAI-compatible server ----------------------------------------------------------
@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI()
    yield server
    server.close()
    assert server.violations == []


def backend(fake: FakeOpenAI, **kw: object) -> OpenAIBackend:
    kw.setdefault("retry", FAST)
    return OpenAIBackend("m", f"{fake.url}/v1", **kw)  # type: ignore[arg-type]


def test_a_server_that_ignores_n_gets_the_rest_one_by_one(fake: FakeOpenAI) -> None:
    fake.honours_n = False  # as Ollama's /v1 does
    b = backend(fake)
    out = b.complete(ADD, n=3, seed=5)
    assert [c.text for c in out] == ["reply 5", "reply 6", "reply 7"]
    assert not b.supports_n
    b.complete(ADD, n=2, seed=0)
    assert "n" not in fake.requests[-1].body


def test_a_streamed_reply_is_cut_where_until_holds(fake: FakeOpenAI) -> None:
    fake.writer = lambda messages, seed: "".join(f"line {i}\n" for i in range(8))
    b = backend(fake)
    cut = b.complete_until(ADD, until=lambda text: "line 2" in text, seed=3)
    assert cut.text == "line 0\nline 1\nline 2\n" and cut.finish_reason == "stop"
    whole = b.complete_until(ADD, until=lambda text: False, start="ignored", seed=3)
    assert whole.text.count("\n") == 8 and whole.finish_reason == "stop" and whole.seed == 3
    sent = fake.requests[-1].body
    assert sent["stream"] is True and sent["messages"] == ADD  # no begun reply: the API has none
    fake.queue.append(json_reply(completion("m", ["a\nb\n"])))  # a server that won't stream
    assert b.complete_until(ADD, until=lambda text: False).text == "a\nb\n"


def test_an_error_event_mid_stream_is_retried_then_reported(fake: FakeOpenAI) -> None:
    failing = b'data: {"error": {"message": "slot unavailable", "type": "server_error"}}\n\n'
    for _ in range(3):
        fake.queue.append(Reply(200, [failing], {"Content-Type": "text/event-stream"}))
    with pytest.raises(BackendError, match="failed mid-reply: .*slot unavailable"):
        backend(fake).complete_until(ADD, until=lambda text: False)
    assert len(fake.requests) == 3  # retried as a failed request is


def test_500_to_n_falls_back_without_retrying(fake: FakeOpenAI) -> None:
    fake.enqueue(error("n>1 not supported", 500, "server_error"))
    out = backend(fake).complete(ADD, n=2, seed=0)
    assert [c.text for c in out] == ["reply 0", "reply 1"]
    assert len(fake.requests) == 3


def test_503_is_retried(fake: FakeOpenAI) -> None:
    fake.enqueue(error("loading model", 503, "unavailable_error"))
    assert backend(fake).complete(ADD)[0].text == "reply 0"


def test_key_is_sent_but_never_echoed(fake: FakeOpenAI) -> None:
    key = "sk-local-secret-123"
    fake.enqueue(error(f"Incorrect API key provided: {key}", 401))
    b = backend(fake, api_key=key)
    with pytest.raises(BackendUnavailable, match="OPENAI_API_KEY or --api-key") as err:
        b.complete(ADD)
    assert key not in str(err.value) and key not in repr(b)
    assert fake.requests[0].headers["authorization"] == f"Bearer {key}"


def test_no_key_no_header(fake: FakeOpenAI) -> None:
    backend(fake).complete(ADD)
    assert "authorization" not in fake.requests[0].headers


def test_context_overflow_is_prompt_too_long(fake: FakeOpenAI) -> None:
    fake.enqueue(
        error(
            "This model's maximum context length is 4096 tokens. However, you "
            "requested 5000 tokens.",
            400,
        )
    )
    with pytest.raises(PromptTooLong):
        backend(fake).complete(ADD, n=2)


def test_switches_to_max_completion_tokens(fake: FakeOpenAI) -> None:
    fake.enqueue(
        error(
            "Unsupported parameter: 'max_tokens' is not supported with this model. "
            "Use 'max_completion_tokens' instead.",
            400,
        )
    )
    backend(fake).complete(ADD, max_tokens=50)
    assert fake.requests[1].body["max_completion_tokens"] == 50
    assert "max_tokens" not in fake.requests[1].body


def test_several_models_and_no_model_asks_for_model() -> None:
    server = FakeOpenAI(models=("a", "b"))
    try:
        with pytest.raises(UsageError, match="Pass --model: .* offers a, b"):
            OpenAIBackend(None, f"{server.url}/v1", retry=FAST).complete(ADD)
    finally:
        server.close()


def test_unknown_path_404_points_at_base_url(fake: FakeOpenAI) -> None:
    with pytest.raises(BackendUnavailable, match="Check --base-url"):
        OpenAIBackend("m", fake.url, retry=FAST).complete(ADD)  # forgot the /v1


def test_connection_refused() -> None:
    with pytest.raises(BackendUnavailable, match="Couldn't reach .* --base-url"):
        OpenAIBackend("m", refused_url(), retry=FAST).complete(ADD, n=2)


def test_options_read_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env")
    options = provider("openai").options({"model": "m"})
    assert options.api_key == "sk-env" and "sk-env" not in repr(options)
    b = create_backend(AgentConfig(backend="openai", options=options))
    assert isinstance(b, OpenAIBackend)
    assert b.base_url == "http://127.0.0.1:1/v1" and "sk-env" not in repr(b)
    monkeypatch.delenv("OPENAI_BASE_URL")
    assert provider("openai").options({"base_url": None}).base_url == "http://localhost:8000/v1"
    flagged = provider("openai").options({"base_url": "http://127.0.0.1:2/v1"})
    assert flagged.base_url == "http://127.0.0.1:2/v1"  # the flag over the environment


def test_a_failing_whole_request_raises(fake: FakeOpenAI) -> None:
    fake.enqueue(*[error("boom", 502, "server_error")] * 3)
    with pytest.raises(BackendError, match="HTTP 502: boom"):
        backend(fake).complete(ADD)


def test_cli_never_echoes_the_key(fake: FakeOpenAI, capsys: pytest.CaptureFixture[str]) -> None:
    key = "sk-cli-secret-987"
    fake.enqueue(error(f"Incorrect API key provided: {key}", 401))
    argv = ["--backend", "openai", "--base-url", f"{fake.url}/v1", "--model", "m"]
    code = main([*argv, "--api-key", key, "--json", "--request-timeout", "5"])
    out, err = capsys.readouterr()
    assert code == 3 and "OPENAI_API_KEY or --api-key" in err
    assert key not in out and key not in err
    assert fake.requests[0].headers["authorization"] == f"Bearer {key}"


def test_cli_json_run_on_openai_backend(
    fake: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    key = "sk-cli-secret-654"
    fake.writer = lambda messages, seed: MockBackend("demo").complete(messages, seed=seed)[0].text
    argv = ["--backend", "openai", "--base-url", f"{fake.url}/v1", "--model", "m", "--json"]
    assert main([*argv, "--api-key", key, "--max-iters", "1", "-q", "--ranking", "plain"]) == 0
    out, err = capsys.readouterr()
    assert '"passed": true' in out and key not in out and key not in err


def test_a_web_page_instead_of_json_is_unavailable_not_retried(fake: FakeOpenAI) -> None:
    fake.default = lambda req: html_reply()
    with pytest.raises(BackendUnavailable, match=r"sent a non-JSON reply; check --base-url"):
        backend(fake).complete(ADD, n=2)
    assert len(fake.requests) == 1
    with pytest.raises(BackendUnavailable, match=r"at http://127\.0\.0\.1:\d+/v1 sent a non-JSON"):
        OpenAIBackend(None, f"{fake.url}/v1", retry=FAST).complete(ADD)  # GET /models


def test_cli_on_a_web_page_exits_with_one_line(
    fake: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.default = lambda req: html_reply()
    code = main(["--backend", "openai", "--base-url", f"{fake.url}/v1", "--model", "m", "-q"])
    err = capsys.readouterr().err
    assert code == 3 and "Traceback" not in err
    assert err.strip().splitlines() == [
        f"error: The OpenAI-compatible server at {fake.url}/v1 sent a non-JSON reply; "
        "check --base-url."
    ]
