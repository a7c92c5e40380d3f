"""The one seam between the agent and a model: `Backend.complete()`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ..errors import BackendUnavailable, LocalCodeError
from ..prompts import Message


@dataclass
class Completion:
    """One sampled reply. `error` is set (and `text` empty) when this one sample failed."""

    text: str
    seed: int | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str | None = None  # "stop", "length", ...
    error: str | None = None
    unavailable: bool = False  # with `error`: the backend could not serve at all


@runtime_checkable
class Backend(Protocol):
    """A chat model. Diversity comes from `seed` and `temperature`, never from prompt text."""

    name: str
    supports_n: bool  # one request can return n choices (prompt processed once)
    max_parallel: int  # how many requests it serves at once

    def complete(
        self,
        messages: Sequence[Message],
        *,
        n: int = 1,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 1024,
    ) -> list[Completion]:
        """Return exactly `n` completions; sample i uses seed `seed + i`.

        Raises BackendError when the request as a whole failed (BackendUnavailable when the
        backend cannot serve at all); a failure of one of several samples is a Completion
        with `error` set.
        """
        ...

    def close(self) -> None:
        """Release servers, connections and threads. Safe to call twice."""
        ...


@runtime_checkable
class StopsEarly(Protocol):
    """A backend that can end a reply as soon as it is enough (it streams the reply)."""

    def complete_until(
        self,
        messages: Sequence[Message],
        *,
        until: Callable[[str], bool],
        start: str = "",
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 1024,
    ) -> Completion:
        """One reply, ended where `until(text so far)` first holds (checked as each line ends;
        `finish_reason` is then "stop"), or as `complete()` would end it. A `start` is the
        reply's beginning, written for the model, which goes on from it (the text returned and
        the text `until` sees begin with it; `completion_tokens` counts what the model wrote).
        Raises as `complete()` does."""
        ...


@runtime_checkable
class ShowsWork(Protocol):
    """A backend that can say how far the replies it is writing have got (for a live UI)."""

    def generating(self) -> list[int]:
        """Tokens written so far by each reply in progress; [] when none is, or unknown.
        Cheap, never raises: a progress display calls it every second."""
        ...


@runtime_checkable
class SharesPrefix(Protocol):
    """A backend that can read the beginning the next prompts share once, for all of them."""

    def share_prefix(self, messages: Sequence[Message]) -> Completion | None:
        """Read `messages` (the beginning of the prompts that follow, ending inside its last
        message) once, so that each prompt that begins with it reads only the rest; the reply
        to the request that read it (for its token counts), None when none was sent. Never
        raises: where it cannot share, each prompt reads itself whole, as before."""
        ...


@runtime_checkable
class Infills(Protocol):
    """A code model that can write the middle of a file between a given beginning and end
    (fill-in-the-middle), from the file's text rather than a chat."""

    def infill(
        self,
        prefix: str,
        suffix: str,
        *,
        n: int = 1,
        temperature: float = 0.0,
        seed: int = 0,
        max_tokens: int = 64,
        stop: Sequence[str] = (),
    ) -> list[Completion]:
        """Exactly `n` middles for `prefix` + ? + `suffix`, sample i with seed `seed + i`, each
        ended at the first of `stop` (not included). Raises BackendError where the model has no
        fill-in-the-middle tokens or the request failed (BackendUnavailable as complete()
        does); a failure of one of several samples is a Completion with `error`."""
        ...


def fan_out(
    one: Callable[[int], Completion], n: int, seed: int, max_parallel: int
) -> list[Completion]:
    """Run `one(seed + i)` for i < n with at most `max_parallel` in flight.

    A failing sample becomes a Completion with `error`; if every sample failed because the
    backend is unavailable, that error is raised so the caller can stop the run.
    """

    def guarded(s: int) -> Completion | BackendUnavailable:
        try:
            return one(s)
        except BackendUnavailable as exc:
            return exc
        except LocalCodeError as exc:
            return Completion(text="", seed=s, error=str(exc))

    with ThreadPoolExecutor(max_workers=max(1, min(n, max_parallel))) as pool:
        results = list(pool.map(guarded, [seed + i for i in range(n)]))
    unavailable = [r for r in results if isinstance(r, BackendUnavailable)]
    if unavailable and len(unavailable) == n:
        raise unavailable[0]
    return [
        Completion(text="", seed=seed + i, error=str(r)) if isinstance(r, BackendUnavailable) else r
        for i, r in enumerate(results)
    ]
