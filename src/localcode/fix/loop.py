"""Repository mode: make a project's failing tests pass with N sandboxed edits, ranked by the
project's own test command (`fix(workspace, command, backend, settings) -> FixResult`).

Where the traced run singles out lines and the model can fill in the middle, the first round
writes those lines anew, one at a time, from the code around them (fix/holes.py). Then (or
first) a round samples N edits of the code the failures point at (the first one greedy). Each
edit runs the command in its own private view of the project (sandbox/project.py). The failing tests rank the
edits, and the tests that passed before guard against regressions: an edit that breaks one never
wins. While no edit makes the whole command pass, later rounds repair the best edit so far with
the failures it still has, up to `max_iters` rounds.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from ..backends.base import Backend, Completion, Infills
from ..errors import BackendError, BackendUnavailable, PromptTooLong, UsageError
from ..prompts import edit_prompt
from ..sandbox.project import CommandRun, ProjectLimits, run_command
from . import holes, locate, plugged
from . import outcomes as oc
from .records import EditTry, FixResult, FixRound
from .units import Unit, apply_reply, choose, editable, holds, label, reader, source
from .workspace import Workspace

MAX_REPLY_KEPT = 2000
NOT_FOUND = 127  # the shell's status for a command it cannot find
# the failing tests run first only where they take at most this share of the whole command's
# time: an edit that fixes one pays both runs (bench/fix_failing_first.py)
MAX_ALONE = 0.6


@dataclass(frozen=True)
class FixSettings:
    """The knobs of one `fix` run."""

    n_candidates: int = 4
    max_iters: int = 3
    temperature: float = 0.8
    seed: int = 0
    max_tokens: int = 1024
    greedy: bool = True  # round 0's first edit is the temperature-0 reply
    locate: bool = True  # a traced run ranks the lines the failures single out (fix/locate.py)
    rewrite_lines: bool = True  # the model writes those lines anew first (fix/holes.py)
    failing_first: bool = (
        True  # an edit runs the failing tests first, the whole command if one passes
    )
    max_alone: float = MAX_ALONE  # ... where they take at most this share of the command's time
    test_timeout: float = 120.0
    isolation: str = "auto"
    python: str | None = None  # the project's interpreter; default: the active venv


Progress = Callable[[str], None]


def fix(
    ws: Workspace,
    command: str,
    connect: Callable[[], Backend],
    settings: FixSettings,
    files: Sequence[str] = (),
    on_progress: Progress | None = None,
) -> FixResult:
    """Find the failing tests, sample and rank edits, return the best (nothing is written).
    `connect` makes the backend, once the baseline says there is something to fix."""
    say = on_progress or (lambda _msg: None)
    pytest = oc.is_pytest(command)
    named = [ws.own_file(f) for f in files]
    limits = ProjectLimits(
        timeout=settings.test_timeout,
        cpu_seconds=max(10, int(settings.test_timeout * 2)),
        isolation=settings.isolation,
    )

    def test(
        edited: dict[str, str], tests: list[str] | None = None
    ) -> tuple[CommandRun, oc.Outcomes]:
        """The command on the project with `edited` files; only `tests` of it when given."""
        how = plugged.only(command, ws.root, ws.cwd, tests) if tests else None
        run = run_command(
            how.command if how else command,
            ws.root,
            {**edited, **how.files} if how else edited,
            limits=limits,
            python=settings.python,
            report_arg=oc.JUNIT_ARG if pytest else None,
            cwd=str(ws.cwd),
            env=how.env if how else None,
        )
        return run, oc.read(run, pytest)

    def traced() -> CommandRun:
        how = locate.traced(command, ws.root, ws.cwd)
        slower = locate.SLOWER
        return run_command(
            how.command,
            ws.root,
            how.files,
            limits=replace(
                limits, timeout=limits.timeout * slower, cpu_seconds=limits.cpu_seconds * slower
            ),
            python=settings.python,
            report_arg=oc.JUNIT_ARG,
            cwd=str(ws.cwd),
            env=how.env,
            collect=locate.TRACE_FILE,
        )

    say(f"running `{command}` in the sandbox")
    t0 = time.monotonic()
    run, before = test({})
    _check_baseline(command, run, before, settings, pytest)
    failing0 = oc.failing(before)
    passing0 = {t for t, o in before.items() if o.passed}
    result = FixResult(command, str(ws.root), failing0, len(passing0), layers=run.layers)
    result.spent = {"baseline": time.monotonic() - t0, "generation": 0.0, "tests": 0.0}
    if not failing0:
        return result
    read = reader(ws)  # each file read once, for the suspects and the holes
    # a file of the project that does not parse: its line is the suspect (nothing in it ran, so a
    # traced run would have nothing to rank)
    allowed = editable(ws, named)
    messages = [before[t].message for t in failing0]
    broken = [s for s in locate.syntax_errors(messages, ws.relative, read) if s.path in allowed]
    ranked: list[locate.Suspect] = broken  # every line the failures single out, best first
    suspects = locate.whole_ties(broken, locate.MAX_SUSPECTS)  # those shown to the model
    if pytest and settings.locate and not broken:
        say("running the tests again, traced, to find the lines the failures single out")
        t1 = time.monotonic()
        ranked, why = locate.find(traced(), len(failing0), allowed, read, limit=None)
        suspects = locate.whole_ties(ranked, locate.MAX_SUSPECTS)
        if ranked and not suspects:
            why = locate.NOTHING_SINGLED_OUT
        result.spent["locate"] = time.monotonic() - t1
        result.locate_note = why
    result.suspects = [f"{s.describe()} ({s.score:g})" for s in suspects]
    found = holes.holes(ranked, read) if settings.rewrite_lines else []
    try:
        units = choose(ws, before, named, suspects=[(s.path, s.line) for s in suspects])
    except UsageError as exc:  # no code to show whole: the singled-out lines may still do
        if found:
            units, result.units_note = [], str(exc)
        else:
            bad = [b for b in locate.unparsable(messages, ws.relative) if b[0] in allowed]
            if not bad:
                raise
            path, line, error = bad[0]
            raise UsageError(
                f"{path}:{line}: {error} - this file of the project does not parse, and fix "
                "cannot write that line anew; correct it and run fix again."
            ) from exc
    original = {u.path: ws.read(u.path) for u in units}
    result.units = [label(u, original[u.path]) for u in units]
    shown = [
        s.describe()
        for s in suspects
        if any(u.path == s.path and holds(u, original[u.path], s.line) for u in units)
    ]
    say(
        f"{len(failing0)} failing; editing "
        + (", ".join(u.qualname or u.path for u in units) or "only lines written anew")
    )
    backend = connect()
    if not units and not isinstance(backend, Infills):  # no line can be written anew either
        raise UsageError(result.units_note)
    failing_first = False  # each edit runs the failing tests first: where that pays, see _alone
    if settings.failing_first and pytest:
        t2 = time.monotonic()
        result.failing_first_note = _alone(
            lambda: test({}, failing0),
            before,
            passing0,
            result.spent["baseline"],
            settings.max_alone,
        )
        result.spent["tests"] += time.monotonic() - t2
        failing_first = not result.failing_first_note
    state, state_outcomes = dict(original), before
    tried: dict[tuple[tuple[str, str], ...], EditTry] = {}

    def judge(edit: EditTry) -> None:
        """Run the command on the edit (once per distinct edit) and score it."""
        known = tuple(sorted(edit.files.items()))
        if known in tried:  # the same edit again: same outcome, no second run
            _copy_outcome(tried[known], edit)
            return
        t2 = time.monotonic()
        first = failing_first and test(edit.files, failing0)
        if first and (first[0].timed_out or _fixes_none(*first, before, edit.files)):
            run, after = first  # it cannot win: the rest need not run
            edit.only_failing = True
        else:
            run, after = test(edit.files)
        edit.seconds = time.monotonic() - t2
        result.spent["tests"] += edit.seconds
        _score(edit, run, after, failing0, passing0)
        tried[known] = edit
        edit.outcomes = after
        say(
            f"  {edit.origin} edit: {len(edit.fixed)}/{len(failing0)} fixed, "
            + ("the other tests not run" if edit.only_failing else f"{len(edit.broken)} broken")
        )

    if isinstance(backend, Infills):
        for hole in found:  # a line may lie outside the units shown: its file is edited too
            original.setdefault(hole.path, read(hole.path))
        _rewrite_lines(backend, found, original, settings, result, judge, say)
        result.best = _best(result)
    for index in range(settings.max_iters if units else 0):
        if result.best is not None and result.best.all_pass:
            break
        kind = "edit" if index == 0 else "repair"
        code = [(label(u, state[u.path]), source(state[u.path], u) or "") for u in units]
        prompt = edit_prompt(command, oc.describe(state_outcomes), code, shown)
        say(f"round {len(result.rounds) + 1}: sampling {settings.n_candidates} edits")
        t1 = time.monotonic()
        replies = _sample(backend, prompt, settings, index)
        result.spent["generation"] += time.monotonic() - t1
        rnd = FixRound(len(result.rounds), kind)
        result.rounds.append(rnd)
        for origin, completion in replies:
            edit = _try(completion, origin, units, state, original)
            rnd.tries.append(edit)
            if edit.tested:
                judge(edit)
        best = _best(result)
        if best is not None:
            result.best = best
            if best.all_pass:
                break
            state = {**original, **best.files}
            state_outcomes = best.outcomes or state_outcomes
    if result.best is not None:
        result.diff = ws.diff(result.best.files)
    return result


def _check_baseline(
    command: str, run: CommandRun, before: oc.Outcomes, settings: FixSettings, pytest: bool
) -> None:
    """The command must run, end, and fail for a reason an edit can change."""
    if run.timed_out:
        raise UsageError(
            f"The test command `{command}` did not finish within {settings.test_timeout:g} s in the "
            "sandbox. Narrow it (one test file, -x) or raise --test-timeout."
        )
    if run.returncode == NOT_FOUND and "not found" in run.output:
        first = command.split()[0]
        raise UsageError(
            f"The test command was not found in the sandbox: `{first}`. Install it in the project's "
            "environment, or pass that environment's interpreter with --python."
        )
    if run.returncode == 5 and pytest and list(before) == [oc.WHOLE_COMMAND]:
        raise UsageError(f"`{command}` collected no tests; check the paths and -k expression.")
    offline = oc.needs_network(before)
    if offline:
        raise UsageError(
            "The failing tests need the network, which the sandbox cuts off "
            f"({offline}). Deselect them (e.g. -k 'not network') and run again."
        )


def _rewrite_lines(
    backend: Infills,
    found: list[holes.Hole],
    original: dict[str, str],
    settings: FixSettings,
    result: FixResult,
    judge: Callable[[EditTry], None],
    say: Progress,
) -> None:
    """The first round, where the failures single out lines: each taken out and written anew
    by the model from the code around it (fix/holes.py), best-ranked first: greedily for every
    line, then N-1 samples a line. Each distinct writing is tested; the round ends at the first
    edit that makes the whole command pass. A model without fill-in-the-middle ends it at once."""
    if not found:
        return
    rnd = FixRound(len(result.rounds), "lines")
    result.rounds.append(rnd)
    say(
        f"round {rnd.index + 1}: writing {len(found)} singled-out lines anew from the code around them"
    )
    greedy = 1 if settings.greedy else 0
    passes = [(1, 0.0, settings.seed)] if greedy else []
    if settings.n_candidates > greedy:
        passes.append(
            (settings.n_candidates - greedy, settings.temperature, settings.seed + greedy)
        )
    for n, temperature, seed in passes:
        for hole in found:
            t1 = time.monotonic()
            try:
                replies = holes.write(backend, hole, n=n, temperature=temperature, seed=seed)
            except BackendUnavailable:
                raise
            except BackendError as exc:
                # the first request failing, or a refusal, ends the round (a model without
                # fill-in-the-middle); a later one that may succeed again costs only its hole
                result.lines_note = f"a line was not written anew: {exc}"
                if rnd.tries and (exc.retryable or isinstance(exc, PromptTooLong)):
                    continue
                return
            finally:
                result.spent["generation"] += time.monotonic() - t1
            for completion in replies:
                if _try_line(completion, hole, original, rnd, judge):
                    return


def _try_line(
    completion: Completion,
    hole: holes.Hole,
    original: dict[str, str],
    rnd: FixRound,
    judge: Callable[[EditTry], None],
) -> bool:
    """Test one writing of a hole's line (unless it is no edit); True when it fixes everything."""
    edit = EditTry("line", completion.seed, tokens=completion.completion_tokens or 0)
    rnd.tries.append(edit)
    new, why = holes.filled(hole, original[hole.path], completion.text)
    if completion.error or new is None:
        edit.reason = f"the model failed: {completion.error}" if completion.error else why
        edit.reply = completion.text[:MAX_REPLY_KEPT]
        return False
    edit.files = {hole.path: new}
    judge(edit)
    return edit.all_pass and not edit.broken


def _sample(
    backend: Backend, prompt: list, settings: FixSettings, index: int
) -> list[tuple[str, Completion]]:
    """N replies: in round 0 the first is greedy (temperature 0), asked for before the others.
    First, not beside them: the samples then find the long prompt (whole functions and
    failures, ~2k tokens) already processed in the greedy request's slot, where two requests
    at once would each process it (bench/fix_prompt_reuse.py)."""
    n, seed = settings.n_candidates, settings.seed + index * settings.n_candidates
    greedy = settings.greedy and index == 0
    rest = n - 1 if greedy else n
    origin = "sample" if index == 0 else "repair"
    out: list[tuple[str, Completion]] = []
    if greedy:
        first = backend.complete(
            prompt, n=1, temperature=0.0, seed=seed, max_tokens=settings.max_tokens
        )
        out += [("greedy", c) for c in first]
    if rest:
        others = backend.complete(
            prompt,
            n=rest,
            temperature=settings.temperature,
            seed=seed + (1 if greedy else 0),
            max_tokens=settings.max_tokens,
        )
        out += [(origin, c) for c in others]
    return out


def _try(
    completion: Completion,
    origin: str,
    units: list[Unit],
    state: dict[str, str],
    original: dict[str, str],
) -> EditTry:
    edit = EditTry(origin, completion.seed, tokens=completion.completion_tokens or 0)
    if completion.error:
        edit.reason = f"the model failed: {completion.error}"
        return edit
    changed, reason = apply_reply(completion.text, units, state)
    files = {p: t for p, t in {**state, **changed}.items() if t != original[p]}
    if reason or not files:
        edit.reason = reason or "the reply changes nothing"
        edit.reply = completion.text[:MAX_REPLY_KEPT]
        return edit
    edit.files = files
    return edit


def _score(
    edit: EditTry, run: CommandRun, after: oc.Outcomes, failing0: list[str], passing0: set[str]
) -> None:
    if run.timed_out:
        edit.failing = list(after) or [oc.WHOLE_COMMAND]
        edit.broken = sorted(passing0)  # nothing ran to its end: no test can be trusted
        return
    failing = set(oc.failing(after))
    edit.failing = sorted(failing)
    edit.fixed = [t for t in failing0 if t in after and after[t].passed]
    edit.broken = sorted(t for t in passing0 if t in failing)
    edit.passed = sum(o.passed for o in after.values())
    edit.all_pass = run.returncode == 0 and not failing


def _fixes_none(
    run: CommandRun, after: oc.Outcomes, before: oc.Outcomes, edited: Iterable[str]
) -> bool:
    """The run of the failing tests alone ended, and each of them ran and failed again where
    and as it failed before (one that now fails elsewhere may need what an earlier test leaves
    behind, past the line the edit fixed: the whole command decides). In the `edited` files
    lines move, so there the file and the error must match, not the line."""
    return not run.timed_out and all(
        t in after and not after[t].passed and oc.same_site(after[t].message, o.message, edited)
        for t, o in before.items()
        if not o.passed
    )


def _alone(
    run_alone: Callable[[], tuple[CommandRun, oc.Outcomes]],
    before: oc.Outcomes,
    passing0: set[str],
    whole_seconds: float,
    max_share: float,
) -> str:
    """Why edits should not run the failing tests first ("" when they should). Not where
    nothing passed (they are the whole command), nor where a module's tests were not collected
    (an id without `::`). Then they run alone on the project as it is, once: each must fail as
    it failed among the others (a test that needs what an earlier one left behind fails
    otherwise), and they must take at most `max_share` of the whole command's time, or an edit
    that fixes one, which pays both runs, costs more than the others save."""
    failing0 = [t for t, o in before.items() if not o.passed]
    if not passing0:
        return "no test passed, so the failing tests are the whole command"
    if oc.WHOLE_COMMAND in failing0:
        return "pytest's report names no failing test"
    if any("::" not in t for t in failing0):
        return "a test module could not be collected"
    t0 = time.monotonic()
    run, alone = run_alone()
    seconds = time.monotonic() - t0
    if run.timed_out:
        return "the failing tests alone timed out"
    if set(alone) != set(failing0):
        return "the failing tests could not be run alone (the plugin did not select them)"
    for test_id, outcome in alone.items():
        if outcome.passed or oc.signature(outcome.message) != oc.signature(before[test_id].message):
            return f"{test_id} fails otherwise alone than among the other tests"
    if seconds > max_share * whole_seconds:
        return (
            f"the failing tests alone take {seconds:.1f} s of the command's {whole_seconds:.1f} s"
        )
    return ""


def _copy_outcome(src: EditTry, dst: EditTry) -> None:
    dst.fixed, dst.broken, dst.failing = src.fixed, src.broken, src.failing
    dst.passed, dst.all_pass = src.passed, src.all_pass
    dst.outcomes, dst.only_failing = src.outcomes, src.only_failing


def _best(result: FixResult) -> EditTry | None:
    """The highest-ranked eligible edit so far; the earliest among equals."""
    best = None
    for rnd in result.rounds:
        for edit in rnd.tries:
            if edit.eligible() and (best is None or edit.key() > best.key()):
                best = edit
    return best
