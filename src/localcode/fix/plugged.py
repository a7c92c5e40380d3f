"""A test command with one of localcode's pytest plugins loaded (`-p MODULE`): the plugin goes
into the private view of the project as a file, never into the user's tree. The trace
(trace_plugin.py, for fix/locate.py) and the failing tests first (only_plugin.py, for
fix/loop.py) are placed this way."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from importlib import resources

PLUGIN_DIR = (
    ".localcode_plugins"  # where the plugins lie in the view, under the command's directory
)
_PYTHONPATH = re.compile(r"^((?:\s*[A-Za-z_]\w*=\S*)*?\s*PYTHONPATH=)(\S*)")


@dataclass(frozen=True)
class Plugged:
    """A pytest command with a plugin: the command itself, the files it needs in the project's
    view (path relative to the project -> text), and the environment it reads."""

    command: str
    files: dict[str, str]
    env: dict[str, str]


def plugged(
    command: str,
    root: str | os.PathLike[str],
    cwd: str | os.PathLike[str],
    module: str,
    source: str,
    env: dict[str, str] | None = None,
    data: dict[str, str] | None = None,
) -> Plugged:
    """`command` (pytest, run in `cwd`, a directory of the project at `root`) with the plugin
    `source` (a file of this package) loaded as `module`, and `data` files placed beside it
    (name -> text; their paths, relative to `cwd`, are `here(name)`). The plugin's directory goes
    on PYTHONPATH, and onto the PYTHONPATH the command sets itself (`PYTHONPATH=src pytest`); a
    command that sets it some other way does not load the plugin."""
    inside = os.path.relpath(os.path.realpath(cwd), os.path.realpath(root))
    text = resources.files(__package__).joinpath(source).read_text(encoding="utf-8")
    files = {os.path.normpath(os.path.join(inside, PLUGIN_DIR, f"{module}.py")): text}
    for name, content in (data or {}).items():
        files[os.path.normpath(os.path.join(inside, here(name)))] = content
    own = _PYTHONPATH.match(command)
    if own:
        command = f"{own.group(1)}{own.group(2)}:{PLUGIN_DIR}{command[own.end() :]}"
    return Plugged(f"{command} -p {module}", files, {"PYTHONPATH": PLUGIN_DIR, **(env or {})})


def here(name: str) -> str:
    """Where a data file placed beside the plugins lies, relative to the command's directory."""
    return os.path.join(PLUGIN_DIR, name)


ONLY_MODULE = "_localcode_only"
ONLY_FILE = "only.txt"


def only(
    command: str, root: str | os.PathLike[str], cwd: str | os.PathLike[str], tests: list[str]
) -> Plugged:
    """`command` running only `tests` (ids as fix/outcomes.py reads them from the JUnit report)
    of those it collects: only_plugin.py deselects the others."""
    return plugged(
        command,
        root,
        cwd,
        ONLY_MODULE,
        "only_plugin.py",
        env={"LOCALCODE_ONLY": here(ONLY_FILE)},
        data={ONLY_FILE: "".join(f"{t}\n" for t in tests)},
    )
