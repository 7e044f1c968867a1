"""Small deterministic helpers for storing facts: the tidy form a fact is kept in, whether
it is a standing rule (loaded on every request), and which stored fact it may contradict."""

from __future__ import annotations

import re

from saturnd.memory.own_words import key_words

# A rule is an instruction for every later request. Models follow a stated preference
# less than 10% of the time ten turns later unless it is put in front of them again, so
# these go into the layer that loads on every request.
_RULE_START = re.compile(
    r"^(?:please\s+)?(?:never|always|from now on|going forward|in (?:the )?future"
    r"|every time|whenever|each time|don'?t ever|do not ever)\b",
    re.IGNORECASE,
)
_RULE_ANYWHERE = re.compile(
    r"\b(?:from now on|going forward|every time|each time|whenever)\b"
    r"|\b(?:don'?t|do not)\b.*\bever\b"  # "do not book red-eyes ever"
    r"|\b(?:you|saturn)\s+(?:should\s+|must\s+)?(?:always|never)\b",  # "you always …"
    re.IGNORECASE,
)

# Similar means: more than half of the shorter fact's words are shared (exactly half would
# tie "My son's name is Max" to "My daughter's name is Ada"), at least two of them (so the
# "user" both facts are about is never enough), and the two are not the same words.
# Overlap can't tell a correction from an elaboration; the line only points, never removes.
SIMILAR_SHARE = 0.5
SIMILAR_MIN_SHARED = 2


MAX_FACT_CHARS = 500
"""Every fact is sent with every request: a fact is a sentence or two, not a document."""


def too_long(fact: str) -> str:
    """Why `fact` (in its stored form) is refused for its length, or "" when it fits."""
    if len(fact) <= MAX_FACT_CHARS:
        return ""
    return f"refused: a fact is at most {MAX_FACT_CHARS} characters; this one has {len(fact)}"


def normalize_fact(text: str) -> str:
    """Trimmed, single-spaced, without a closing period: the form a fact is stored in."""
    text = " ".join(text.split())
    if re.search(r"\b(?:[a-z]\.){2,}$|\b(?:etc|e\.g|i\.e)\.$", text, re.IGNORECASE):
        return text  # "before 10 a.m." keeps the period that belongs to the abbreviation
    return text.rstrip(".").rstrip()


def is_rule(fact: str) -> bool:
    """True for a standing instruction ("never…", "always…", "from now on…", "whenever…")."""
    text = normalize_fact(fact).replace("\u2019", "'")
    return bool(_RULE_START.search(text) or _RULE_ANYWHERE.search(text))


def find_similar(new: str, existing: list[tuple[int, str]]) -> tuple[int, str] | None:
    """The stored fact `new` may contradict ("I live in Berlin" vs #3 "I live in Paris"):
    the most similar one, the most recent on a tie; None when nothing is close enough."""
    words = key_words(new)
    best: tuple[float, int] | None = None
    for index, (_, text) in enumerate(existing):
        score = similarity(words, key_words(text))
        if score is not None and (best is None or score >= best[0]):
            best = (score, index)
    return existing[best[1]] if best is not None else None


def similarity(a: set[str], b: set[str]) -> float | None:
    """The share of the shorter fact's words the two have in common, or None when they are
    not similar (half or less, fewer than two shared words, or exactly the same words)."""
    shared = len(a & b)
    if not a or not b or a == b or shared < SIMILAR_MIN_SHARED:
        return None
    share = shared / min(len(a), len(b))
    return share if share > SIMILAR_SHARE else None
