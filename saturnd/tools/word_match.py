"""Word matching shared by the ground's retrieval and search_files: SQLite FTS5 with the Porter
stemmer (stdlib sqlite3, no extra dependency), so "notes" finds notes.txt and "spending" finds "spend"."""

from __future__ import annotations

import re
import sqlite3

WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
STEM_WORD = re.compile(r"[a-z]{3,}")
_STOP = """
the and for are was were with what where when which who how why this that these those from into
about does did has have had you your can not but all any our its his her their them they she him
what's whats where's when's who's it's i'm i'll i've tell please again much many some just one
give get got make put let need want know show look find there here then than also very will would
could should txt csv json yaml yml ini log file files folder
"""
STOP_WORDS = frozenset(_STOP.split())
SHORT_STOP_WORDS = frozenset([
    "am", "an", "as", "at", "be", "by", "do", "go", "he", "hi", "if", "in", "is", "it",
    "me", "my", "no", "of", "ok", "on", "or", "pm", "so", "to", "up", "us", "we",
])
"""Two-letter words a request writes with a capital without naming anyone ("Is", "OK", "PM")."""
ALSO_WRITTEN = {
    "doctor": ("dr", "gp"), "mum": ("mother", "mom"), "mom": ("mother", "mum"),
    "mother": ("mum", "mom"), "dad": ("father",), "father": ("dad",), "phone": ("tel", "mobile"),
    "telephone": ("phone", "tel"), "mobile": ("phone",), "appointment": ("appt",), "email": ("mail",),
    "address": ("street", "road"), "birthday": ("born",), "password": ("pass", "pwd"),
    "spend": ("spent", "amount", "cost"), "spent": ("spend", "amount", "cost"),
    "shopping": ("groceries", "grocery"), "groceries": ("shopping",), "grocery": ("shopping", "groceries"),
    "fly": ("flight",), "flying": ("flight",), "todo": ("tasks",), "tasks": ("todo",),
    "rubbish": ("bin", "bins"), "wifi": ("internet", "router"), "dentist": ("dental",),
    "owed": ("unpaid", "paid", "invoices"), "owe": ("unpaid", "paid", "invoices"),
    "owes": ("unpaid", "paid", "invoices"), "overdue": ("due", "unpaid", "paid"),
    "money": ("budget", "amount"), "pay": ("paid", "bills", "payday"), "paid": ("payday",), "eye": ("optician",), "eyes": ("optician",),
    "holiday": ("leave", "annual"), "holidays": ("leave", "annual"), "vacation": ("leave", "holiday"),
    "weigh": ("weight", "kg"), "shift": ("rota", "shifts"), "shifts": ("rota",), "rota": ("shift", "shifts"),
    "work": ("timesheet", "shift"), "worked": ("timesheet", "shift"), "hours": ("timesheet",),
    "present": ("gift", "gifts"), "presents": ("gifts", "gift"), "gift": ("present", "presents"),
    "gifts": ("presents", "present"), "share": ("split",), "shares": ("split",),
    "replied": ("rsvp",), "reply": ("rsvp",), "respond": ("rsvp",), "responded": ("rsvp",),
    "coming": ("rsvp",), "people": ("guests",), "date": ("use", "before", "expires", "expiry"),
    "expired": ("use", "before", "expires", "expiry"),
    "fastest": ("time", "pace", "minutes"), "slowest": ("time", "pace", "minutes"), "quickest": ("time", "pace", "minutes"),
    "pace": ("time",), "break": ("term", "ends"), "5k": ("km",), "10k": ("km",), "run": ("km", "runs", "running"), "ran": ("km", "runs", "running"),
    "tank": ("fuel", "litres"), "petrol": ("fuel",), "diesel": ("fuel",), "mileage": ("miles",),
    "drunk": ("ml", "feed", "feeds"), "drank": ("ml", "feed", "feeds"), "drink": ("ml",),
    "kilos": ("kg",), "kilo": ("kg",), "kilograms": ("kg",),
    "check": ("arrivals", "arrive", "arrival"), "checkout": ("leave", "departure"),
    "arriving": ("arrive", "arrivals"), "staying": ("arrive", "leave", "nights"), "nights": ("arrive", "leave"),
    "fund": ("savings", "saved"), "savings": ("saved", "fund"), "saved": ("savings",), "save": ("savings", "saved"),
}
"""How people write these words in their own notes: "What's my doctor's phone number?" must find
"Dr Weiss (GP): +44 20 7946 0991", and "Put eggs on the shopping list" groceries.txt."""
NAME_WEIGHT = 3.0
"""BM25 column weight of a document's name against its text's 1.0."""


UNSPACED_SCRIPT = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
"""Kana, CJK and Hangul: Chinese and Japanese (and Korean, often) put no space between a word of
theirs and a Latin one."""
SCRIPT_SEAM = re.compile(
    f"(?<=[{UNSPACED_SCRIPT}])['’]?(?=[^\\W{UNSPACED_SCRIPT}])|(?<=[^\\W{UNSPACED_SCRIPT}])['’]?(?=[{UNSPACED_SCRIPT}])"
)


WEEKDAY_WORD = re.compile(r"(?:mon|tue|tues|wed|weds|wednes|thu|thur|thurs|fri|sat|satur|sun)(?:day)?s?")


def stems(text: str) -> set[str]:
    """The words that say what a line is about, cut to four letters ("meetings" and "meeting" are one;
    "one-to-one" is also "onetoone"), a weekday to three however written ("Wednesday's" is "Wed:")."""
    return {w[:3] if WEEKDAY_WORD.fullmatch(w) else w[:4]
            for w in STEM_WORD.findall(_compounds_whole(text).lower()) if w not in STOP_WORDS}


NAME_PART = re.compile(r"[a-z]{2,}")
TYPE_SUFFIXES = frozenset({"txt", "csv", "tsv", "md", "json", "yaml", "yml", "ini", "log", "org", "rtf"})


def name_as_asked(name: str, request: str) -> str:
    """A document's name with the request's words a short word of it stands for: "bp.csv" holds no
    word of "What's my average blood pressure?" but its initials, "subs.csv" the start of
    "subscriptions"."""
    words = [w.lower() for w in WORD.findall(request)]
    content = [w for w in words if len(w) >= 3 and w not in STOP_WORDS]
    meant = []
    for short in NAME_PART.findall(name.lower()):
        if short in TYPE_SUFFIXES:
            continue
        runs = (words[i:i + len(short)] for i in range(len(words) - len(short) + 1)) if len(short) <= 3 else ()
        meant += [word for run in runs if "".join(w[0] for w in run) == short and all(w in content for w in run)
                  for word in run]
        if len(short) >= 4:
            meant += [word for word in content if len(word) > len(short) + 1 and word.startswith(short)]
    return " ".join([name, *dict.fromkeys(meant)])


def query_terms(request: str) -> list[str]:
    """The request's content words, lowercased, each once, in order; a Latin word written against
    Chinese is a word of its own ("名为'DevelopmentEnv'的workspace": workspace)."""
    return [term for group in query_word_groups(request) for term in group]


FILE_COMPOUND = re.compile(r"\b([^\W\d_]{3,})\s+(list|book|notes)\b", re.IGNORECASE)
""""my wish list" is also written "wishlist" (wishlist.txt), "the phone book" "phonebook"."""
HYPHENATED = re.compile(r"[^\W_]+(?:-[^\W_]+)+")


def _also_whole(compound: re.Match[str]) -> str:
    """"to-do" as "todo to-do": a part too short to be a word of its own is not lost."""
    parts = compound.group(0).split("-")
    return f"{''.join(parts)} {compound.group(0)}" if min(map(len, parts)) < 3 else compound.group(0)


def query_word_groups(request: str) -> list[tuple[str, ...]]:
    """Each content word of the request with the ways people also write it ("doctor", "dr", "gp").
    A word needs three letters, or two and a capital: "Text Jo that I'm late" names Jo. A
    hyphenated word with a short part is also a word written whole: "my to-do list" is todo.txt."""
    spaced = HYPHENATED.sub(_also_whole, SCRIPT_SEAM.sub(" ", request))
    found = (w.replace("’", "'").removesuffix("'s").removesuffix("'S") for w in WORD.findall(spaced))
    words = [w.lower() for w in found if _content_word(w)]
    joined = {m.group(1).lower(): m.group(1).lower() + m.group(2).lower() for m in FILE_COMPOUND.finditer(spaced)}
    groups = {w: (w, *ALSO_WRITTEN.get(w, ()), *([joined[w]] if w in joined else [])) for w in words}
    seen: set[str] = set()
    unique = []
    for group in groups.values():
        terms = tuple(t for t in group if t not in seen)
        seen.update(terms)
        if terms:
            unique.append(terms)
    return unique


def _content_word(word: str) -> bool:
    lower = word.lower()
    if len(word) == 2:
        return word[0].isupper() and lower not in SHORT_STOP_WORDS
    return len(word) >= 3 and lower not in STOP_WORDS


def fts_query(terms: list[str]) -> str:
    return " OR ".join('"' + t.replace('"', "") + '"' for t in terms)


def fts_index(rows: list[tuple[str, str]]) -> sqlite3.Connection:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE doc USING fts5(name, body, tokenize='porter unicode61')")
    db.executemany("INSERT INTO doc (name, body) VALUES (?, ?)",
                   ((_compounds_whole(name), _compounds_whole(body)) for name, body in rows))
    return db


def _compounds_whole(text: str) -> str:
    """The text with its hyphenated words of a short part also written whole, as query_word_groups
    asks for them: "When's my next one-to-one?" must find "One-to-one with Ruth: Tuesdays 10am"."""
    joined = {"".join(found.group(0).split("-")).lower() for found in HYPHENATED.finditer(text)
              if min(map(len, found.group(0).split("-"))) < 3}
    return f"{text}\n{' '.join(sorted(joined))}" if joined else text


