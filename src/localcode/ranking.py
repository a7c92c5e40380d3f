"""Choosing the best candidate among everything scored so far."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .records import Candidate


def plain_key(cand: Candidate) -> tuple[float, int, int]:
    """The prototype's order: higher pass fraction, then shorter code, then earlier."""
    return (cand.score, -len(cand.code), -(cand.round * 10_000 + cand.index))


def select_plain(candidates: Sequence[Candidate]) -> Candidate | None:
    """Best by pass fraction; a candidate without code never wins over one with code."""
    with_code = [c for c in candidates if c.code]
    return max(with_code, key=plain_key) if with_code else None


RANKINGS: dict[str, Callable[[Sequence[Candidate]], Candidate | None]] = {
    "plain": select_plain,
}
