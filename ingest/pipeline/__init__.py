"""The ingest pipeline: logs replayed into rows by parallel workers, committed part by part,
and the uploads' worker."""
