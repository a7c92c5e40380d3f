"""Lines written anew: each line the failing tests single out (fix/locate.py) is taken out of its
file and the model writes what belongs there from the code around it (fill-in-the-middle),
never seeing the line that stood there.

Shown a wrong line and its failure, a 1.5B model tends to give the line back, or to change it
the wrong way (docs/BENCHMARKS.md, issue 20). Asked only what belongs between the lines above
and below, it writes what the rest of the code implies, which a one-line bug contradicts. This
is cloze-style repair (Xia and Zhang, "Less training, more repairing please", arXiv 2207.08281).
Each line written is one edit; the project's tests judge it like any other.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..backends.base import Completion, Infills
from .locate import Suspect, lines_of

BEFORE, AFTER = 40, 20  # lines of the file around the hole that the model reads, at least
# holes of one file within this many lines of each other read the text above them from the same
# line: their prompts then begin alike, and the engine's prompt cache reads that beginning once
SPAN = 40
# a shared beginning longer than this is not taken: llama.cpp's /infill keeps only the end of a
# long prefix (3/4 of its batch, 1536 tokens by default), which would cut the shared part away
MAX_SHARED_CHARS = 4000
MAX_HOLES = 6  # the best-ranked lines taken out, one at a time
MAX_LINE_TOKENS = 96  # one line of code


@dataclass(frozen=True)
class Hole:
    """A line of a file, taken out: the text above it (ending with the line's indent) and below."""

    path: str
    line: int  # 1-based
    prefix: str
    suffix: str
    old: str  # the line taken out, as it stood

    @property
    def indent(self) -> str:
        return self.prefix.rsplit("\n", 1)[-1]


def holes(
    ranked: Sequence[Suspect],
    read: Callable[[str], str],
    limit: int = MAX_HOLES,
    span: int = SPAN,
) -> list[Hole]:
    """The first `limit` of the ranked lines as holes, each with at least BEFORE lines above it
    (from the same line for holes less than `span` lines apart, see SPAN, unless that makes
    more than MAX_SHARED_CHARS) and AFTER below it; a line whose file has changed under it is
    skipped."""
    taken: list[tuple[Suspect, list[str]]] = []
    for s in ranked:
        if len(taken) == limit:
            break
        lines = lines_of(read(s.path))
        i = s.line - 1
        if 0 <= i < len(lines) and lines[i].strip() == s.text.strip():
            taken.append((s, lines))
    starts = _starts([(s.path, s.line - 1) for s, _ in taken], span)
    out: list[Hole] = []
    for s, lines in taken:
        i = s.line - 1
        text = lines[i]
        indent = text[: len(text) - len(text.lstrip())]
        prefix = "".join(lines[starts[s.path, i] : i])
        if len(prefix) > MAX_SHARED_CHARS:
            prefix = "".join(lines[max(0, i - BEFORE) : i])
        prefix += indent
        suffix = "\n" + "".join(lines[i + 1 : i + 1 + AFTER])
        out.append(Hole(s.path, s.line, prefix, suffix, text))
    return out


def _starts(where: list[tuple[str, int]], span: int) -> dict[tuple[str, int], int]:
    """Where the text above each hole (file, 0-based line) begins: BEFORE lines above the first
    hole of each run of holes whose lines lie less than `span` apart from that first one."""
    starts: dict[tuple[str, int], int] = {}
    first: dict[str, int] = {}  # each file's current run: its first hole's line
    for path, i in sorted(set(where)):
        if path not in first or i - first[path] >= span:
            first[path] = i
        starts[path, i] = max(0, first[path] - BEFORE)
    return starts


def write(
    backend: Infills, hole: Hole, *, n: int, temperature: float, seed: int
) -> list[Completion]:
    """The model's `n` writings of the hole's line (sample i with seed + i), one line each."""
    return backend.infill(
        hole.prefix,
        hole.suffix,
        n=n,
        temperature=temperature,
        seed=seed,
        max_tokens=MAX_LINE_TOKENS,
        stop=["\n"],
    )


def filled(hole: Hole, text: str, middle: str) -> tuple[str | None, str]:
    """The file `text` with the hole's line replaced by the `middle` the model wrote, or None
    and why it is no edit (empty, the line as it was, or a file that no longer parses)."""
    written = middle.split("\n", 1)[0].strip()  # one line, even where `stop` was not heeded
    if not written:
        return None, "the model wrote an empty line"
    lines = lines_of(text)
    old = lines[hole.line - 1] if hole.line <= len(lines) else ""
    if old.strip() != hole.old.strip():
        return None, f"{hole.path}:{hole.line} changed since the tests ran"
    if written == old.strip():
        return None, "the model wrote the line as it was"
    lines[hole.line - 1] = hole.indent + written + ("\n" if old.endswith("\n") else "")
    new = "".join(lines)
    try:
        ast.parse(new)
    except (SyntaxError, ValueError):
        return None, f"the file does not parse with the line written as `{written}`"
    return new, ""
