"""What the commands share: the parser, the flag groups, the config built from them, exit codes."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from ..backends import BACKENDS, Flag, provider
from ..config import LATER_ROUNDS, RANKING_NAMES, AgentConfig
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
    "--no-reference": {"dest": "reference", "action": "store_false"},
    "--all-rounds": {"dest": "stop_unchanged", "action": "store_false"},
    "--all-samples": {"dest": "agree_first", "action": "store_false"},
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


def add_backend_args(p: argparse.ArgumentParser, *, choose: bool = True) -> argparse._ArgumentGroup:
    """--backend (unless not `choose`) and every flag a registered backend reads, each once,
    its help saying what it means to each backend that reads it."""
    back = p.add_argument_group("backend")
    if choose:
        back.add_argument(
            "--backend", default="local", help=f"one of: {', '.join(BACKENDS)} (default local)"
        )
    for flag, readers in backend_flags().items():
        try:
            back.add_argument(
                flag.name,
                type=flag.type,
                default=None,
                metavar=flag.metavar,
                help=flag_help(readers),
            )
        except argparse.ArgumentError:  # a plugin's flag spelled like this command's own
            continue
    return back


def backend_flags() -> dict[Flag, list[tuple[str, str]]]:
    """Each backend flag (the first backend's spelling of it) with (backend, help) of every
    backend that reads it, in registry order."""
    first: dict[str, Flag] = {}
    readers: dict[str, list[tuple[str, str]]] = {}
    for name, known in BACKENDS.items():
        for flag in known.flags:
            first.setdefault(flag.name, flag)
            readers.setdefault(flag.name, []).append((name, flag.help))
    return {first[n]: readers[n] for n in first}


def flag_help(readers: list[tuple[str, str]]) -> str:
    """`local: X; ollama/openai: Y`: backends that say the same are named together."""
    said: dict[str, list[str]] = {}
    for backend, text in readers:
        said.setdefault(text, []).append(backend)
    return "; ".join(f"{'/'.join(names)}: {text}" for text, names in said.items())


def agent_config(args: argparse.Namespace, **loop: Any) -> AgentConfig:
    """AgentConfig from the backend flags and the given loop settings, validated."""
    chosen = provider(args.backend)
    cfg = AgentConfig(
        backend=args.backend,
        options=chosen.options(vars(args)),
        timeout=args.timeout,
        sandbox=args.sandbox,
        **loop,
    )
    cfg.validate()
    return cfg
