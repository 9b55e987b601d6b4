"""The header's `options`: a game knows its own mode switches, and a log naming another is
refused at its header rather than replayed as if the switch were not there."""

from __future__ import annotations

import json

import pytest

from replay.errors import ReplayError
from replay.registry import GAMES
from replay.replayer import open_log

from .conformance.play import FOLDERS, NAMES
from .support import CATALOGUES


@pytest.mark.parametrize("name", NAMES)
def test_an_option_the_game_does_not_know_is_refused_at_line_one(name):
    example = sorted((FOLDERS[name] / "logs").glob("*.jsonl"))[0]
    first, rest = example.read_bytes().split(b"\n", 1)
    header = {**json.loads(first), "options": {"turbo": True}}
    data = json.dumps(header).encode() + b"\n" + rest
    with pytest.raises(ReplayError) as caught:
        open_log(data, example.name, catalogues=CATALOGUES)
    err = caught.value
    assert (err.path, err.line, err.rule) == (example.name, 1, "LOG-3")
    known = GAMES[name].options
    assert err.message.startswith('unknown option "turbo"; ')
    assert err.message.endswith(f"{name} has none" if not known else "advanced (KA-21)")


def test_the_games_declare_their_options_beside_their_rulesets():
    assert {name: sorted(game.options) for name, game in GAMES.items()} == {
        "knight-academy": ["advanced"],
        "heraldry": [],
        "paladins": [],
        "albus-academy": [],
    }
