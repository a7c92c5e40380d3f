"""The `localcode` command: a thin layer over the library. Only here do errors become exit codes."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..errors import LocalCodeError
from . import run
from .commands import COMMANDS
from .progress import Progress
from .run import DEFAULT_TASK


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script and `python -m localcode`."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] in COMMANDS:
            return COMMANDS[args[0]](args[1:])
        return run.main(args)
    except LocalCodeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `localcode ... | head`: the reader left; nothing more to say
        sys.stdout = None  # no flush of a closed pipe at exit
        return 0


__all__ = ["COMMANDS", "DEFAULT_TASK", "Progress", "main"]
