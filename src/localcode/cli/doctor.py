"""`localcode doctor`: sandbox layers, backends, models on this machine."""

from __future__ import annotations

from collections.abc import Sequence

from ..backends import BACKENDS
from ..doctor import diagnose
from .common import EXIT_PASS, Parser, add_backend_args


def main(argv: Sequence[str]) -> int:
    """Print what this machine gives localcode."""
    p = Parser(prog="localcode doctor", description="What this machine gives localcode.")
    back = add_backend_args(p, choose=False)
    back.add_argument(
        "--backend",
        choices=list(BACKENDS),
        default=None,
        help="check only this backend, with every backend flag given (default: all of them; "
        "flags that several backends read, such as --api-key, then apply to none)",
    )
    args = p.parse_args(argv)
    print("\n".join(diagnose(vars(args), args.backend).lines()))
    return EXIT_PASS
