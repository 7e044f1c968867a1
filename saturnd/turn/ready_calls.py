"""The call that does an errand the model answered instead of doing, worked out by the harness
from the request and the user's files: offered in the send-back (loop.send_back_claim) and, when
the model still gives no call that does it, proposed as the model's (loop.do_it_for_the_model)."""

from __future__ import annotations

import json
import re
from datetime import date, datetime, time
from pathlib import Path

from saturnd.gate.provenance import PHONE
from saturnd.model.types import ToolCall
from saturnd.tools.word_match import stems
from saturnd.turn import prompts
from saturnd.turn.claims import Claim
from saturnd.turn.context import TurnContext
from saturnd.turn.days_off import days_off_added
from saturnd.turn.diary_adds import cancelled_on_the_day, diary_line_added, moved_to_a_day
from saturnd.turn.errands import BOUGHT_FOR, NAMED_FILE, asked_action
from saturnd.turn.lists_named import (
    ListToWrite,
    cancelled_line,
    days_swapped,
    days_taken,
    ready_write,
)
from saturnd.turn.look_first import addresses_named
from saturnd.turn.made_up import NUMBER_WORDS
from saturnd.turn.marks import (
    answer_told,
    bought_for,
    job_logged,
    last_day_told,
    line_marked_as_told,
)
from saturnd.turn.message_words import message_asked
from saturnd.turn.overwrite import WRITE_FILE
from saturnd.turn.price_told import date_told, money_added, price_told
from saturnd.turn.put_right import NUMBER_SAID, PERSONS_VALUE, SEND_MESSAGE, persons_number
from saturnd.turn.retrieval import KB_SOURCE, Document
from saturnd.turn.section_adds import added_for_someone
from saturnd.turn.table_cells_told import cell_told, score_added, stock_topped_up
from saturnd.turn.table_rows import row_asked
from saturnd.turn.time_moves import time_moved_ready
from saturnd.turn.timed_log import timed_line_added
from saturnd.turn.value_changed import value_changed, value_told


def ready_write_text(turn: TurnContext, claim: Claim) -> str:
    ready = ready_write_for(turn, claim)
    return prompts.READY_WRITE.format(source=ready.source, content=ready.content) if ready else ""


def ready_write_for(turn: TurnContext, claim: Claim) -> ListToWrite | None:
    """For a list errand answered instead of done, the write that does it (lists_named.ready_write),
    for an add to a table, the table with the row the request gives (table_rows.row_asked), for a
    thing told done, its list or table marked (marks.line_marked_as_told,
    table_cells_told.cell_told), for a new file of what the user was asked, their answer
    (reply_as_new_file)."""
    if claim.kind not in ("done", "not_acted") or WRITE_FILE not in claim.tools:
        return None
    now = datetime.now()
    return (ready_write_of(turn.text, turn.documents, turn.cwd, now.date(), now.time()) or reply_as_new_file(turn)
            or value_as_told(turn.text, turn.ledger.replies(), turn.cwd))


def ready_write_of(request: str, documents: list[Document], cwd: str, today: date, now: time | None = None
                   ) -> ListToWrite | None:
    """The write a request to change the user's files comes to, from the files alone (`now`, the
    clock's time, where a weekday's time may have gone today)."""
    return (ready_write(request, documents) or cell_told(request, documents, today)  # a row told of before a new one
            or stock_topped_up(request, documents) or score_added(request, documents) or row_asked(request, documents, today)
            or last_day_told(request, documents, today)
            or job_logged(request, documents)  # before the mark: the price list's "Hoover the stairs: £1" is no job done
            or cancelled_line(request, documents) or cancelled_on_the_day(request, documents, today)  # gone, not marked done
            # a present bought is its gift line's, not any line naming the person ("Priya - 07700 …")
            or (bought_for(request, documents) if BOUGHT_FOR.match(request) else line_marked_as_told(request, documents, cwd))
            or days_swapped(request, documents)
            or days_taken(request, documents) or answer_told(request, documents) or time_moved_ready(request, documents)
            or moved_to_a_day(request, documents, today)
            or lines_copied(request, documents, cwd) or diary_line_added(request, documents, today, now)
            or timed_line_added(request, documents) or price_told(request, documents) or date_told(request, documents) or money_added(request, documents)
            or value_changed(request, documents) or value_told(request, documents) or days_off_added(request, documents)
            or added_for_someone(request, documents))


MAKING = frozenset({"create", "make", "write", "save", "put", "start"})
COPIED_FROM = re.compile(r"\bwith\s+(?:all\s+)?(?:the\s+)?(?:(?P<count>\d+|two|three|four|five|six|seven|eight|nine|ten)\s+)?"
                         r"(?:things|items|lines|tasks|jobs|entries|names)\s+(?:from|in|on)\s+(?:my|the|our)\s+(?P<source>[\w.-]+)",
                         re.IGNORECASE)


def lines_copied(request: str, documents: list[Document], cwd: str) -> ListToWrite | None:
    """Asked to make a new file with the things from another ("Make a file todo.txt with the three
    things from my notes, one per line."), that file's lines, when there are as many as asked: the
    1.5B wrote "Note 1 / Note 2 / Note 3" without reading notes.txt."""
    named, copied = NAMED_FILE.search(request), COPIED_FROM.search(request)
    if named is None or copied is None or asked_action(request) not in MAKING or Path(cwd, named.group(0)).exists():
        return None
    sources = [doc for doc in documents if not doc.source.startswith(KB_SOURCE) and doc.source != named.group(0)
               and stems(Path(doc.source).stem.replace("_", " ")) & stems(copied["source"])]
    if len(sources) != 1:
        return None
    lines = [line.strip() for line in sources[0].text.splitlines() if line.strip() and not line.startswith("#")]
    count = copied["count"]
    if count and (int(count) if count.isdigit() else NUMBER_WORDS.get(count.lower())) != len(lines):
        return None
    return ListToWrite(named.group(0), "\n".join(lines) + "\n")


def reply_as_new_file(turn: TurnContext) -> ListToWrite | None:
    """A new file the request names, made with what only the user knew, and the user's one answer
    this turn: that answer is its content. Asked for "a file called meeting.txt with the time of my
    next meeting", told "Tuesday at 15:00", the 1.5B wrote "2026-12-04 15:00" (a Friday) twice."""
    replies = [r.strip() for r in turn.ledger.replies() if r.strip()]
    named = NAMED_FILE.search(turn.text)
    if len(replies) != 1 or named is None or asked_action(turn.text) not in MAKING:
        return None
    if Path(turn.cwd, named.group(0)).exists():
        return None
    return ListToWrite(source=named.group(0), content=replies[0] + "\n")


def value_as_told(request: str, replies: list[str], cwd: str) -> ListToWrite | None:
    """The file the request names, its one line of the thing asked set to the one number the person
    gave when asked ("Set the timeout in settings.ini to the value my team agreed on", told "We
    agreed on 45": "timeout = 45"). Told, the 1.5B claimed it set and asked the person what it did."""
    number = persons_number(replies)
    named = NAMED_FILE.search(request)
    if not PERSONS_VALUE.search(request) or number is None or named is None or not (path := Path(cwd, named.group(0))).is_file():
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    asked = stems(NAMED_FILE.sub(" ", request))
    lines = [line for line in text.splitlines() if len(NUMBER_SAID.findall(line)) == 1 and stems(line) & asked]
    if len(lines) != 1:
        return None
    return ListToWrite(named.group(0), text.replace(lines[0], NUMBER_SAID.sub(number, lines[0]), 1))


def ready_call_for(turn: TurnContext, claim: Claim) -> ToolCall | None:
    """The write that does the errand (ready_write_for), or the message the request words to its one
    recipient, at the one number the user's files give them."""
    call_id = f"saturn-ready-{turn.tally.passes}"
    if (write := ready_write_for(turn, claim)) is not None:
        return ToolCall(id=call_id, name=WRITE_FILE, arguments=json.dumps({"path": write.source, "content": write.content}))
    numbers = [a for a in addresses_named(turn.text, turn.documents) if PHONE.fullmatch(a)]
    if SEND_MESSAGE in claim.tools and len(numbers) == 1 and (text := message_asked(turn.text)):
        return ToolCall(id=call_id, name=SEND_MESSAGE, arguments=json.dumps({"to": numbers[0], "text": text}))
    return None


def stuck(turn: TurnContext) -> Claim | None:
    """The errand left undone where a pass after a send-back proposed only calls refused as loops, or
    two passes running proposed only writes sent back as wrong (told "I sold the lamp today for 12.",
    the 1.5B wrote the table four times over with "d " before each row, and gave up)."""
    calls = turn.trace[-1].calls
    if turn.sent_back is not None and calls and all(c.fate == "refused_loop" for c in calls):
        return turn.sent_back[1]
    last_two = turn.trace[-2:]
    if len(last_two) == 2 and all(p.calls and all(c.name == WRITE_FILE and c.fate == "invalid" for c in p.calls) for p in last_two):
        return Claim("not_acted", "", (WRITE_FILE,))
    return None
