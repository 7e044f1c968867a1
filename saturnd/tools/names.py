"""The words a person names a thing by, compared in any script, inflected or not.

Short words are left out where a name is wanted, so that a language's articles and prepositions
("de", "van", "la") are not taken for one; nothing here knows a language.
"""

from __future__ import annotations

import math
import re

WORD = re.compile(r"[^\W_]+", re.UNICODE)
MIN_NAME_CHARS = 4
SAME_STEM = 0.75
"""Two words of four letters or more are one word when they share their first three quarters (and
four letters at least): a name as a sentence inflects it, "Kašpárka" for "Kašpárek", "Ioanei" for
"Ioana", "Egels" for "Egel" (stop 56: a Czech request fitted neither of two puppets it named)."""


def words(text: str, min_chars: int = 1) -> set[str]:
    return {w.casefold() for w in WORD.findall(text) if len(w) >= min_chars and not w.isdigit()}


def same_word(a: str, b: str) -> bool:
    if a == b:
        return True
    shorter = min(len(a), len(b))
    if shorter < MIN_NAME_CHARS:
        return False
    common = next((n for n, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), shorter)
    return common >= max(MIN_NAME_CHARS, math.ceil(SAME_STEM * shorter))


def shared(these: set[str], those: set[str]) -> set[str]:
    """The words of `these` that are a word of `those`, as inflected."""
    return {w for w in these if any(same_word(w, other) for other in those)}
