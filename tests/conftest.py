"""Shared fixtures: the scripted mock backend and the demo task."""

from __future__ import annotations

import pytest

from localcode.backends.mock import MockBackend
from localcode.cli import DEFAULT_TASK


@pytest.fixture
def demo_task() -> str:
    return DEFAULT_TASK


@pytest.fixture
def mock() -> MockBackend:
    return MockBackend("demo")
