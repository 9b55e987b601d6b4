"""The Paladins catalogue (paladins-catalogue.md §1–§5): strict decoding with errors naming
the entry and field, the load checks 1 to 5, the shipped sample, and finding catalogues."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from ingest.cli import main
from ingest.files import catalogues
from ingest.pipeline.pipeline import ingest
from ingest.warehouse.warehouse import open_reader
from replay.errors import ReplayError
from replay.games.paladins import catalogue
from replay.games.paladins.catalogue import CatalogueError, parse
from replay.games.paladins.config import STANDARD, Config
from replay.games.paladins.effects import Ability, End
from replay.replayer import open_log, replay
from tests.support import CATALOGUES

SAMPLE = Path(__file__).parents[2] / "data" / "catalogues" / "paladins" / "squire-sample-1.toml"
TEXT = SAMPLE.read_text()
# A published (name, version) never changes: this is the file squire-sample 1 was published as.
SAMPLE_SHA256 = "aa6d17f44e36bf5462e2b9783bb39bad594e370899e21a9b141f000a32db9698"


def _parse(text: str, config: Config = STANDARD) -> catalogue.Catalogue:
    return parse(text.encode(), config, "test.toml")


def _error(text: str, config: Config = STANDARD) -> CatalogueError:
    with pytest.raises(CatalogueError) as caught:
        _parse(text, config)
    return caught.value


def _edit(entry: str, old: str, new: str) -> str:
    """The sample with one line of one entry changed (the entry found by its id line)."""
    start = TEXT.index(f'id = "{entry}"\n')
    end = TEXT.index("\n\n", start)
    block = TEXT[start:end]
    assert old in block, (entry, old)
    return TEXT[:start] + block.replace(old, new, 1) + TEXT[end:]


def test_the_shipped_sample_loads_whole_and_unchanged():
    found = _parse(TEXT)
    assert (found.name, found.version) == ("squire-sample", "1")
    assert found.sha256 == SAMPLE_SHA256
    assert {kind: len(ids) for kind, ids in found.entries.items()} == {
        "paladin": 12,
        "tavern": 15,
        "order": 6,
        "favour": 8,
        "townsfolk": 30,
        "outsider": 30,
        "wall": 24,
        "suspicion": 16,
        "square": 30,
    }
    # Read by hand from §5.
    assert found.field("paladin", "pal-10", "ability") == Ability(
        kind="discount", act="attack", cost={"silver": 2}
    )
    assert found.field("paladin", "pal-12", "bonus") == {"faith": 1, "str": 1, "inf": 1}
    assert found.field("outsider", "out-30", "end") == End(
        kind="if", vp=4, condition=(("monks", 3), ("outposts", 3))
    )
    assert found.field("outsider", "out-21", "end") == End(
        kind="per", vp=2, per=1, counter="regions"
    )
    assert found.field("townsfolk", "tf-12", "quest") == {"white": 1, "green": 1, "silver": 1}
    assert found.field("favour", "fav-3", "effect") == "recruit"
    assert found.field("favour", "fav-7", "cost") == {"silver": 1, "prov": 1}
    assert found.entry("suspicion", "sus-16").inquisition
    assert [s for s in found.ids("square") if found.entry("square", s).players == 3] == [
        f"r{region}-{n}" for region in range(1, 6) for n in (5, 6)
    ]


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        (_edit("tf-02", "cost = 1", 'cost = "one"'), "townsfolk tf-02.cost", "Expected int"),
        (_edit("tf-02", "cost = 1", "cost = -1"), "townsfolk tf-02.cost", ">= 0"),
        (
            _edit("wall-03", 'reward = "1str 1prov"', 'reward = "1str 1prov"\ncolour = "red"'),
            "wall wall-03.colour",
            "unknown field",
        ),
        (_edit("ord-2", '\ncondition = "monks >= 4"', ""), "order ord-2.condition", "missing"),
        (TEXT + '\n[[dragon]]\nid = "d-1"\n', "test.toml", "unknown kind [[dragon]]"),
        (_edit("pal-03", 'id = "pal-03"', 'id = "Pal_03"'), "paladin Pal_03.id", "lowercase"),
        (_edit("pal-03", 'id = "pal-03"', 'id = "pal-02"'), "paladin pal-02.id", "second"),
        (
            TEXT.replace('version = "1"', "version = 1", 1),
            "test.toml [catalogue].version",
            "Expected str",
        ),
    ],
)
def test_decoding_is_strict_and_names_the_entry_and_field(text, where, says):
    err = _error(text)
    assert err.where == where and says in err.message and err.check == 0


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        (_edit("tf-01", 'quest = "3prov"', 'quest = "3gold"'), "townsfolk tf-01.quest", "gold"),
        (
            _edit("tf-01", 'quest = "3prov"', 'quest = "3prov 1prov"'),
            "townsfolk tf-01.quest",
            "twice",
        ),
        (
            _edit("tf-01", 'quest = "3prov"', 'quest = "3prov  1vp"'),
            "townsfolk tf-01.quest",
            "single spaces",
        ),
        (
            _edit("tf-01", 'ability = "action hunt: 1prov"', 'ability = "whenever hunt: 1prov"'),
            "townsfolk tf-01.ability",
            "not one of",
        ),
        (
            _edit("tf-01", 'ability = "action hunt: 1prov"', 'ability = "action fish: 1prov"'),
            "townsfolk tf-01.ability",
            "unknown act",
        ),
        (
            _edit("ord-1", 'condition = "walls >= 5"', 'condition = "towers >= 5"'),
            "order ord-1.condition",
            "unknown counter",
        ),
        (
            _edit("out-01", 'end = "1vp per 2 walls"', 'end = "1vp each wall"'),
            "outsider out-01.end",
            "not '-'",
        ),
        (
            _edit("fav-1", 'slots = "white any"', 'slots = "white gold"'),
            "favour fav-1.slots",
            "'gold'",
        ),
        (
            _edit(
                "tav-01", 'workers = "white white green blue"', 'workers = "white any green blue"'
            ),
            "tavern tav-01.workers",
            "'any'",
        ),
    ],
)
def test_check_1_every_string_parses(text, where, says):
    err = _error(text)
    assert (err.where, err.check) == (where, 1) and says in err.message


def test_check_1_enough_of_each_kind_for_the_ruleset():
    assert _error(TEXT, Config(rounds=11)).where == "paladin"  # 11 + 3 - 1 = 13 > 12
    err = _error(TEXT, Config(townsfolk_slots=31, debt_slots=2))
    assert (err.where, err.check) == ("townsfolk", 1) and "at least 31" in err.message
    no_walls = re.sub(r'\[\[wall\]\]\nid = "wall-\d+"\nreward = "[^"]*"\n\n?', "", TEXT)
    assert (_error(no_walls).where, _error(no_walls).check) == ("wall", 1)


def test_check_2_worker_counts_and_favour_slots():
    err = _error(_edit("pal-01", 'workers = "red red"', 'workers = "red red red"'))
    assert (err.where, err.check) == ("paladin pal-01.workers", 2)
    err = _error(_edit("tav-02", 'workers = "white white red black"', 'workers = "white red"'))
    assert (err.where, err.check) == ("tavern tav-02.workers", 2)
    err = _error(_edit("fav-8", 'slots = "any any"', 'slots = "any any any any"'))
    assert (err.where, err.check) == ("favour fav-8.slots", 2)


def test_check_3_walls_give_strength_and_attacks_influence():
    err = _error(_edit("wall-01", 'reward = "1str 1vp"', 'reward = "1vp"'))
    assert (err.where, err.check) == ("wall wall-01.reward", 3)
    err = _error(_edit("out-02", 'attack = "1inf 1prov"', 'attack = "1prov"'))
    assert (err.where, err.check) == ("outsider out-02.attack", 3)


def test_check_4_discounts_lower_what_the_act_costs_and_paladins_have_two_kinds():
    err = _error(
        _edit(
            "tf-03",
            'ability = "discount build_wall: 1prov"',
            'ability = "discount build_wall: 1silver"',
        )
    )
    assert (err.where, err.check) == ("townsfolk tf-03.ability", 4) and "no silver" in err.message
    err = _error(_edit("pal-01", 'ability = "action attack: 1vp"', 'ability = "round_end: 1vp"'))
    assert (err.where, err.check) == ("paladin pal-01.ability", 4)
    err = _error(
        _edit("tf-02", 'ability = "action trade: 1silver"', 'ability = "discount hunt: 1prov"')
    )
    assert err.check == 4 and "costs nothing" in err.message


def test_check_5_squares_fit_the_regions_and_every_region_opens_to_one_player():
    err = _error(_edit("r2-1", "region = 2", "region = 6"))
    assert (err.where, err.check) == ("square r2-1.region", 5)
    err = _error(_edit("r2-5", "players = 3", "players = 2"))
    assert (err.where, err.check) == ("square r2-5.players", 5)
    closed = TEXT
    for n in range(1, 5):
        closed = closed.replace(
            f'id = "r4-{n}"\nregion = 4\nplayers = 1', f'id = "r4-{n}"\nregion = 4\nplayers = 3'
        )
    err = _error(closed)
    assert (err.where, err.check) == ("square", 5) and "region 4" in err.message


def test_a_players_own_folder_is_searched_after_the_shipped_one(tmp_path, monkeypatch):
    own = tmp_path / "mine"
    own.mkdir()
    (own / "club.toml").write_text(TEXT.replace('version = "1"', 'version = "club-2"', 1))
    (own / "copy.toml").write_text(TEXT.replace("Hill Bandits", "Hill Robbers"))  # same pair
    (own / "broken.toml").write_text("[catalogue\n")
    monkeypatch.setenv("SQUIRE_CATALOGUES", str(own))
    found = catalogues.available("paladins")
    assert set(found) == {("squire-sample", "1"), ("squire-sample", "club-2")}
    assert found["squire-sample", "1"].shipped  # a published pair is never replaced
    club = catalogues.load("paladins", "squire-sample", "club-2", catalogues.PARSERS["paladins"])
    assert club.version == "club-2"
    with pytest.raises(CatalogueError, match="not the"):
        catalogues.load(
            "paladins", "squire-sample", "1", catalogues.PARSERS["paladins"], sha256="0" * 64
        )
    with pytest.raises(CatalogueError, match="known: squire-sample 1, squire-sample club-2"):
        catalogues.load("paladins", "nope", "1", catalogues.PARSERS["paladins"])
    assert any(isinstance(f, CatalogueError) for f in catalogues.scan("paladins"))


def test_the_command_lists_and_checks_catalogues(tmp_path, capsys):
    assert main(["catalogues"]) == 0
    assert "squire-sample 1  [shipped]" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text(_edit("wall-01", 'reward = "1str 1vp"', 'reward = "1vp"'))
    assert main(["catalogues", "paladins", "--check", str(SAMPLE), str(bad)]) == 1
    out, err = capsys.readouterr()
    assert "squire-sample 1 ok" in out
    assert "wall wall-01.reward: check 3: every wall gives strength" in err


def test_the_warehouse_keeps_a_players_catalogue_so_its_matches_replay_anywhere(
    tmp_path, monkeypatch
):
    own = tmp_path / "mine"
    own.mkdir()
    club = TEXT.replace('version = "1"', 'version = "club-2"', 1)  # same components
    (own / "club.toml").write_text(club)
    club_sha256 = hashlib.sha256(club.encode()).hexdigest()
    monkeypatch.setenv("SQUIRE_CATALOGUES", str(own))
    samples = sorted((SAMPLE.parents[3] / "data" / "samples" / "paladins").glob("*.jsonl.gz"))
    lines = gzip.decompress(samples[0].read_bytes()).splitlines()
    header = json.loads(lines[0])
    header["game_id"] += "-club"
    header["catalogue"] = {"name": "squire-sample", "version": "club-2"}  # no sha256 recorded
    log = tmp_path / "club.jsonl"
    log.write_bytes(b"\n".join([json.dumps(header).encode(), *lines[1:]]) + b"\n")
    db = tmp_path / "warehouse"

    summary = ingest([log, samples[1]], db=db, jobs=1)
    assert (summary.ingested, summary.rejects) == (2, [])
    kept = db / "catalogues" / "paladins"
    assert [p.name for p in kept.iterdir()] == [f"{club_sha256}.toml"]  # not the shipped one
    assert (kept / f"{club_sha256}.toml").read_text() == club

    # Elsewhere: no SQUIRE_CATALOGUES, the club's folder gone; only the warehouse has the file.
    monkeypatch.delenv("SQUIRE_CATALOGUES")
    shutil.rmtree(own)
    with pytest.raises(
        ReplayError,
        match="PA-42: catalogue: no paladins catalogue 'squire-sample' version 'club-2'",
    ):
        open_log(log.read_bytes(), str(log), catalogues=CATALOGUES)
    outcome = replay(open_log(log.read_bytes(), str(log), catalogues=catalogues.Library(db)))
    stored = (
        open_reader(db)
        .execute("SELECT score FROM seats WHERE game_id = ? ORDER BY seat", [header["game_id"]])
        .fetchall()
    )
    assert [score for (score,) in stored] == outcome.result.scores
    assert catalogues.available("paladins", db)["squire-sample", "club-2"].origin == "kept"

    again = ingest([log], db=db, jobs=1)  # a later ingest finds the kept copy too
    assert (again.present, again.rejects) == (1, [])
