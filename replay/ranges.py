"""The ranges every ruleset parameter keeps to (LOG-3), shared by the four games' configs.

A log's header may override any parameter (`rules`), so each has a range: a number outside
it, or a list longer than it, is refused with the parameter's name and the bound it breaks
(``Expected `int` <= 12 - at `$.board_cols` ``), before the engine does any work with it.
The ranges reach well past every printed rule and every experiment in the samples (a round
count of 7, a track of 20 squares, prizes of 17 points), and stop where a match would no
longer be a board game: no replay under them runs for more than a moment.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

Count = Annotated[int, msgspec.Meta(ge=0, le=100)]  # pieces, cards, workers, squares, silver
Positive = Annotated[int, msgspec.Meta(ge=1, le=100)]
Players = Annotated[int, msgspec.Meta(ge=1, le=10)]  # seats at a table
Round = Annotated[int, msgspec.Meta(ge=1, le=30)]  # a round's number, or how many there are
Points = Annotated[int, msgspec.Meta(ge=-1000, le=1000)]  # what a rule awards or takes away
Name = Annotated[str, msgspec.Meta(max_length=32)]  # a card, track, space or slot
Text = Annotated[str, msgspec.Meta(max_length=200)]  # a reward in a game's effect grammar
Step = Annotated[int, msgspec.Meta(ge=-9, le=9)]  # seats to pass to: +1 the left neighbour

MANY = 64  # the most entries of a list or table in a ruleset
LIST = msgspec.Meta(max_length=MANY)  # as Annotated[tuple[Points, ...], LIST]
