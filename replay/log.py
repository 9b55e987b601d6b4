"""The `squire-log/1` envelope: the header every game shares, the `final` claim, and decoding
a log's bytes into the game's own event types, line by line.

Pure: it takes bytes and gives values; reading files is `ingest.files.read`'s job.

Besides each game's own rule ids, a log can break the format itself:
- LOG-1: every line is a JSON object.
- LOG-2: every event has a kind this game knows, with its fields of the right types.
- LOG-3: the first line is a valid header: format, known game, unique players, a known
  first player, variant and ruleset, options the game knows (true or false), rule overrides
  that name real parameters.
- LOG-4: a `final` claim comes after the game has ended and agrees with the replayed scores.
- LOG-5: nothing follows the end of the game but the `final` claim, and nothing follows that.
- LOG-6: the log keeps to squire's limits (replay.limits): size, lines, line length, nesting.
- LOG-7: the file is a regular file, plain or a whole and intact gzip stream (ingest.files.read).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import msgspec

from replay.errors import RulesError

FORMAT = "squire-log/1"


class Catalogue(msgspec.Struct, frozen=True, kw_only=True):
    """The component catalogue a match was played with (games that read one)."""

    name: str
    version: int | str
    sha256: str | None = None


class Experiment(msgspec.Struct, frozen=True, kw_only=True):
    """The experiment a simulated match was played for (`squire experiment`), and its arm."""

    id: str
    arm: str


class Header(
    msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag_field="kind", tag="header"
):
    """Line 1 of every log. Games subclass it to add their own fields (`neutral`, `map`)."""

    format: str
    game: str
    game_id: str
    players: list[str]
    first_player: str | None = None
    variant: str = "base"
    ruleset: str | None = None
    options: dict[str, Any] = {}  # mode switches by name, each the game's (Game.options)
    rules: dict[str, Any] = {}
    agents: dict[str, str] = {}
    catalogue: Catalogue | None = None
    played_at: datetime | None = None
    source: str | None = None
    experiment: Experiment | None = None

    @property
    def start_player(self) -> str:
        return self.first_player if self.first_player is not None else self.players[0]


class Final(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", tag="final"):
    """The scores the recorder saw; the replay must agree (LOG-4)."""

    scores: dict[str, int]


class _Probe(msgspec.Struct, kw_only=True):
    kind: str
    format: str | None = None
    game: str | None = None


_probe = msgspec.json.Decoder(_Probe)


# A blank line between two newlines; the leading literal lets the search skip ahead fast.
_BLANK = re.compile(rb"\n[ \t\r\f\v]*\n")


def numbered_lines(data: bytes) -> list[tuple[int, bytes]]:
    """(1-based line number, line) for every non-blank line of an uncompressed log."""
    body = data[:-1] if data.endswith(b"\n") else data  # the last line's own newline
    lines = body.split(b"\n")
    if body and not _BLANK.search(b"\n" + body + b"\n"):  # usually no blank line: numbered in C
        return list(zip(range(1, len(lines) + 1), lines))
    return [(number, line) for number, line in enumerate(lines, 1) if line and not line.isspace()]


def probe_header(line: bytes) -> str | None:
    """The `game` of a would-be header line, checked as far as the envelope goes."""
    try:
        probe = _probe.decode(line)
    except msgspec.ValidationError as err:
        raise RulesError("LOG-3", f"the first line is not a header: {err}") from None
    except msgspec.DecodeError as err:
        raise RulesError("LOG-1", f"not a JSON object: {err}") from None
    if probe.kind != "header":
        raise RulesError("LOG-3", f"the first line must be the header, not a {probe.kind!r} event")
    if probe.format != FORMAT:
        raise RulesError("LOG-3", f"format {probe.format!r} is not {FORMAT!r}")
    return probe.game


def check_players(header: Header) -> None:
    """LOG-3: the checks every game's header shares."""
    if len(set(header.players)) != len(header.players):
        raise RulesError("LOG-3", f"player names repeat: {', '.join(header.players)}")
    if header.first_player is not None and header.first_player not in header.players:
        raise RulesError("LOG-3", f"first_player {header.first_player!r} is not one of the players")
    unknown = sorted(set(header.agents) - set(header.players))
    if unknown:
        raise RulesError("LOG-3", f"agents name unknown players: {', '.join(unknown)}")


def decode_error(err: msgspec.DecodeError) -> RulesError:
    """Malformed JSON is LOG-1; JSON that does not fit the event types is LOG-2."""
    if isinstance(err, msgspec.ValidationError):
        return RulesError("LOG-2", str(err))
    return RulesError("LOG-1", f"not a JSON object: {err}")


def decoder_for(event_type: Any) -> msgspec.json.Decoder[Any]:
    """A decoder for one game's events plus the shared `final` claim (lenient on extra fields)."""
    return msgspec.json.Decoder(event_type | Final)
