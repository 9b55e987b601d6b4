"""What made a version of the warehouse: the command or page whose commit it is, kept in the
version's row of `batches` (ingest.warehouse.store.BATCH_SCHEMA). A table of one row a
commit is the place for it: a compaction rewrites every table but that one, its rows are
read with the versions they describe (one small file a commit, where a commit's own metadata
would be a request a version on S3 and is deleted once its log entry expires), and a Delta
reader sees them as columns.

A warehouse written before squire kept this has rows without it: they read as NULL, what
`squire versions` and the dashboards call "not recorded"."""

from __future__ import annotations

from dataclasses import dataclass

INGEST = "ingest"  # `squire ingest`, and `squire up`'s of the bundled samples
UPLOAD = "upload"  # the dashboards' Upload page
RECORDING = "recording"  # a match entered on the Record page, saved
EXPERIMENT = "experiment"  # `squire experiment`: a commit of one experiment's matches
COMPACTION = "compaction"  # `squire compact`, or an ingest's own once files pile up
CONVERSION = "conversion"  # a warehouse of Parquet parts turned into Delta tables
MADE_BY = (INGEST, UPLOAD, RECORDING, EXPERIMENT, COMPACTION, CONVERSION)


@dataclass(frozen=True)
class Origin:
    """What made a commit: `made_by` (one of MADE_BY); `logs`, the logs (an upload's files)
    the run that made it was given, all its commits together; `experiment`, the id of the
    experiment whose matches it stores."""

    made_by: str
    logs: int | None = None
    experiment: str | None = None

    def __post_init__(self) -> None:
        if self.made_by not in MADE_BY:
            raise ValueError(f"a version is made by one of {', '.join(MADE_BY)}, "
                             f"not {self.made_by!r}")  # fmt: skip

    def columns(self) -> dict[str, str | int | None]:
        """Its columns of the version's row of `batches`."""
        return {"made_by": self.made_by, "logs": self.logs, "experiment": self.experiment}


def described(made_by: str | None, logs: int | None, experiment: str | None) -> str:
    """What made a version, in words, as `squire versions` lists it."""
    if made_by is None:
        return "not recorded (an older squire)"
    if made_by in (INGEST, UPLOAD) and logs is not None:
        noun = "log" if made_by == INGEST else "file"
        return f"{made_by} of {logs:,} {noun}{'' if logs == 1 else 's'}"
    if made_by == RECORDING:
        return "a match recorded at the table"
    if made_by == EXPERIMENT and experiment:
        return f"experiment {experiment}"
    return made_by
