"""Answers the harness checks before they go out: what no tool did, and what no tool looked at.

Seed 000: the answer's account of what was done comes from the tool calls that
actually ran. A small model often answers "Email sent to Tom" or "The heating
has been turned up to 22 degrees" without calling anything. The harness spots
such a claim and sends the answer back once, with the reason; a claim that
comes back again is answered with a note saying so. The kinds:

- done: the answer's words say an action was done ("Tomatoes are added");
- not_acted: the user asked for an action ("Add butter to my shopping list"),
  nothing that could do it was even tried, and the answer neither asks nor
  says it cannot ("Butter is already on your shopping list."), or refuses
  with no reason while a tool whose words fit the request is at hand;
- restated: nothing ran, and the answer is the request again ("perform 다용도실 통돌이 중지"
  answered "다용도실 통돌이 중지") while an MCP server's tool shares words with it: that tool must be
  called (Saturn's own tools share a word with nearly anything, so not_acted covers them);
- no_access: "I don't have access to your shopping list" while read tools
  exist, the folder or knowledge base holds documents, and none was read;
- uncomputed: the user asked for a total, a sum or a duration, and the answer
  gives a number that appears nowhere in what the model was shown and that no
  calculate call worked out (a 1.5B turned 3.5 hours into "45 minutes");
- unsourced: nothing was looked up, and the answer gives a number, a day or a
  month that is in nothing the model was shown, about the user's own things
  ("What time is my flight?": the 1.5B invented a flight time, a bin day and a
  month's food spend) or where a tool from an MCP server fits a request that
  holds no number to work from ("The current weather in London is 20 degrees"
  with get_current_weather at hand);
- not_looked_up: the same, where the MCP tool's own name says what the request is about
  ("weather" in get_current_weather): that tool must be called (asked "the current weather
  conditions in Shanghai", the 1.5B answered "22", sent back and again);
- unworked: the user asked how long, and the answer gives the two clock times without the
  length between them ("The flight leaves at 09:15 and lands at 12:45"); sent back with the
  calculate expression to run;
- unread: the user named a web address and nothing fetched it, yet the answer
  says what the page holds ("The soup of the day on …/menu.html is Chicken
  Soup", "The meeting is in the bound-03-meeting-room"), or every fetch failed and
  the request names another address to try. Sent back once per address;
- unfollowed: the user asked to follow links or clues, and the trail goes on at
  a page or file nothing has opened ("The meeting info continues at /b/r1.html"
  given as the answer; trails.py). Sent back once per place the trail goes on.
- elsewhere: the last call failed, its result says where the file is ("hello.py is not where the
  command looked; in the working folder: scripts/hello.py", "near names here: notes.txt"), and no
  call tried that place: the answer gave the failure back. Sent back once per place, to call the
  same tool with it.
- half_done: the request asks for two errands done by different tools ("Text Petra
  and email Tom the same note"), one was tried and nothing tried the other.
- part_of_list: asked what is on a list the ground showed whole, the answer gives some of
  its lines and not the others (listing.py).
- marked_done: asked what is still to do, the answer names what the list marks done ("the
  lego" of "- Ella: lego (bought)"); sent back with the lines not marked done (listing.py).
- time_of_day: nothing was worked out, and the answer gives a time the request's clock time
  and length of time come to ("My train is at 17:45 and it's a 25 minute walk … When should I
  leave?"); sent back with both calculate expressions, earlier and later.
- not_as_calculated: calculate ran last, and the answer gives another number than its result
  (sent back with "$139.90", the 1.5B ran calculate("11.99 * 12") = 143.88 and answered "$139.90"
  again); goes back even after an earlier send-back.
- conversion: the user asked how many of one unit of time are in so many of another ("How many
  minutes are there in 3 hours?"), nothing was worked out, and the answer does not give what it
  comes to (a timesheet's "hours = 15" in the ground, the 1.5B answered "15"); sent back with the
  calculate expression ("3 * 60").
- miscounted_days: asked how many days until a thing, the answer gives a number none of the
  ground's "[Saturn dated]" counts has ("3 weeks" for "in 91 days (13 weeks)"); sent back with
  that line.
- next_due_missed: asked when a thing with a repeat is next due, another date than the next one
  the ground worked out ("14 March" of the MOT for the car service's "next 2 February 2027");
  sent back with that date's line (dates.py).
- against_the_day: a yes/no question about a day the ground gave the line of ("Does Maya need her PE
  kit tomorrow?": "tomorrow, Friday 4 December: Friday: packed lunch …"), answered yes though that
  line says nothing of it (other days' lines do), or no though it does; sent back with the line.
- someone_else: asked for someone's number or address, the answer gives one from a line that names
  none of the people asked about ("What's the dentist's phone number?" answered with the plumber's,
  no dentist in the files); sent back with that line (look_first.py).
- contact_not_given: asked for someone's number or email, the answer gives none while a line shown
  names them with one ("What's TopRoof's number?" answered "450", its quote; look_first.py).
- someone_elses_line: asked about someone with their own line shown ("- Sam: ?"), the answer's
  words come only from another person's line of the same list ("a lego", from "- Tom: lego");
  sent back with both lines (look_first.py); so is one whose figures come from a file that never
  names the thing asked about ("the dog's insurance" answered from car.txt) while another shown
  file names it and has a line for it, and one whose figures come only from another row of a table
  than the rows the ground totalled for the request ("Spotify" answered with Amazon Prime's 95.00).
- rows_not_asked: the ground totalled the rows of a yes/no column the request asks about ("the
  paid = no rows (2: Electric, Water)"), and the answer also names another row of that table
  ("Council tax, Electric, Water" for "Which bills haven't I paid?"); sent back with those rows
  (listing.py); so is one naming the "yes" rows of a counted yes/no column for a question with a
  "not" ("Leo, Sam, Tom" for "Who hasn't replied?": the blank rows, Priya and Ines).
- total_left_out: asked how much in all, the answer gives two or more rows' figures of a table the
  ground totalled, and none of its totals ("You still owe Bolt Ltd $1200 and Crane & Co $300" for
  "How much am I still owed?", shown "amount = 1500"), or no figure at all while the totals are
  over rows picked for the request; sent back with the totals (listing.py).
- per_period: nothing was worked out, and the answer gives a figure as the user's files give it,
  not for the period the request asks ("What do I pay a year for Spotify?" answered with the
  monthly row "Spotify,11.99"; "… scoops a day?" with "2 scoops morning, 1 evening"); sent back
  with the calculate expression ("11.99 * 12", "2 + 1"); so is an amount the files give, asked for
  doubled or halved ("How many eggs for a double batch?" answered "2 eggs": "2 * 2") or for more
  people than the recipe serves ("500 * 8 / 4"), or the files' total given as what is left of the
  request's amount ("What's left if I earn 2000?" answered "1595": "2000 - 1595"), or the files'
  quantity given for a request that asks it at a rate ("… mileage claim at 45p a mile" answered "89
  miles": "89 * 45 / 100"), or what there is so far given for how much more is needed ("… for the
  holiday fund?" answered "525", saved so far: "1200 - 525").
- against_the_line: a yes/no question of how often, on which weekday or for how many ("Is the bin
  collection weekly?", "Is dinner booked for 5?"), answered yes though the line about it gives
  another ("… fortnightly", "booked for 4"), or no though it gives the one asked; a yes/no of
  whether a thing still holds against the day it ends ("Is the laptop still under warranty?"
  answered "Yes", its warranty "(ended)"), or of a time against the time the line opens from or
  closes by ("Can I check in at 1pm?" of "check-in from 3pm"), or of levels going up or down against
  their change since the first reading, or a yes to whether a thing is on a day a line says it is
  not ("No rehearsal on 23 December"), or asked which days a plan has a thing, a day it has not
  ("Which nights are we having chilli?" answered with every night), or asked what is saved so far,
  what is still to go ("How much have I saved altogether?" answered 2240 of "all 3160 of 5400");
  a yes or no to a day against the table's rows for it ("Am I working on Christmas Eve?" answered
  no beside its shift);
  sent back with the line (date_checks.py, asked_line.py, saved_so_far.py).
- not_as_worked_out: the request's own numbers come to what the ground worked out (a time moved
  by a length, a length in other units, a percentage, the weekday of a date it writes), or it
  worked out the row asked of as the largest or smallest ("favourite": the best rating), and the
  answer gives another ("60 minutes" for "an hour and three quarters"); sent back with the line,
  and a second time answered by it.
- no_phone: asked to call or ring someone, with no tool that places a phone call, an answer that
  neither does nor declines it ("I'll ring the insurer for you.": sent back as not done, the
  1.5B ran telnet); sent back to say it cannot and give the number the files hold.
- no_time_given: asked what time, an answer with no time of day while the shown lines about the
  thing give one ("Season ticket expires 31 January" for "What time does my train get in?");
  sent back with those lines (worked_times.py).
- owed_the_wrong_way: asked what is owed to the user ("How much am I owed in total?"), an answer
  that says the user owes it ("You owe £3550 in total."); sent back, and a second time turned round.
- the_clock: the answer gives the ground's clock time now, which the request does not ask ("When do
  we fly?" answered "Friday 2026-12-04 01:24 UTC"; date_checks.py).
- yes_then_no: a yes/no question answered yes with its own reason for no ("Can Pepper have
  chicken?" answered "Yes, Pepper is allergic to chicken."); sent back with the answer's words.
- heading_only: the answer is only a shown file's first line ("Cleaning rota (week starting
  Monday)" for "What am I cleaning this week?"); sent back with what the ground worked out for it.

Once a message the request asks for has been sent, the answer only reports it: the checks of what an
answer says of the files stop there ("Email Dave my November total" had its sent email's report
replaced by the table's totals).

A word list always misses some wordings; the request-side rule catches what
the answer-side one misses. What the request asks done, and what the turn tried of it, is read in
errands.py.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import takewhile
from typing import Literal

from protocol.methods import PassTrace
from saturnd.tools.registry import Registry
from saturnd.tools.word_match import WORD, stems
from saturnd.turn.asked_line import (
    another_line_than_asked,
    days_not_listed,
    nothing_found_beside_the_line,
    others_lines_named,
)
from saturnd.turn.budget_left import budget_for_the_spend
from saturnd.turn.date_checks import (
    NO,
    YES,
    YES_NO_ASKED,
    against_a_none_line,
    against_its_end,
    against_its_line,
    against_its_time,
    against_next_due,
    against_the_trend,
    against_this_month,
    another_entrys_date,
    miscounted_days,
    next_due_missed,
    none_on_the_days_missed,
    not_due_named,
    not_on_that_day,
    overdue_missed,
    soonest_unnamed,
    the_clock_given,
    today_shown,
    wrong_weekday,
    yes_or_no_against_the_rows,
)
from saturnd.turn.errands import (
    MAY_PRECEDE_AN_ACTION,
    READ_TOOLS,
    VERB_TOOL_WORDS,
    asked_action,
    first_sentence,
    something_acted,
    something_tried,
    tools_for,
    undone_errand,
)
from saturnd.turn.line_rates import period_figure_missed, rate_figure_missed
from saturnd.turn.listing import (
    DONE_MARK,
    another_rows_figure,
    done_ones_named,
    kind_rows_not_asked,
    lines_not_asked,
    marked_done_given,
    miscounted_kind,
    over_not_asked,
    part_of_the_list,
    rows_not_asked,
    rows_of_another_answer,
    shown_file_named,
    total_left_out,
)
from saturnd.turn.look_first import (
    addresses_named,
    another_labels_line,
    another_names_money,
    another_owners_line,
    contact_not_given,
    people_messaged,
    someone_elses_contact,
    someone_elses_line,
    their_contact_line,
)
from saturnd.turn.made_up import (
    CALCULATE,
    at_a_rate,
    clock_moves,
    copied_number,
    left_over,
    not_as_calculated,
    scaled_amount,
    still_to_go,
    uncomputed_number,
    unconverted_amount,
    unit_conversion,
    unsourced_value,
    unworked_length,
    works_out,
)
from saturnd.turn.picked_rows import (
    coming_counted,
    coming_miscounted,
    picked_rows_left_out,
    picked_rows_not_asked,
    superlative_missed,
)
from saturnd.turn.rated import against_their_rates
from saturnd.turn.retrieval import Document
from saturnd.turn.saved_so_far import to_go_for_so_far
from saturnd.turn.targets import against_the_target_held, gap_missed
from saturnd.turn.the_user import own_count_missed, own_part_missed, own_sum_missed
from saturnd.turn.tool_fit import fits_request, named_for_request
from saturnd.turn.trails import elsewhere_untried, unfollowed_pointer
from saturnd.turn.which_file import the_file_holding_it
from saturnd.turn.worked_lines import against_the_worked_entry, missed_worked_out, owed_of_the_list
from saturnd.turn.worked_times import another_journeys_time, arrival_for_leaving, no_time_given

_DONE = (
    r"sent|emailed|e-mailed|texted|messaged|forwarded|replied|posted|saved|written|wrote|created|"
    r"deleted|removed|updated|edited|renamed|moved|booked|ordered|placed|scheduled|cancell?ed|"
    r"transferred|paid|turned|switched|called|played|installed|executed|added|appended|set|"
    r"changed|marked|ticked|noted|put|reminded|overwritten|overwrote"
)
CLAIMS = (
    # "I've sent", "I have just saved", "I booked"
    re.compile(rf"\bI(?:'ve| have)?\s+(?:just\s+|now\s+|already\s+|successfully\s+)?(?:{_DONE})\b",
               re.IGNORECASE),
    # "has been sent", "have now been saved"
    re.compile(rf"\b(?:has|have)\s+(?:just\s+|now\s+|already\s+|successfully\s+)?been\s+(?:{_DONE})\b",
               re.IGNORECASE),
    # "Tomatoes are added to the list", "The alarm is now set for 7"
    re.compile(rf"\b(?:is|are)\s+(?:now\s+|successfully\s+)?(?:{_DONE})\s+(?:to|on|off|from)\b",
               re.IGNORECASE),
    # "Email sent to Tom.", "Message delivered", "File saved"
    re.compile(r"(?:^|[.!]\s+)(?:the\s+|your\s+)?(?:e-?mail|message|text|file|order|booking)\s+"
               r"(?:successfully\s+)?(?:sent|delivered|saved|written|created|placed|booked)\b",
               re.IGNORECASE),
    # "Room height set to 4.2 meters." (a bare participle opening the answer)
    re.compile(r"^(?:the\s+|your\s+)?\w+(?:\s+\w+)?\s+(?:set|added|updated|changed|switched\s+(?:on|off)|"
               r"turned\s+(?:on|off|up|down))\s+(?:to|on|off)\b", re.IGNORECASE),
)
ASKS_OR_DECLINES = re.compile(
    r"\?|\b(?:can't|cannot|can not|couldn't|could not|unable|not able|won't|will not|don't have|do not have|"
    r"no tool|not possible|isn't possible|not allowed|(?<!you )(?<!they )need (?:your|the|his|her|their|a|an)"
    r"(?=\s+(?:[\w'-]+\s+){0,2}(?:address|number|email|e-mail|phone|details|name|contact|info|information|time|"
    r"date|day|amount|confirmation|permission|approval)\b)|(?<!, )which|"
    r"do you want|would you like|should I)\b",
    re.IGNORECASE,
)


ADDRESSED = re.compile(r"^\W*(?:hi|hey|hello|dear)?\s*(?P<name>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s*,")


def asks_or_declines(answer: str, request: str) -> bool:
    """Whether the answer asks something or says it cannot, in words that are not the request's
    own (the word and the one after it): asked to "Text Jess that Biscuit won't need a walk on
    Thursday", the 1.5B answered with the message ("Jess, Biscuit won't need a walk …") and sent
    nothing."""
    said = " ".join(request.lower().split())
    answer = OFFERED_HELP.sub(" ", answer)  # "Is there anything I can help you with?" asks nothing of the errand
    if (opening := ADDRESSED.match(answer)) and opening.group("name").lower() in people_messaged(request):
        return False  # "Omar, how is the report going?": the message itself, to the one it is for
    if DRAFTED.search(answer):
        return False  # "To: Greenway Vets / Subject: … / Could you …?": the email itself, not a question
    for found in ASKS_OR_DECLINES.finditer(answer):
        next_word = re.match(r"\s+[\w']+", answer[found.end():])
        quoted = " ".join((found.group(0) + (next_word.group(0) if next_word else "")).lower().split())
        if found.group(0) == "?" or quoted not in said:
            return True
    return False


DRAFTED = re.compile(r"^\s*(?:To|Subject|Body)\s*:\s*\S|^\s*(?:Dear|Hi|Hello)\s+[A-Z][\w' ]*,\s*$", re.MULTILINE)
"""A message laid out in the answer ("To: Greenway Vets", "Subject: …", "Dear Maria,")."""
OFFERED_HELP = re.compile(
    r"[^.!?]*\b(?:anything\s+(?:else|I\s+can)|is\s+there\s+anything|how\s+(?:else\s+)?(?:can|may)\s+I\s+"
    r"(?:help|assist))\b[^.!?]*\?", re.IGNORECASE)
"""An offer of more help ("Is there anything I can help you with?"): asked to "Text Ruth that I'm
running 5 minutes late", the 1.5B answered "I'm sorry to hear that … Is there anything I can help
you with?" and sent nothing."""
BARE_REFUSAL = re.compile(
    r"\b(?:can't|cannot|can not|unable to)\s+(?:assist|help)(?:\s+you)?\s+with\s+(?:that|this)(?:\s+request)?"
    r"\s*[.!]?\s*$|\b(?:can't|cannot)\s+fulfil+\s+(?:that|this|your)\s+request\b",
    re.IGNORECASE,
)
"""A refusal that gives no reason ("I'm sorry, but I can't assist with that request."): the 1.5B
said it to "Reply by email to whoever sent inbox/last.txt" with send_email at hand."""
NO_ABILITY = re.compile(
    r"\b(?:don't|do not|doesn't|does not)\s+have\s+(?:the\s+)?(?:ability|capability|means|tools?)\s+to\b|"
    r"\b(?:can't|cannot|can not|am unable to|'m unable to|am not able to|'m not able to)\s+"
    r"(?:send|text|email|e-mail|message|call|run|execute|delete|remove)\b",
    re.IGNORECASE,
)
"""A tool said to be missing ("I don't have the ability to send text messages or emails."): the
1.5B said it to "Text Tom Klein that the van is booked" with send_message at hand."""
NO_ACCESS = re.compile(
    r"\b(?:(?:don't|do not|doesn't|does not)\s+have\s+(?:any\s+)?(?:access|information|info|details|records?)|"
    r"(?:can't|cannot|can not|couldn't|could not|unable to|not able to)\s+(?:access|see|view|read|open|find|look)|"
    r"no access|not have access|"
    # "I did not write down anything about the car service", with notes/car.md in the ground
    r"(?:did not|didn't|have not|haven't|never)\s+(?:write|wrote|written|note|noted|save|saved|mention|mentioned)"
    r"(?:\s+down)?\s+(?:anything|any\s+\w+))\b",
    re.IGNORECASE,
)
NOT_HAVING = re.compile(r"\b(?:don't|do\s+not|doesn't)\s+have\b|\bcan(?:'t|not)\s+find\b|\bunable\s+to\b", re.IGNORECASE)
"""A message errand turned down for want of what it carries ("I don't have the last three blood
pressure readings"), while the address is known and the files are at hand: sent back to do it."""
LACKS_DETAILS = re.compile(
    r"\b(?:don't|do not)\s+have\s+(?:enough|sufficient|the\s+(?:necessary|required))\s+(?:information|info|details)|"
    r"\b(?:need|(?:don't|do\s+not)\s+have)\s+(?:the|their|his|her|an?|\w+'s)\s+(?:\w+'s\s+)?"
    r"(?:e-?mail|phone|mobile|number|address|contact)",
    re.IGNORECASE,
)
"""An errand stopped for a detail ("I don't have enough information to send an email. I need the
recipient's email address": the 1.5B, asked to "Drop Mo an email", with Mo's row of people.csv
shown to it). Sent back only where what the model was shown gives that person an address."""
OWN_THINGS = re.compile(r"\b(?:my|our|mine|ours)\b", re.IGNORECASE)
"""A request about the user's own things: their answer is in their files, not in the model."""


URL = re.compile(r"https?://[^\s<>\"'`]+")
FETCH = "web_fetch"


ClaimKind = Literal[
    "done", "not_acted", "restated", "no_access", "uncomputed", "unworked", "unsourced", "not_looked_up", "unread",
    "unfollowed", "elsewhere", "half_done", "copied", "part_of_list", "time_of_day", "per_period",
    "not_as_calculated", "conversion", "miscounted_days", "someone_else", "someone_elses_line", "marked_done",
    "rows_not_asked", "total_left_out", "against_the_day", "the_clock", "contact_not_given", "yes_then_no", "against_the_line",
    "no_time_given", "no_phone", "next_due_missed", "not_as_worked_out", "owed_the_wrong_way", "heading_only",
    "another_file",
]


@dataclass(frozen=True)
class Claim:
    kind: ClaimKind
    quote: str
    """The answer's words that make the claim."""
    tools: tuple[str, ...] = ()
    """For not_acted and done: the tools that can do what the request's verb asks; for unread, web_fetch."""


def claimed_action(answer: str, verb: str = "") -> str | None:
    """The first words of `answer` that say an action was done, or None; with the request's
    `verb`, its own forms count too ("Unlocking the front door." for "Unlock my front door")."""
    found = [m for pattern in (*CLAIMS, *_claims_of(verb)) if (m := pattern.search(answer))]
    if not found:
        return None
    first = min(found, key=lambda m: m.start())
    return first.group(0).lstrip(".! ").strip()


PAST_FORMS = {"wrote": "write", "written": "write", "sent": "send", "paid": "pay", "put": "put", "set": "set"}


def _asked_of_the_past(claimed: str, request: str) -> bool:
    """Whether a question asks what the user did with the verb the answer claims ("What did I write
    down …?" answered "I wrote …"): the answer reports the user's own doing, no tool's."""
    if asked_action(request) or "?" not in request:
        return False
    # any of its words: "is paid on" for "When do I pay pocket money?"
    # "paid" of "Have I paid the council tax?", "pay" of "When do I pay …?"
    return any((stems(word) | stems(PAST_FORMS.get(word, word))) & stems(request) for word in claimed.lower().split())


def _read_in(claimed: str, seen: str) -> bool:
    """Whether a claim's verb is a word of what was shown: asked "When's the bike service?", "is
    booked on 12 December" reads "booked 2026-12-12" of bike.md."""
    if claimed.lower() in seen.lower():
        return True
    return not re.match(r"(?:I|we)\b", claimed, re.IGNORECASE) and any(  # "I have booked …" is Saturn's own
        re.search(rf"\b{re.escape(word)}\b", seen, re.IGNORECASE) for word in claimed.lower().split() if len(word) > MIN_VERB)


MIN_VERB = 3
"""A claim's words longer than "has", "are" or "was"."""


def _claims_of(verb: str) -> tuple[re.Pattern[str], ...]:
    """The answer doing the request's verb: opening with its -ing form, or its -ed form after
    "I", "is", "has been"."""
    if not verb.isalpha():
        return ()
    stem = verb[:-1] if verb.endswith("e") else verb
    doubled = verb + verb[-1] if re.search(r"[^aeiou][aeiou][bdgmnpt]$", verb) else stem
    done = "|".join(dict.fromkeys((stem + "ed", doubled + "ed")))
    doing = "|".join(dict.fromkeys((stem + "ing", doubled + "ing")))
    return (
        re.compile(rf"^\W*(?:I'm\s+|I\s+am\s+)?(?:now\s+)?(?:{doing})\b", re.IGNORECASE),
        re.compile(rf"\b(?:I(?:'ve|\s+have)?|(?:is|are|was|were)(?:\s+now)?|(?:has|have)\s+(?:now\s+)?been)\s+"
                   rf"(?:{done})\b", re.IGNORECASE),
    )



def unfetched_address(request: str, passes: list[PassTrace], registry: Registry) -> str | None:
    """The first web address the request names that no call tried, when web_fetch is at hand and
    no fetch of the turn got a page: "What are the hours on …/about.html? If that page is gone,
    look at the front page …/" (the 1.5B got the 404 and answered that the page was not found)."""
    fetches = [c for p in passes for c in p.calls if c.name == FETCH]
    if FETCH not in registry.names() or any(c.fate not in FETCH_FAILED for c in fetches):
        return None
    tried = {_fetched_url(c.arguments) for c in fetches}
    named = (found.group(0).rstrip(".,;:!?)") for found in URL.finditer(request))
    return next((url for url in named if url.rstrip("/") not in tried), None)


FETCH_FAILED = frozenset({"error", "invalid"})


def _fetched_url(arguments: str) -> str:
    with contextlib.suppress(ValueError):
        if isinstance(loaded := json.loads(arguments), dict):
            return str(loaded.get("url", "")).rstrip("/")
    return ""


def unbacked_claim(
    answer: str, passes: list[PassTrace], registry: Registry, request: str = "", documents_at_hand: bool = False,
    seen: str = "", last_result: str = "",
) -> Claim | None:
    """What in `answer` no tool backs, or None.

    `documents_at_hand`: the working folder or the knowledge base holds documents a read tool can reach.
    `seen`: everything the model was shown this turn; with `documents_at_hand`, a number it adds up
    must be in it or come from calculate, and a value it gives about the user's own things must be
    in it or come from a read. `last_result`: the newest tool result, where a trail points on.
    """
    done = claimed_action(answer, asked_action(request))
    if done is not None and (_asked_of_the_past(done, request) or not asked_action(request) and _read_in(done, seen)):
        done = None  # "What did I write down …?": "I wrote …" tells the note; "are turned off" reads a line shown
    if done is not None and not something_acted(passes, registry):
        return Claim("done", done, tools_for(request, registry) if asked_action(request) else ())
    if (restates_request(answer, request) and not ran_anything(passes)
            and (fitting := external_tools_fitting(request, registry))):
        return Claim("restated", first_sentence(answer), fitting)
    if (url := unfetched_address(request, passes, registry)) and not answer.rstrip().endswith("?"):
        return Claim("unread", url, (FETCH,))
    if (pointer := unfollowed_pointer(request, last_result, passes)) and not answer.rstrip().endswith("?"):
        tool = FETCH if pointer.startswith("http") else "read_file"
        if tool in registry.names():
            return Claim("unfollowed", pointer, (tool,))
    if (elsewhere := elsewhere_untried(last_result, passes)) and not answer.rstrip().endswith("?"):
        return Claim("elsewhere", elsewhere[0], (elsewhere[1],))
    if asked_action(request) and not something_tried(passes, registry, fetch_counts=False):
        if asked_action(request) == "call" and not asks_or_declines(answer, request) and not _can_phone(registry):
            return Claim("no_phone", first_sentence(answer))
        if not asks_or_declines(answer, request) and done is None:
            return Claim("not_acted", first_sentence(answer), tools_for(request, registry))
        if ((LACKS_DETAILS.search(answer) or VERB_TOOL_WORDS.get(asked_action(request)) in ("email", "message")
             and NOT_HAVING.search(answer)) and addresses_named(request, [Document("shown", seen)])
                and (tools := tools_for(request, registry))):
            return Claim("not_acted", first_sentence(answer), tools)
        if (VERB_TOOL_WORDS.get(asked_action(request)) == "file" and NO_ACCESS.search(answer) and "?" not in answer
                and shown_file_named(request, seen) and (tools := tools_for(request, registry))):
            return Claim("not_acted", first_sentence(answer), tools)
        refuses = BARE_REFUSAL.search(answer) or (NO_ABILITY.search(answer) and "?" not in answer)
        if refuses and (fitting := tools_whose_words_fit(request, registry)):
            return Claim("not_acted", first_sentence(answer), fitting)
    if (undone := undone_errand(request, passes, registry)) and not asks_or_declines(answer, request):
        return Claim("half_done", undone[0], undone[1])
    if VERB_TOOL_WORDS.get(asked_action(request)) in ("email", "message") and something_acted(passes, registry):
        return None  # the answer reports what was sent ("Email Dave my November total"): no figure of it to check
    if (documents_at_hand and (found := NO_ACCESS.search(answer))
            and not something_tried(passes, registry, READ_TOOLS) and READ_TOOLS & set(registry.names())):
        return Claim("no_access", found.group(0))
    if line := someone_elses_contact(answer, request, seen):  # with their own line shown, sent back with it
        theirs = their_contact_line(request, seen)
        return Claim("contact_not_given", theirs) if theirs else Claim("someone_else", line)
    if line := contact_not_given(answer, request, seen):
        return Claim("contact_not_given", line)
    if lines := (someone_elses_line(answer, request, seen) or another_owners_line(answer, request, seen)
                 or another_rows_figure(answer, request, seen) or another_names_money(answer, request, seen)):
        return Claim("someone_elses_line", lines)
    if dated := miscounted_days(answer, request, seen):
        return Claim("miscounted_days", dated)
    if dated := next_due_missed(answer, request, seen):
        return Claim("next_due_missed", dated)
    if day_line := not_on_that_day(answer, request, seen):
        return Claim("against_the_day", day_line)
    if clock := the_clock_given(answer, request, seen):
        return Claim("the_clock", clock)
    if worked := (missed_worked_out(answer, request) or wrong_weekday(answer, request, today_shown(seen))
                  or superlative_missed(answer, request, seen)
                  or against_the_worked_entry(answer, request, seen)
                  or coming_miscounted(answer, request, seen)  # not the kinds': "work 4" is not who is coming
                  or (miscounted_kind(answer, request, seen) if not coming_counted(request, seen) else None)
                  or own_sum_missed(answer, request, seen) or period_figure_missed(answer, request, seen)
                  or rate_figure_missed(answer, request, seen)
                  or against_their_rates(answer, request, seen) or owed_of_the_list(answer, request, seen)
                  or gap_missed(answer, request, seen)):
        return Claim("not_as_worked_out", worked)
    if said := yes_then_no(answer, request):
        return Claim("yes_then_no", said)
    if line := (against_its_line(answer, request, seen) or against_a_none_line(answer, request, seen)
                 or against_its_end(answer, request, seen)
                 or against_its_time(answer, request, seen) or against_the_trend(answer, request, seen)
                 or overdue_missed(answer, request, seen) or against_next_due(answer, request, seen)
                 or against_this_month(answer, request, seen) or soonest_unnamed(answer, request, seen)
                 or another_entrys_date(answer, request, seen)
                 or against_the_target_held(answer, request, seen) or own_part_missed(answer, request, seen)
                 or own_count_missed(answer, request, seen)
                 or another_line_than_asked(answer, request, seen) or nothing_found_beside_the_line(answer, request, seen)
                 or days_not_listed(answer, request, seen) or to_go_for_so_far(answer, request, seen)
                 or others_lines_named(answer, request, seen) or not_due_named(answer, request, seen)
                 or none_on_the_days_missed(answer, request, seen) or yes_or_no_against_the_rows(answer, request, seen)
                 or done_ones_named(answer, request, seen)
                 or paid_all_answered(answer, request, seen)):
        return Claim("against_the_line", line)
    if lines := no_time_given(answer, request, seen):
        return Claim("no_time_given", lines)
    if line := another_journeys_time(answer, request, seen):
        return Claim("someone_elses_line", line)
    if line := arrival_for_leaving(answer, request, seen):
        return Claim("against_the_line", line)
    if worked := heading_only(answer, seen):
        return Claim("heading_only", worked)
    if lines := another_labels_line(answer, request, seen):  # after the day's own line: "Tue: Gran does both"
        return Claim("someone_elses_line", lines)
    if CALCULATE in registry.names() and (expression := unit_conversion(answer, request, passes)):
        return Claim("conversion", expression, (CALCULATE,))
    if (documents_at_hand and CALCULATE in registry.names()
            and (number := uncomputed_number(answer, request, seen, passes))):
        return Claim("uncomputed", number)
    if CALCULATE in registry.names() and (expression := unworked_length(answer, request, passes)):
        return Claim("unworked", expression, (CALCULATE,))
    if (CALCULATE in registry.names() and not asks_or_declines(answer, request)
            and (number := copied_number(answer, request, passes))):
        return Claim("copied", number, (CALCULATE,))
    if CALCULATE in registry.names() and (result := not_as_calculated(answer, request, last_result, passes)):
        return Claim("not_as_calculated", result)
    if (CALCULATE in registry.names() and not asks_or_declines(answer, request)
            and (expression := unconverted_amount(answer, request, seen, passes)
                             or scaled_amount(answer, request, seen, passes)
                             or at_a_rate(answer, request, seen, passes)
                             or still_to_go(answer, request, seen, passes)
                             or left_over(answer, request, seen, passes))):
        return Claim("per_period", expression, (CALCULATE,))
    if part := part_of_the_list(answer, request, seen):
        return Claim("part_of_list", part)
    if left := marked_done_given(answer, request, seen):
        return Claim("marked_done", left)
    if line := the_file_holding_it(answer, request, seen):
        return Claim("another_file", line)
    if not asked_action(request) and (  # told "Ana paid.", the answer is no question's rows
            rows := (rows_not_asked(answer, request, seen) or over_not_asked(answer, seen) or rows_of_another_answer(answer, request, seen)
                     or lines_not_asked(answer, request, seen) or kind_rows_not_asked(answer, request, seen)
                     or picked_rows_not_asked(answer, request, seen) or picked_rows_left_out(answer, request, seen))):
        return Claim("rows_not_asked", rows)
    if total := total_left_out(answer, request, seen) or budget_for_the_spend(answer, request, seen):
        return Claim("total_left_out", total)
    if said := owed_the_wrong_way(answer, request):
        return Claim("owed_the_wrong_way", said)
    if (not something_tried(passes, registry, READ_TOOLS | {CALCULATE}) and not asks_or_declines(answer, request)
            and (value := unsourced_value(answer, request, seen))):
        if CALCULATE in registry.names() and (moves := clock_moves(request)):
            return Claim("time_of_day", moves, (CALCULATE,))
        if (documents_at_hand and OWN_THINGS.search(request) and not asked_action(request)
                and READ_TOOLS & set(registry.names())):
            return Claim("unsourced", value)
        if not works_out(request) and (fitting := external_tools_fitting(request, registry)):
            named = tuple(t.name for t in registry if t.name in fitting and named_for_request(request, t))
            return Claim("not_looked_up", value, named) if named else Claim("unsourced", value, fitting)
    return None


PHONING = re.compile(r"\b(?:phone|voice|telephone)\s+calls?\b|\bdial\w*|\bplaces?\s+(?:a\s+)?calls?\b", re.IGNORECASE)


def _can_phone(registry: Registry) -> bool:
    """Whether a tool places phone calls (an MCP telephony tool, say): none of Saturn's own does."""
    return any(PHONING.search(f"{tool.name.replace('_', ' ')} {tool.description}") for tool in registry)


REASON_FOR_NO = re.compile(
    r"\b(?:allergic|intolerant|can(?:no|')t|mustn't|must\s+not|shouldn't|should\s+not|not\s+allowed|avoid|"
    r"too\s+(?:young|old|small|big))\b", re.IGNORECASE)


QUALIFIED = re.compile(r"\b(?:but|except|only|unless|as\s+long\s+as|provided|if)\b", re.IGNORECASE)


def heading_only(answer: str, seen: str) -> str | None:
    """What the ground worked out for a file whose first line the answer only repeats, with nothing
    of its own: asked "What am I cleaning this week?", shown the week's line and who the user is,
    the 1.5B answered "Cleaning rota (week starting Monday)"."""
    said = " ".join(answer.split()).strip(" .!").lower()
    lines = seen.splitlines()
    for at, line in enumerate(lines):
        if not line.startswith("--- ") or at + 1 >= len(lines) or " ".join(lines[at + 1].split()).strip(" .!#").lower() != said:
            continue
        block = list(takewhile(lambda below: not below.startswith(("--- ", "</outside>")), lines[at + 1:]))
        worked = [below for below in block if below.startswith("[Saturn")]
        if any(said in " ".join(line.split()).lower() for line in worked):
            return None  # the first line is the one worked out for the day asked: "Dentist Friday 9am" of notes.txt
        return " ".join(worked) or None
    return None


PAID_ALL_ASKED = re.compile(r"^\W*(?:has|have|did)\s+(?P<who>(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z&])[\w&'-]*)*)\s+"
                            r"(?:paid|settled)\s+(?:(?:for\s+)?everything|(?:it\s+)?all|in\s+full|up|me\s+back)\b", re.IGNORECASE)
MONEY_WRITTEN = re.compile(r"[£$€]\s?\d")


def paid_all_answered(answer: str, request: str, seen: str) -> str | None:
    """The lines of money naming someone asked if they have paid everything, when a yes or no goes
    against their marks: asked "Has Acme paid everything?" of two Acme invoices, one ", paid" and
    one not, the 1.5B said yes."""
    asked = PAID_ALL_ASKED.match(request)
    if asked is None or not (YES.search(answer) or NO.search(answer)):
        return None
    who = re.compile(rf"(?<!\w){re.escape(asked['who'])}(?!\w)", re.IGNORECASE)
    theirs = list(dict.fromkeys(line.strip(" -*•") for line in seen.splitlines()
                                if not line.startswith("[Saturn") and who.search(line) and MONEY_WRITTEN.search(line)))
    unpaid = [line for line in theirs if not DONE_MARK.search(line)]
    if not theirs or bool(YES.search(answer)) == (not unpaid):
        return None
    return "; ".join(unpaid or theirs)


def yes_then_no(answer: str, request: str) -> str | None:
    """The first sentence of a yes that gives its own reason for no, to a yes/no question."""
    said = first_sentence(answer)
    reason = REASON_FOR_NO.search(said)
    if (YES_NO_ASKED.search(request) and YES.search(said) and reason
            and not re.search(rf"\b{re.escape(reason.group(0))}\b", request, re.IGNORECASE)  # "Is Dad allergic to anything?"
            and not QUALIFIED.search(said)):  # "Yes, but not on Sundays" is a yes
        return said
    return None


OWED_TO_THE_USER = re.compile(r"\bowes?\s+me\b|\b(?:am\s+I|I'm|I\s+am|I\s+was)\s+(?:still\s+)?owed\b|\bowed\s+to\s+me\b",
                              re.IGNORECASE)
USER_OWES = re.compile(r"\b(?P<y>[Yy])ou\s+(?:still\s+)?owe\b")


def owed_the_wrong_way(answer: str, request: str) -> str | None:
    """The sentence of an answer that says the user owes what the request asks is owed to them:
    asked "How much am I owed in total?", the 1.5B answered "You owe £3550 in total."."""
    if not OWED_TO_THE_USER.search(request):
        return None
    return next((sentence for sentence in re.split(r"(?<=[.!?])\s+", answer) if USER_OWES.search(sentence)), None)


def turned_round(answer: str) -> str:
    """"You owe £3550" as "You are owed £3550"."""
    return USER_OWES.sub(lambda found: f"{found.group('y')}ou are owed", answer)


def restates_request(answer: str, request: str) -> bool:
    """Whether the answer is the request again: nearly all its words are the request's, and it
    holds most of them ("perform 다용도실 통돌이 중지" answered "다용도실 통돌이 중지"; "I would like
    to order a burger … no onions, extra cheese" answered with the same sentence)."""
    said, asked = _words(answer), _words(request)
    added = said - asked
    if len(said) < 2 or any(c.isdigit() for word in added for c in word):
        return False  # "The area under the curve … is 150 square units" answers with its number
    return len(added) * 8 <= len(said) and len(said & asked) * 5 >= len(asked) * 3


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)}


def ran_anything(passes: Iterable[PassTrace]) -> bool:
    return any(c.fate in ("ran", "asked") for p in passes for c in p.calls)


SAYS_NOT_DONE = re.compile(r"\b(?:not|never|nothing|no)\b|n't\b|\bplease\s+(?:provide|tell|give|share|specify)\b",
                           re.IGNORECASE)


def misleads_about_action(claim: Claim, answer: str) -> bool:
    """An answer that says or promises an action no tool took, without a word saying it was not
    done or asking for what is missing."""
    return claim.kind in ("done", "not_acted") and not SAYS_NOT_DONE.search(answer) and "?" not in answer


def tools_whose_words_fit(request: str, registry: Registry) -> tuple[str, ...]:
    """Of the tools for the request's verb, those that share a word with the request
    ("Reply by email": send_email; "Add … to my Google Calendar": no file tool)."""
    return tuple(name for name in tools_for(request, registry)
                 if (tool := registry.get(name)) is not None and fits_request(request, tool))


def external_tools_fitting(request: str, registry: Registry) -> tuple[str, ...]:
    """The MCP servers' tools that share a word with the request (tool_fit)."""
    return tuple(t.name for t in registry if t.risk == "external" and fits_request(request, t))



def may_send_back(claim: Claim, sent_back: set[str]) -> bool:
    """An answer claiming what no tool backs goes back once a turn; a half-done errand once more,
    since part of it was done after the first send-back (texted Petra after being sent back,
    the 1.5B answered "Message sent" without the email to Tom), and so does an answer that gives
    another number than the calculate call it was sent to make."""
    return not sent_back or (claim.kind in ("half_done", "not_as_calculated") and claim.kind not in sent_back)


def must_call_after(claim: Claim, offered: list[str], *, can_ask: bool = True) -> tuple[str, ...]:
    """A page named and not fetched: the next passes must fetch. An action (or one errand of
    several) asked for and answered instead of done: the next passes must call a tool that does
    it, asks for what is missing, or reads it (the 1.5B, given the plumber's address by
    ask_user, answered "I'll send you an email to fix@pipes.example" twice). With nobody to
    answer, ask_user is left out: headless, the 1.5B asked "What time is it?" three times. An
    answer that only restated the request, a value that a tool named for the request looks up
    and nothing looked up, one of the user's numbers given back for a sum, or a time of day the
    user's clock time and length come to: the tools of the claim (sent back to calculate, the 1.5B
    answered "2 hours 85 minutes" instead)."""
    if claim.kind in ("unread", "unfollowed", "elsewhere", "restated", "not_looked_up", "copied", "time_of_day", "per_period",
                      "conversion"):
        return tuple(name for name in offered if name in claim.tools)
    if claim.kind not in ("not_acted", "done", "half_done") or not claim.tools:
        return ()
    may_precede = MAY_PRECEDE_AN_ACTION if can_ask else READ_TOOLS
    return tuple(name for name in offered if name in claim.tools or name in may_precede)
