"""A correction on the Record page: every entry it breaks shown at once, what it will cost told
before it is made, and the entries it broke mended the obvious way where there is one.

The match: Knight Academy, three seats dealt as in test_record.py, hands passed to the left
in round 1 (KA-5). Picks, by draft step:
    1. Ann sword-3, Bob sword-5, Cid courage-2      (entries 3, 4, 5)
    2. Ann quest-2, Bob king-2 (from Ann's hand), Cid king-3       (6, 7, 8)
    3. Ann charity-5, Bob courage-3, Cid sword-4    (9, 10, 11)
Ann's first pick changed to king-2 leaves sword-3 in the hand Bob picks from next: his king-2
is refused, so step 2 never ends, and every pick of step 3 is refused with it.
"""

from __future__ import annotations

import msgspec

from dashboards.record import mends
from dashboards.record.entry import Choose, Entry, Problem
from tests.dashboards.test_record import _dealt, _picked

PICKS = [
    ("Ann", "sword-3"),
    ("Bob", "sword-5"),
    ("Cid", "courage-2"),
    ("Ann", "quest-2"),
    ("Bob", "king-2"),
    ("Cid", "king-3"),
    ("Ann", "charity-5"),
    ("Bob", "courage-3"),
    ("Cid", "sword-4"),
]


def _drafted() -> Entry:
    entry = _dealt()
    for player, card in PICKS:
        _picked(entry, player, card)
    assert len(entry.events) == 12 and entry.problem is None
    return entry


def _changing(entry: Entry, index: int, player: str) -> Choose:
    """Entry `index` entered again: every seat may pick there, `player` takes the device."""
    entry.change(index)
    screen = entry.screen()
    assert isinstance(screen, Choose) and screen.player is None
    entry.tap(next(b.key for b in screen.buttons if b.tokens[0].value == player))
    screen = entry.screen()
    assert isinstance(screen, Choose) and screen.private and entry.holder == 0
    return screen


def _key(screen: Choose, card: str) -> str:
    return next(b.key for b in screen.buttons if b.tokens[-1].value == card)


def _as_pick(event: object) -> tuple[str, str]:
    fields = msgspec.to_builtins(event)
    return fields["player"], fields["card"]


def test_what_a_change_will_break_is_told_on_its_buttons_before_it_is_made() -> None:
    entry = _drafted()
    screen = _changing(entry, 3, "Ann")  # Ann's first pick, entered again from her hand
    costs = {b.tokens[-1].value: screen.costs[b.key] for b in screen.buttons}
    assert costs["sword-3"] == 0  # as it was
    assert costs["king-2"] == 4  # Bob's king-2 and the three picks of step 3
    assert set(costs) == {"sword-3", "sword-4", "king-2", "education-2", "quest-5"}
    # nothing is changed by telling it
    assert entry.at == 3 and len(entry.events) == 12


def test_every_entry_a_change_breaks_is_shown_at_once() -> None:
    entry = _drafted()
    screen = _changing(entry, 3, "Ann")
    entry.tap(_key(screen, "king-2"))
    problem = entry.screen()
    assert isinstance(problem, Problem) and problem.index == 7
    assert [p.index for p in entry.broken] == [7, 9, 10, 11]
    assert {p.rule for p in entry.broken} == {"KA-5"}
    assert entry.broken[0] == problem
    assert len(entry.events) == 12  # nothing lost while it waits


def test_a_broken_pick_is_mended_by_the_exchange_the_change_made() -> None:
    """Ann kept king-2, not sword-3: the sword-3 took its place in the hand Bob picked from,
    so his pick is mended to sword-3, and everything after is legal again."""
    entry = _drafted()
    screen = _changing(entry, 3, "Ann")
    entry.tap(_key(screen, "king-2"))
    assert entry.swaps == {"sword-3": "king-2", "king-2": "sword-3"}
    assert [_as_pick(e) for e in entry.mends()] == [("Bob", "sword-3")]
    assert entry.mend_all() == 1
    assert entry.problem is None and entry.broken == []
    assert entry.good == 12
    assert [_as_pick(e) for e in entry.events[3:]] == [
        ("Ann", "king-2"),
        *PICKS[1:4],
        ("Bob", "sword-3"),
        *PICKS[5:],
    ]


def test_the_broken_entries_can_all_be_removed_at_once() -> None:
    entry = _drafted()
    screen = _changing(entry, 3, "Ann")
    entry.tap(_key(screen, "king-2"))
    entry.drop_broken()
    assert entry.problem is None and entry.good == len(entry.events) == 8
    assert [_as_pick(e) for e in entry.events[6:]] == [("Ann", "quest-2"), ("Cid", "king-3")]


def test_a_removal_says_what_it_would_break() -> None:
    entry = _drafted()
    # Bob's first pick gone, step 1 never ends: every later pick is refused but Cid's first
    assert entry.removal_cost(4) == 6
    assert entry.removal_cost(11) == 0  # the last entry breaks nothing
    assert len(entry.events) == 12 and entry.problem is None


def test_an_entry_whose_card_moved_to_another_seat_is_mended_as_that_seats() -> None:
    """With nothing exchanged (an entry removed), Ann's pick of a card Bob holds is mended
    as Bob's pick of it."""
    entry = _dealt()
    game = entry.game
    wrong = msgspec.convert({"kind": "pick", "player": "Ann", "card": "sword-5"}, game.event_type)
    assert not mends.accepted(game, entry.state, wrong)
    found = mends.mends(game, entry.state, wrong, {}, entry.players)
    assert [_as_pick(e) for e in found] == [("Bob", "sword-5")]


def test_a_correction_exchanges_what_left_a_list_and_what_came() -> None:
    game = _dealt().game
    old = msgspec.convert(
        {"kind": "deal", "player": "Ann", "cards": ["sword-3", "king-2"], "round": 1},
        game.event_type,
    )
    new = msgspec.convert(
        {"kind": "deal", "player": "Ann", "cards": ["king-5", "sword-3"], "round": 1},
        game.event_type,
    )
    assert mends.exchanged(old, new) == {"king-2": "king-5", "king-5": "king-2"}
    other = msgspec.convert({"kind": "pick", "player": "Ann", "card": "king-2"}, game.event_type)
    assert mends.exchanged(old, other) == {}  # another kind of event: nothing exchanged


def test_the_page_lists_what_a_change_broke_and_mends_it(warehouse, monkeypatch) -> None:
    """The same correction, made in this session on the Record page: every broken entry
    listed at once, none of Bob's cards named on the table's screen, and the mend made."""
    from streamlit.testing.v1 import AppTest

    from dashboards.common import plain
    from dashboards.i18n import LABELS
    from ingest.warehouse import drafts

    from .conftest import ROOT

    entry = _drafted()
    screen = _changing(entry, 3, "Ann")
    entry.tap(_key(screen, "king-2"))
    name = "ka-20261207-1800-me00"
    drafts.save(warehouse, name, entry.draft())
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(warehouse))
    try:
        at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60)
        at.query_params["draft"] = name
        at.session_state["record-entry"] = (name, entry)  # as the page holds it between taps
        at.run()
        at.switch_page("app_pages/record.py")
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        said = LABELS["rec_broken"]["en"].format(n=4, first=8, after=12)
        assert [e.value for e in at.error] == [said]
        listed = [m.value for m in at.markdown if m.value.startswith(("8.", "10.", "11.", "12."))]
        assert len(listed) == 4 and all("KA-5" in line for line in listed)
        shown = " ".join(m.value for m in at.markdown) + " ".join(b.label for b in at.button)
        assert "Sword 3" not in shown and "King 2" not in shown  # a kept card is Bob's alone
        mend = at.button(key="rec-mend-0")
        said = LABELS["rec_mend"]["en"].format(n=8, entry="Bob · keep a card")
        assert mend.label == plain(said)
        mend.click().run()
        assert not at.error
        kept = drafts.load(warehouse, name)
        assert kept is not None
        assert b'{"kind":"pick","player":"Bob","card":"sword-3"}' in kept
    finally:
        drafts.remove(warehouse, name)
