"""The local backend with the real 0.5B model (CI runs `localcode models pull qwen2.5-coder-0.5b` first)."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from localcode import AgentConfig, models, prompts, solve
from localcode.backends.base import Infills
from localcode.backends.llama_server import TUNING, set_param, start_server
from localcode.backends.local import LocalBackend, LocalOptions
from localcode.backends.mock import DEMO_TESTS
from localcode.cli import DEFAULT_TASK, main
from localcode.errors import ModelError, PromptTooLong

pytestmark = pytest.mark.model

SMALL = "qwen2.5-coder-0.5b"


@pytest.fixture(scope="module")
def model_file() -> Path:
    """The 0.5B model, found and verified by the model manager like any run finds it."""
    try:
        return models.installed_path(SMALL)
    except ModelError as exc:
        pytest.fail(f"The model tests need the small model: {exc}")


@pytest.fixture(scope="module")
def backend(model_file: Path) -> Iterator[LocalBackend]:
    b = LocalBackend(model_file, slots=4, ctx_size=2048, request_timeout=900)
    yield b
    b.close()


def code_messages() -> list[dict[str, str]]:
    return prompts.code_prompt(DEFAULT_TASK, "second_largest_unique")


def test_n_seeds_give_n_distinct_candidates_in_one_request(backend: LocalBackend) -> None:
    replies = backend.complete(code_messages(), n=4, temperature=0.8, seed=0, max_tokens=96)
    assert [c.seed for c in replies] == [0, 1, 2, 3]
    assert len({c.text for c in replies}) == 4
    assert all(c.error is None and c.text for c in replies)
    # one request reads the prompt once: its tokens are counted on the first choice only
    assert replies[0].prompt_tokens and [c.prompt_tokens for c in replies[1:]] == [None] * 3
    assert all(c.completion_tokens and 0 < c.completion_tokens <= 96 for c in replies)


def test_a_line_is_written_into_a_hole_between_the_code_above_and_below(
    backend: LocalBackend,
) -> None:
    """Fill-in-the-middle (/infill): the model writes the missing line from the code around it."""
    prefix = "def area(width, height):\n    "
    suffix = "\n\n\nassert area(2, 3) == 6\n"
    greedy = backend.infill(prefix, suffix, stop=["\n"], max_tokens=32)
    assert len(greedy) == 1 and "return" in greedy[0].text and "\n" not in greedy[0].text
    again = backend.infill(prefix, suffix, stop=["\n"], max_tokens=32)
    assert again[0].text == greedy[0].text
    samples = backend.infill(prefix, suffix, n=3, temperature=0.9, seed=7, stop=["\n"])
    assert [c.seed for c in samples] == [7, 8, 9] and all(c.error is None for c in samples)
    assert all("\n" not in c.text and c.completion_tokens for c in samples)
    # one request reads the prompt once: counted on the first sample only
    assert samples[0].prompt_tokens and [c.prompt_tokens for c in samples[1:]] == [None] * 2
    assert isinstance(backend, Infills)


def test_the_tokens_written_so_far_are_read_while_the_model_writes(
    backend: LocalBackend,
) -> None:
    assert backend.generating() == []  # nothing in progress
    seen: list[list[int]] = []
    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = pool.submit(
            backend.complete, code_messages(), n=2, temperature=0.8, seed=5, max_tokens=160
        )
        while not pending.done():
            seen.append(backend.generating())
            time.sleep(0.2)
        replies = pending.result()
    counts = [n for report in seen for n in report]
    assert counts and max(counts) > 0  # two slots at work, their counts rising
    assert max(len(report) for report in seen) == 2
    assert max(counts) <= max(c.completion_tokens or 0 for c in replies)
    assert backend.generating() == []  # done: no reply in progress


def test_a_streamed_reply_ends_where_it_is_enough_and_the_server_stops_writing(
    backend: LocalBackend,
) -> None:
    def two_lines(text: str) -> bool:
        return text.count("\n") >= 2

    messages = prompts.tests_prompt(DEFAULT_TASK, "second_largest_unique", 5, "asserts")
    cut = backend.complete_until(messages, until=two_lines, seed=0, max_tokens=400)
    assert cut.error is None and cut.finish_reason == "stop"
    assert two_lines(cut.text) and not two_lines(cut.text[: cut.text.rfind("\n")])
    assert cut.prompt_tokens and cut.completion_tokens and cut.completion_tokens < 400
    deadline = time.monotonic() + 5  # the server saw its client go and freed the slot
    while backend.generating() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert backend.generating() == []
    whole = backend.complete_until(messages, until=lambda text: False, seed=0, max_tokens=400)
    assert whole.finish_reason in ("stop", "length") and whole.text.count("\n") > 2


def test_a_reply_begun_for_the_model_is_continued(backend: LocalBackend) -> None:
    messages = prompts.tests_prompt(DEFAULT_TASK, "second_largest_unique", 5, "asserts")
    seen: list[str] = []

    def first_case(text: str) -> bool:
        seen.append(text)
        return text.count("\n") >= 2

    reply = backend.complete_until(
        messages, until=first_case, start=prompts.ASSERTS_START, seed=0, max_tokens=200
    )
    assert reply.text.startswith("```python\nassert ") and reply.finish_reason == "stop"
    assert all(text.startswith(prompts.ASSERTS_START) for text in seen)
    assert "second_largest_unique(" in reply.text.splitlines()[1]  # the model went on from it
    assert reply.text.count("```python") == 1  # once: the server streams only what follows
    assert reply.completion_tokens and reply.completion_tokens < 200


def test_n_seeded_concurrent_requests_when_n_is_off(model_file: Path) -> None:
    b = LocalBackend(model_file, slots=2, ctx_size=1024, use_n=False, request_timeout=900)
    try:
        replies = b.complete(code_messages(), n=2, temperature=0.8, seed=10, max_tokens=48)
        once = b.complete(code_messages(), n=1, temperature=0.8, seed=12, max_tokens=48)
        twice = b.complete(code_messages(), n=1, temperature=0.8, seed=12, max_tokens=48)
    finally:
        b.close()
    assert [c.seed for c in replies] == [10, 11]
    assert replies[0].text != replies[1].text
    assert once[0].text == twice[0].text  # same seed, same request, one after another


def test_the_models_sampling_advice_reaches_the_sampler(model_file: Path) -> None:
    # a known model brings its makers' advice; an arbitrary GGUF file gets llama.cpp's defaults
    one = AgentConfig(n_candidates=1)
    known = LocalBackend.from_options(LocalOptions(model=SMALL, ctx_size=512), one)
    known.close()
    assert known.sampling == {"top_k": 20, "top_p": 0.8}
    by_path = LocalBackend.from_options(LocalOptions(model_path=str(model_file), ctx_size=512), one)
    by_path.close()  # the same file given by path is still that model
    assert by_path.sampling == {"top_k": 20, "top_p": 0.8}
    b = LocalBackend(model_file, slots=2, ctx_size=1024, sampling={"top_k": 1})
    try:  # top_k 1 leaves one choice per step: every seed writes the same reply
        replies = b.complete(code_messages(), n=2, temperature=0.8, seed=0, max_tokens=48)
    finally:
        b.close()
    assert replies[0].text == replies[1].text and replies[0].seed != replies[1].seed


def test_a_prompt_that_cannot_fit_a_slot_is_refused_before_it_is_sent(
    backend: LocalBackend,
) -> None:
    long_task = "Write a function. " + "Some context the model does not need. " * 300
    with pytest.raises(PromptTooLong, match=r"slot holds 2048.*--ctx-size"):
        backend.complete(prompts.code_prompt(long_task, None), n=4, max_tokens=512)


def test_server_handle_serves_v1_then_stops(model_file: Path) -> None:
    server = start_server(model_file, slots=1, ctx_per_slot=512, threads=1)
    with server:
        assert server.base_url.startswith("http://127.0.0.1:") and server.base_url.endswith("/v1")
        assert httpx.get(f"{server.base_url}/models", timeout=30).status_code == 200
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{server.base_url}/models", timeout=5)


def test_a_speculative_decoder_and_a_draft_model_are_refused_together(model_file: Path) -> None:
    with pytest.raises(ValueError, match="not both"):
        start_server(model_file, speculative="ngram_simple", draft=model_file)
    with pytest.raises(ValueError, match="must be one of"):
        start_server(model_file, speculative="draft")


def test_each_named_engine_setting_is_set_on_the_engine_and_serves(model_file: Path) -> None:
    import xllamacpp

    for name, fields in TUNING.items():
        params = xllamacpp.CommonParams()
        for field, value in fields.items():
            set_param(params, field, value)
            *path, leaf = field.split(".")
            got = params
            for part in path:
                got = getattr(got, part)
            shown = getattr(got, leaf)
            assert (shown.name if isinstance(value, str) else shown) == value, (name, field)
    body = {"messages": code_messages(), "temperature": 0.0, "max_tokens": 8, "seed": 0}
    with start_server(model_file, slots=1, ctx_per_slot=512, threads=1, tuning="kv-q8") as s:
        data = httpx.post(f"{s.base_url}/chat/completions", json=body, timeout=300).json()
        assert data["usage"]["completion_tokens"] > 0
    with pytest.raises(ValueError, match="tuning must be one of"):
        start_server(model_file, tuning="fast")


def test_a_draft_model_drafts_and_its_drafts_are_accepted(model_file: Path) -> None:
    body = {"messages": code_messages(), "temperature": 0.0, "max_tokens": 48, "seed": 0}
    for draft in (None, model_file):  # the model as its own draft: its drafts are accepted
        with start_server(model_file, slots=1, ctx_per_slot=1024, draft=draft, draft_max=4) as s:
            data = httpx.post(f"{s.base_url}/chat/completions", json=body, timeout=300).json()
            timings = data.get("timings", {})
            assert "def second_largest_unique" in data["choices"][0]["message"]["content"]
            if draft is None:
                assert not timings.get("draft_n")
            else:  # (not always the same text: checking a draft computes logits in a batch)
                assert timings["draft_n"] > 0 and timings["draft_n_accepted"] > 0


def test_corrupt_model_is_reported_and_never_loaded(
    model_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    corrupt = tmp_path / model_file.name
    shutil.copyfile(model_file, corrupt)
    with corrupt.open("r+b") as f:  # one byte in the middle of the weights
        f.seek(corrupt.stat().st_size // 2)
        byte = f.read(1)
        f.seek(-1, 1)
        f.write(bytes([byte[0] ^ 0xFF]))
    monkeypatch.setenv("LOCALCODE_MODELS_DIR", str(tmp_path))
    assert main(["--model", SMALL, "--task", "Write add(a, b) returning a + b."]) == 3
    err = capsys.readouterr().err
    assert "is corrupt or not qwen2.5-coder-0.5b" in err
    assert f"localcode models pull {SMALL}" in err


def test_missing_model_is_reported_with_the_pull_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LOCALCODE_MODELS_DIR", str(tmp_path))
    assert main(["--model", SMALL, "--task", "Write add(a, b) returning a + b."]) == 3
    assert f"Get it with: localcode models pull {SMALL}" in capsys.readouterr().err


def test_agent_passes_the_demo_tests_on_the_demo_task(model_file: Path) -> None:
    # Given the prototype's demo tests, the real model's code must pass all of them within the
    # rounds (fixed seeds). Not asserted: result.passed, which also needs the model's own tests;
    # the 0.5B model's greedy tests for this task assert second_largest_unique([1, 1, 2, 3, 4])
    # is None, which no correct code passes (the 1.5B default writes correct ones).
    tests = DEMO_TESTS.strip().removeprefix("```python").removesuffix("```")
    cfg = AgentConfig(
        backend="local",
        options=LocalOptions(model=SMALL, ctx_size=3072, request_timeout=900),
        n_candidates=4,
        max_iters=3,
        seed=0,
        max_tokens=320,
    )
    result = solve(DEFAULT_TASK, cfg, tests=tests)
    best = result.best
    assert best is not None and best.user_run is not None, result.notes
    assert best.user_run.all_passed, best.user_run
    assert best.user_run.total == 5
    assert result.prompt_tokens and result.completion_tokens


def test_a_shared_prefix_is_read_once_and_every_slot_starts_from_it(model_file: Path) -> None:
    backend = LocalBackend(model_file, slots=3, ctx_size=1024, request_timeout=900)
    task = "Write a function `count_vowels(s)` that returns how many vowels the string s has."
    asks = [
        prompts.tests_prompt(task, "count_vowels"),
        prompts.code_prompt(task, "count_vowels"),
        prompts.reference_prompt(task, "count_vowels"),
    ]

    def reused(messages: list[dict[str, str]], slot: int = -1) -> int:  # tokens not read
        body = {"messages": messages, "max_tokens": 1, "temperature": 0, "id_slot": slot}
        resp = httpx.post(f"{backend.server.base_url}/chat/completions", json=body, timeout=900)
        return int(resp.json()["timings"]["cache_n"])

    try:  # each slot holds another task's prompt, read whole
        assert [reused(ask, slot) for slot, ask in enumerate(asks)] == [0, 0, 0]
        other = task.replace("vowels", "consonants")
        asks = [
            [m, {**u, "content": u["content"].replace("vowels", "consonants")}] for m, u in asks
        ]
        prefix = backend.count_tokens(prompts.task_prefix(other)) - 5  # less its closing tokens
        backend.share_prefix(prompts.task_prefix(other))
        with ThreadPoolExecutor(3) as pool:
            assert min(pool.map(reused, asks)) >= prefix
        states = backend.server.states
        assert states is not None and states.is_dir()
    finally:
        backend.close()
    assert not states.exists()  # the slots' saved state goes with the server
