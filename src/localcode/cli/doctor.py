"""`localcode doctor`: sandbox layers, backends, models on this machine."""

from __future__ import annotations

from collections.abc import Sequence

from ..config import default_ollama_url
from ..doctor import diagnose
from .common import EXIT_PASS, Parser


def main(argv: Sequence[str]) -> int:
    """Print what this machine gives localcode."""
    p = Parser(prog="localcode doctor", description="What this machine gives localcode.")
    p.add_argument("--ollama-url", default=default_ollama_url())
    args = p.parse_args(argv)
    print("\n".join(diagnose(args.ollama_url).lines()))
    return EXIT_PASS
