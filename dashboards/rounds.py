"""A step's round in words. The round of a step is the round the engine's state is in after
the step's event, as the game's `snapshot` gives it (`round`, docs/engines.md): the viewer's
heading, every board's caption, the jump list and the HTML export read it here, so that one
step never shows two rounds."""

from __future__ import annotations

from typing import Any

from dashboards.i18n import t


def round_words(view: dict[str, Any], lang: str | None = None) -> str:
    """ "Round 3", or the setup before round 1 (the engines' round 0)."""
    number = view["round"]
    return f"{t('round', lang)} {number}" if number else t("round_setup", lang)


def heading(step: int, last: int, view: dict[str, Any], lang: str | None = None) -> str:
    """ "Step 30 / 84 · Round 8": where the viewer (and the file it exports) stands."""
    return f"{t('step', lang)} {step} / {last} · {round_words(view, lang)}"
