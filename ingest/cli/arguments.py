"""The command line's argument types: each refuses, in one line, a value that cannot work.

A number in range for its type can still be impossible here: more worker processes than the
machine has cores only costs memory (each holds the engines), a batch of a billion matches is
held in memory before anything is printed, NaN compares false with everything. So the bounds
are checked where the arguments are read, and argparse's refusal is one line and status 2.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from ingest.warehouse.location import Place

# What a batch or an experiment may ask for: an experiment keeps a pair of numbers per match
# in memory (about 200 bytes), and a batch's pairs are all played before its report.
MAX_BATCH = 100_000
MAX_MATCHES = 1_000_000  # an arm of an experiment; also `simulate -n` (a file a match)
MAX_SEATS = 10  # replay.ranges: seats 1 to 10


class Parser(argparse.ArgumentParser):
    """argparse, with its refusals on one line (usage is one `--help` away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def cores() -> int:
    """The cores this process may run on (a container or taskset may allow fewer)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def jobs(text: str) -> int:
    count = _int(text)
    most = cores()
    if not 1 <= count <= most:
        raise argparse.ArgumentTypeError(
            f"{count}: between 1 and this machine's {most} cores (more workers than cores "
            "only cost memory)"
        )
    return count


def between(low: int, high: int, why: str = "") -> Callable[[str], int]:
    """An int type from `low` to `high`."""

    def parse(text: str) -> int:
        value = _int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{value}: between {low:,} and {high:,}" + (f" ({why})" if why else "")
            )
        return value

    parse.__name__ = "count"  # argparse names the type in its messages
    return parse


def positive_fraction(text: str) -> float:
    """A finite number above 0 (a precision, a width)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text}: a finite number above 0")
    return value


def source(text: str) -> str:
    """Where matches come from: `human`, `bot`, `experiment` or `experiment:ID`."""
    kind, colon, experiment = text.partition(":")
    if kind not in ("human", "bot", "experiment") or (
        colon and (kind != "experiment" or not experiment)
    ):
        raise argparse.ArgumentTypeError(f"{text!r}: human, bot, experiment or experiment:ID")
    return text


def folder(text: str) -> str:
    """A folder, or a path where one can be made: not a file."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file, not a folder")
    return text


def warehouse(text: str) -> Place:
    """`--db`: an s3:// address, or a folder (or a path where one can be made)."""
    from ingest.warehouse.location import SCHEME, place

    if text.startswith(SCHEME):
        try:
            return place(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
    return Path(folder(text))


def storage_option(text: str) -> tuple[str, str]:
    """`--storage-option KEY=VALUE`."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"{text!r}: KEY=VALUE, e.g. AWS_REGION=eu-west-1")
    return key.strip(), value


def db_argument(p: argparse.ArgumentParser, help: str = "the warehouse") -> None:
    """`--db`, and the settings of a warehouse on S3 (applied by `squire` before a command
    runs: ingest.cli.main)."""
    p.add_argument(
        "--db",
        type=warehouse,
        metavar="FOLDER|s3://BUCKET/PATH",
        help=f"{help} (default data/warehouse)",
    )
    p.add_argument(
        "--storage-option",
        type=storage_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a setting of the S3 warehouse, as the AWS_* variable it names (AWS_ENDPOINT_URL, "
        "AWS_REGION, AWS_ALLOW_HTTP, ...); may be repeated",
    )


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def no_warehouse(prog: str, db: Place) -> int:
    """A command that reads a warehouse, given a folder that holds none: one line, status 2."""
    print(
        f"{prog}: no warehouse at {db} (`squire ingest LOGS --db {db}` makes one)", file=sys.stderr
    )
    return 2


SEATS = between(1, MAX_SEATS)


def as_of(text: str) -> int | datetime:
    """A version of the warehouse, or the time whose version is meant."""
    from ingest.warehouse.warehouse import version_of

    try:
        found = version_of(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None
    assert found is not None
    return found


def as_of_argument(p: argparse.ArgumentParser) -> None:
    """The version of the warehouse a command reads: the latest unless told."""
    p.add_argument(
        "--as-of",
        type=as_of,
        metavar="VERSION|TIME",
        help="read the warehouse as it stood at this version (`squire versions` lists them) "
        "or time (2026-12-05T14:00, UTC unless a zone is given): a figure quoted from it "
        "reads the same after more matches arrive",
    )


def source_argument(p: argparse.ArgumentParser, what: str) -> None:
    """Where the matches read come from (Selection.source): the matches played by default."""
    p.add_argument(
        "--source",
        type=source,
        metavar="human|bot|experiment[:ID]",
        help=f"{what}; experiments are left out otherwise",
    )


_UNITS = {"m": 60, "h": 3600, "d": 86400}  # a duration's units, in seconds


def duration(text: str) -> timedelta:
    """A length of time as `30m`, `24h` or `7d`; ValueError (one line) for anything else."""
    number, unit = text.strip()[:-1], text.strip()[-1:].lower()
    if unit not in _UNITS or not number.isdigit() or int(number) == 0:
        raise ValueError(f"{text!r} is not a length of time: minutes, hours or days (30m, 24h, 7d)")
    return timedelta(seconds=int(number) * _UNITS[unit])


def since(text: str) -> datetime:
    """`--since`: a time (2026-12-05, 2026-12-05T14:00, UTC unless a zone is given) or a
    length of time back from now (24h, 7d)."""
    try:
        return datetime.now(UTC) - duration(text)
    except ValueError:
        pass
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: a time (2026-12-05, 2026-12-05T14:00) or a length of time (24h, 7d)"
        ) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)
