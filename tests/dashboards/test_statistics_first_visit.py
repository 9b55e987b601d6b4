"""What a first visit to the statistics pages shows: the game with the most matches (or the
one last chosen, page after page), and on Win rates why a rating and a win rate differ."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from dashboards.i18n import every_label
from ingest.warehouse.warehouse import open_reader

from .conftest import ROOT

APP = str(ROOT / "dashboards" / "app.py")
STATISTICS = ["sources", "tracks", "win_rates", "balance", "what_if"]


@pytest.fixture
def first_visit(warehouse, monkeypatch):
    """The app as a new session opens it, on `page`, with nothing chosen."""
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(warehouse))

    def open_page(page: str, lang: str = "en") -> AppTest:
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params["lang"] = lang
        at.run()
        at.switch_page(f"app_pages/{page}.py")
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    return open_page


def _most_played(warehouse) -> str:
    [(game,)] = (
        open_reader(warehouse)
        .execute(
            "SELECT game FROM games WHERE experiment IS NULL GROUP BY game "
            "ORDER BY count(*) DESC, game LIMIT 1"
        )
        .fetchall()
    )
    return str(game)


@pytest.mark.parametrize("page", STATISTICS)
def test_a_statistics_page_opens_on_the_game_with_the_most_matches(first_visit, warehouse, page):
    at = first_visit(page)
    most = _most_played(warehouse)
    assert most != "albus-academy"  # the first game by name: the pages opened on it
    assert at.selectbox(key="filter-game").value == most
    assert at.query_params["filter-game"] == most


def test_the_game_chosen_stays_chosen_on_the_next_statistics_page(first_visit):
    at = first_visit("win_rates")
    at.selectbox(key="filter-game").set_value("paladins").run()
    at.switch_page("app_pages/balance.py")
    at.run()
    assert at.selectbox(key="filter-game").value == "paladins"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_win_rates_say_why_a_rating_and_a_win_rate_differ(first_visit, lang):
    at = first_visit("win_rates", lang)
    said = every_label()["rating_not_win_rate"][lang]
    assert said in [caption.value for caption in at.caption]
    assert "docs/ratings.md" in said
    heading = "## A rating and a win rate"
    assert heading in (ROOT / "docs" / "ratings.md").read_text("utf-8")
