"""One package per game, each in the same shape: config, events, state, rules, bots."""
