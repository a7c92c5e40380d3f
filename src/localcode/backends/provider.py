"""What localcode knows of a backend besides `complete()`: its options and where they come from.

A backend module ends with one `Provider`: the flags it reads, how its options are made from
those flags and the environment, how the backend is built from them, its label in file names,
and what `localcode doctor` says of it. The registry (`backends/__init__.py`) lists providers;
the CLI, the bench and doctor ask them and never branch on a backend's name.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import UsageError

if TYPE_CHECKING:
    from ..config import AgentConfig
    from .base import Backend

# flag values by argparse dest (None when not given), then the environment
Reader = Callable[[Mapping[str, Any], Mapping[str, str]], Any]


@dataclass(frozen=True)
class Flag:
    """A command-line flag a backend reads. Several backends may read one flag (`--model`):
    the CLI defines it once, with each backend's help. Its value is None when not given, so
    the backend's own default (and environment) applies."""

    name: str  # "--ctx-size"
    help: str  # what it means to this backend
    type: Callable[[str], Any] = str
    metavar: str | None = None

    @property
    def dest(self) -> str:
        """The key of this flag's value in what `Provider.read` gets."""
        return self.name[2:].replace("-", "_")


@dataclass(frozen=True)
class Provider:
    """One backend as the registry knows it."""

    name: str
    # (this backend's options, the run's settings) -> Backend
    create: Callable[[Any, AgentConfig], Backend]
    read: Reader = lambda flags, environ: None  # options from flag values and the environment
    flags: tuple[Flag, ...] = ()
    label: Callable[[Any], str] | None = None  # the model's name for file names; default: name
    doctor: Callable[[Any], list[str]] | None = None  # lines for `localcode doctor`

    def options(
        self, flags: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
    ) -> Any:
        """This backend's options from flag values (missing ones: not given) and `environ`."""
        return self.read(flags or {}, os.environ if environ is None else environ)

    def label_of(self, options: Any) -> str:
        """A file-name-safe name of the model these options choose."""
        name = self.label(options) if self.label else self.name
        return re.sub(r"[^\w.-]+", "-", name).strip("-") or self.name


def named_model(backend: str, model: str | None) -> str:
    """The label of a backend whose model is a name the server knows: `openai-gpt-4o`."""
    return f"{backend}-{model}" if model else backend


# Flags that every backend talking to a server reads alike.
REQUEST_TIMEOUT = Flag(
    "--request-timeout",
    "give up on one request after this long (default 300)",
    float,
    "SECONDS",
)
MAX_PARALLEL = Flag("--max-parallel", "requests in flight at once (default 4)", int, "N")
DEFAULT_REQUEST_TIMEOUT = 300.0


def given(flags: Mapping[str, Any], key: str, default: Any) -> Any:
    """The flag's value, or `default` when it was not given (0 is a value, and gets checked)."""
    value = flags.get(key)
    return default if value is None else value


def positive(value: float, flag: str) -> None:
    """A UsageError naming `flag` when `value` is not above 0."""
    if not value > 0:
        raise UsageError(f"{flag} must be a positive number (got {value}).")


@dataclass(frozen=True)
class ApiOptions:
    """The options of a backend that calls a hosted or local HTTP API with an optional key."""

    model: str | None
    base_url: str
    api_key: str | None = field(default=None, repr=False)  # a secret: never in repr or logs
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT
    max_parallel: int = 4

    def __post_init__(self) -> None:
        positive(self.request_timeout, "--request-timeout")
        positive(self.max_parallel, "--max-parallel")


def api_reader(
    *, url_variable: str, key_variable: str, default_url: str, default_parallel: int = 4
) -> Reader:
    """How an API backend reads its options: the flags first, then the API's own environment
    variables (`url_variable`, `key_variable`), then the defaults."""

    def read(flags: Mapping[str, Any], environ: Mapping[str, str]) -> ApiOptions:
        return ApiOptions(
            model=flags.get("model"),
            base_url=flags.get("base_url") or environ.get(url_variable) or default_url,
            api_key=flags.get("api_key") or environ.get(key_variable) or None,
            request_timeout=given(flags, "request_timeout", DEFAULT_REQUEST_TIMEOUT),
            max_parallel=given(flags, "max_parallel", default_parallel),
        )

    return read
