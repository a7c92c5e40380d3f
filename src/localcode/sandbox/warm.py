"""Warming a worker up: pytest and the quick runner run once before the first fork."""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any

from . import harness, quick
from .workspace import write


class _Keep:
    """pytest plugin that keeps the session's config for the quick runner."""

    config: Any = None

    def pytest_configure(self, config: Any) -> None:
        self.config = config


# shaped like generated tests: a failure with more code after it makes pytest tokenize the
# source to find the statement's end (the tokenizer's regex alone costs ~4 ms to compile)
WARM_TESTS = """
def test_fail():
    assert [1, 2] == [1, 3]

def test_pass():
    assert [1] == [1]
"""


def warm_up() -> Any:
    """Run pytest and the quick runner once here, a passing and a failing test, so their lazy
    imports and caches (inspect's module-by-file map costs ~50 ms cold) are filled before the first
    fork instead of in every child. Returns the pytest config the quick runner reuses."""
    import pytest

    keep = _Keep()
    with tempfile.TemporaryDirectory(prefix="localcode-warm-") as d:
        path = os.path.join(d, "test_solution.py")
        write(path, WARM_TESTS)
        write(os.path.join(d, "pytest.ini"), "[pytest]\n")
        unused = [f"-pno:{name}" for name in harness.UNUSED_PLUGINS]
        args = [*unused, path, "-c", os.path.join(d, "pytest.ini"), "--rootdir", d]
        pytest.main(args, plugins=[keep, harness.Reporter()])
        with open(os.devnull, "wb") as sink:
            quick.run_plain(d, sink, None, None, [], keep.config)
    for name in ("test_solution", "solution"):
        sys.modules.pop(name, None)
    sys.path[:] = [p for p in sys.path if p != d]
    return keep.config
