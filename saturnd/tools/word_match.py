"""Word matching shared by the ground's retrieval and search_files: SQLite FTS5 with the Porter
stemmer (stdlib sqlite3, no extra dependency), so "notes" finds notes.txt and "spending" finds "spend"."""

from __future__ import annotations

import re
import sqlite3

WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
_STOP = """
the and for are was were with what where when which who how why this that these those from into
about does did has have had you your can not but all any our its his her their them they she him
what's whats where's when's who's it's i'm i'll i've tell please again much many some just one
give get got make put let need want know show look find there here then than also very will would
could should txt csv json yaml yml ini log file files folder
"""
STOP_WORDS = frozenset(_STOP.split())
ALSO_WRITTEN = {
    "doctor": ("dr", "gp"), "mum": ("mother", "mom"), "mom": ("mother", "mum"),
    "mother": ("mum", "mom"), "dad": ("father",), "father": ("dad",), "phone": ("tel", "mobile"),
    "telephone": ("phone", "tel"), "mobile": ("phone",), "appointment": ("appt",), "email": ("mail",),
    "address": ("street", "road"), "birthday": ("born",), "password": ("pass", "pwd"),
}
"""How people write these words in their own notes: "What's my doctor's phone number?" must find
"Dr Weiss (GP): +44 20 7946 0991"."""
NAME_WEIGHT = 3.0
"""BM25 column weight of a document's name against its text's 1.0."""


UNSPACED_SCRIPT = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
"""Kana, CJK and Hangul: Chinese and Japanese (and Korean, often) put no space between a word of
theirs and a Latin one."""
SCRIPT_SEAM = re.compile(
    f"(?<=[{UNSPACED_SCRIPT}])['’]?(?=[^\\W{UNSPACED_SCRIPT}])|(?<=[^\\W{UNSPACED_SCRIPT}])['’]?(?=[{UNSPACED_SCRIPT}])"
)


def query_terms(request: str) -> list[str]:
    """The request's content words, lowercased, each once, in order; a Latin word written against
    Chinese is a word of its own ("名为'DevelopmentEnv'的workspace": workspace)."""
    spaced = SCRIPT_SEAM.sub(" ", request.lower())
    found = (w.replace("’", "'").removesuffix("'s") for w in WORD.findall(spaced))
    words = [w for w in found if len(w) >= 3 and w not in STOP_WORDS]
    return list(dict.fromkeys(t for w in words for t in (w, *ALSO_WRITTEN.get(w, ()))))


def fts_query(terms: list[str]) -> str:
    return " OR ".join('"' + t.replace('"', "") + '"' for t in terms)


def fts_index(rows: list[tuple[str, str]]) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE doc USING fts5(name, body, tokenize='porter unicode61')")
    db.executemany("INSERT INTO doc (name, body) VALUES (?, ?)", rows)
    return db


