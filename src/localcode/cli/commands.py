"""The subcommands by name; each module loads only when its command runs."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence

Command = Callable[[Sequence[str]], int]


def _loader(name: str) -> Command:
    def command(argv: Sequence[str]) -> int:
        module = importlib.import_module(f"localcode.cli.{name}")
        result: int = module.main(argv)
        return result

    command.__name__ = f"{name}_command"
    return command


COMMANDS: dict[str, Command] = {
    name: _loader(name) for name in ("models", "bench", "check", "doctor", "fix")
}
