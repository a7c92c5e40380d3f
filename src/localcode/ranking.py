"""Choosing the best candidate among everything scored so far.

Two rankings: the prototype's (`plain`: highest pass fraction, then shortest code) and `codet`,
dual execution agreement (CodeT, arXiv 2207.10397): candidates that pass the same set of
generated tests form a consensus set, scored by its number of distinct programs times the number
of tests it passes (CodeT counts samples; with a handful of samples from a small model, one wrong
program sampled twice would then outvote a lone full pass).
A generated test that the winning consensus fails with another value (not by raising), while
fewer distinct programs pass it than agree on the winner, is marked suspect: probably a wrong
expected value, not a wrong program.
Programs are compared by their syntax tree, so one program sampled twice is one voice there.
User tests (--tests), then the task's own examples, are trusted anchors: they rank before any
generated test; so does, where the task says a call must leave its input unchanged, each call
of the tests that did (keeping.keep_tests).
Where behaviour probes ran (probes.py), a consensus set is split further by what its members
return on the tests' inputs; the winning set is then split by what they return on slightly changed
inputs (only those on which every member returns a value), and its largest part wins. The largest
other group is reported, as `rival` (programs that pass as many trusted tests but other generated
tests) or as `split` (programs that pass the same tests as the winner but return other values, on
the tests' inputs or on the changed ones): either way the winner is in doubt. Where consensus
sets tie, the one that raises on fewer of the tests' own inputs wins: when every generated test
is wrong and every program fails them all, a crash is the only evidence left.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .config import RankingName
from .extract import parse
from .probes import behaviour
from .records import Candidate


@dataclass
class Ranking:
    """The winner among the candidates, and what the ranking learned about the tests."""

    best: Candidate | None
    support: int = 1  # candidates that agree with the winner (same tests passed)
    suspect: list[str] = field(default_factory=list)  # generated tests the consensus contradicts
    agree: int = 1  # distinct programs in the winner's group
    rival: int = 0  # distinct programs in the largest other consensus set (codet only)
    split: int = 0  # ... in the largest part of the winner's set that differs on changed inputs
    programs: int = 1  # distinct programs among all the candidates ranked
    # what stands against the best (loop._settle): an input the judge decided for another
    # behaviour or for the value an excused generated test expects, or the brute-force
    # reference's other value where the judge did not side with the best. A pass with a
    # dissent is not claimed
    dissent: str = ""
    # generated tests the best fails that the judge decided against, on the test's own call,
    # where there are no trusted tests (loop._judged_wrong); they are excused like trusted-
    # backed suspects, so the consensus rule below still applies
    judged_wrong: tuple[str, ...] = ()


def _trusted_passed(c: Candidate) -> tuple[int, int, int]:
    """User tests passed, then the task's examples passed, then calls that left their input as
    the task says they must: the user's own tests come first."""
    return (
        c.user_run.passed if c.user_run else 0,
        c.example_run.passed if c.example_run else 0,
        c.keep_run.passed if c.keep_run else 0,
    )


def passed_set(c: Candidate) -> frozenset[str]:
    """The generated tests it passed, by name (none where it did not run)."""
    if c.run is None:
        return frozenset()
    return frozenset(r.name for r in c.run.results if r.passed)


def order(c: Candidate) -> tuple[bool, bool, bool, bool, int, int]:
    """Within a group that behaves alike: not a candidate mended by copying its input (code as
    written comes first), not the brute-force reference (it may be too slow for large inputs),
    not the code the task wrote out (it asks for that code to change), then your own code
    (--code), then shorter code, then earlier."""
    return (
        c.origin == "mended",
        c.origin == "reference",
        c.origin == "task",
        c.origin != "user",
        len(c.code),
        position(c),
    )


def position(c: Candidate) -> int:
    """Earlier rounds first, then earlier candidates."""
    return c.round * 10_000 + c.index


def anchored(candidates: Sequence[Candidate]) -> list[Candidate]:
    """Candidates with code that pass the most user tests, then the most of the task's examples,
    then leave their input unchanged on the most calls (where the task says so): no other
    candidate may win."""
    with_code = [c for c in candidates if c.code]
    if not with_code:
        return []
    top = max(_trusted_passed(c) for c in with_code)
    return [c for c in with_code if _trusted_passed(c) == top]


def rank_plain(candidates: Sequence[Candidate]) -> Ranking:
    """The prototype's order: user tests, then pass fraction, then shorter code, then earlier."""
    pool = anchored(candidates)
    if not pool:
        return Ranking(None, 0)
    best = min(pool, key=lambda c: (-c.score, *order(c)))
    return Ranking(best, 1)


def rank_codet(candidates: Sequence[Candidate]) -> Ranking:
    """Dual execution agreement over consensus sets; ties go to more tests, then shorter code.
    Within the winning set, the largest group that also agrees on the changed inputs wins."""
    pool = anchored(candidates)
    if not pool:
        return Ranking(None, 0)
    clean = [c for c in pool if c.run is not None and c.run.error is None]
    if not clean:  # nothing ran cleanly: fall back to the plain order
        return rank_plain(pool)
    groups = _split(clean, _group)
    members = max(groups, key=_codet_score)
    changed = _valued_mutants(members)
    subgroups = _split(members, lambda c: _on(c, changed))
    winners = max(subgroups, key=_count)
    best = min(winners, key=order)
    passed = passed_set(best)
    others = [m for m in groups if m is not members]
    # the same tests passed but other values returned on their inputs: the winner's set, split
    parts = [m for m in others if passed_set(m[0]) == passed]
    parts += [m for m in subgroups if m is not winners]
    return Ranking(
        best,
        len(winners),
        _suspects(pool, best, passed),
        agree=distinct(winners),
        rival=max((distinct(m) for m in others if passed_set(m[0]) != passed), default=0),
        split=max((distinct(m) for m in parts), default=0),
        programs=distinct(clean),
    )


def _split(cands: Sequence[Candidate], key: Callable[[Candidate], object]) -> list[list[Candidate]]:
    groups: dict[object, list[Candidate]] = defaultdict(list)
    for c in cands:
        groups[key(c)].append(c)
    return list(groups.values())


def distinct(members: Sequence[Candidate]) -> int:
    """Distinct programs, not samples: one program sampled twice must not outvote a full pass."""
    return len({program(c.code) for c in members})


def _codet_score(members: Sequence[Candidate]) -> tuple[int, int, int, int, int]:
    """Distinct programs times generated tests passed; ties: more tests, fewer of the tests' own
    inputs it raises on (where every test fails, agreement says nothing but a crash does), more
    programs, more samples."""
    tests = len(passed_set(members[0]))
    return (
        distinct(members) * tests,
        tests,
        -_raises(members[0]),
        distinct(members),
        len(members),
    )


def _raises(c: Candidate) -> int:
    """Probes (the tests' own inputs) on which it raised; all of them if their run failed."""
    if c.probe_run is None:
        return 0
    seen = behaviour(c.probe_run)
    if seen is None:
        return len(c.probe_run.results) or 1_000_000
    return sum(v.startswith("x") for v in seen.values())


def _count(members: Sequence[Candidate]) -> tuple[int, int, int]:
    """Ties: distinct programs, then more generated tests passed, then samples."""
    return (distinct(members), len(passed_set(members[0])), len(members))


def _group(c: Candidate) -> tuple[frozenset[str], tuple[tuple[str, str], ...] | None]:
    """Generated tests passed, then what it returned on the tests' own inputs: equal means alike."""
    seen = behaviour(c.probe_run)
    return passed_set(c), None if seen is None else tuple(sorted(seen.items()))


def _valued_mutants(members: Sequence[Candidate]) -> list[str]:
    """Changed inputs on which every member returned a value: inside what the task allows. A
    member whose run of them failed (it hung on one) counts as raising on all."""
    seen = [behaviour(c.mutant_run) for c in members]
    if not seen or any(s is None for s in seen):
        return []
    names = list(seen[0] or {})
    return [k for k in names if all(s is not None and s.get(k, "x")[0] == "v" for s in seen)]


def _on(c: Candidate, names: list[str]) -> tuple[str, ...]:
    seen = behaviour(c.mutant_run) or {}
    return tuple(seen.get(k, "?") for k in names)


def _suspects(pool: Sequence[Candidate], best: Candidate, passed: frozenset[str]) -> list[str]:
    if not passed:  # a consensus on failing everything says nothing about the tests
        return []
    agree = [c for c in pool if c.run and not c.run.error and passed_set(c) == passed]
    agreeing = {program(c.code) for c in agree}
    if len(agreeing) < 2 or best.run is None:
        return []
    # a crash is the program's fault, not the test's: whichever agreeing program it was
    crashed = {r.name for c in agree if c.run for r in c.run.results if r.raised}
    suspects = []
    for res in best.run.results:
        if res.name in passed or res.name in crashed:
            continue
        backers = {program(c.code) for c in pool if res.name in passed_set(c)}
        if len(backers) < len(agreeing):
            suspects.append(res.name)
    return suspects


def program(code: str) -> str:
    """The program without comments and formatting, so re-samples of one program compare equal."""
    tree = parse(code)
    return ast.dump(tree) if tree else code


# Generated tests the winner fails are excused (called wrong) only when at least EXCUSE_VOTES
# distinct programs, and more than half of all those sampled, agree on it.
EXCUSE_VOTES = 3


@dataclass(frozen=True)
class Verdict:
    """What a ranking says of its best: a pass or not, why the pass is in doubt, whether it stands."""

    passes: bool
    doubt: str = ""  # why the pass is in doubt; empty when it is not (or when nothing passes)
    settled: bool = False  # the judge chose it and it passes every trusted test
    # the doubt is one that more samples cannot lift, so none are drawn for it: too few
    # programs excuse the generated tests it fails (measured: fresh samples almost never join
    # it, and half the passes they made claimable were wrong; docs/BENCHMARKS.md), or a
    # dissent (a lost verdict or the reference's contradiction: more samples change neither)
    votes_cannot_help: bool = False

    @property
    def done(self) -> bool:
        """A pass no rival behaviour puts in doubt: the run may stop and claim it."""
        return self.passes and not self.doubt

    @property
    def final(self) -> bool:
        """No later round can change what is claimed: a pass, settled by the judge, or a pass
        in doubt for a reason votes cannot lift (too few programs to excuse tests, or a
        dissent)."""
        return self.done or self.settled or (self.passes and self.votes_cannot_help)


def verdict(ranking: Ranking, judged_for: Candidate | None = None) -> Verdict:
    """Accept or doubt the ranking's best. `judged_for`: the candidate the model chose over every
    rival it was shown, if any."""
    passes = _passes(ranking)
    doubt, excuse = _doubt(ranking, judged_for) if passes else ("", False)
    return Verdict(passes, doubt, _settled(ranking, judged_for), excuse)


def _passes(ranking: Ranking) -> bool:
    """A full pass. A consensus alone never is one: it can be wrong. With the user's own
    tests or the task's examples, passing all of those plus every generated test not in doubt
    is one. Without them, the generated tests the best fails must each have been judged wrong
    as well (the model, asked what the test's call returns, answered the best's value)."""
    best = ranking.best
    if best is None or not best.keeps_inputs:  # the task's own words refute it
        return False
    if best.all_passed:
        return True
    trusted = best.trusted_runs
    if not all(r.all_passed for r in trusted) or best.run is None:
        return False
    doubted = set(ranking.suspect if trusted else ranking.judged_wrong)
    if not (trusted or doubted):
        return False
    return best.run.error is None and all(r.passed or r.name in doubted for r in best.run.results)


def _doubt(ranking: Ranking, judged_for: Candidate | None) -> tuple[str, bool]:
    """Why the best's pass is in doubt (empty when it is not), and whether more samples
    cannot lift that doubt. A dissent (the judge decided an input for another behaviour or
    for an excused test's value, or the brute-force reference returns another value on an
    input the judge did not decide for the best): not claimed, and no vote is drawn (none of
    them changes with more samples). A dispute is put to fresh samples, which vote until it is
    not in doubt (or the rounds run out, and the pass is not claimed):
    - other programs pass the same trusted tests (user tests, the task's examples) but not the
      same generated ones, or pass the same tests but return other values (on the tests'
      inputs or on changed ones): one side is wrong, and tests the model wrote cannot settle
      which. The winner needs at least twice as many distinct programs as the largest rival
      group. Without trusted tests, programs that pass other generated tests are the
      generated tests' business; only a split of the winner's own set is a dispute.
    - the pass excuses generated tests as wrong (suspect): that takes more than the word of
      a pair of programs (EXCUSE_VOTES), and more than half of the programs sampled. No
      vote is drawn for this alone: the pass is reported as a best effort."""
    best = ranking.best
    if best is None:
        return "", False
    if ranking.dissent:
        return ranking.dissent, True
    if judged_for is best:  # the model chose it over every rival it was shown
        return "", False
    others = max(ranking.rival if best.trusted_runs else 0, ranking.split)
    if ranking.agree < 2 * others:
        return (
            f"{others} other program(s) that pass the same tests return different values "
            "on some inputs"
        ), False
    if best.all_passed:
        return "", False
    if ranking.agree < EXCUSE_VOTES or 2 * ranking.agree <= ranking.programs:
        return (
            f"it fails generated tests that only {ranking.agree} of {ranking.programs} "
            f"distinct program(s) call wrong; at least {EXCUSE_VOTES}, and more than half, must"
        ), True
    return "", False


def _settled(ranking: Ranking, judged_for: Candidate | None) -> bool:
    """The best passes every trusted test and the judge chose it over every rival it met:
    more samples would be judged the same way. Without trusted tests, rounds go on."""
    best = ranking.best
    trusted = best.trusted_runs if best else []
    return (
        best is not None
        and not ranking.dissent
        and judged_for is best
        and bool(trusted)
        and best.passes_trusted
    )


RANKINGS: dict[RankingName, Callable[[Sequence[Candidate]], Ranking]] = {
    "plain": rank_plain,
    "codet": rank_codet,
}
