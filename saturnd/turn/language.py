"""Which language a text is written in, told by a model of 97 languages (py3langid), not a list
of words: the answer's language is checked against the request's.

The 1.5B answers in English to a request in another language more often than not when its
tools' results are in English (stop 54's first run: 9 of 22 answers to requests in other
languages were in English), whatever the system prompt says.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from py3langid import langid

SURE = 0.95
"""Both texts must be this clearly in one language: a short or mixed text says nothing."""
LEAST_WORDS = 6
"""An answer shorter than this (a figure, a name, "SMS sent to 041 234 567") is in no language."""
LETTERS = re.compile(r"[^\W\d_]{2,}")


@functools.cache
def _identifier() -> langid.LanguageIdentifier:
    # imported on first use: numpy and the model would hold an idle daemon above its memory goal
    from py3langid import langid

    return langid.LanguageIdentifier.from_modelpath(langid.MODEL_DIR / langid.MODEL_FILE, norm_probs=True)


def language_of(text: str) -> str | None:
    """The language code of `text` when the model is sure of it; None when it is not."""
    if len(LETTERS.findall(text)) < LEAST_WORDS:
        return None
    code, probability = _identifier().classify(text)
    return str(code) if probability >= SURE else None


def answered_in_another_language(request: str, answer: str) -> str | None:
    """The request's language code, when the answer is surely in another one."""
    asked, answered = language_of(request), language_of(answer)
    return asked if asked is not None and answered is not None and asked != answered else None
