"""A game is one record: everything game-specific outside `replay/games/<game>/` hangs off the
game's `RULES` and its package of the dashboards (`dashboards/boards/<game>/`), so a fifth game
adds those two packages and touches no shared file."""

from __future__ import annotations

import ast
from pathlib import Path

from dashboards.boards import board, labels
from dashboards.i18n import LABELS, LANGUAGES
from replay.registry import GAMES, PACKAGES

ROOT = Path(__file__).resolve().parents[1]
SHARED = ("replay", "ingest", "dashboards")
OWN = tuple(
    ROOT / top / package
    for package in PACKAGES.values()
    for top in ("replay/games", "dashboards/boards")
)


def _shared_files() -> list[Path]:
    return sorted(
        path
        for top in SHARED
        for path in (ROOT / top).rglob("*")
        if path.suffix in (".py", ".sql") and not any(path.is_relative_to(own) for own in OWN)
    )


def _names() -> set[str]:
    """What names a game in code: its id, its package, its title in every language."""
    return {
        word
        for name, game in GAMES.items()
        for word in (name, PACKAGES[name], *game.title.values())
    }


def _code_strings(source: str) -> list[tuple[int, str]]:
    """The strings a module's code holds (docstrings aside: prose may cite a game as an example)
    and the modules it imports."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                found.append((node.lineno, node.value))
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return found


def test_no_shared_file_names_a_game():
    names = _names()
    named = [
        f"{path.relative_to(ROOT)}:{line}: {text!r}"
        for path in _shared_files()
        for line, text in (
            _code_strings(path.read_text())
            if path.suffix == ".py"
            else enumerate(path.read_text().splitlines(), 1)
        )
        if any(name in text for name in names)
    ]
    assert named == [], "\n".join(named)


def test_the_check_sees_a_game_named_in_shared_code():
    source = 'SHORT = {"knight-academy": "ka"}\nfrom replay.games.paladins import catalogue\n'
    hits = [text for _, text in _code_strings(source) if any(n in text for n in _names())]
    assert sorted(hits) == ["knight-academy", "replay.games.paladins"]


def test_every_game_is_found_with_its_board_and_its_words():
    assert list(GAMES) == ["knight-academy", "heraldry", "paladins", "albus-academy"]
    assert len({game.short for game in GAMES.values()}) == len(GAMES)
    for name in GAMES:
        drawn = board(name)
        for verb in ("figure", "side", "caption", "anchors"):
            assert callable(getattr(drawn, verb)), (name, verb)
        words = labels(name)
        assert words, name
        for key, entry in words.items():
            assert set(entry) == set(LANGUAGES) and all(entry.values()), (name, key)


def test_no_two_games_give_one_word_two_meanings():
    """Every game's words are looked up in one table: a key two games (or a game and the shared
    labels) both hold would show one game's word in the other's page."""
    owners: dict[str, str] = {key: "shared" for key in LABELS}
    for name in GAMES:
        for key in labels(name):
            assert key not in owners, f"{key!r} is both {owners[key]}'s and {name}'s"
            owners[key] = name
