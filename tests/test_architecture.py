"""The package's shape: no import cycles, no private name imported from another module."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "localcode"


def _modules() -> dict[str, tuple[ast.Module, bool]]:
    """Every module under src/localcode by dotted name, with its AST and whether it's a package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (
            ast.parse(path.read_text()),
            is_package,
        )
    return out


MODULES = _modules()


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")[: len(module.split(".")) - (node.level - (1 if is_package else 0))]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(module: str) -> list[tuple[str, str | None]]:
    """(target module, name imported from it or None) for every localcode import in `module`."""
    tree, is_package = MODULES[module]
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, None) for a in node.names if a.name.startswith("localcode")]
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(module, is_package, node)
            if target.startswith("localcode"):
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    found.append((sub, None) if sub in MODULES else (target, a.name))
    return found


def _edges(module: str) -> set[str]:
    """The modules that importing `module` runs, its targets' enclosing packages included."""
    out = set()
    for target, _ in _imports(module):
        parts = target.split(".")
        for i in range(1, len(parts) + 1):
            name = ".".join(parts[:i])
            if name in MODULES and not module.startswith(name + ".") and name != module:
                out.add(name)
    return out


def test_no_private_name_is_imported_across_modules() -> None:
    private = [
        f"{module} imports {name} from {target}"
        for module in MODULES
        for target, name in _imports(module)
        if name and name.startswith("_") and not name.startswith("__")
    ]
    assert private == []


def test_no_import_cycle() -> None:
    graph = {m: _edges(m) for m in MODULES}
    cycles: list[list[str]] = []
    done: set[str] = set()

    def visit(m: str, path: list[str]) -> None:
        if m in path:
            cycles.append(path[path.index(m) :] + [m])
            return
        if m in done:
            return
        for n in sorted(graph[m]):
            visit(n, path + [m])
        done.add(m)

    for m in MODULES:
        visit(m, [])
    assert cycles == []


def test_the_checks_see_the_package() -> None:
    assert {"localcode", "localcode.cli", "localcode.loop", "localcode.sandbox.worker"} <= set(
        MODULES
    )
    assert "localcode.cli.common" in _edges("localcode.cli.bench")


def test_the_sandbox_worker_boots_without_the_agent() -> None:
    """The worker imports the sandbox alone: no faked package, none of the loop or backends."""
    import subprocess
    import sys

    from localcode.sandbox import pool

    assert "sys.modules" not in pool.BOOT
    probe = "import sys, localcode.sandbox.worker; print(sorted(sys.modules))"
    code = pool.BOOT.replace("from localcode.sandbox.worker import main; main()", probe)
    out = subprocess.run([sys.executable, "-s", "-c", code], capture_output=True, text=True)
    loaded = {m for m in out.stdout.strip("[]\n").replace("'", "").split(", ")}
    assert "localcode.sandbox.worker" in loaded
    assert not loaded & {"localcode.loop", "localcode.backends", "localcode.config"}


def test_only_backends_name_a_backend() -> None:
    # each backend owns its options: no module outside backends/ branches on a backend's name
    names = {"local", "mock", "ollama", "openai", "anthropic"}
    found = []
    for module, (tree, _) in MODULES.items():
        if module.startswith("localcode.backends"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and any(
                isinstance(side, ast.Constant) and side.value in names
                for side in [node.left, *node.comparators]
            ):
                found.append(f"{module}:{node.lineno}")
    assert found == []


def test_a_flag_several_backends_read_is_one_flag() -> None:
    from localcode.backends import BACKENDS
    from localcode.cli.common import backend_flags, flag_help

    flags = backend_flags()
    for flag, readers in flags.items():
        same = [f for p in BACKENDS.values() for f in p.flags if f.name == flag.name]
        assert {(f.type, f.metavar) for f in same} == {(flag.type, flag.metavar)}, flag.name
        assert len(readers) == len(same)
    model = next(f for f in flags if f.name == "--model")
    assert [b for b, _ in flags[model]] == ["local", "mock", "ollama", "openai", "anthropic"]
    timeout = next(f for f in flags if f.name == "--request-timeout")
    assert flag_help(flags[timeout]).startswith("local/ollama/openai/anthropic: give up")
