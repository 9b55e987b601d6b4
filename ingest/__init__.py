"""Everything that reads or writes: logs on disk, the simulator's writer, the warehouse and
the `squire` command line."""
