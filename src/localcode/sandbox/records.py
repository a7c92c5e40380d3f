"""What a sandboxed test run returns."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal, get_args

# PYTHONHASHSEED of every process that runs candidates: each run hashes strings alike, so a
# program that iterates a set of strings answers the same way in every worker, every time.
HASH_SEED = "0"
# The environment every Python that runs candidates gets, whoever starts it (the warm worker,
# a candidate's own child, the cold pytest runner): that hash seed, no bytecode files, no
# pytest plugins found by entry point, one thread for the numeric libraries.
PYTHON_ENV = {
    "PYTHONHASHSEED": HASH_SEED,
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
}


# auto: every layer this machine allows; strict: refuse to run without all of them; none: no
# isolation (trusted code only)
Isolation = Literal["auto", "strict", "none"]
ISOLATIONS: tuple[Isolation, ...] = get_args(Isolation)


@dataclass(frozen=True)
class Limits:
    """Bounds on one candidate run."""

    timeout: float = 5.0  # wall seconds; the whole process group is killed after it
    cpu_seconds: int = 10
    memory_mb: int = 1024
    max_output_bytes: int = 64 * 1024
    max_processes: int = 64
    max_file_mb: int = 16
    isolation: Isolation = "auto"


@dataclass(frozen=True)
class Job:
    """One candidate run, as the trusted side sends it to a warm worker (one JSON line)."""

    code: str
    tests: str
    needed: list[str]  # names the tests use that the solution must supply
    split: bool  # the candidate runs in its own process, apart from the tests
    plain: bool  # plain test functions: the quick runner instead of a pytest session
    limits: Limits

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready form the worker reads back with from_wire."""
        return asdict(self)

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> Job:
        """A Job from its JSON form."""
        return cls(**{**data, "limits": Limits(**data["limits"])})


@dataclass
class TestResult:
    """One test function that the trusted side found in the test text."""

    name: str
    passed: bool
    message: str = ""  # trimmed failure text; empty when passed
    # failed because the solution raised, not because it returned another value
    raised: bool = False


@dataclass
class TestRun:
    """Per-test results for one candidate. `error` says why the run as a whole failed."""

    results: list[TestResult] = field(default_factory=list)
    error: str | None = None  # syntax error, import error, timeout, crash, collection error
    duration_s: float = 0.0
    layers: list[str] = field(default_factory=list)  # isolation layers that applied to this run

    @property
    def total(self) -> int:
        return len(self.results)

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def score(self) -> float:
        return self.passed / self.total if self.total else 0.0

    @property
    def all_passed(self) -> bool:
        return self.error is None and self.total > 0 and self.passed == self.total

    def failures(self) -> list[TestResult]:
        return [r for r in self.results if not r.passed]


@dataclass
class IsolationStatus:
    """Which isolation layers the sandbox applies on this machine, and why the others are missing."""

    active: list[str] = field(default_factory=list)
    missing: dict[str, str] = field(default_factory=dict)  # layer -> reason and how to fix

    @property
    def complete(self) -> bool:
        return not (STRICT_LAYERS & self.missing.keys())

    @property
    def warning(self) -> str | None:
        """One line for the user when a layer is missing, else None."""
        if not self.missing:
            return None
        return "sandbox: missing " + "; ".join(f"{k}: {v}" for k, v in self.missing.items())


STRICT_LAYERS = frozenset({"namespaces", "landlock", "seccomp"})  # what --sandbox strict demands

# What each layer keeps a candidate from, by the layer's name without its details.
COVERS = {
    "rlimits": "CPU seconds, memory, processes, file sizes and open files are bounded",
    "process-group kill": "every process it starts is killed when its run ends",
    "namespaces": "its own mount, PID, network (loopback only) and IPC namespaces: no "
    "network, no host processes, abstract UNIX sockets of its own only",
    "unused uid": "runs as a uid that owns no file (when localcode runs as root)",
    "landlock": "reads only what Python needs and its scratch directory, writes only the "
    "scratch; from "
    "ABI 4 no TCP, from ABI 6 no abstract UNIX sockets or signals outside the sandbox. Not "
    "covered by any ABI: connecting to a pathname UNIX socket (seccomp stops that)",
    "seccomp": "no ptrace, mounts, namespaces, io_uring, bpf or kernel keys; sockets only of "
    "family AF_UNIX, never connected or sent to an address: no pathname socket anywhere "
    "(Docker, ssh-agent, D-Bus), no abstract socket, no datagram to /dev/log; socketpair() works",
}


def covers(layer: str) -> str:
    """What the layer (as IsolationStatus names it, details included) keeps a candidate from."""
    return COVERS.get(layer.split(" (")[0], "")
