"""Matches played by bots: the simulator's logs, and experiments comparing two rule sets."""
