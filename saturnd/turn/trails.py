"""Trails the user asks to follow: links or clues taken one page or file at a time.

"Start at …/start.html and follow the next links", "Read start.txt and follow
the clues". A small model answers from the first page ("k7q") or from whatever
else it was shown; the harness knows where the trail goes on (the newest tool
result names it, or, before anything was read, the request does) and sends the
answer back until the trail is followed or the turn's bound is reached.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

from protocol.methods import PassTrace

FOLLOW_REQUEST = re.compile(
    r"\b(?:follow|following)\s+(?:the\s+|its\s+|each\s+|every\s+|all\s+|these\s+|those\s+)?"
    r"(?:\"?next\"?\s+)?(?:links?|clues?|trail|pages?|pointers?|chain|steps?)\b"
    r"|\btrail\b|\blinks?\s+deep\b|\bone\s+(?:page|file|link)\s+at\s+a\s+time\b|\bnames\s+the\s+next\b",
    re.IGNORECASE,
)
"""Not "follow up", not "the following items": those name no trail."""
POINTER = re.compile(
    r"https?://[^\s<>\"']+|(?<![\w/.])/[\w./-]+\.html?\b|\b[\w-]+(?:[./][\w-]+)*\.(?:txt|md|html?)\b"
)
FETCHED_FROM = re.compile(r'<outside source="web_fetch (\S+?)"')


ELSEWHERE = re.compile(
    r"\[\S+ is not where the command looked; in the working folder: (?P<run>[^\],]+)"
    r"|no such file: \S+; near names here: (?P<read>[^,\n]+)")
"""Where a tool's failure says the thing asked for is (acting._elsewhere, builtin_files.missing)."""


def asks_to_follow(request: str) -> bool:
    return FOLLOW_REQUEST.search(request) is not None


def unfollowed_pointer(request: str, last_result: str, passes: list[PassTrace]) -> str | None:
    """For a request to follow a trail: the first page or file the newest tool result points to
    (before any tool result, the request) that no call of the turn opened, a page's path made
    whole against the page it is on."""
    if not asks_to_follow(request):
        return None
    fetched = FETCHED_FROM.search(last_result)
    body = last_result[fetched.end():] if fetched else (last_result or request)
    opened = " ".join(c.arguments for p in passes for c in p.calls)
    for found in POINTER.findall(body):
        pointer = found.rstrip(".,;:!?)")
        whole = urljoin(fetched.group(1), pointer) if fetched and pointer.startswith("/") else pointer
        if whole not in opened and pointer not in opened:
            return whole
    return None


def elsewhere_untried(last_result: str, passes: list[PassTrace]) -> tuple[str, str] | None:
    """Where the newest failed call's own result says the file is, and that call's tool, when no call
    of the turn has tried it: asked to run "python3 hello.py", the 1.5B got "hello.py is not where the
    command looked; in the working folder: scripts/hello.py" and answered with those words."""
    calls = [c for p in passes for c in p.calls if c.fate in ("ran", "error")]
    if not calls or not (found := ELSEWHERE.search(last_result)):
        return None
    place = (found.group("run") or found.group("read")).strip()
    tried = " ".join(c.arguments for c in calls)
    return None if place in tried else (place, calls[-1].name)
