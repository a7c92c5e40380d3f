"""Choosing the best candidate among everything scored so far.

Two rankings: the prototype's (`plain`: highest pass fraction, then shortest code) and `codet`,
dual execution agreement (CodeT, arXiv 2207.10397): candidates that pass the same set of
generated tests form a consensus set, scored by its number of distinct programs times the number
of tests it passes (CodeT counts samples; with a handful of samples from a small model, one wrong
program sampled twice would then outvote a lone full pass).
A generated test that the winning consensus fails, while fewer distinct programs pass it than
agree on the winner, is marked suspect: probably a wrong expected value, not a wrong program.
Programs are compared by their syntax tree, so one program sampled twice is one voice there.
User tests (--tests), then the task's own examples, are trusted anchors: they rank before any
generated test.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .extract import parse
from .records import Candidate


@dataclass
class Ranking:
    """The winner among the candidates, and what the ranking learned about the tests."""

    best: Candidate | None
    support: int = 1  # candidates that agree with the winner (same tests passed)
    suspect: list[str] = field(default_factory=list)  # generated tests the consensus contradicts


def _trusted_passed(c: Candidate) -> tuple[int, int]:
    """User tests passed, then the task's examples passed: the user's own tests come first."""
    return (c.user_run.passed if c.user_run else 0, c.example_run.passed if c.example_run else 0)


def _passed_set(c: Candidate) -> frozenset[str]:
    if c.run is None:
        return frozenset()
    return frozenset(r.name for r in c.run.results if r.passed)


def _order(c: Candidate) -> tuple[int, int]:
    """Shorter code first, then earlier."""
    return (len(c.code), c.round * 10_000 + c.index)


def _anchored(candidates: Sequence[Candidate]) -> list[Candidate]:
    """Candidates with code that pass the most user tests, then the most of the task's examples:
    no other candidate may win."""
    with_code = [c for c in candidates if c.code]
    if not with_code:
        return []
    top = max(_trusted_passed(c) for c in with_code)
    return [c for c in with_code if _trusted_passed(c) == top]


def rank_plain(candidates: Sequence[Candidate]) -> Ranking:
    """The prototype's order: user tests, then pass fraction, then shorter code, then earlier."""
    pool = _anchored(candidates)
    if not pool:
        return Ranking(None, 0)
    best = min(pool, key=lambda c: (-c.score, *_order(c)))
    return Ranking(best, 1)


def rank_codet(candidates: Sequence[Candidate]) -> Ranking:
    """Dual execution agreement over consensus sets; ties go to more tests, then shorter code."""
    pool = _anchored(candidates)
    if not pool:
        return Ranking(None, 0)
    groups: dict[frozenset[str], list[Candidate]] = defaultdict(list)
    for c in pool:
        if c.run is not None and c.run.error is None:
            groups[_passed_set(c)].append(c)
    if not groups:  # nothing ran cleanly: fall back to the plain order
        return rank_plain(pool)

    def group_key(item: tuple[frozenset[str], list[Candidate]]) -> tuple[int, int, int]:
        # distinct programs, not samples: one program sampled twice must not outvote a full pass
        tests, members = item
        distinct = len({_program(c) for c in members})
        return (distinct * len(tests), len(tests), len(members))

    tests, members = max(groups.items(), key=group_key)
    best = min(members, key=_order)
    return Ranking(best, len(members), _suspects(pool, best, tests))


def _suspects(pool: Sequence[Candidate], best: Candidate, passed: frozenset[str]) -> list[str]:
    if not passed:  # a consensus on failing everything says nothing about the tests
        return []
    agreeing = {_program(c) for c in pool if c.run and not c.run.error and _passed_set(c) == passed}
    if len(agreeing) < 2 or best.run is None:
        return []
    suspects = []
    for res in best.run.results:
        if res.name in passed:
            continue
        backers = {_program(c) for c in pool if res.name in _passed_set(c)}
        if len(backers) < len(agreeing):
            suspects.append(res.name)
    return suspects


def _program(c: Candidate) -> str:
    """The program without comments and formatting, so re-samples of one program compare equal."""
    tree = parse(c.code)
    return ast.dump(tree) if tree else c.code


RANKINGS: dict[str, Callable[[Sequence[Candidate]], Ranking]] = {
    "plain": rank_plain,
    "codet": rank_codet,
}
