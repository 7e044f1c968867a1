"""The one line of a note that holds every word a question asks.

Asked "When should I repot the fig?" of care.txt ("Feed the monstera …", "Repot the fiddle leaf
fig in March.", "Bought basil …"), the 1.5B answered with the basil line. Where one line alone
holds each word of the question, the harness names it.
"""

from __future__ import annotations

import re

from saturnd.gate.provenance import TIME, time_of
from saturnd.tools.word_match import stems
from saturnd.turn.date_checks import bare_yes_or_no
from saturnd.turn.dates import WEEKDAY_WRITTEN, content_words
from saturnd.turn.errands import asked_action

QUESTION = re.compile(r"\?\s*$")
MIN_WORDS = 2
KIND_ASKED = re.compile(r"^\W*(?:(?:which|what)\s+(?P<kind>day|night|evening|morning|afternoon|time|date|week|month)\b|"
                        r"when(?:\s+(?:do|does|did|am|is|are|was)\b|['’]s\b))", re.IGNORECASE)
"""A question asking which day or time: the line it is answered from holds the day, not the word."""
PER_PERIOD = re.compile(r"\b(?:a|an|per|each|every)\s+(?P<period>day|week|fortnight|month|year)\b", re.IGNORECASE)
"""The period an amount is asked by ("How much is the cleaner a week?"): the line writes it as a
rate, not "every 4 weeks"."""
DATE_WRITTEN = re.compile(r"\b\d{4}-\d\d-\d\d\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)",
                          re.IGNORECASE)


def the_line_asked(lines: list[str], request: str) -> str:
    """For a question of two or more words of its own, the one line of several that holds them all."""
    kind = KIND_ASKED.search(request)  # "Which night are we at Gran's?": the line holds the night, not "night"
    asked = stems(" ".join(content_words(request))) - (stems(kind["kind"]) if kind and kind["kind"] else set())
    periods = [found["period"].lower() for found in PER_PERIOD.finditer(request)]  # "a week": written as a rate in the line
    if not QUESTION.search(request) or asked_action(request) or len(asked) < MIN_WORDS - (kind is not None):
        return ""
    held = [line.strip(" -*•") for line in lines if line.strip() and not line.lstrip().startswith("#")
            and asked - stems(" ".join(periods)) <= stems(line) and all(_writes_the_rate(line, period) for period in periods)
            and (kind is None or _holds_the_kind(line, (kind["kind"] or "day").lower()))]  # "When do I do Chemistry?": a day
    if len(held) != 1 or sum(1 for line in lines if line.strip()) < 3:
        return ""
    return f"[Saturn listed] the one line with each word asked: {held[0]}"


def the_line_at_the_time(lines: list[str], request: str) -> str:
    """For a question naming a time of day ("What did she have at 9:15?"), the one line written at
    it ("- 09:15 ibuprofen 2.5ml"): the 1.5B answered "She had medicine at 9:15."."""
    said = TIME.search(request)
    if said is None or not QUESTION.search(request) or asked_action(request):
        return ""
    at = time_of(said)
    held = [line.strip(" -*•") for line in lines if any(time_of(found) == at for found in TIME.finditer(line))]
    return f"[Saturn listed] the one line with each word asked: {held[0]}" if len(held) == 1 else ""


def _writes_the_rate(line: str, period: str) -> bool:
    """Whether a line writes so much a period ("£6 a day", "per week", "weekly", "paid monthly")."""
    ly = {"day": "daily", "week": "weekly", "fortnight": "fortnightly", "month": "monthly", "year": "yearly"}[period]
    return re.search(rf"\b(?:a|an|per|each)\s+{period}\b|/\s*{period}\b|\b{ly}\b", line, re.IGNORECASE) is not None


def _holds_the_kind(line: str, kind: str) -> bool:
    """A line holding a time for "what time", a day for "which day": "Sleep: at least 7 hours" is
    no answer to "Which day did I sleep the least?"."""
    return bool(TIME.search(line) if kind == "time" else WEEKDAY_WRITTEN.search(line) or DATE_WRITTEN.search(line))


NAMED_LINE = re.compile(r"^\[Saturn listed\] the one line with each word asked: (?P<line>.+)$", re.MULTILINE)

DAYS_ASKED = re.compile(r"^\W*(?:which|what)\s+(?:days?|nights?|evenings?|mornings?)\b", re.IGNORECASE)
DAY_LABEL = re.compile(r"^\W*(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\s*:\s*(?P<said>.*)$", re.IGNORECASE)
MIN_DAY_LINES = 3


def the_days_asked(lines: list[str], request: str) -> str:
    """Asked which days of a plan set out a line a weekday ("- Mon: chilli") hold a thing, the
    lines that do: asked "Which nights are we having chilli?", the 1.5B said every night."""
    days = [(found["said"], line.strip(" -*•")) for line in lines if (found := DAY_LABEL.match(line))]
    words = [word for word in content_words(request) if not stems(word) <= stems("days nights evenings mornings having doing")]
    asked = stems(" ".join(words))
    if not DAYS_ASKED.search(request) or not QUESTION.search(request) or len(days) < MIN_DAY_LINES or not asked:
        return ""
    held = [line for said, line in days if asked <= stems(said)]
    return f"[Saturn listed] the days with {' '.join(words)} ({len(held)} of {len(days)}): {'; '.join(held)}" if held else ""


NAME_ASKED = re.compile(r"^\W*(?:which|what|when)\b.*?\b(?:does|do|is|are|has|have|did|on|from|at|with)\s+(?P<name>(?-i:[A-Z])[a-z]+)\b",
                        re.IGNORECASE)
LIST_LINE = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def the_lines_naming(lines: list[str], request: str) -> str:
    """Asked which things of a list are someone's ("Which classes does Jenny take?") or a name's
    ("What can I watch on Netflix?"), the list's lines naming them, where some and not all do: the
    1.5B gave Jenny's Pilates and Marco's bootcamp, and every film for Netflix's one."""
    found = NAME_ASKED.search(request)
    listed = [line.strip() for line in lines if LIST_LINE.match(line)]
    if found is None or not QUESTION.search(request):
        return ""
    theirs = [line for line in listed if re.search(rf"\b{re.escape(found['name'])}\b", line)]
    if not theirs or len(theirs) == len(listed) or len(listed) < 3:
        return ""
    if len(theirs) == 1:  # no count to read out: asked what was on Netflix, the 1.5B answered "1"
        return f"[Saturn listed] the one line with each word asked: {theirs[0].strip(' -*•')}"
    return f"[Saturn listed] the lines with {found['name']} ({len(theirs)} of {len(listed)}): " + "; ".join(theirs)


LINES_NAMING = re.compile(r"^\[Saturn listed\] the lines with (?P<name>\w+) \(\d+ of \d+\): (?P<lines>.+)$", re.MULTILINE)


def others_lines_named(answer: str, request: str, seen: str) -> str | None:
    """The lines naming the person asked about (the_lines_naming), when the answer names a thing
    only another's line of the list holds: Jenny's classes answered with Marco's bootcamp."""
    found = LINES_NAMING.search(seen)
    if found is None:
        return None
    theirs = stems(found["lines"])
    others = stems(" ".join(line for line in seen.splitlines() if LIST_LINE.match(line)
                            and not re.search(rf"\b{found['name']}\b", line) and line.strip() not in found["lines"]))
    wrong = (stems(answer) & others) - theirs - stems(request) or bare_yes_or_no(answer, request)
    return found.group(0).removeprefix("[Saturn listed] ") if wrong else None


DAYS_LISTED = re.compile(r"^\[Saturn listed\] the days with [^(\n]+\((?P<count>\d+) of \d+\): (?P<lines>.+)$", re.MULTILINE)


def days_not_listed(answer: str, request: str, seen: str) -> str | None:
    """The days listed (the_days_asked), when the answer names a weekday none of them is."""
    found = DAYS_LISTED.search(seen)
    if found is None:
        return None
    listed = {line.split(":")[0].strip().lower()[:3] for line in found["lines"].split("; ")}
    named = {day.group(0).lower()[:3] for day in WEEKDAY_WRITTEN.finditer(answer)}
    return found.group(0) if named - listed or bare_yes_or_no(answer, request) else None


def another_line_than_asked(answer: str, request: str, seen: str) -> str | None:
    """The line holding each word asked, where the answer has none of its other words: the 1.5B
    answered "When should I repot the fig?" with "Bought basil from the market for £2.50.", care.txt's
    last line, beside "Repot the fiddle leaf fig in March." named."""
    found = NAMED_LINE.search(seen)
    if found is None:
        return None
    rest = _words_and_numbers(found["line"]) - _words_and_numbers(request)
    return found["line"] if rest and not rest & _words_and_numbers(answer) else None


def _words_and_numbers(text: str) -> set[str]:
    """A text's word stems and numbers: "due on 2026-12-18" is from the line "booster due 2026-12-18, dental check …"."""
    return stems(text) | {str(int(n)) for n in re.findall(r"\d+", text)}


NOTHING_FOUND = re.compile(
    r"\b(?:(?:is|are)\s+empty|no\s+(?:information|info|results?|matches|records?|entries|mention|details)|"
    r"(?:did\s+not|didn't|could\s+not|couldn't|can't|cannot|was\s+unable\s+to)\s+find|not\s+found|nothing\s+(?:about|on|for)|"
    r"(?:not|don't|do\s+not)\s+(?:have\s+)?enough\s+(?:information|info|data|details))\b",
    re.IGNORECASE)
"""An answer saying nothing was found: "The knowledge base is empty.", "I couldn't find anything about it."."""
SHOWN_LINE = re.compile(r"^(?:\[Saturn (?:dated|listed|worked out)\] )?(?!\[|---|<|#|Now:|Working folder:|Files in|Excerpts of|- \S+ \(\d)"
                        r"(?P<line>.*\w.*)$", re.MULTILINE)
"""A line of the user's files shown, or one the harness worked out of them ("Tuesday 1 December: … water glasses 8")."""


def nothing_found_beside_the_line(answer: str, request: str, seen: str) -> str | None:
    """The one line shown holding most of the question's words (two or more), where the answer
    says nothing was found: asked "When do I pay pocket money?" with "Pocket money paid on
    Saturdays." shown, the 1.5B searched the empty knowledge base and answered "The knowledge base
    is empty."."""
    if not QUESTION.search(request) or not NOTHING_FOUND.search(answer):
        return None
    asked = stems(" ".join(content_words(request)))
    shared = [(len(asked & stems(found["line"])), found["line"].strip(" -*•")) for found in SHOWN_LINE.finditer(seen)
              if not found["line"].rstrip().endswith("?")]  # the question itself, where the turn shows it
    most = max((count for count, _ in shared), default=0)
    best = {line for count, line in shared if count == most}
    return best.pop() if most >= MIN_WORDS and len(best) == 1 else None
