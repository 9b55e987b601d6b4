"""The rules engines and the replayer: pure functions over events, no files, no databases."""
