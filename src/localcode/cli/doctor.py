"""`localcode doctor`: sandbox layers, backends, models on this machine."""

from __future__ import annotations

from collections.abc import Sequence

from ..doctor import diagnose
from .common import EXIT_PASS, Parser, add_backend_args


def main(argv: Sequence[str]) -> int:
    """Print what this machine gives localcode."""
    p = Parser(prog="localcode doctor", description="What this machine gives localcode.")
    add_backend_args(p, choose=False)
    args = p.parse_args(argv)
    print("\n".join(diagnose(vars(args)).lines()))
    return EXIT_PASS
