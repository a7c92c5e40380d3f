"""`localcode check --code FILE --tests FILE [--json]`: score a solution in the sandbox."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..errors import UsageError
from ..sandbox import Limits
from ..sandbox.check import check_files, run_as_dict, run_as_text
from .common import EXIT_NO_PASS, EXIT_PASS, Parser, add_sandbox_args


def main(argv: Sequence[str]) -> int:
    """Run the tests against the code, no model involved; exit 0 only when all pass."""
    p = Parser(
        prog="localcode check",
        description="Run pytest tests against a solution file "
        "in the sandbox, no model involved. Exit 0 only when every test passes.",
    )
    p.add_argument("--code", metavar="FILE", required=True, help="the solution (solution.py)")
    p.add_argument("--tests", metavar="FILE", required=True, help="pytest tests calling it")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    add_sandbox_args(p)
    args = p.parse_args(argv)
    if not args.timeout > 0:
        raise UsageError(f"--timeout must be a positive number of seconds (got {args.timeout}).")
    run = check_files(args.code, args.tests, Limits(timeout=args.timeout, isolation=args.sandbox))
    print(json.dumps(run_as_dict(run), indent=2) if args.json else run_as_text(run))
    return EXIT_PASS if run.all_passed else EXIT_NO_PASS
