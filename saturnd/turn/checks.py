"""The answer's checks: decided from what ran and what was shown, never from the answer's words.

Six checks, each sends an answer back to the model at most once a turn; when the next
answer still fails, it goes out as written with a note that says what did not check out.

- nothing changed: the first move was to change something or send a message, and no
  changing call was even tried (a declined or unapproved one was tried: the person
  said no, and the note says so); or, when the first move was to ask or that no tool can
  do it, the model itself reads its answer as telling of something done (said_done.py).
- Saturn's words repeated: the answer repeats a sentence of what Saturn told the model about a
  call that did not run ("declined by the user: it did not run … Do not retry it …"): those
  words are for the model, and the 1.5B copied them out as its whole answer (stop 53's first
  run, 3 of 24).
- the user's words said back: the answer is the request, or one of its sentences, or what the
  user answered a question, again (the 1.5B's whole answer to a Welsh and a Basque errand of
  stop 54, and to a message and a booking in issue 49's account): it goes back once.
- a failed call left as it was: the last calls the model made all failed (a query naming a
  column that is not there) and it answered next: it is sent back once to mend the call or say
  what could not be done (stop 54's first run: the query's error, reworded, was the answer).
- another language: the answer is clearly in another language than the request
  (language.py): it goes back once to be given in the person's language.
- unsourced figures: a number in the answer that is in nothing the user said, nothing
  shown and no tool's result (calculate's and query's included). Numbers are compared
  as values, read both ways people write them ("1,234.50", "1.234,50", "12,5").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from difflib import SequenceMatcher
from typing import Literal

from protocol.methods import PassTrace
from saturnd.tools.names import WORD
from saturnd.tools.query import NO_ROW_MATCHED
from saturnd.tools.registry import CHANGING_RISKS, Registry
from saturnd.turn import prompts
from saturnd.turn.fencing import NOT_INSTRUCTIONS
from saturnd.turn.first_move import CHANGING, FirstMove

FIGURE = re.compile(r"(?<!\d)\d+(?:[.,'\u00a0\u202f]\d+)*(?!\d)")
"""A number as written: digits with the separators of any locale between them."""
PAIR = re.compile(r"(?=(\d+[.,]\d+))")
SMALL = Decimal(10)
"""Counts and small numbers are said without a source ("3 items", "the 2nd"): not checked."""
TRIED: frozenset[str] = frozenset({"ran", "declined", "not_approved", "timed_out"})
"""A changing call with one of these fates was made: the person or the tool decided, not the model.
One that failed was not (stop 57's first run: mark_done on a folder failed, then "Matteo has paid"
went out as the answer with nothing changed)."""


@dataclass(frozen=True)
class Finding:
    kind: Literal["nothing_changed", "echoed", "said_back", "failed_call", "unsourced", "language"]
    send_back: str
    """What the model is told."""
    note: str
    """What the user is told when the answer goes out anyway."""


def nothing_changed(move: FirstMove | None, trace: list[PassTrace], registry: Registry) -> Finding | None:
    # Whatever its likelihood: a first pass is made to call a tool only when the model is sure
    # (expects_change), but the 1.5B's unsure "change" is most often a request no tool can do
    # (stop 51: change 0.32-0.40 beside cannot 0.25-0.29 for an order, a booking, a device), and
    # it then answers as if it were done; the send-back asks it to call the tool or say it can't.
    if move is None or move.route not in CHANGING or tried_a_change(trace, registry):
        return None
    return told_done(move.route)


def told_done(route: str) -> Finding:
    """The send-back for an answer that tells of what no call did: "changed" or "sent" after
    those moves, "done" after the others."""
    done = prompts.NEARLY.get(route, "done")
    return Finding("nothing_changed", prompts.NOTHING_CHANGED.format(route=done), prompts.NOTE_NOTHING_CHANGED)


def tried_a_change(trace: list[PassTrace], registry: Registry) -> bool:
    return any(
        (tool := registry.get(call.name)) is not None and tool.risk in CHANGING_RISKS and call.fate in TRIED
        for record in trace for call in record.calls
    )


def may_claim_undone(
    move: FirstMove | None, trace: list[PassTrace], registry: Registry, tables_shown: bool = False
) -> bool:
    """Whether to ask the model if its answer tells of something done (said_done.py): the first
    move was to ask or that no tool can do it, and no changing call was tried. Not after an
    answer or a look-up, however unsure, nor after an unsure cannot that the tables in view made
    a look-up: the 1.5B read "26 points" and "258 arrows" as actions carried out (stop 52), and
    the look-up's answer, sent back, was withdrawn."""
    if move is None or tried_a_change(trace, registry):
        return False
    return move.route == "ask" or move.route == "cannot" and not tables_shown


def only_declined(trace: list[PassTrace], registry: Registry) -> bool:
    """A changing call was declined or not approved and none ran: an answer telling of it done
    is not true (stop 53's first run: "… has been removed from the list" after a declined
    removal, 2 of 4), which the model reads for itself (said_done.py)."""
    fates = {call.fate for record in trace for call in record.calls
             if (tool := registry.get(call.name)) is not None and tool.risk in CHANGING_RISKS}
    return bool(fates & {"declined", "not_approved"}) and "ran" not in fates


def declined_said_done() -> Finding:
    return Finding("nothing_changed", prompts.DECLINED_SAID_DONE, prompts.NOTE_NOTHING_CHANGED)


ECHO_MIN_CHARS = 24
SAID_BACK = 0.85
"""How alike (difflib's ratio) an answer and the request, or one of its sentences, are when the
answer only says the request back."""
SENTENCE_END = re.compile(r"(?<=[.;:!?])\s+")


SATURN_WORDS = (NOT_INSTRUCTIONS, prompts.FOLDER_MAP_INTRO, prompts.TABLES_INTRO, prompts.EXCERPTS_INTRO,
                NO_ROW_MATCHED)
"""Saturn's fixed words in what the model is shown: the 1.5B gave the ground's own text as its whole
answer (stop 55, a Greek look-up), and a query's "no row matched the WHERE; the values its columns
hold: …" twice a run (stop 55, call-04, chain-04)."""


def echoes_saturn(answer: str, trace: list[PassTrace], told: Sequence[str] = ()) -> Finding | None:
    """The answer repeats a sentence (of at least ECHO_MIN_CHARS) of a result Saturn wrote for a
    call that did not run (declined, refused, not approved), of what a check told the model this
    turn (`told`), or of Saturn's fixed words in the ground and the query tool's hints
    (SATURN_WORDS): compared as text, in no language."""
    said = " ".join(answer.casefold().split())
    whys = [c.why for record in trace for c in record.calls if c.fate not in ("ran", "asked")]
    for text in (*whys, *told, *SATURN_WORDS):
        for sentence in SENTENCE_END.split(" ".join(text.casefold().split())):
            if len(sentence) >= ECHO_MIN_CHARS and sentence.rstrip(".;:") in said:
                return Finding("echoed", prompts.ECHOED, prompts.NOTE_ECHOED)
    return None


def says_request_back(said: Sequence[str], answer: str) -> Finding | None:
    """The answer is what the user said this turn (the request, or what they answered a question
    of the model's), or a sentence of it, nearly word for word (compared as text). stop 55's
    first run: the person's answer to ask_user ("Onu gospodina Kovačevića.") was the whole answer."""
    if not any(said_back(text, answer) for text in said):
        return None
    return Finding("said_back", prompts.SAID_BACK, prompts.NOTE_SAID_BACK)


def said_back(request: str, text: str, adds_nothing: bool = True) -> bool:
    """`text` is `request`, or one of its sentences or clauses, nearly word for word, and (with
    `adds_nothing`) adds no word of its own: "The slope of the line perpendicular to y = 3x + 2 is
    -1/3" says the question back and answers it with a word or a figure of its own (BFCL's report
    slice, stop 55: it went back, and the 1.5B then called a tool)."""
    said = " ".join(text.casefold().split()).strip(" .!?")
    if len(said) < ECHO_MIN_CHARS or adds_nothing and set(WORD.findall(said)) - set(WORD.findall(request.casefold())):
        return False
    asked = " ".join(request.casefold().split())
    sentences = [asked, *SENTENCE_END.split(asked), *(p for p in re.split(r"[,;]\s+", asked) if len(p) >= ECHO_MIN_CHARS)]
    return any(SequenceMatcher(None, said, sentence.strip(" .!?")).ratio() >= SAID_BACK for sentence in sentences)


def is_the_request(request: str, text: str) -> bool:
    """`text` is the whole request again, nearly word for word (compared as text): as a message's
    body or a list's new item it is no content of its own (stop 61's first run: a Latvian email's
    body and a Swedish list item were the request itself). A clause of the request is not: the
    person may dictate a message's words."""
    said = " ".join(text.casefold().split()).strip(" .!?")
    asked = " ".join(request.casefold().split()).strip(" .!?")
    return len(said) >= ECHO_MIN_CHARS and SequenceMatcher(None, said, asked).ratio() >= SAID_BACK


def asks_request_back(request: str, question: str) -> bool:
    """The question, or one of its sentences, is the request again (stop 55: a Vietnamese request
    put to the person with "Can you help me with this?" after it), a word of asking added or not
    (stop 56: Malay "Apakah latihan hari Sabtu ini dipindahkan ke pukul 9 pagi?" of a request to
    tell Aiman so), or a run of the request's own words (stop 59: "Quanto devo ancora per le cene
    di quest'anno?" of a request to text the treasurer how much that is)."""
    asked = " ".join(request.casefold().split())
    parts = (question, *SENTENCE_END.split(question.strip()))
    return any(said_back(request, part, adds_nothing=False) or _within(part, asked) for part in parts)


def _within(part: str, asked: str) -> bool:
    said = " ".join(part.casefold().split()).strip(" .!?¿¡")
    return len(said) >= ECHO_MIN_CHARS and said in asked


def left_failed(trace: list[PassTrace]) -> Finding | None:
    """The answer came right after a pass whose calls all failed (a tool error, a time-out)."""
    last = next((record for record in reversed(trace) if record.calls), None)
    if last is None or any(call.fate not in ("error", "timed_out") for call in last.calls):
        return None
    failed = "; ".join(f"{call.name}: {call.why}" for call in last.calls)
    return Finding("failed_call", prompts.LEFT_FAILED.format(failed=failed[:600]),
                   prompts.NOTE_LEFT_FAILED.format(calls=", ".join(dict.fromkeys(c.name for c in last.calls))))


def other_language(language: str) -> Finding:
    """The request is not quoted back: the 1.5B took a quoted request for a new one (stop 54's
    rerun 2: a refusal, sent back with the Czech request quoted, became ask_user of the request)."""
    return Finding("language", prompts.OTHER_LANGUAGE.format(language=language), prompts.NOTE_OTHER_LANGUAGE)


def unsourced_figures(answer: str, sources: str) -> Finding | None:
    # a table's "2026-12-04,138,84" holds 138 and 84: every run of digits and every pair is a value too
    pieces = [*FIGURE.findall(sources), *re.findall(r"\d+", sources), *PAIR.findall(sources)]
    known = {value for found in pieces for value in readings(found)}
    missing = []
    for found in FIGURE.findall(answer):
        values = readings(found)
        if values and not values & known and all(v >= SMALL for v in values):
            missing.append(found.strip())
    if not missing:
        return None
    figures = ", ".join(dict.fromkeys(missing))
    return Finding("unsourced", prompts.UNSOURCED_FIGURES.format(figures=figures),
                   prompts.NOTE_UNSOURCED.format(figures=figures))


def readings(figure: str) -> set[Decimal]:
    """Every value a written number may mean: "1,234" is 1234 or 1.234; "12,50" is 12.5."""
    text = re.sub(r"['\u00a0\u202f ]", "", figure.strip())
    candidates = {text.replace(",", ""), text.replace(".", "").replace(",", "."), text.replace(",", ".")}
    values = set()
    for candidate in candidates:
        if candidate.count(".") > 1:
            continue
        try:
            values.add(Decimal(candidate).normalize())
        except InvalidOperation:
            continue
    return values
