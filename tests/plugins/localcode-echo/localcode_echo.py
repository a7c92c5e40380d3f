"""A third-party backend that knows one task: `add(a, b)`. It answers every prompt by kind."""

from __future__ import annotations

from collections.abc import Sequence

from localcode.backends import Completion, Message
from localcode.config import AgentConfig
from localcode.prompts import kind_of

REPLIES = {
    "tests": "```python\ndef test_add():\n    assert add(1, 2) == 3\n\n"
    "def test_add_negative():\n    assert add(-1, 1) == 0\n```",
    "code": "```python\ndef add(a, b):\n    return a + b\n```",
    "fix": "```python\ndef add(a, b):\n    return a + b\n```",
    "judge": "I can't tell.",
}


class EchoBackend:
    name = "echo"
    supports_n = False
    max_parallel = 1

    @classmethod
    def from_config(cls, cfg: AgentConfig) -> EchoBackend:
        return cls()

    def complete(
        self,
        messages: Sequence[Message],
        *,
        n: int = 1,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 1024,
    ) -> list[Completion]:
        text = REPLIES[kind_of(list(messages))]
        return [Completion(text=text, seed=seed + i) for i in range(n)]

    def close(self) -> None:
        pass
