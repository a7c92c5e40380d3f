"""A pytest plugin that `localcode fix` places in a private view of the project (loaded with
`-p _localcode_only`): of the tests the command collects, only those named in the file
$LOCALCODE_ONLY run (one test id a line, as localcode reads them from pytest's JUnit report:
`dotted.module.Class::name[params]`); the others are deselected, as `-k` would. `fix` runs an
edit on the tests that failed before, and runs the whole command only when one of them passes.

It runs inside the project's own Python, which may be older than localcode's: standard library
and pytest only, nothing from localcode, Python 3.8 syntax.
"""

import os
import re

import pytest

# read once, as pytest loads the plugin: a conftest may change directory before collection
_WANTED = os.environ.get("LOCALCODE_ONLY")
_WANTED = os.path.abspath(_WANTED) if _WANTED else None


def junit_id(nodeid):
    """The id pytest's JUnit report gives a test: its file as a dotted module, its class, then
    its name (parameters kept as they are)."""
    path, bracket, params = nodeid.partition("[")
    names = path.split("::")
    names[0] = re.sub(r"\.py$", "", names[0].replace("/", "."))
    names[-1] += bracket + params
    classname = ".".join(names[:-1])
    return classname + "::" + names[-1] if classname else names[-1]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    if not _WANTED:
        return
    with open(_WANTED, encoding="utf-8") as f:
        wanted = {line.rstrip("\n") for line in f if line.strip()}
    keep = [item for item in items if junit_id(item.nodeid) in wanted]
    dropped = [item for item in items if junit_id(item.nodeid) not in wanted]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = keep
