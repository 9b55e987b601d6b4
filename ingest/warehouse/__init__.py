"""The warehouse: its tables, batch commits, idempotency, rejects, the summaries, the
selection of stored matches, and compaction."""
