"""Everything that reads or writes, in sub-packages by concern: `files` (logs and catalogues
on disk), `warehouse` (its tables, commits and compaction), `analyses` (what is derived from
stored matches), `pipeline` (the parallel ingest), `simulation` (bots' matches and
experiments) and `cli` (the `squire` command line, a module a command)."""
