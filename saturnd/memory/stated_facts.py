"""The deterministic catch (seed 001): a plain statement of fact the model did not `remember`
is proposed to the review queue — never written directly; the user accepts or rejects it.

Measured on the embedded 1.5B: it called `remember` on 0 of the first plain statements of the
seed's probe (bench/probe_remember.py), far past the seed's 20% threshold for building this.
"""

from __future__ import annotations

import re

from saturnd.memory.facts import is_rule, normalize_fact
from saturnd.memory.own_words import is_question, split_sentences
from saturnd.memory.secrets import find_secret

ABOUT_THE_USER = re.compile(r"^(i|i'm|im|i've|i'd|my|we|we're|our|mine)\b", re.IGNORECASE)
SOMEONE_OF_THE_USERS = re.compile(r"^(\S+\s+){1,3}?(is|are|was|were)\s+(my|our)\s", re.IGNORECASE)
"""'Petra is my manager': who someone is to the user, named before the 'my'."""
REQUEST = re.compile(
    r"\b(you|please|can|could|would|help|tell me|show me|find|search|read|list|write|send|"
    r"check|remind|look up|let me know|want to know|wonder|need to know)\b",
    re.IGNORECASE,
)
MAX_WORDS = 16
"""Longer sentences are stories or requests, not a fact to keep."""


def stated_facts(text: str) -> list[str]:
    """Sentences of what the user typed that state a fact about them or their people, or a rule."""
    found = []
    for sentence in split_sentences(text):
        fact = normalize_fact(sentence)
        if not fact or is_question(sentence) or len(fact.split()) > MAX_WORDS or find_secret(fact):
            continue
        about_the_user = ABOUT_THE_USER.match(fact) or SOMEONE_OF_THE_USERS.match(fact)
        if is_rule(fact) or (about_the_user and not REQUEST.search(fact)):
            found.append(fact)
    return found
