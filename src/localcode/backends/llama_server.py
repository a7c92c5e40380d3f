"""llama.cpp's own HTTP server, run in this process through `xllamacpp`, on 127.0.0.1 only."""

from __future__ import annotations

import atexit
import enum
import os
import shutil
import tempfile
import threading
import weakref
from pathlib import Path
from typing import Any

from ..cpus import usable_cpus
from ..errors import BackendUnavailable, ModelError

ENGINE_REQUIREMENT = "xllamacpp==2026.10.11549"

_live: weakref.WeakSet[LlamaServer] = weakref.WeakSet()
_atexit_lock = threading.Lock()
_atexit_registered = False


class LlamaServer:
    """A running server. `base_url` is OpenAI-compatible (ends in /v1); `root_url` has /tokenize."""

    def __init__(
        self,
        server: Any,
        root_url: str,
        *,
        model_path: Path,
        slots: int,
        ctx_per_slot: int,
        threads: int,
        states: Path | None = None,
    ) -> None:
        self._server: Any = server
        self.root_url = root_url.rstrip("/")
        self.base_url = f"{self.root_url}/v1"
        self.model_path = model_path
        self.slots = slots
        self.ctx_per_slot = ctx_per_slot
        self.threads = threads
        self.states = states  # where slots save and restore their state (private, removed on close)
        self._lock = threading.Lock()

    @property
    def running(self) -> bool:
        return self._server is not None

    def close(self) -> None:
        """Stop the server and free the model. Safe to call twice and from any thread."""
        with self._lock:
            server, self._server = self._server, None
        # Dropping the last reference runs the C++ destructor, which stops the HTTP listener
        # and joins the engine's loop thread.
        del server
        if self.states is not None:
            shutil.rmtree(self.states, ignore_errors=True)

    def __enter__(self) -> LlamaServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "running" if self.running else "closed"
        return f"<LlamaServer {self.base_url} {self.model_path.name} slots={self.slots} {state}>"


# llama.cpp's speculative decoders that need no draft model (bench/speculative.py measures them)
SPECULATIVE = ("ngram_simple", "ngram_map_k", "ngram_mod", "ngram_cache")

# Engine settings besides llama.cpp's defaults, by name: `CommonParams` fields (dotted for nested
# ones; an enum's member by its name). bench/local_engine.py --settings measures each alone.
TUNING: dict[str, dict[str, object]] = {
    "no-poll": {"cpuparams.poll": 0, "cpuparams_batch.poll": 0},  # threads sleep, not spin
    "flash-attn-on": {"flash_attn_type": "LLAMA_FLASH_ATTN_TYPE_ENABLED"},
    "flash-attn-off": {"flash_attn_type": "LLAMA_FLASH_ATTN_TYPE_DISABLED"},
    "ubatch-128": {"n_ubatch": 128},
    "ubatch-2048": {"n_ubatch": 2048},
    "kv-q8": {
        "cache_type_k": "GGML_TYPE_Q8_0",
        "cache_type_v": "GGML_TYPE_Q8_0",
        "flash_attn_type": "LLAMA_FLASH_ATTN_TYPE_ENABLED",  # a quantised V cache needs it
    },
}


def start_server(
    model_path: str | os.PathLike[str],
    *,
    slots: int = 1,
    ctx_per_slot: int = 8192,
    threads: int | None = None,
    speculative: str | None = None,
    draft: str | os.PathLike[str] | None = None,
    draft_max: int = 16,
    tuning: str | None = None,
) -> LlamaServer:
    """Load a GGUF model and serve it on 127.0.0.1 at a free port with `slots` parallel slots.
    `speculative` names one of llama.cpp's draft-free speculative decoders (SPECULATIVE, e.g.
    "ngram_simple": drafts from n-grams already in the prompt and the reply); `draft` is a
    smaller model of the same family that drafts up to `draft_max` tokens a step for the model
    to check (bench/speculative.py measures both); `tuning` names engine settings in TUNING."""
    if slots < 1 or ctx_per_slot < 1:
        raise ValueError("slots and ctx_per_slot must be at least 1")
    if tuning is not None and tuning not in TUNING:
        raise ValueError(f"tuning must be one of {', '.join(TUNING)}")
    if speculative is not None and speculative not in SPECULATIVE:
        raise ValueError(f"speculative must be one of {', '.join(SPECULATIVE)}")
    if speculative is not None and draft is not None:
        raise ValueError("choose a draft-free speculative decoder or a draft model, not both")
    path = Path(model_path)
    xllamacpp = _import_engine()
    n_threads = threads or usable_cpus()
    params = xllamacpp.CommonParams()
    params.model.path = str(path)
    params.hostnames = ["127.0.0.1"]  # no authentication: never listen beyond this machine
    params.port = 0  # the OS picks a free port; no race between probing and binding
    params.n_parallel = slots
    params.n_ctx = ctx_per_slot * slots  # llama.cpp splits n_ctx evenly across slots
    params.cpuparams.n_threads = n_threads
    params.cpuparams_batch.n_threads = n_threads
    params.verbosity = -1  # the engine's log goes nowhere; errors come back over HTTP
    # a slot's state saved here is restored into other slots (LocalBackend.share_prefix)
    states = Path(tempfile.mkdtemp(prefix="localcode-slots-"))
    params.slot_save_path = str(states)
    for name, value in TUNING.get(tuning or "", {}).items():
        set_param(params, name, value)
    if speculative is not None:
        kind = f"COMMON_SPECULATIVE_TYPE_{speculative.upper()}"
        params.speculative.types = [getattr(xllamacpp.common_speculative_type, kind)]
    if draft is not None:  # llama.cpp server's defaults, but for how many tokens a step
        params.speculative.types = [
            xllamacpp.common_speculative_type.COMMON_SPECULATIVE_TYPE_DRAFT_SIMPLE
        ]
        params.speculative.draft.mparams.path = str(draft)
        params.speculative.draft.n_max = draft_max
        params.speculative.draft.p_min = 0.75
        params.speculative.draft.cpuparams.n_threads = n_threads
        params.speculative.draft.cpuparams_batch.n_threads = n_threads
    try:
        server = xllamacpp.Server(params)
    except RuntimeError as exc:
        shutil.rmtree(states, ignore_errors=True)
        raise ModelError(
            f"llama.cpp could not load {path} with {slots} slot(s) of {ctx_per_slot} tokens: {exc} "
            "Check that the file is a complete GGUF model (`localcode models list`) and that "
            "there is memory for the context (lower --ctx-size or --n-candidates)."
        ) from exc
    handle = LlamaServer(
        server,
        _root_url(server.listening_address),
        model_path=path,
        slots=slots,
        ctx_per_slot=ctx_per_slot,
        threads=n_threads,
        states=states,
    )
    _track(handle)
    return handle


def set_param(params: Any, name: str, value: object) -> None:
    """Set a (dotted) CommonParams field; a string for an enum field names its member."""
    *path, leaf = name.split(".")
    for part in path:
        params = getattr(params, part)
    current = getattr(params, leaf)
    if isinstance(value, str) and isinstance(current, enum.Enum):
        value = type(current)[value]
    setattr(params, leaf, value)


def _import_engine() -> Any:
    try:
        import xllamacpp
    except ImportError as exc:
        raise BackendUnavailable(
            f"The local backend needs the llama.cpp engine: pip install '{ENGINE_REQUIREMENT}' "
            f"(on Debian/Ubuntu it also needs: apt-get install libgomp1). Import failed: {exc}"
        ) from exc
    return xllamacpp


def _root_url(address: str) -> str:
    return address if "://" in address else f"http://{address}"


def _track(handle: LlamaServer) -> None:
    """Close every live server at interpreter exit, so no engine thread outlives Python."""
    global _atexit_registered
    _live.add(handle)
    with _atexit_lock:
        if not _atexit_registered:
            atexit.register(close_all)
            _atexit_registered = True


def close_all() -> None:
    """Stop every server this process started and has not closed."""
    for handle in list(_live):
        handle.close()
