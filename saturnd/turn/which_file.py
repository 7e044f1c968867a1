"""Asked which file says a thing, an answer naming a file that does not say it.

Asked "Which of my files mentions my passport?" with travel.md ("Renew the passport before June.")
shown whole beside shopping.txt, the 1.5B answered "shopping.txt". The file shown that holds the
request's words is the answer; the check returns its line to send the answer back with.
"""

from __future__ import annotations

import re

from saturnd.tools.word_match import stems
from saturnd.turn.listing import BLOCK_END

WHICH_FILE_ASKED = re.compile(r"\b(?:which|what)\s+(?:of\s+my\s+)?(?:files?|notes?|documents?|docs?)\b"
                              r"|\bwhere\s+(?:did\s+I\s+(?:write|put|note|save)|is)\b.*\bwritten\b", re.IGNORECASE)
FILE_NAME = re.compile(r"\b[\w-]+\.(?:txt|md|csv|tsv|json|ini|yaml|yml|log|org)\b", re.IGNORECASE)
LISTING_ASKED = re.compile(r"\b(?:are|is)\s+(?:in|there)\b|\bfolder\b|\bdirectory\b", re.IGNORECASE)
""""Which files are in the invoices folder?" asks for a listing, not for the file that says a thing."""
ASKING_WORDS = "which what file files note notes document documents mention mentions say says have has contain contains"


def the_file_holding_it(answer: str, request: str, seen: str) -> str | None:
    """"travel.md holds 'Renew the passport before June.'" when the answer names only files that
    hold none of the request's words, and one file shown does."""
    if not WHICH_FILE_ASKED.search(request) or LISTING_ASKED.search(request):
        return None
    asked = stems(request) - stems(ASKING_WORDS)
    files = _files_shown(seen)
    holding = {name: line for name, lines in files.items() for line in lines if asked & stems(line)}
    named = {name.lower() for name in FILE_NAME.findall(answer)}
    if not holding or not named or named & {name.lower().rsplit("/", 1)[-1] for name in holding}:
        return None
    name, line = next(iter(holding.items()))
    return f"{name} holds '{line.strip()}'"


def _files_shown(seen: str) -> dict[str, list[str]]:
    files: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in seen.splitlines():
        if line.startswith("--- "):
            current = files.setdefault(line.removeprefix("--- ").split(" ", 1)[0].split(":", 1)[0], [])
        elif current is not None and BLOCK_END.match(line):
            current = None
        elif current is not None and line.strip():
            current.append(line)
    return files
