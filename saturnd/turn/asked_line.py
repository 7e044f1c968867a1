"""The one line of a note that holds every word a question asks.

Asked "When should I repot the fig?" of care.txt ("Feed the monstera …", "Repot the fiddle leaf
fig in March.", "Bought basil …"), the 1.5B answered with the basil line. Where one line alone
holds each word of the question, the harness names it.
"""

from __future__ import annotations

import re

from saturnd.tools.word_match import stems
from saturnd.turn.dates import content_words
from saturnd.turn.errands import asked_action

QUESTION = re.compile(r"\?\s*$")
MIN_WORDS = 2


def the_line_asked(lines: list[str], request: str) -> str:
    """For a question of two or more words of its own, the one line of several that holds them all."""
    asked = stems(" ".join(content_words(request)))
    if not QUESTION.search(request) or asked_action(request) or len(asked) < MIN_WORDS:
        return ""
    held = [line.strip(" -*•") for line in lines if line.strip() and asked <= stems(line)]
    if len(held) != 1 or sum(1 for line in lines if line.strip()) < 3:
        return ""
    return f"[Saturn listed] the one line with each word asked: {held[0]}"
