"""Every page headless (Streamlit AppTest) on the sample warehouse: no exception, the
widgets there, and the numbers shown equal to SQL on the warehouse or to the replayer."""

from __future__ import annotations

import gzip
import io
import json
import re
import shutil
import tomllib

import msgspec
import pandas as pd
import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from dashboards import queries
from dashboards.common import plain
from dashboards.i18n import LANGUAGES, every_label
from dashboards.tables import csv_bytes, parquet_bytes
from ingest.cli import main
from ingest.warehouse.warehouse import announce, open_reader
from replay.registry import GAMES

from .conftest import ROOT
from .untranslated import shown as words_of
from .untranslated import untranslated

LABELS = every_label()  # the shared words and every game's own

APP = str(ROOT / "dashboards" / "app.py")
PAGES = [
    "viewer",
    "sources",
    "tracks",
    "win_rates",
    "balance",
    "what_if",
    "player",
    "record",
    "upload",
]
# the pages with the filters
STATISTICS = ["sources", "tracks", "win_rates", "balance", "what_if"]
NOTATION = {"", "p", "dof", "chi²"}  # column headers read the same in every language


@pytest.fixture
def app(warehouse, monkeypatch):
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(warehouse))

    def open_page(
        page: str | None = None, lang: str = "en", of: str = "knight-academy", **params: str
    ) -> AppTest:
        """A page, with the game `of` chosen in the statistics filters where it has them."""
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params["lang"] = lang
        if page in STATISTICS:  # the statistics filters' game, chosen before the page runs
            at.session_state["filter-game"] = of
        for key, value in params.items():
            at.query_params[key] = value
        at.run()
        if page:
            at.switch_page(f"app_pages/{page}.py")
            at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    return open_page


def sql(warehouse, text: str, params=()):
    """Rows of SQL on the warehouse; `params` named (a dict) or positional."""
    bound = params if isinstance(params, dict) else list(params)
    return open_reader(warehouse).execute(text, bound).fetchall()


# A page that shows no game of its own (a player's, the upload) once; the others for each game.
EACH_GAME = ["knight-academy", "heraldry", "paladins", "albus-academy"]
RENDERS = [
    (page, lang, of)
    for page in PAGES
    for lang in ("en", "zh")
    for of in (EACH_GAME if page not in ("player", "record", "upload") else EACH_GAME[:1])
]


@pytest.mark.parametrize(("page", "lang", "of"), RENDERS)
def test_every_page_renders_in_both_languages_for_each_game(app, names, page, lang, of):
    # the viewer opens a match of the game, in the middle of it
    match = {"game": EXAMPLE[of], "step": "40"} if page == "viewer" else {}
    at = app(page, lang=lang, of=of, **match)
    assert at.title, "each page has a title"
    if page in STATISTICS:  # every column header is a label in the page's language
        labels = {entry[lang] for entry in LABELS.values()}
        for frame in at.dataframe:
            for column in frame.value.columns:
                assert column in LABELS or column in labels or column in NOTATION, column
    if lang == "zh":  # the Chinese page has no English word left but names and ids
        left = untranslated(words_of(at._tree), names)
        assert not left, sorted(left)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("of", EACH_GAME)
def test_the_record_page_takes_up_a_match_of_each_game_in_both_languages(
    app, names, warehouse, of, lang
):
    """A match being recorded (a sample's first 40 entries, kept as a draft on the server)
    opens where it was: its buttons, its board, its entries in words, in either language."""
    from dashboards.record.scribe import enter_log
    from ingest.files.catalogues import Library
    from ingest.warehouse import drafts

    sample = sorted((ROOT / "data" / "samples" / of).glob("*.jsonl.gz"))[0]
    lines = gzip.decompress(sample.read_bytes()).splitlines()
    header = msgspec.json.decode(lines[0])
    name = f"{GAMES[of].short}-20261204-0000-{lang}00"
    header.update(game_id=name, source="human")
    header.pop("agents", None)
    data = b"\n".join([msgspec.json.encode(header), *lines[1:41]]) + b"\n"
    entry = enter_log(data, Library()).entry
    drafts.save(warehouse, name, entry.draft())
    try:
        at = app("record", lang=lang, draft=name)
        assert at.title
        shown = " ".join(words_of(at._tree))
        assert plain(name) in shown
        assert at.button, "the next entry's buttons, or the hand-over's"
        if lang == "zh":
            left = untranslated(words_of(at._tree), names | {name})
            assert not left, sorted(left)
    finally:
        drafts.remove(warehouse, name)


def test_the_record_page_says_a_draft_named_in_the_address_is_not_there(app):
    for name in ("../../etc/passwd", "ka-20261204-0000-none"):
        at = app("record", draft=name)
        assert [w.value for w in at.warning] == [LABELS["rec_gone"]["en"]]


EXAMPLE = {
    "knight-academy": "ka-example-4p",
    "heraldry": "he-example-3p",
    "paladins": "pa-example-3p",
    "albus-academy": "aa-example-3p",
}


@pytest.fixture(scope="module")
def names(warehouse) -> set[str]:
    """The names and ids a page may show in any language: the players and bots of the stored
    matches, their ids and rule sets, and the shipped catalogues' own names (their components
    have Chinese names of their own, data/catalogues/<game>/names/)."""
    found: set[str] = set()
    for (value,) in sql(
        warehouse,
        "SELECT DISTINCT player FROM seats UNION SELECT DISTINCT agent FROM seats "
        "UNION SELECT DISTINCT game_id FROM games UNION SELECT DISTINCT ruleset FROM games",
    ):
        found.add(str(value))
    for path in (ROOT / "data" / "catalogues").glob("*/*.toml"):
        document = tomllib.loads(path.read_text("utf-8"))
        found |= set(_names_in(document.get("catalogue", {}))) | {str(document.get("name", ""))}
    for game in GAMES.values():  # the rule numbers' keys, as What if's changes name them
        for config in game.rulesets.values():
            found |= set(_keys_in(msgspec.to_builtins(config)))
    return found


def _keys_in(node: object):
    if isinstance(node, dict):
        for key, value in node.items():
            yield str(key)
            yield from _keys_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from _keys_in(value)


def _names_in(node: object):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("name", "title", "description") and isinstance(value, str):
                yield value
            else:
                yield from _names_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from _names_in(value)


def test_every_label_is_written_in_both_languages():
    for key, entry in LABELS.items():
        assert set(entry) == set(LANGUAGES) and all(entry.values()), key


def test_the_overview_counts_the_stored_matches(app, warehouse):
    at = app()
    counts = sql(warehouse, "SELECT count(*) FROM games GROUP BY game")  # one metric a game
    assert sorted(m.value for m in at.metric) == sorted(f"{n:,} matches" for (n,) in counts)
    # people's matches alone: the examples (no seat names a bot), by their logs
    at.multiselect(key="home-origin").set_value(["human"]).run()
    people = sql(
        warehouse,
        "SELECT count(*) FILTER (WHERE NOT header LIKE '%\"agents\"%') FROM games GROUP BY game",
    )
    assert sorted(m.value for m in at.metric) == sorted(f"{n:,} matches" for (n,) in people)


def test_a_version_chosen_in_the_sidebar_shows_the_matches_stored_by_then_and_the_address_keeps_it(
    tmp_path, monkeypatch
):
    from ingest.pipeline.pipeline import ingest
    from ingest.warehouse import store

    db = tmp_path / "warehouse"
    first = ingest([ROOT / "tests" / "knight_academy" / "logs"], db=db, jobs=1)
    then = store.snapshot(db).version
    second = ingest([ROOT / "tests" / "heraldry" / "logs"], db=db, jobs=1)
    assert first.ingested and second.ingested and store.snapshot(db).version > then
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(db))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["as-of"] = str(then)  # a link to the warehouse as it stood then
    at.run()
    assert not at.exception
    # the matches the engines replayed from the first folder alone, as the ingest counted them
    assert [(m.label, m.value) for m in at.metric] == [
        ("Knight Academy", f"{first.ingested:,} matches")
    ]
    assert at.sidebar.selectbox(key="as-of").value == str(then)
    at.sidebar.selectbox(key="as-of").set_value("").run()  # the latest
    assert sorted((m.label, m.value) for m in at.metric) == [
        ("Heraldry", f"{second.ingested:,} matches"),
        ("Knight Academy", f"{first.ingested:,} matches"),
    ]
    assert "as-of" not in at.query_params
    at.sidebar.selectbox(key="as-of").set_value(str(then)).run()
    assert at.query_params["as-of"] == str(then)
    assert len(at.metric) == 1


def test_the_ratings_on_a_page_are_those_of_the_version_chosen(app, tmp_path, monkeypatch, capsys):
    """A leaderboard quoted from a version reads the same once more matches of the game have
    been rated: that of a warehouse holding that version's logs alone."""
    from ingest.pipeline.pipeline import ingest
    from ingest.warehouse import store

    first, more = ROOT / "tests" / "knight_academy" / "logs", tmp_path / "more"
    more.mkdir()
    for f in sorted((ROOT / "data" / "samples" / "knight-academy").iterdir())[:12]:
        shutil.copy(f, more / f.name)
    db, alone = tmp_path / "warehouse", tmp_path / "alone"
    ingest([first], db=db, jobs=1)
    then = store.snapshot(db).version
    ingest([more], db=db, jobs=1)
    ingest([first], db=alone, jobs=1)
    assert main(["ratings", "knight-academy", "--db", str(alone), "--json"]) == 0
    want = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(db))

    def shown(at) -> list[tuple[str, float]]:
        return [(n, r) for table in _ratings(at) for n, r in zip(table["name"], table["rating"])]

    at = app("win_rates", **{"as-of": str(then)})
    assert shown(at) == [(r["name"], pytest.approx(r["rating"])) for r in want]
    at.sidebar.selectbox(key="as-of").set_value("").run()  # the latest: more matches rated
    assert not at.exception
    assert shown(at) != [(r["name"], pytest.approx(r["rating"])) for r in want]
    # The samples were played before the examples were ingested (which have no time of their
    # own), so the game was rated again from its start: the version's ratings are rated
    # afresh, on a player's page too.
    at = app("player", **{"as-of": str(then), "name": "Ann"})
    [table] = [
        d.value for d in at.dataframe if {"game", "rating", "matches"} <= set(d.value.columns)
    ]
    [ann] = [r for r in want if r["name"] == "Ann"]
    assert table["rating"].tolist() == [pytest.approx(ann["rating"])]
    assert table["matches"].tolist() == [ann["matches"]]


def test_the_viewer_shows_exactly_what_replay_step_shows(app, capsys):
    at = app("viewer", game="ka-example-4p", step="120")
    assert at.slider[0].value == 120
    assert (
        main(
            [
                "replay",
                "--json",
                "--step",
                "120",
                str(ROOT / "tests" / "knight_academy" / "logs" / "ka-example-4p.jsonl"),
            ]
        )
        == 0
    )
    view = json.loads(capsys.readouterr().out)
    from dashboards.boards.knight_academy.sentences import card

    counts = next(f.value for f in at.dataframe if "Deck" in f.value.columns)
    assert (counts["Deck"][0], counts["Discard"][0]) == (view["deck"], view["discard"])
    seats = next(f.value for f in at.dataframe if "Picked" in f.value.columns)
    assert seats["Score"].tolist() == [s["score"] for s in view["seats"].values()]
    assert seats["Picked"].tolist() == [
        ", ".join(card(c, "en") for c in s["picked"]) for s in view["seats"].values()
    ]


def test_the_viewer_hides_other_hands_from_one_players_perspective(app):
    at = app("viewer", game="ka-example-4p", step="10")
    at.radio(key="perspective").set_value("Ann").run()
    seats = next(f.value for f in at.dataframe if "Player" in f.value.columns).set_index("Player")
    assert "hidden" in seats.loc["Bob", "Hand"] and "hidden" not in seats.loc["Ann", "Hand"]


def test_the_viewer_opens_the_latest_match_with_the_finder_folded_and_folds_it_once_one_is_chosen(
    app, warehouse
):
    at = app("viewer")
    [(latest,)] = sql(warehouse, queries.LATEST_MATCH)
    assert at.text_input(key="game").value == latest
    assert not at.expander[0].proto.expanded  # the board first, on a phone too
    at.session_state["finder-open"] = True
    at.run()
    at.selectbox(key="finder-game").set_value("heraldry").run()
    listed = [label.split(" — ")[0] for label in at.selectbox(key="finder").options[1:]]
    assert listed and all(game_id.startswith("he-") for game_id in listed)
    at.selectbox(key="finder").set_value(listed[-1]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.text_input(key="game").value == listed[-1]
    assert at.slider[0].value == 0
    # Folded, the finder's choices are not drawn, nor its matches looked up; open, they are.
    assert not at.expander[0].proto.expanded
    assert "finder-game" not in [box.key for box in at.selectbox]
    at.session_state["finder-open"] = True
    at.run()
    assert at.selectbox(key="finder-game").value is None


def test_the_days_played_and_the_latest_match_are_those_of_the_rows(warehouse):
    """Asked by their extremes (cheaper at a million matches), answered as row by row."""
    played = "coalesce(played_at, ingested_at)"
    assert sql(warehouse, queries.LATEST_MATCH) == sql(
        warehouse,
        f"SELECT game_id FROM games WHERE experiment IS NULL ORDER BY {played} DESC, game_id "
        "LIMIT 1",
    )
    totals = sql(warehouse, queries.GAME_TOTALS)
    assert [(game, first, last) for game, *_, first, last in totals] == sql(
        warehouse,
        f"SELECT game, min(CAST({played} AS DATE)), max(CAST({played} AS DATE)) FROM games "
        "GROUP BY game ORDER BY game",
    )


def test_a_link_opens_its_match_with_the_finder_folded(app):
    at = app("viewer", game="he-example-2p", step="3")
    assert not at.expander[0].proto.expanded
    assert "finder" not in [box.key for box in at.selectbox]
    assert at.text_input(key="game").value == "he-example-2p" and at.slider[0].value == 3


def test_next_and_jump_move_the_step(app):
    at = app("viewer", game="ka-example-4p", step="5")
    next_button = next(b for b in at.button if "Next" in b.label)
    next_button.click().run()
    assert at.slider[0].value == 6
    jump = at.selectbox(key="jump")
    target = [option for option in jump.options if "Round 2" in str(option)]
    assert target, jump.options


def _win_rates_by(at, dimension: str, lang: str = "en"):
    """The win rates page's table by one dimension (named by its first column)."""
    [frame] = [d.value for d in at.dataframe if d.value.columns[0] == dimension]
    return frame


def _ratings(at) -> list:
    """The ratings' tables of a page, in order: the people's, then the bots'."""
    return [d.value for d in at.dataframe if {"rating", "page"} <= set(d.value.columns)]


def test_win_rates_by_seat_equal_sql(app, warehouse):
    at = app("win_rates")
    shown = _win_rates_by(at, "seat")
    want = sql(
        warehouse,
        """
        SELECT position + 1, count(*), count(*) FILTER (WHERE won) FROM seat_results
        WHERE NOT neutral AND game = 'knight-academy' GROUP BY 1 ORDER BY 1""",
    )
    assert [tuple(row) for row in shown.iloc[:, :3].itertuples(index=False)] == want


def test_source_means_equal_sql(app, warehouse):
    at = app("sources")
    shown = at.dataframe[0].value
    joust_winners = shown[(shown["source"] == "Joust") & (shown.iloc[:, 1] == "Winners")]
    [(mean,)] = sql(
        warehouse,
        """SELECT avg(points) FROM points_by_source
                                  WHERE source = 'joust' AND won AND NOT neutral""",
    )
    assert joust_winners["mean"].iloc[0] == pytest.approx(mean)


def test_balance_runs_the_seat_test_and_lists_every_card(app, warehouse):
    at = app("balance")
    frames = [d.value for d in at.dataframe]
    assert any("p" in f.columns and "chi_square" in f.columns for f in frames)
    cards = next(f for f in frames if "card" in f.columns)
    assert len(cards) == len(
        sql(
            warehouse,
            "SELECT DISTINCT json_extract_string(payload, "
            "'$.card') FROM events WHERE kind = 'pick'",
        )
    )


def test_tables_download_as_csv_and_parquet():
    frame = pl.DataFrame({"a": [1, 2], "b": ["x", "骑士"]})
    assert csv_bytes(frame).decode() == "a,b\n1,x\n2,骑士\n"
    assert pl.read_parquet(io.BytesIO(parquet_bytes(frame))).equals(frame)


@pytest.mark.parametrize("path", ["viewer", "sources"])
def test_a_download_makes_its_file_without_rerunning_the_page(app, path):
    # A rerun would replace the button's file with a new one, and Streamlit drops the old
    # one as the rerun ends: a click whose file was not yet made then downloads nothing.
    at = app(path, game="ka-example-4p") if path == "viewer" else app(path)
    buttons = at.get("download_button")
    assert buttons
    for button in buttons:
        assert button.proto.deferred_file_id, button.proto.label  # made when clicked
        assert button.proto.ignore_rerun, button.proto.label


def test_upload_ingests_good_logs_and_shows_rejects(tmp_path, monkeypatch):
    db = tmp_path / "uploads"
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(db))
    good = (ROOT / "tests" / "knight_academy" / "logs" / "ka-example-3p.jsonl").read_bytes()
    bad = good.replace(b'"card": "king-5"', b'"card": "king-9"', 1)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/upload.py").run()
    uploader = at.get("file_uploader")[0]
    uploader.upload("good.jsonl", good).upload("bad.jsonl", bad)
    at.run()
    at.button(key="ingest").click().run()
    assert not at.exception
    # A file rejected: the summary is a warning, not a success.
    assert not at.success and "1 ingested" in at.warning[0].value
    rejects = at.dataframe[0].value
    assert rejects["file"].tolist() == ["bad.jsonl"] and rejects["rule"].tolist() == ["KA-2"]
    assert sql(db, "SELECT count(*) FROM games") == [(1,)]


@pytest.mark.parametrize("page", [None, *PAGES])
def test_every_page_works_on_an_empty_warehouse_and_says_how_to_add_matches(
    tmp_path, monkeypatch, page
):
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(tmp_path / "nothing-yet"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    if page:
        at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    if page not in ("upload", "record"):  # the pages that add matches
        assert [i.value for i in at.info] == [LABELS["empty"]["en"]]
    if page == "record":
        assert at.button(key="rec-begin"), "a match is recorded into an empty warehouse too"


def _upload(db, monkeypatch, files) -> AppTest:
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(db))
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("app_pages/upload.py").run()
    uploader = at.get("file_uploader")[0]
    for name, data in files:
        uploader.upload(name, data)
    at.run()
    at.button(key="ingest").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_hostile_uploads_are_rejected_under_the_names_given_and_the_good_logs_stored(
    tmp_path, monkeypatch
):
    from tests.attacks import attacks

    hostile = attacks()
    chosen = [
        "nul-bomb.jsonl.gz",
        "field-bomb.jsonl.gz",
        "cut.jsonl.gz",
        "deep-event.jsonl",
        "forged-name.jsonl",
        "board-of-a-billion.jsonl",
    ]
    good = (ROOT / "tests" / "knight_academy" / "logs" / "ka-example-3p.jsonl").read_bytes()
    long_name = "l" * 250 + ".jsonl"  # too long to be a file name anywhere
    files = [
        ("good.jsonl", good),
        (long_name, hostile["cut.jsonl.gz"][0]),
        *((name, hostile[name][0]) for name in chosen),
    ]
    db = tmp_path / "wh"
    at = _upload(db, monkeypatch, files)
    assert "8 logs: 1 ingested, 0 already present, 0 conflicts, 7 rejected" in at.warning[0].value
    shown = at.dataframe[0].value
    assert sorted(zip(shown["file"], shown["line"], shown["rule"])) == sorted(
        [(long_name, hostile["cut.jsonl.gz"][1], "LOG-7")]
        + [(name, hostile[name][1], hostile[name][2]) for name in chosen]
    )
    assert "x\\ny:1" in shown["message"][list(shown["file"]).index("forged-name.jsonl")]
    stored = sql(db, "SELECT path, rule FROM rejects ORDER BY path")
    assert sorted(name for name, _ in stored) == sorted([long_name, *chosen])
    # The same bad files again, in a new upload: rejected again, stored once.
    again = _upload(db, monkeypatch, files[1:])
    assert "7 rejected" in again.warning[0].value
    assert sql(db, "SELECT count(*) FROM rejects") == [(7,)]
    assert sql(db, "SELECT game_id FROM games") == [("ka-example-3p",)]


def test_an_upload_beyond_its_limits_is_refused_whole(tmp_path, monkeypatch):
    from ingest.pipeline.upload import UPLOAD_FILES

    good = (ROOT / "tests" / "knight_academy" / "logs" / "ka-example-3p.jsonl").read_bytes()
    at = _upload(
        tmp_path / "wh", monkeypatch, [(f"{i}.jsonl", good) for i in range(UPLOAD_FILES + 1)]
    )
    assert f"an upload takes at most {UPLOAD_FILES}" in at.error[0].value
    assert not at.success and sql(tmp_path / "wh", "SELECT count(*) FROM games") == [(0,)]


def test_a_file_of_16_mib_is_let_through_and_one_byte_more_is_refused():
    import tomllib

    from ingest.pipeline.upload import STREAMLIT_MB, Upload
    from replay.limits import MAX_LOG_BYTES

    # Streamlit's page counts a megabyte as 10^6 bytes: its limit lets 16 MiB through, and
    # not a whole megabyte more; the upload's own check holds a file to 16 MiB exactly.
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] == STREAMLIT_MB
    assert MAX_LOG_BYTES == 16 * 2**20 <= STREAMLIT_MB * 10**6 < MAX_LOG_BYTES + 10**6
    assert Upload([("big.jsonl", MAX_LOG_BYTES)]).refusal() is None
    assert Upload([("big.jsonl", MAX_LOG_BYTES + 1)]).refusal() == (
        "big.jsonl: a file may hold at most 16 MiB"
    )


def test_decisive_sources_by_hand_on_the_three_seat_example(tmp_path):
    # Cid 26 wins over Ann 22 and Fay 16. Without quest: Ann 12, Cid 9, Fay 16 → Fay.
    # Without king: Ann 22, Cid 20, Fay −8 → Ann. Without tournament: Ann 16, Cid 10,
    # Fay 10 → Ann. Without joust (10, 19, 11), education (28, 41, 25) or charity
    # (22, 31, 26) Cid still wins.
    from dashboards import queries
    from dashboards.data import Filters
    from ingest.pipeline.pipeline import ingest

    db = tmp_path / "wh"
    ingest([ROOT / "tests" / "knight_academy" / "logs" / "ka-example-3p.jsonl"], db=db, jobs=1)
    clause, params = Filters(game="knight-academy").where()
    rows = sql(db, queries.DECISIVE_SOURCES.replace("{where}", clause), params)
    assert {source: changed for source, _, changed in rows} == {
        "quest": 1,
        "king": 1,
        "tournament": 1,
        "joust": 0,
        "education": 0,
        "charity": 0,
    }


def _elements(node, kind: str) -> list:
    """Every element of `kind` in the page, however deep in columns (AppTest has no
    accessor for charts)."""
    found = [node] if getattr(node, "type", None) == kind else []
    for child in (getattr(node, "children", None) or {}).values():
        found += _elements(child, kind)
    return found


def test_the_heraldry_viewer_draws_the_map_and_shows_what_replay_step_shows(app, capsys):
    at = app("viewer", game="he-example-2p", step="22")  # line 23: Fay's battle at [1, 0]
    assert (
        main(
            [
                "replay",
                "--json",
                "--step",
                "22",
                str(ROOT / "tests" / "heraldry" / "logs" / "he-example-2p.jsonl"),
            ]
        )
        == 0
    )
    view = json.loads(capsys.readouterr().out)
    seats = next(f.value for f in at.dataframe if "Title" in f.value.columns)
    assert seats["Player"].tolist() == ["Fay", "Ann"]  # a row a player
    assert seats["Score"].tolist() == [s["score"] for s in view["seats"].values()]
    chart, _chances = _elements(at._tree, "plotly_chart")  # the board, then who was winning
    figure = json.loads(chart.proto.spec)
    shapes = figure["layout"]["shapes"]
    outlined = [s for s in shapes if s["line"].get("width") == 4]
    assert len(shapes) == len(view["hexes"]) + len(outlined) and len(outlined) == 2
    knights = [trace for trace in figure["data"] if trace.get("mode") == "markers+text"]
    assert any("2" in trace["text"] for trace in knights)  # Fay's two knights on [1, 0]
    assert any(plain("destroys Ann's village") in m.value for m in at.markdown)  # in words


def test_a_link_chooses_the_statistics_filters_and_the_address_keeps_the_game(app, warehouse):
    at = app("win_rates", **{"filter-game": "heraldry", "filter-players": "3"})
    assert at.sidebar.selectbox(key="filter-game").value == "heraldry"
    assert at.sidebar.multiselect(key="filter-players").value == [3]
    shown = _win_rates_by(at, "seat")
    want = sql(
        warehouse,
        """
        SELECT position + 1, count(*), count(*) FILTER (WHERE won) FROM seat_results
        WHERE NOT neutral AND game = 'heraldry' AND player_count = 3 GROUP BY 1 ORDER BY 1""",
    )
    assert [tuple(row) for row in shown.iloc[:, :3].itertuples(index=False)] == want
    at.sidebar.selectbox(key="filter-game").select("paladins").run()
    assert at.query_params["filter-game"] == "paladins"
    del at.query_params["filter-game"]  # a page reached from the sidebar has no parameters
    del at.query_params["filter-players"]
    at.switch_page("app_pages/balance.py").run()  # the game stays chosen on another page
    assert at.sidebar.selectbox(key="filter-game").value == "paladins"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_link_chooses_where_the_matches_come_from_by_id_in_either_language(app, warehouse, lang):
    """People's matches alone: the link names them by id, whatever the reader's language, and
    the page counts only theirs (the examples; the samples were played by bots)."""
    at = app("win_rates", lang=lang, of="heraldry", **{"filter-origin": "human"})
    assert at.sidebar.multiselect(key="filter-origin").value == ["human"]
    shown = _win_rates_by(at, "seat", lang)
    want = sql(
        warehouse,
        """
        SELECT s.position + 1, count(*), count(*) FILTER (WHERE s.won)
        FROM seat_results s JOIN games g USING (game_id)
        WHERE NOT s.neutral AND s.game = 'heraldry' AND g.origin = 'human'
        GROUP BY 1 ORDER BY 1""",
    )
    assert want and [tuple(r) for r in shown.iloc[:, :3].itertuples(index=False)] == want
    if lang == "en":  # (AppTest finds the other widgets' choices by their English names)
        # choosing both again leaves the address without the choice, as a page opened plainly
        at.sidebar.multiselect(key="filter-origin").select("bot").run()
        assert "filter-origin" not in at.query_params


def test_heraldry_win_rates_count_the_tie_breaks_as_sql_does(app, warehouse):
    at = app("win_rates", of="heraldry")
    shown = _win_rates_by(at, "seat")
    want = sql(
        warehouse,
        """
        SELECT position + 1, count(*), count(*) FILTER (WHERE won),
               count(*) FILTER (WHERE tie_break) FROM seat_results
        WHERE NOT neutral AND game = 'heraldry' GROUP BY 1 ORDER BY 1""",
    )
    assert [tuple(row) for row in shown.iloc[:, :4].itertuples(index=False)] == want
    [(ties,)] = sql(
        warehouse,
        """SELECT count(*) FROM seat_results s WHERE game = 'heraldry'
        AND won AND EXISTS (SELECT 1 FROM seats o WHERE o.game_id = s.game_id AND NOT o.won
                            AND o.score = s.score)""",
    )
    assert sum(row[3] for row in want) == ties > 0


def test_the_paladins_viewer_shows_replay_step_and_hides_a_chosen_paladin(app, capsys):
    # Line 7: both paladins are chosen, none revealed yet (PA-11): secret to the others.
    at = app("viewer", game="pa-example-2p", step="6")
    assert (
        main(
            [
                "replay",
                "--json",
                "--step",
                "6",
                str(ROOT / "tests" / "paladins" / "logs" / "pa-example-2p.jsonl"),
            ]
        )
        == 0
    )
    view = json.loads(capsys.readouterr().out)

    def seats():
        return next(f.value for f in at.dataframe if "Paladin" in f.value.columns).set_index(
            "Player"
        )

    # the paladin by its catalogue name: pal-04 is Delphine, pal-12 Lisette
    assert seats().loc["Ann", "Paladin"] == "Delphine (hidden)"  # open to all, marked secret
    at.radio(key="perspective").set_value("Bob").run()
    assert seats().loc["Ann", "Paladin"] == "hidden"
    assert seats().loc["Bob", "Paladin"].startswith("Lisette")
    assert view["seats"]["Ann"]["paladin"] is None  # not revealed in the replayer's view either
    chart, _chances = _elements(at._tree, "plotly_chart")  # the board, then who was winning
    figure = json.loads(chart.proto.spec)
    assert len(figure["layout"]["shapes"]) == len(view["board"]) == 30
    # the one it was played with, in the caption's Markdown (names escaped, shown as written)
    assert plain("catalogue squire's sample cards") in at.caption[0].value


def test_paladins_track_races_offer_the_three_attributes_and_vp(app):
    at = app("tracks", of="paladins")
    tracks = at.selectbox(key="tracks-track").options
    assert {"Faith", "Strength", "Influence", "VP"} <= set(tracks)


def test_the_albus_viewer_draws_every_board_and_hides_private_homework(app, capsys):
    at = app("viewer", game="aa-example-2p", step="25")
    assert (
        main(
            [
                "replay",
                "--json",
                "--step",
                "25",
                str(ROOT / "tests" / "albus_academy" / "logs" / "aa-example-2p.jsonl"),
            ]
        )
        == 0
    )
    view = json.loads(capsys.readouterr().out)
    seats = next(d.value for d in at.dataframe if "Will" in d.value.columns).set_index("Player")
    assert seats.loc["Ann", "Will"] == view["seats"]["Ann"]["will"]
    assert seats.loc["Bob", "Private homework"] == len(view["seats"]["Bob"]["private"]["homework"])
    at.radio(key="perspective").set_value("Ann").run()
    # Each seat's homework by its catalogue name; Bob's private cards hidden from Ann (the
    # page's tables are the engine's view of Ann), Ann's own named.
    from dashboards.boards.albus_academy import words

    cat = next(c for c in words.candidates() if c.name == "albus-sample")
    cells = " | ".join(str(v) for d in at.dataframe for v in d.value.to_numpy().ravel())
    bobs = view["seats"]["Bob"]["private"]["homework"]
    anns = view["seats"]["Ann"]["private"]["homework"]
    assert bobs and anns and "(hidden)" in cells
    assert all(words.name(cat, card, "en") in cells for card in anns)
    assert not any(words.name(cat, card, "en") in cells for card in bobs if card not in anns)
    chart, _chances = _elements(at._tree, "plotly_chart")  # the board, then who was winning
    figure = json.loads(chart.proto.spec)
    rects = [s for s in figure["layout"]["shapes"] if s["type"] == "rect"]
    assert len(rects) == 2 * 12  # two boards of 3 × 4


def test_albus_track_races_offer_prestige_will_shards_and_homework(app):
    at = app("tracks", of="albus-academy")
    tracks = at.selectbox(key="tracks-track").options
    assert {"Prestige", "Will", "Shards", "Homework done"} <= set(tracks)


def test_balance_lists_the_components_of_the_other_games_as_sql_counts_them(app, warehouse):
    at = app("balance", of="paladins")
    frames = [d.value for d in at.dataframe]
    components = next(f for f in frames if "win_rate_of_takers" in f.columns)
    [(seats, taken)] = sql(
        warehouse,
        """
        SELECT count(*), sum(times) FROM (
            SELECT i.game_id, i.player, i.action, i.item, count(*) AS times FROM item_events i
            JOIN games g USING (game_id) WHERE g.game = 'paladins' AND g.complete
            GROUP BY ALL)""",
    )
    assert components["seats"].sum() == seats and components["taken"].sum() == taken


SMUGGLER = "![seen](http://example.invalid/a.png) **bold** [link](http://x.invalid) :red[red] $x$"


def test_plain_text_from_a_log_renders_as_exactly_that_text_in_markdown():
    import html

    from markdown_it import MarkdownIt

    # (the invisible word joiners plain() puts into addresses left aside)
    for text in (SMUGGLER, "Ann", "a_b*c*`d` # e", "1. f", "- g", "<b>h</b> &amp;"):
        shown = MarkdownIt().render(plain(text)).replace("\u2060", "").strip()
        assert shown == f"<p>{html.escape(text, False)}</p>"


def test_a_player_name_cannot_smuggle_markdown_into_the_viewer(tmp_path, monkeypatch):
    from tests.attacks import GOOD, lines_of, text

    log = tmp_path / "smuggled.jsonl"
    lines = lines_of(GOOD, "smuggled", first_player=SMUGGLER)
    log.write_bytes(text([line.replace('"Cid"', json.dumps(SMUGGLER)) for line in lines]))
    db = tmp_path / "wh"
    assert main(["ingest", str(log), "--db", str(db), "--jobs", "1"]) == 0
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(db))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["game"] = "smuggled"
    at.query_params["step"] = "3"
    at.run()
    at.switch_page("app_pages/viewer.py").run()
    assert not at.exception
    shown = [element.value for element in [*at.caption, *at.info, *at.markdown]]
    assert any(plain(SMUGGLER) in value for value in shown)
    assert not any("](" in value.replace("\\]\\(", "") for value in shown)


def test_the_viewer_shows_the_advanced_rules_lift_before_scoring(app):
    # KA-21a: in the advanced samples' first match, event 124 is Cid's lift on charity.
    at = app("viewer", game="ka-1a66b7fa-000000", step="123")
    shown = " ".join(str(c.value) for c in at.caption) + " ".join(m.value for m in at.markdown)
    shown = shown.replace("\\", "")  # the captions' markdown escapes
    assert "lift before scoring" in shown and "Knight Academy · base game · advanced" in shown
    assert "lift" in shown and "Cid" in shown


def test_balance_compares_the_advanced_rules_with_the_standard_ones(app):
    # KA-21: the advanced samples are a rule set of their own, side by side with the others.
    at = app("balance")
    a, b = at.selectbox(key="ruleset-a"), at.selectbox(key="ruleset-b")
    assert "Knight Academy advanced" in a.options  # the rule set in words
    a.select("knight-academy/standard")
    b.select("knight-academy/advanced").run()
    assert not at.exception
    assert at.selectbox(key="ruleset-b").value == "knight-academy/advanced"
    at.selectbox(key="ruleset-a").select("knight-academy/advanced").run()  # the same twice
    assert not at.exception


def test_the_viewer_draws_the_variant_boards_and_hides_the_codex_from_other_seats(app):
    # KA-22: the worked example with all six boards, after event 23: Bob has kept codex slot
    # 3 (a −1); Ann looked at slot 2 (a 0) and Bob at slot 3 during the plays.
    at = app("viewer", game="ka-example-boards-3p", step="23")
    assert not at.exception
    shown = " ".join(str(c.value) for c in at.caption).replace("\\", "")
    counts = next(f.value for f in at.dataframe if "Variant boards" in f.value.columns)
    assert counts["Variant boards"][0].startswith("White and Black Knight, Courage wager, Educ")
    assert "codex shields" in shown  # the phase
    figure = at.get("plotly_chart")[0].proto.spec
    assert "Grail" in figure and "Scroll" in figure and "White Knight" in figure

    def codex() -> dict[str, str]:
        frame = next(f.value for f in at.dataframe if "Codex slot 1" in f.value.columns)
        return {c: str(frame[c][0]) for c in frame.columns}

    def seat(name: str) -> dict[str, str]:
        """The seat's row of each seats' table (what it holds, its points by source)."""
        found: dict[str, str] = {}
        for frame in (f.value for f in at.dataframe if "Player" in f.value.columns):
            row = frame[frame["Player"] == name].iloc[0].to_dict()
            found |= {k: str(v) for k, v in row.items()}
        return found

    assert codex() == {"Codex slot 1": "−3", "Codex slot 2": "0", "Codex slot 3": "taken"}
    assert seat("Bob")["Secret codex"] == "-1" and seat("Bob")["Wager"] == "White Knight"
    at.radio(key="perspective").set_value("Ann").run()
    assert codex() == {"Codex slot 1": "(hidden)", "Codex slot 2": "0", "Codex slot 3": "taken"}
    assert seat("Bob")["Secret codex"] == "(hidden)" and seat("Bob")["Score"] == "(hidden)"
    assert seat("Ann")["Secret codex"] == "0"
    at.radio(key="perspective").set_value("Bob").run()
    assert codex()["Codex slot 1"] == "(hidden)" and seat("Bob")["Secret codex"] == "-1"


def test_balance_sets_lancelot_beside_gawain_and_the_viewer_draws_its_four_colours(app):
    # KA-20: a variant is a side of its own on Balance; a lancelot match has four discs a track.
    at = app("balance")
    a, b = at.selectbox(key="ruleset-a"), at.selectbox(key="ruleset-b")
    assert {
        "Gawain (2 players) · Knight Academy standard",
        "Lancelot (colours) · Knight Academy standard",
    } <= set(a.options)
    a.select("gawain · knight-academy/standard")
    b.select("lancelot · knight-academy/standard").run()
    assert not at.exception
    view = app("viewer", game="ka-example-lancelot", step="21")
    assert not view.exception
    spec = view.get("plotly_chart")[0].proto.spec
    assert all(f"{c} (" in spec for c in ("blue", "yellow", "green", "red"))
    frame = next(f.value for f in view.dataframe if "Player" in f.value.columns)
    assert list(frame["Player"]) == ["blue (Ann)", "yellow (Bob)", "green (Ann)", "red (Bob)"]


def test_what_if_rescores_the_filtered_matches_and_tells_exact_from_estimated(app):
    at = app("what_if")
    assert not at.metric  # nothing asked yet
    at.text_area(key="what-if-changes").input("quest_prizes=[12,8,4]")
    at.button[0].click().run()
    assert not at.exception
    shown = {m.label: m.value for m in at.metric}
    assert shown["Matches"] == shown["Exact"] and int(shown["Winner changes"]) > 0
    assert shown["Estimated"] == "0"
    sources = next(f.value for f in at.dataframe if "change" in f.value.columns)
    quest = sources[sources["source"] == "quest"]
    assert len(quest) >= 4 and (quest["change"] < 0).all()  # less from quest, at every table
    assert (sources[sources["source"] != "quest"]["change"] == 0).all()
    at.text_area(key="what-if-changes").input("lifts=1")
    at.button[0].click().run()
    assert "differ under these rules" in " ".join(i.value for i in at.info)
    at.selectbox(key="what-if-finish").select("greedy")
    at.button[0].click().run()
    shown = {m.label: m.value for m in at.metric}
    assert int(shown["Estimated"]) > 0 and not at.exception
    at.text_area(key="what-if-changes").input("quest_prices=[1]")
    at.button[0].click().run()
    assert "LOG-3" in at.error[0].value


def test_what_if_refuses_rules_no_stored_match_can_be_set_up_with_the_rule(app):
    # HE-22: 30 tiles a player is within the parameter's range, but no table can lay them.
    at = app("what_if", of="heraldry")
    at.text_area(key="what-if-changes").input("tiles_per_player=30")
    at.button[0].click().run()
    assert not at.exception and not at.metric
    assert at.error[0].value.startswith("HE-22: ")
    # KA-4: hands of 20 deal at two seats but not at three or more (a deck of 52).
    at = app("what_if")
    at.text_area(key="what-if-changes").input("hand_size = 20")
    at.button[0].click().run()
    assert not at.exception and not at.error
    assert "cannot be set up under these rules" in " ".join(i.value for i in at.info)


def test_balance_shows_a_stored_experiment_arm_by_arm(tmp_path, monkeypatch):
    db = tmp_path / "wh"
    args = [
        *("experiment", "knight-academy", "--metric", "margin", "--bots", "greedy,random"),
        *("--a", "quest_prizes=[17,10,4]", "--b", "quest_prizes=[40,10,4]"),
        *("--max", "20", "--batch", "20", "--jobs", "1", "--db", str(db), "--json"),
    ]
    assert main(args) == 0
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(db))
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["filter-game"] = "knight-academy"
    at.run()
    at.switch_page("app_pages/balance.py").run()
    assert not at.exception
    assert "Experiments" in [h.value for h in at.subheader]
    option = at.selectbox(key="experiment").options[0]
    assert "quest prizes: 40, 10, 4" in option and "(20)" in option
    bots = [f.value for f in at.dataframe if "played_by" in f.value.columns]
    assert len(bots) >= 2 and all(sum(b["seats"]) == 80 for b in bots[-2:])  # 20 tables of 4

    # What it measured, A − B with its interval, the matches and why it stopped, as the
    # matches stored give them: each match's margin (the winner's points over the best other
    # seat's), A's match i less B's.
    [element] = [f for f in at.dataframe if "a_minus_b" in f.value.columns]
    found = element.value
    row = found.iloc[0]
    differences = [d for (d,) in sql(db, MARGINS)]
    n = len(differences)
    mean = sum(differences) / n
    se = (sum((d - mean) ** 2 for d in differences) / (n - 1) / n) ** 0.5
    assert n == row["pairs_measured"] == row["matches"] == 20
    assert row["metric"] == "margin" and row["measured"] == LABELS["metric_margin"]["en"]
    assert row["a_minus_b"] == pytest.approx(mean)
    assert (row["a_minus_b_low"], row["a_minus_b_high"]) == pytest.approx(
        (mean - 1.959964 * se, mean + 1.959964 * se)
    )
    assert row["stopped"].startswith("budget spent: the 20 matches an arm allowed were played")
    said = " ".join(m.value for m in at.markdown).replace("\\", "").replace("\u2060", "")
    assert f"A − B = {mean:+.4f}, 95% interval" in said and "budget spent" in said
    helps = json.loads(element.proto.columns)
    assert all(helps[c].get("help") for c in found.columns)  # every column says what it holds

    # Both languages: the Chinese page leaves no English word but names and ids.
    zh = AppTest.from_file(APP, default_timeout=60)
    zh.query_params["lang"] = "zh"
    zh.session_state["filter-game"] = "knight-academy"
    zh.run()
    zh.switch_page("app_pages/balance.py").run()
    assert not zh.exception
    names = {"margin", "greedy", "random", "Ann", "Bob", "Cid", "Dee", "Eve"}
    names |= {v for (v,) in sql(db, "SELECT DISTINCT ruleset_key FROM games")}
    names |= {v for (v,) in sql(db, "SELECT DISTINCT player FROM seats")}
    assert not untranslated(words_of(zh._tree), names)
    [shown] = [f.value for f in zh.dataframe if "a_minus_b" in f.value.columns]
    assert shown.iloc[0]["stopped"].startswith("预算用完")

    # A warehouse an older squire wrote kept the matches but no record: said, not guessed.
    for record in (db / "experiments").iterdir():
        record.unlink()
    announce(db)  # as a writer tells the readers
    at.run()
    [older] = [f.value for f in at.dataframe if "a_minus_b" in f.value.columns]
    row = older.iloc[0]
    assert row["metric"] == row["measured"] == row["stopped"] == "not recorded"
    assert row["matches"] == 20 and pd.isna(row["a_minus_b"])  # the matches it stored
    assert any("not recorded" in m.value for m in at.markdown)


# Each pair's margin, A's less B's, from the seats the warehouse stored (pairs by number).
MARGINS = """
WITH margins AS (
    SELECT g.arm, regexp_extract(g.game_id, '(\\d+)$', 1) AS pair,
           coalesce(max(s.score) - max(s.score) FILTER (WHERE NOT s.won), 0) AS margin
    FROM games g JOIN seats s USING (game_id)
    WHERE g.experiment IS NOT NULL AND g.complete AND NOT s.neutral GROUP BY ALL
)
SELECT a.margin - b.margin FROM margins a JOIN margins b USING (pair)
WHERE a.arm = 'a' AND b.arm = 'b' ORDER BY pair
"""


def test_what_if_runs_a_small_paired_experiment_with_the_same_change(app):
    at = app("what_if")
    at.text_area(key="what-if-changes").input("quest_prizes=[30,20,10]")
    at.selectbox(key="experiment-metric").select("source_share:quest")
    at.number_input(key="experiment-max").set_value(40)
    at.button[1].click().run()
    assert not at.exception
    shown = {m.label: m.value for m in at.metric}
    assert float(shown["With the change − without"]) > 0  # bigger quest prizes, bigger share
    low, high = (float(x) for x in shown["95%"].strip("[]").split(","))
    assert low < float(shown["With the change − without"]) < high
    assert "squire experiment knight-academy --a 'quest_prizes=[30, 20, 10]'" in at.code[0].value


def test_a_link_with_a_perspective_opens_the_match_as_that_player_saw_it(app):
    at = app("viewer", game="ka-example-4p", step="20", perspective="Cid")
    frame = next(f.value for f in at.dataframe if "Player" in f.value.columns)
    hands = dict(zip(frame["Player"], frame["Hand"]))
    assert "(hidden)" in hands["Fay"] and "(hidden)" not in hands["Cid"]
    # KA-5: Cid passed Ann the hand she holds, and knows it until she picks from it
    assert hands["Ann"] == "King 4"
    assert at.radio(key="perspective").value == "Cid"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(
    "game_id", ["ka-example-4p", "he-example-3p", "pa-example-3p", "aa-example-3p"]
)
def test_the_viewer_charts_who_was_winning_and_a_turning_point_moves_the_board(
    app, warehouse, capsys, game_id, lang
):
    at = app("viewer", lang=lang, game=game_id, step="3")
    _board, chances = _elements(at._tree, "plotly_chart")
    figure = json.loads(chances.proto.spec)
    assert main(["review", game_id, "--db", str(warehouse), "--json"]) == 0
    reviewed = json.loads(capsys.readouterr().out)
    lines = {trace["name"]: trace["y"] for trace in figure["data"]}
    assert set(lines) == set(reviewed["timeline"][0]["p"])  # a line a seat that can win
    for who, ys in lines.items():
        assert ys == [entry["p"][who] for entry in reviewed["timeline"]]
    [marker] = figure["layout"]["shapes"]  # the viewer's step
    assert marker["x0"] == 3
    label = LABELS["turning_points"][lang]
    assert any(label in m.value for m in at.markdown)
    first = reviewed["turning_points"][0]
    button = next(b for b in at.button if b.key == "turning-0")
    assert plain(f"{first['before']:.0%} → {first['after']:.0%}") in button.label
    button.click().run()
    assert at.slider[0].value == first["step"]
    _board, chances = _elements(at._tree, "plotly_chart")
    assert json.loads(chances.proto.spec)["layout"]["shapes"][0]["x0"] == first["step"]


def _draft_grid(at):
    """The viewer's draft grid: the table whose first column names the dealt hands; its
    cards as words with plain spaces (the grid keeps each name on one line with no-break
    spaces, where a cell's cards wrap)."""
    grid = next(
        frame.value
        for frame in at.dataframe
        if "" in frame.value.columns and frame.value[""].iloc[0] in ("Dealt", "发到的牌")
    )
    return grid.replace("\u00a0", " ", regex=True)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_viewer_shows_the_draft_as_the_table_saw_it_behind_the_perspective(app, lang):
    from dashboards.boards.knight_academy.draft import drafts
    from dashboards.boards.knight_academy.sentences import card
    from replay.replayer import open_log

    def named(cards: list[str]) -> str:  # as the grid words them: "Sword 4"
        return ", ".join(card(c, lang) for c in cards)

    path = ROOT / "tests" / "knight_academy" / "logs" / "ka-example-4p.jsonl"
    rounds = drafts(open_log(path.read_bytes(), str(path)))
    at = app("viewer", lang=lang, game="ka-example-4p", step="60")  # round 2's draft
    assert any(LABELS["draft"][lang] in s.value for s in at.subheader)
    grid = _draft_grid(at)
    second = rounds[1]
    assert list(grid.columns)[1:] == ["Bob", "Cid", "Ann", "Fay"]
    assert grid.iloc[0]["Bob"] == named(second.dealt["Bob"])
    bob_third = next(p for p in second.picks if p.player == "Bob" and p.number == 3)
    assert grid.iloc[3]["Bob"].startswith(f"{card('charity-5', lang)} ⊘")  # as in test_draft
    assert grid.iloc[3]["Bob"].endswith(named(bob_third.passed))
    at.radio(key="perspective").set_value("Cid").run()
    hidden = LABELS["hidden"][lang]
    grid = _draft_grid(at)
    assert grid.iloc[0]["Bob"] == hidden and grid.iloc[0]["Cid"] != hidden
    assert not grid["Cid"].str.contains(hidden, regex=False).any()


def test_the_match_downloads_as_one_html_file_that_needs_nothing_else(app):
    from dashboards.export import match_html
    from ingest.analyses.review import Review

    at = app("viewer", game="ka-example-4p", step="120")
    assert any("HTML" in b.label for b in at.get("download_button"))
    board, chances = _elements(at._tree, "plotly_chart")
    import plotly.graph_objects as go

    from replay.game import Result

    reviewed = Review(
        game_id="g",
        method="m",
        timeline=[(0, {"<b>Ann</b>": 0.5, "Bob": 0.5}), (1, {"<b>Ann</b>": 1.0, "Bob": 0.0})],
        turning_points=[
            {"step": 1, "player": "<b>Ann</b>", "before": 0.5, "after": 1.0, "what": "x<y"}
        ],
    )
    page = match_html(
        title="Knight Academy · g",
        caption="Step 1 / 1",
        board=go.Figure(json.loads(board.proto.spec)),
        chances=go.Figure(json.loads(chances.proto.spec)),
        reviewed=reviewed,
        result=Result(
            complete=True,
            scores=[3, 1],
            sources=[{"quest": 3}, {"quest": 1}],
            winners=[0],
            ranks=[1, 2],
        ),
        players=["<b>Ann</b>", "Bob"],
        sources=["quest"],
        lang="zh",
        tables=[("手牌", pl.DataFrame({"玩家": ["<b>Ann</b>"], "手牌": ["剑 4"]}))],
        sentences=["<b>Ann</b> 打出剑 4"],
        step=1,
    ).decode()
    assert page.startswith("<!DOCTYPE html>") and '<html lang="zh">' in page
    assert not re.search(r"<script[^>]*\bsrc=", page)  # plotly's script is inlined, no fetch
    assert "plotly.js (basic - minified) v4.1.1" in page  # …its basic bundle, not all of it
    assert len(page.encode()) < 1_500_000
    assert page.count('class="plotly-graph-div"') == 2
    body = page.split("</head>")[1]
    assert "&lt;b&gt;Ann&lt;/b&gt;" in body and "<b>Ann</b>" not in body.split("<script")[0]
    assert "转折点" in page and "按来源的最终得分" in page
    assert "<td>剑 4</td>" in page and "&lt;b&gt;Ann&lt;/b&gt; 打出剑 4" in page
    assert '<td class="n"><b>3</b></td>' in page


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_win_rates_lead_with_the_ratings_of_squire_ratings(app, warehouse, capsys, lang):
    at = app("win_rates", lang=lang, of="heraldry")
    assert any(LABELS["ratings"][lang] in s.value for s in at.subheader)
    assert main(["ratings", "heraldry", "--db", str(warehouse), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    people, bots = _ratings(at)
    for table, kind in ((people, "player"), (bots, "bot")):
        mine = [r for r in rows if r["kind"] == kind]
        assert mine and table["name"].tolist() == [r["name"] for r in mine]
        assert table["rating"].tolist() == pytest.approx([r["rating"] for r in mine])
        assert table["page"].tolist() == [f"/player?name={r['name']}" for r in mine]
    shown = [m.value for m in at.markdown]
    assert shown.index(f"**{LABELS['rated_people'][lang]}**") < shown.index(
        f"**{LABELS['rated_bots'][lang]}**"
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("of", ["knight-academy", "heraldry", "paladins", "albus-academy"])
def test_the_ratings_show_people_and_bots_apart_each_by_its_rating(app, warehouse, lang, of):
    """Reckoned again from the stored history: each one's last rating and its interval, its
    matches; people in one table and bots in another, each by rating, highest first; every
    column with a tooltip in the page's language."""
    at = app("win_rates", lang=lang, of=of)
    history = sql(
        warehouse,
        """SELECT kind, name, arg_max(mu, (played_at, game_id)),
                  arg_max(sigma, (played_at, game_id)), count(*)
        FROM ratings WHERE game = $game GROUP BY kind, name""",
        {"game": of},
    )
    tables = dict(zip(("player", "bot"), _ratings(at), strict=True))
    for kind, table in tables.items():
        mine = sorted(
            (r for r in history if r[0] == kind), key=lambda r: (-r[2], r[1])
        )  # by rating, highest first
        assert table["name"].tolist() == [r[1] for r in mine], kind
        assert table["rating"].tolist() == pytest.approx([r[2] for r in mine])
        assert table["rating_low"].tolist() == pytest.approx([r[2] - 1.959964 * r[3] for r in mine])
        assert table["rating_high"].tolist() == pytest.approx(
            [r[2] + 1.959964 * r[3] for r in mine]
        )
        assert table["matches"].tolist() == [r[4] for r in mine]
        assert table["provisional"].tolist() == [r[4] < 10 for r in mine]
        assert "kind" not in table.columns and "—" not in set(table["name"])
    # apart: no bot among the people, no person among the bots
    bots = {
        v for (v,) in sql(warehouse, "SELECT DISTINCT agent FROM seats WHERE agent IS NOT NULL")
    }
    assert bots.isdisjoint(tables["player"]["name"]) and set(tables["bot"]["name"]) <= bots
    for frame in at.dataframe:
        if {"rating", "page"} <= set(frame.value.columns):
            config = json.loads(frame.proto.columns)
            for column in frame.value.columns:
                assert config[column]["help"] in {e[lang] for e in LABELS.values()}, column
    # the win rates by bot count the seats bots played: a person's seat is no bot's "—"
    by_bot = _win_rates_by(at, "bot", lang)
    assert set(by_bot.iloc[:, 0]) <= bots


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_players_ratings_and_opponents_say_what_each_column_counts(app, lang):
    at = app("player", lang=lang, name="greedy")
    explained = [
        d
        for d in at.dataframe
        if {"rating", "provisional"} <= set(d.value.columns) or "level" in d.value.columns
    ]
    assert len(explained) == 2
    for element in explained:
        config = json.loads(element.proto.columns)
        assert all(config[c].get("help") for c in element.value.columns)
    [opponents] = [json.loads(d.proto.columns) for d in explained if "level" in d.value.columns]
    assert opponents["level"]["help"] == LABELS["help_level"][lang]  # finished level: a tie


def test_narrowing_the_filters_rates_only_the_matches_they_leave(app, warehouse):
    at = app("win_rates", of="knight-academy", **{"filter-players": "2"})
    narrowed = pd.concat(_ratings(at)).set_index("name")
    seated = sql(
        warehouse,
        """SELECT coalesce(agent, player), count(*) FROM seat_results WHERE game = 'knight-academy'
        AND player_count = 2 AND NOT neutral GROUP BY ALL""",
    )
    assert dict(zip(narrowed.index, narrowed["matches"], strict=True)) == dict(seated)
    whole = pd.concat(_ratings(app("win_rates", of="knight-academy"))).set_index("name")
    assert narrowed.loc["greedy", "rating"] != whole.loc["greedy", "rating"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_players_page_opens_from_its_link(app, warehouse, lang):
    at = app("player", lang=lang, name="greedy")
    assert at.selectbox(key="name").value == "greedy"
    for key in ("ratings", "results_by_seat", "sources_vs_winners", "taken_most", "opponents",
                "matches_played"):  # fmt: skip
        assert any(LABELS[key][lang] in s.value for s in at.subheader), key
    [chart] = _elements(at._tree, "plotly_chart")
    games = {trace.get("name") for trace in json.loads(chart.proto.spec)["data"]} - {None}
    assert len(games) == 4  # a rating line for each game greedy played
    played = at.dataframe[-1].value
    (count,) = sql(
        warehouse,
        """SELECT count(*) FROM seats s JOIN games g USING (game_id)
        WHERE g.complete AND s.agent = 'greedy' AND NOT s.neutral""",
    )[0]
    assert len(played) == min(500, count)
    assert played["open"].str.startswith("/viewer?game=").all()
    opponents = at.dataframe[-2].value
    assert "random" in set(opponents["opponent"])
    row = opponents.set_index("opponent").loc["random"]
    assert row["ahead"] > row["behind"]  # greedy finishes ahead of random far more often


def test_the_viewer_links_each_seat_to_its_page(app):
    at = app("viewer", game="ka-example-gawain", step="3")
    labels = [link.proto.label for link in _elements(at._tree, "page_link")]
    assert "Ann" in labels and "Dee" in labels and "Gawain" not in labels  # nobody's seat


def test_balance_finds_the_hate_drafts_when_asked_and_keeps_the_choice_in_the_address(app):
    at = app("balance")
    hated = [d.value for d in at.dataframe if "hate_drafts" in d.value.columns]
    assert not hated  # not replayed at every visit
    at.toggle(key="hate-drafts").set_value(True).run()
    linked = app("balance", **{"hate-drafts": "true"})  # a shared link opens them found
    assert linked.toggle(key="hate-drafts").value
    for shown in (at, linked):
        seats = next(d.value for d in shown.dataframe if "fair_share" in d.value.columns)
        assert 1 <= len(seats) <= 2  # seats that hate-draft often, and the rest
        assert any("card" in d.value.columns and "hate_rate" in d.value.columns
                   for d in shown.dataframe)  # fmt: skip


def test_a_link_to_a_step_or_a_name_that_is_not_there_says_so(app):
    at = app("viewer", game="he-example-2p", step="9999")
    last = int(at.slider(key="step").max)
    assert at.slider(key="step").value == last
    assert f"steps 0 to {last}: there is no step 9999" in at.warning[0].value
    assert not app("viewer", game="he-example-2p", step="3").warning
    at = app("player", name="nobody")
    assert "named nobody" in at.warning[0].value and at.selectbox(key="name").value is None
    assert not app("player", name="greedy").warning


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_viewer_tells_the_step_in_the_engines_words_as_the_perspective_saw_it(app, lang):
    from dashboards.sentences import told
    from replay.replayer import open_log, replay

    path = ROOT / "tests" / "knight_academy" / "logs" / "ka-example-4p.jsonl"
    match = open_log(path.read_bytes(), str(path))
    steps = replay(match).steps
    seat = match.header.players.index("Cid")
    at = app("viewer", lang=lang, game="ka-example-4p", step="50", perspective="Cid")
    said = told(match, steps, lang, seat)
    shown = [m.value for m in at.markdown]
    assert plain(said[49]) in shown  # beside the board
    at.button(key="turning-0").click().run()  # a turning point, told in the same words
    step = at.slider(key="step").value
    assert plain(said[step - 1]) in [m.value for m in at.markdown]


def test_the_viewer_analyses_a_match_and_marks_its_flagged_moves_in_both_languages(
    app, names, warehouse, monkeypatch
):
    """The Analyse button judges the match (cheaply here: 2 playouts a move by random bots),
    keeps it, and the page then shows each seat's figures as the warehouse keeps them, a
    mark on the chart and in the move log at each flagged step, and the verdict with the
    better move beside a flagged step's sentence."""
    from dashboards import analysed
    from ingest.analyses import moves
    from replay.replayer import open_log

    monkeypatch.setattr(analysed, "SAMPLES", 2)
    monkeypatch.setattr(analysed, "POLICY", "random")
    monkeypatch.setattr(analysed, "JOBS", 1)
    game_id = "ka-0bbef6a9-000012"
    at = app("viewer", game=game_id, step="1")
    assert not [f for f in at.dataframe if LABELS["accuracy"]["en"] in f.value.columns]
    next(b for b in at.button if b.key == "analyse").click().run()
    assert not at.exception, [e.value for e in at.exception]
    data = gzip.decompress((ROOT / "data/samples/knight-academy" / f"{game_id}.jsonl.gz")
                           .read_bytes())  # fmt: skip
    kept = moves.load(warehouse, game_id, open_log(data, game_id))
    assert kept is not None and kept.samples == 2
    assert kept.cut  # the warehouse has a fitted estimate: playouts cut at the round's end
    flagged = [d for d in kept.decisions if d.label]
    assert flagged, "random bots give something up at 2 playouts a move"
    for lang in ("en", "zh"):
        first = flagged[0]
        at = app("viewer", lang=lang, game=game_id, step=str(first.index))
        [table] = [f.value for f in at.dataframe if LABELS["accuracy"][lang] in f.value.columns]
        assert list(table[LABELS["player"][lang]]) == kept.players
        assert list(table[LABELS["accuracy"][lang]]) == pytest.approx(kept.accuracy)
        for label in analysed.MARKS:
            counted = [sum(d.label == label and d.seat == s for d in kept.decisions)
                       for s in range(4)]  # fmt: skip
            assert list(table[LABELS[f"label_{label}_count"][lang]]) == counted
        assert list(table[LABELS["by_chance"][lang]]) == pytest.approx(
            [s.chance for s in kept.swings]
        )
        # the verdict beside the step's sentence, and a button a flagged move
        verdict = LABELS[f"label_{first.label}"][lang]
        said = plain(analysed.verdict(first, lang))
        assert verdict in said and any(said in w.value for w in at.warning)
        buttons = [b for b in at.button if b.key and b.key.startswith("flagged-")]
        assert [b.key for b in buttons] == [f"flagged-{d.index}" for d in flagged]
        # marks on the chart at the flagged steps, on the seat's line
        _board, chances = _elements(at._tree, "plotly_chart")
        marks = [tr for tr in json.loads(chances.proto.spec)["data"] if tr.get("mode") == "markers"]
        assert sorted(x for tr in marks for x in tr["x"]) == [d.index for d in flagged]
        if lang == "zh":
            left = untranslated(words_of(at._tree), names)
            assert not left, sorted(left)
    # a flagged move's button takes the viewer to its step
    last = buttons[-1]
    last.click().run()
    assert at.slider[0].value == flagged[-1].index
