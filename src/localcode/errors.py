"""Every error localcode raises. Library code raises these; only cli/ turns them into exit codes."""

from __future__ import annotations


class LocalCodeError(Exception):
    """Base of every localcode error; its message says how to fix the problem."""

    exit_code = 1


class UsageError(LocalCodeError):
    """Bad input from the user: a flag, a task, a file."""

    exit_code = 2


class TaskError(UsageError):
    """The task, tests or code given to the agent cannot be used."""


class BackendError(LocalCodeError):
    """A model backend failed. `retryable` says whether the same request may succeed later.

    `retry_after` is the wait in seconds the server asked for (HTTP Retry-After), if any.
    """

    exit_code = 3

    def __init__(
        self, message: str, *, retryable: bool = False, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after


class BackendUnavailable(BackendError):
    """The backend cannot serve at all: server down, model missing, key missing, engine missing."""


class PromptTooLong(BackendError):
    """The prompt does not fit the model's context window."""


class ModelError(BackendUnavailable):
    """A model file is missing, corrupt or could not be fetched."""


class SandboxError(LocalCodeError):
    """The sandbox could not run code (not: the code failed its tests), or refused to (strict)."""

    exit_code = 2


class GenerationError(LocalCodeError):
    """The model's reply could not be used (e.g. tests asked for twice and none came)."""
