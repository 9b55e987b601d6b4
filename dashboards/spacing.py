"""Chinese text spaced as the common Chinese copywriting convention has it: a space between a
Han character and a Latin letter or a digit, on either side ("把剑 3 传给 Ann"), none beside
full-width punctuation ("（Ann）"), which keeps its own room.

A sentence is put together from labels and values (a player's name, a card, a number), and a
label cannot know whether the value beside it is Chinese ("蓝色") or not ("Ann"): the space is
set once the text is whole, here, for every Chinese sentence and label filled in."""

from __future__ import annotations

import re

# Han ideographs (with extension A and the compatibility block); kana and full-width
# punctuation are not among them, so nothing is set beside "，" or "（".
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_LATIN = "A-Za-z0-9"
_BETWEEN = re.compile(f"(?<=[{_HAN}])(?=[{_LATIN}])|(?<=[{_LATIN}])(?=[{_HAN}])")
# A label spaces a field for a Latin value ("选择 {paladin}"); a Chinese one closes up.
_HAN_GAP = re.compile(f"(?<=[{_HAN}]) (?=[{_HAN}])")


def spaced(text: str) -> str:
    """`text` with a space wherever a Han character and a Latin letter or digit meet, and
    none between two Han characters."""
    return _BETWEEN.sub(" ", _HAN_GAP.sub("", text))


def written(text: str, lang: str) -> str:
    """`text` as `lang` writes it: spaced in Chinese, as it is in English."""
    return spaced(text) if lang == "zh" else text
