"""The contract every engine keeps (docs/engines.md), checked over the code itself."""

from __future__ import annotations

import ast
from pathlib import Path

REPLAY = Path(__file__).parents[1] / "replay"
# What reads or writes the world outside the arguments: files, the environment, processes.
WORLD = {
    "ingest",
    "dashboards",
    "os",
    "pathlib",
    "io",
    "glob",
    "shutil",
    "subprocess",
    "socket",
    "tempfile",
    "sys",
}


def _imports(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_the_engines_touch_nothing_but_their_arguments():
    offences = []
    for path in sorted(REPLAY.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for name in sorted(_imports(tree) & WORLD):
            offences.append(f"{path.relative_to(REPLAY.parent)} imports {name}")
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("open", "input", "print")
            ):
                offences.append(
                    f"{path.relative_to(REPLAY.parent)}:{node.lineno} calls {node.func.id}"
                )
            if isinstance(node, ast.Global):
                offences.append(f"{path.relative_to(REPLAY.parent)}:{node.lineno} writes a global")
    assert offences == []
