"""The Albus Academy catalogue (albus-catalogue.md §1–§5): strict decoding, the load checks,
the shipped sample, and a player's own catalogue found in their folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.files import catalogues
from replay.catalogues import CatalogueError
from replay.games.albus_academy.catalogue import parse

SAMPLE = Path(__file__).parents[2] / "data" / "catalogues" / "albus-academy" / "albus-sample-1.toml"
TEXT = SAMPLE.read_text()


def _error(text: str) -> CatalogueError:
    with pytest.raises(CatalogueError) as caught:
        parse(text.encode(), "test.toml")
    return caught.value


def test_the_shipped_sample_holds_what_section_5_lists():
    cat = parse(SAMPLE.read_bytes())
    assert (cat.name, cat.version) == ("albus-sample", "1")
    assert len(cat.tiles) == 23 and sum(cat.bag().values()) == 40
    kinds = [h.kind for h in cat.homework.values()]
    assert kinds.count("spell") == 20 and kinds.count("item") == 20
    assert cat.steps["T13"] == (frozenset({"will", "shard"}),)
    assert cat.steps["T23"] == (frozenset({"will"}), frozenset({"will"}), frozenset({"shard"}))
    assert cat.terms["I03"]["use"] == (("shard-", 1), ("will+", 3))
    assert cat.terms["I19"]["end"] == (("leftover/", 3),)
    assert cat.corners["se"].edges == "o--o"


@pytest.mark.parametrize(
    ("old", "new", "check", "says"),
    [
        ('version = "1"', 'version = ""', 1, "must not be empty"),
        ('{ id = "T02"', '{ id = "T01"', 1, "second entry"),
        ('{ id = "T02"', '{ id = "T 02"', 1, "ids are"),
        ('edges = "o-o-", actions = "shard" }', 'edges = "o-O-", actions = "shard" }', 2, "4 of"),
        ('actions = "will+will+shard"', 'actions = "will+will+shard+tile+item"', 3, "1 to 4"),
        ('actions = "chaos"', 'actions = "chaos/will"', 3, "chaos stands alone"),
        ('actions = "will/shard"', 'actions = "will/will"', 3, "distinct"),
        ('use = "will+2"', 'use = "per_spell+2"', 4, "not allowed in use"),
        ('effect = "shard+2" }', 'effect = "shard+2", use = "will+1" }', 4, "a spell has no use"),
        ('se = { edges = "o--o", actions = "homework" }', "", 5, "corner 'se' is missing"),
    ],
)
def test_each_load_check_refuses_a_broken_catalogue(old, new, check, says):
    assert old in TEXT, old
    err = _error(TEXT.replace(old, new, 1))
    assert err.check == check and says in err.message


def test_decoding_is_strict():
    err = _error(TEXT.replace('{ id = "T02"', '{ colour = "red", id = "T02"', 1))
    assert err.check == 0 and "colour" in str(err)
    err = _error(TEXT.replace("cost = 2, prestige = 1 }", 'cost = "two", prestige = 1 }', 1))
    assert "Expected `int`" in str(err)


def test_a_players_own_catalogue_is_found_in_their_folder(tmp_path, monkeypatch):
    own = tmp_path / "albus-academy"
    own.mkdir()
    (own / "house.toml").write_text(TEXT.replace('version = "1"', 'version = "house-1"', 1))
    monkeypatch.setenv("SQUIRE_CATALOGUES", str(tmp_path))
    found = catalogues.available("albus-academy")
    assert set(found) == {("albus-sample", "1"), ("albus-sample", "house-1")}
    assert not found["albus-sample", "house-1"].shipped
