"""Game boards drawn as plotly figures, one module per game."""
