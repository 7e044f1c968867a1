"""A table's yes/no columns and columns of states: the rows of each answer, and the rows a
request about one asks of ("Who hasn't paid me yet?" of a "paid" column)."""

from __future__ import annotations

import re

from saturnd.tools.table_cells import ISO_DATE
from saturnd.tools.word_match import query_terms, stems

FLAGS = {"yes": True, "y": True, "true": True, "no": False, "n": False, "false": False}
UNSURE = frozenset({"maybe", "tbc", "unsure", "not sure", "?"})
NEGATED = re.compile(r"n't\b|\b(?:not|never|unpaid|undone|ow(?:e|es|ed)|outstanding|overdue|still|yet|left)\b|"
                     r"\bneeds?\s+to\b|\bhow\s+much\s+more\b", re.IGNORECASE)
FLAG_FORMS = {"boug": {"buy", "spen"}, "paid": {"pay", "spen"}, "sent": {"send"}, "done": {"do", "did"}}
"""A yes/no column's name by the request's other forms of its verb: "spent" and "buy" ask of "bought"."""


def flagged(header: list[str], body: list[list[str]], numeric: list[int], request: str
             ) -> tuple[int, bool, int | None] | None:
    """(the column, the value asked, the column that names the rows) for a request about a yes/no
    column by its name ("Who hasn't paid me yet?" of a table with a "paid" column, "How much am I
    still owed?"): the rows to total are those with that value. Shown the totals by "paid", the
    1.5B named one of the two unpaid, and answered the whole table's total as what is owed."""
    terms = {term[:4] for term in query_terms(request)}
    payee = re.search(r"\bpay\s+(?-i:([A-Z][\w'-]+))", request, re.IGNORECASE)
    if payee and not any(payee.group(1).lower() in cell.lower() for r in body for cell in r):
        terms -= {"pay", "paid", "bill"}  # "How much will I pay Rosa?" of the guests' bookings: not whether they paid
    for i, name in enumerate(header):
        values = {r[i].strip().lower() for r in body}
        verb = name.strip().lower()[:4]
        undone = re.search(rf"\bun{re.escape(name.strip().lower())}", request, re.IGNORECASE)  # "my unclaimed expenses"
        if values <= FLAGS.keys() and len({FLAGS[v] for v in values}) == 2 and (
                verb in terms or FLAG_FORMS.get(verb, set()) & terms or undone):
            texts = [j for j in range(len(header)) if j != i and j not in numeric]
            undated = [j for j in texts if not all(ISO_DATE.match(r[j]) for r in body)]
            named = [j for j in undated if not any(re.search(r"\d", r[j]) for r in body)]  # a client, not INV-102
            label = next(iter(named + undated + texts), None)
            return i, not (NEGATED.search(request) or undone), label
    flags = [i for i in range(len(header)) if (values := {r[i].strip().lower() for r in body}) <= FLAGS.keys()
             and len({FLAGS[v] for v in values}) == 2]
    if STILL_TO_COME.search(request) and len(flags) == 1:  # "Which bills are still to come out?": "paid this month" no
        texts = [j for j in range(len(header)) if j not in flags and j not in numeric]
        return flags[0], False, next(iter(texts), None)
    return None


STILL_TO_COME = re.compile(r"\b(?:still|yet)\s+to\s+(?:come|go\s+out|happen|be\s+(?:paid|taken|done))\b", re.IGNORECASE)


OWED_ASKED = re.compile(r"\bow(?:e|es|ed|ing)\b|\boutstanding\b", re.IGNORECASE)


def status_asked(header: list[str], body: list[list[str]], request: str) -> tuple[int, str, bool] | None:
    """(the column, its done value, whether rows with it are asked) for a column of states one of
    which is another's "not" ("shipped", "not shipped", "packed"; "paid", "unpaid") that the request
    names: asked "How many orders still need shipping?", the rows not shipped, the packed one too."""
    asked = stems(request)
    for i in range(len(header)):
        values = {r[i].strip().lower() for r in body}
        done = next((v for v in values if (f"not {v}" in values or f"un{v}" in values)
                     and (stems(v) & asked or v == "paid" and OWED_ASKED.search(request))), None)  # "How much am I owed?"
        if done is not None:
            return i, done, not NEGATED.search(request) and not re.search(r"\bneeds?\b|\bto\s+be\b", request, re.IGNORECASE)
    return None


def rows_by_flag(header: list[str], body: list[list[str]], request: str = "") -> str:
    """The rows of each answer of a yes/no column, a blank one too ("rsvp: yes 3 (Leo, Sam, Tom);
    blank (no answer) 2 (Priya, Ines)"), for a table without numbers: asked who hasn't replied, a small model
    reads "Priya,,vegetarian" as nothing. So too a column of a few kinds with blanks the request names
    or names a kind of ("Is anyone vegan?": "diet: vegetarian 1 (Tom); blank 3 (Priya, Ines, Leo);
    vegan 1 (Sam)"; asked who hasn't replied, its blanks were read as no reply)."""
    label = next((i for i in range(len(header)) if {r[i].strip().lower() for r in body} - FLAGS.keys() - {""}),
                 None)
    if label is None:
        return ""
    said = []
    for i, name in enumerate(header):
        values = [r[i].strip().lower() for r in body]
        firsts = [value.split()[0] if value else "" for value in values]
        if len(set(firsts)) < len(set(values)) and stems(request) & stems(" ".join(firsts)):
            values = firsts  # "How many games have we won?": "won 3-1" and "won 2-0" are both won
        answers = set(values) <= FLAGS.keys() | UNSURE | {""}
        kinds_of = (len(set(values) - {""}) <= max(3, len(body) // 2) and "" in values  # "diet": vegan, blank …
                    and bool(stems(request) & stems(" ".join([name, *values])))
                    or len(set(values)) < len(body) and HOW_MANY.search(request) is not None
                    and bool(stems(request) & stems(" ".join(values))))  # "How many sopranos are there?"
        if i == label or not (answers or kinds_of) or len(set(values)) < 2 or not any(values):
            continue
        blank = "blank (no answer)" if answers else "blank"
        kinds = {value or blank: [r[label].strip() for r, its in zip(body, values, strict=True) if its == value]
                 for value in dict.fromkeys(values)}
        said.append(f"{name.strip()}: " + "; ".join(f"{value} {len(rows)} ({', '.join(rows)})" for value, rows in kinds.items()))
    return f"[Saturn counted] {' | '.join(said)}" if said else ""


HOW_MANY = re.compile(r"\bhow many\s+(?:more\s+)?(?!(?:hours|hrs|minutes|mins|days|weeks|months|years|nights|more)\b)([a-z]+)",
                      re.IGNORECASE)
