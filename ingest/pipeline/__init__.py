"""The ingest pipeline: logs replayed into rows by parallel workers, committed batch by batch,
and the uploads' worker."""
