"""Warehouses in the format squire wrote before Delta tables (schema version 2: Parquet
parts), made from a warehouse of today's, to convert."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ingest.warehouse import summaries
from ingest.warehouse.warehouse import SCHEMA, open_reader


def as_parts(db: Path, out: Path, pieces: int = 3, merged: bool = True) -> dict[str, int]:
    """`db`'s matches as `pieces` parts of the older format in `out`, each with its
    summaries; with `merged`, a last part holding the first two again and naming them in its
    covers.json, as a compaction left them within its grace. The rows each table holds."""
    con = open_reader(db)
    tables = {t: con.sql(f"SELECT * FROM {t}").to_arrow_table().cast(SCHEMA[t]) for t in SCHEMA}
    con.close()
    ids = sorted(tables["games"]["game_id"].to_pylist())
    shares = [ids[i::pieces] for i in range(pieces)]
    (out / "parts").mkdir(parents=True)
    names = []
    for n, share in enumerate(shares, 1):
        names.append(_part(out, f"{n:06d}-{n:08x}", tables, share))
    if merged:
        name = _part(out, f"{pieces:06d}-c{pieces:07x}", tables, shares[0] + shares[1])
        (out / "parts" / name / "covers.json").write_text(json.dumps(names[:2]) + "\n")
    (out / "meta.json").write_text(json.dumps({"schema_version": 2}) + "\n")
    for extra in ("models", "catalogues", "experiments"):
        if (db / extra).exists():
            shutil.copytree(db / extra, out / extra)
    if (db / "tables" / "ratings").exists():  # a folder a game, as squire kept them then
        history = pl.read_delta(str(db / "tables" / "ratings"))
        for game in history["game"].unique():
            (out / "ratings" / game).mkdir(parents=True)
            history.filter(pl.col("game") == game).write_parquet(
                out / "ratings" / game / "000001.parquet"
            )
    return {t: rows.num_rows for t, rows in tables.items()}


def _part(out: Path, name: str, tables: dict[str, pa.Table], ids: list[str]) -> str:
    folder = out / "parts" / name
    folder.mkdir()
    keep = pa.array(ids, pa.string())
    rows = {t: r.filter(pc.is_in(r["game_id"], value_set=keep)) for t, r in tables.items()
            if t != "rejects"}  # fmt: skip
    for table, found in rows.items():
        pq.write_table(found, folder / f"{table}.parquet")
    if tables["rejects"].num_rows and name.startswith("000001"):
        pq.write_table(tables["rejects"], folder / "rejects.parquet")
    for summary, found in summaries.summarise(rows).items():
        pq.write_table(found, folder / summaries.file_name(summary))
    return name
