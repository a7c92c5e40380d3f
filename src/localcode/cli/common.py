"""What the commands share: the parser, the flag groups, the config built from them, exit codes."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from ..backends import BACKENDS
from ..config import LATER_ROUNDS, RANKING_NAMES, AgentConfig, default_ollama_url
from ..errors import UsageError
from ..sandbox.records import ISOLATIONS

EXIT_PASS, EXIT_NO_PASS, EXIT_USAGE, EXIT_BACKEND = 0, 1, 2, 3

Group = argparse.ArgumentParser | argparse._ArgumentGroup


class Parser(argparse.ArgumentParser):
    """argparse that raises UsageError (one line, exit 2) instead of printing usage and exiting."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see `{self.prog} --help`)")


# The loop's flags: how each parses; the default is AgentConfig's. A command picks the ones it
# offers, in its own order, with its own help text (add_loop_args).
_LOOP_FLAGS: dict[str, dict[str, Any]] = {
    "--max-iters": {"type": int},
    "--n-candidates": {"type": int},
    "--temperature": {"type": float},
    "--seed": {"type": int},
    "--ranking": {"choices": sorted(RANKING_NAMES)},
    "--later-rounds": {"choices": LATER_ROUNDS},
    "--no-examples": {"dest": "examples", "action": "store_false"},
    "--no-greedy": {"dest": "greedy", "action": "store_false"},
    "--no-judge": {"dest": "judge", "action": "store_false"},
    "--max-tokens": {"type": int},
}
LOOP_FLAGS = tuple(_LOOP_FLAGS)
_DEFAULTS = {f.name: f.default for f in fields(AgentConfig)}


def add_loop_args(group: Group, helps: Mapping[str, str]) -> None:
    """The loop flags named in `helps` (a subset of LOOP_FLAGS), in its order, with its help."""
    for flag, text in helps.items():
        spec = dict(_LOOP_FLAGS[flag])
        if spec.get("action") != "store_false":
            spec["default"] = _DEFAULTS[flag[2:].replace("-", "_")]
        group.add_argument(flag, help=text, **spec)


def add_sandbox_args(group: Group) -> None:
    """--timeout and --sandbox, the same for solving, checking and benchmarking."""
    group.add_argument(
        "--timeout",
        type=float,
        default=5.0,
        help="wall seconds allowed per test run of one candidate (default 5)",
    )
    group.add_argument(
        "--sandbox",
        choices=ISOLATIONS,
        default="auto",
        help="auto: every isolation layer this machine allows (default); strict: refuse to run "
        "without full isolation; none: no isolation (trusted code only)",
    )


def add_backend_args(p: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    """The backend flags, shared by the main command and `localcode bench`."""
    back = p.add_argument_group("backend")
    back.add_argument(
        "--backend", default="local", help=f"one of: {', '.join(BACKENDS)} (default local)"
    )
    back.add_argument(
        "--model",
        help="model name (local: a known model; ollama/openai/anthropic: the server's name for it; "
        "mock: scenario demo|fix)",
    )
    back.add_argument(
        "--model-path", metavar="FILE", help="local: load this GGUF file instead of a known model"
    )
    back.add_argument(
        "--threads", type=int, default=None, help="local: CPU threads (default: all cores)"
    )
    back.add_argument(
        "--ctx-size",
        type=int,
        default=8192,
        help="local: context tokens per parallel slot, prompt + reply; ollama: num_ctx "
        "(default 8192)",
    )
    back.add_argument("--ollama-model", default="llama3", help="Ollama model name, with :tag")
    back.add_argument(
        "--ollama-url",
        default=None,
        help="Ollama server URL (default $OLLAMA_HOST or http://localhost:11434)",
    )
    back.add_argument(
        "--base-url",
        default=None,
        help="openai: server URL ending in /v1 (default $OPENAI_BASE_URL or "
        "http://localhost:8000/v1); anthropic: default $ANTHROPIC_BASE_URL",
    )
    back.add_argument(
        "--api-key",
        default=None,
        help="openai/anthropic: API key (default $OPENAI_API_KEY / $ANTHROPIC_API_KEY, which "
        "other users cannot see in `ps`); optional for local servers",
    )
    back.add_argument(
        "--request-timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="ollama/openai/anthropic: give up on one request after this long (default 300)",
    )
    back.add_argument(
        "--max-parallel",
        type=int,
        default=None,
        metavar="N",
        help="ollama/openai/anthropic: requests in flight at once (default 4; for Ollama, "
        "match OLLAMA_NUM_PARALLEL)",
    )
    return back


def agent_config(args: argparse.Namespace, **loop: Any) -> AgentConfig:
    """AgentConfig from the backend flags and the given loop settings, validated."""
    if args.backend not in BACKENDS:
        raise UsageError(f"Unknown backend '{args.backend}'; choose one of: {', '.join(BACKENDS)}.")
    cfg = AgentConfig(
        backend=args.backend,
        model=args.model,
        model_path=args.model_path,
        threads=args.threads,
        ctx_size=args.ctx_size,
        ollama_model=args.ollama_model,
        ollama_url=args.ollama_url or default_ollama_url(),
        base_url=args.base_url,
        api_key=args.api_key,
        request_timeout=args.request_timeout,
        max_parallel=args.max_parallel,
        timeout=args.timeout,
        sandbox=args.sandbox,
        **loop,
    )
    cfg.validate()
    return cfg
