"""Every stored step opens: the state after each event of the bundled samples, as `squire
replay --step` prints it and the viewer draws it, for every configuration they hold."""

from __future__ import annotations

import msgspec
import pytest

from dashboards.boards import board as board_of
from ingest.cli.report import escaped
from ingest.files.catalogues import Library
from ingest.files.read import read_log
from replay.replayer import open_log, start, steps
from tests.ingest.pipeline.test_stops import SAMPLES

# The configurations whose every sample is walked: the ones whose state carries the most.
EVERY = {"knight-academy/codex", "knight-academy/all-boards", "lancelot"}


def _configurations() -> dict[str, list[str]]:
    """The samples by game, variant and ruleset (the header says which)."""
    found: dict[str, list[str]] = {}
    for path in sorted(SAMPLES.glob("*/*.jsonl*")):
        header = msgspec.json.decode(read_log(path).split(b"\n", 1)[0])
        key = " ".join(
            str(header.get(k)) for k in ("game", "variant", "ruleset", "rules") if header.get(k)
        )
        found.setdefault(key, []).append(str(path))
    return found


CONFIGURATIONS = _configurations()


def _walked(key: str) -> list[str]:
    """All of the samples of the configurations that carry the most, two of the others."""
    paths = CONFIGURATIONS[key]
    return paths if any(word in key.split() for word in EVERY) else paths[:2]


@pytest.mark.parametrize("key", sorted(CONFIGURATIONS))
def test_every_step_of_every_configuration_opens_as_replay_step_prints_it(key):
    books = Library()
    for path in _walked(key):
        match = open_log(read_log(path), path, catalogues=books)
        game, state = match.game, start(match)
        game.render(escaped(game.snapshot(state)))
        for _ in steps(match, state):
            view = game.snapshot(state)  # what `replay --step` and the viewer start from
            game.render(escaped(view))
            msgspec.json.encode(view)


@pytest.mark.parametrize("key", sorted(CONFIGURATIONS))
def test_the_viewer_draws_the_steps_of_a_sample_of_each_configuration(key):
    # Every eighth step and the last: a board costs 10 to 30 ms to draw, its state is what
    # changes from step to step, and every state is opened above.
    (path,) = CONFIGURATIONS[key][:1]
    match = open_log(read_log(path), path, catalogues=Library())
    game, state, players = match.game, start(match), list(match.header.players)
    board = board_of(game.name)
    board.figure(game.snapshot(state), players, None)
    for step in steps(match, state):
        if step.index % 8 == 0 or step.index == len(match.lines):
            board.figure(game.snapshot(state), players, msgspec.to_builtins(step.event))
