"""Cards a perspective sees only from the back are counted in words: one card, two cards, in
English; in Chinese the count and the mark in Chinese punctuation."""

from __future__ import annotations

import pytest

from dashboards.boards.albus_academy import _hidden
from dashboards.boards.knight_academy import _held
from dashboards.common import held
from replay.game import HIDDEN


@pytest.mark.parametrize(
    ("backs", "lang", "said"),
    [
        (1, "en", "1 card (hidden)"),
        (2, "en", "2 cards (hidden)"),
        (1, "zh", "1 张（隐藏）"),
        (3, "zh", "3 张（隐藏）"),
    ],
)
def test_a_knight_academy_hand_counts_its_hidden_cards_in_words(backs, lang, said):
    assert _held([HIDDEN] * backs, lang) == said
    named = "Sword 4" if lang == "en" else "剑 4"
    assert _held(["sword-4", *[HIDDEN] * backs], lang).endswith(f" · {said}")
    assert _held(["sword-4", *[HIDDEN] * backs], lang).startswith(named)


@pytest.mark.parametrize(
    ("backs", "lang", "said"),
    [(1, "en", "1 card (hidden)"), (2, "en", "2 cards (hidden)"), (1, "zh", "1 张（隐藏）")],
)
def test_an_albus_academy_hand_counts_its_hidden_cards_in_words(backs, lang, said):
    assert _hidden([HIDDEN] * backs, lang) == [said]


def test_a_count_without_a_unit_is_marked_hidden_in_the_pages_language():
    assert held([HIDDEN, HIDDEN], lang="en") == "2 (hidden)"
    assert held([HIDDEN], lang="zh") == "1（隐藏）"
