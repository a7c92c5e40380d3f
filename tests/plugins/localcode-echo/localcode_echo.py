"""A third-party backend that knows one task: `add(a, b)`. It answers every prompt by kind.

It owns one option, `--echo-offset N` (or $ECHO_OFFSET): the code it writes adds N to the sum,
so a test can see the flag reach the backend.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from localcode.backends import Completion, Flag, Message, Provider
from localcode.config import AgentConfig
from localcode.prompts import kind_of

TESTS = (
    "```python\ndef test_add():\n    assert add(1, 2) == 3\n\n"
    "def test_add_negative():\n    assert add(-1, 1) == 0\n```"
)


@dataclass(frozen=True)
class EchoOptions:
    offset: int = 0

    @classmethod
    def read(cls, flags: Mapping[str, Any], environ: Mapping[str, str]) -> EchoOptions:
        given = flags.get("echo_offset")
        return cls(int(environ.get("ECHO_OFFSET", "0")) if given is None else given)


class EchoBackend:
    name = "echo"
    supports_n = False
    max_parallel = 1

    def __init__(self, offset: int = 0) -> None:
        self.code = f"```python\ndef add(a, b):\n    return a + b + {offset}\n```"

    @classmethod
    def from_options(cls, options: EchoOptions, cfg: AgentConfig) -> EchoBackend:
        return cls(options.offset)

    def complete(
        self,
        messages: Sequence[Message],
        *,
        n: int = 1,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 1024,
    ) -> list[Completion]:
        kind = kind_of(list(messages))
        text = TESTS if kind == "tests" else "I can't tell." if kind == "judge" else self.code
        return [Completion(text=text, seed=seed + i) for i in range(n)]

    def close(self) -> None:
        pass


PROVIDER = Provider(
    "echo",
    EchoBackend.from_options,
    EchoOptions.read,
    (Flag("--echo-offset", "added to every sum the code returns (default 0)", int),),
    label=lambda options: f"echo-plus-{options.offset}",
)
