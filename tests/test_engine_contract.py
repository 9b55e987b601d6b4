"""The contract every engine keeps (docs/engines.md), checked over the code itself."""

from __future__ import annotations

import ast
import re
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


ROOT = REPLAY.parent
RULE = re.compile(r"\b(KA|HE|PA|AA|LOG)-(\d+)[a-z]?\b")
# In a test's name a rule is written without its dash: test_pa56_…, test_log3_….
IN_NAME = re.compile(r"\bdef test_(ka|he|pa|aa|log)(\d+)[a-z]?_")
# Declared, not yet built: none.
NOT_BUILT: set[str] = set()


def _ids(text: str) -> set[str]:
    return {f"{game}-{n}" for game, n in RULE.findall(text)}


def declared() -> set[str]:
    """Every rule id squire names: each game's range (its package's `XX-1 to XX-n`), the
    format's (replay/log.py) and any in docs/."""
    ids = _ids((ROOT / "replay" / "log.py").read_text())
    for package in sorted((REPLAY / "games").glob("*/__init__.py")):
        for game, last in re.findall(
            r"\((KA|HE|PA|AA)-1 to (?:KA|HE|PA|AA)-(\d+)\)", package.read_text()
        ):
            ids |= {f"{game}-{n}" for n in range(1, int(last) + 1)}
    for doc in sorted((ROOT / "docs").glob("*.md")):
        ids |= _ids(doc.read_text())
    return ids


def test_every_rule_id_is_cited_in_the_code_and_in_a_test():
    code = "\n".join(
        p.read_text()
        for folder in ("replay", "ingest")
        for p in sorted((ROOT / folder).rglob("*.py"))
    )
    tests = "\n".join(
        p.read_text()
        for p in sorted((ROOT / "tests").rglob("*.py"))
        if p.name != Path(__file__).name
    )
    in_tests = _ids(tests) | {f"{g.upper()}-{n}" for g, n in IN_NAME.findall(tests)}
    ids = declared()
    assert len(ids) > 150 and "PA-65" in ids and "LOG-7" in ids
    key = lambda rule: (rule.split("-")[0], int(rule.split("-")[1]))  # noqa: E731
    assert sorted(ids - _ids(code) - NOT_BUILT, key=key) == [], "not cited in the code"
    assert sorted(ids - in_tests - NOT_BUILT, key=key) == [], "in no test's name or body"


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> dict[str, set[str]]:
    """Which module of replay/ imports which, inside functions too (the engines only)."""
    modules = {_module(p): p for p in REPLAY.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(
                        [*package.split(".")[: len(package.split(".")) - node.level + 1], base]
                    ).strip(".")
                targets = [f"{base}.{a.name}" for a in node.names] + [base]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def test_no_module_of_the_engines_imports_itself_round_a_circle():
    graph = _graph()
    packages = {n for n in graph if (REPLAY.parent / n.replace(".", "/") / "__init__.py").exists()}
    circles = []
    for start in sorted(graph):
        if start in packages:  # a package's table of contents imports its own modules
            continue
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph[node] - packages):
                if nxt == start:
                    circles.append(" → ".join([*path, start]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
    assert circles == []


def test_legal_scoring_and_view_never_import_rules_in_any_game():
    """Imports run one way (docs/engines.md): what a game expects, scores and shows never
    reaches its rules, not even through another module, so the rules may ask `legal`."""
    graph = _graph()
    games = sorted(p.parent.name for p in (REPLAY / "games").glob("*/rules.py"))
    assert len(games) >= 4
    offences = []
    for game in games:
        package = f"replay.games.{game}"
        for name in ("legal", "scoring", "view"):
            start = f"{package}.{name}"
            assert start in graph, f"{game} has no {name}.py"
            seen, stack = {start}, [start]
            while stack:
                for nxt in sorted(graph[stack.pop()] - seen):
                    if nxt == package:  # the package's table of contents imports everything
                        continue
                    seen.add(nxt)
                    stack.append(nxt)
            if f"{package}.rules" in seen:
                offences.append(f"{start} imports {package}.rules")
    assert offences == []
