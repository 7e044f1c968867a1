"""What the request asks done, and what the turn tried of it.

A request whose first words ask for something done ("Add butter to my shopping list", "Drop Mo
an email", "Let Aunt Liz know …") names an errand; its verb names the tools that can do it (a
tool whose name, else description, holds the verb's word). The answer checks (claims.py), the
ask-first rule (asking.py), the review and the put-right notes all read the request through here,
and judge the turn by what it tried: a call that can change something, proposed whatever its fate,
except one sent back unrun for its shape.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from protocol.methods import PassTrace
from saturnd.tools.registry import Registry

ACTION_REQUEST = re.compile(
    r"^\s*(?:(?:please|kindly|ok|okay|hey|saturn)[,!]?\s+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    r"(?:i(?:'d|’d|\s+would)?\s+(?:like|want|need)\s+(?:you\s+)?to\s+(?:please\s+)?)?"  # "I'd like to add …"
    r"(?:(?:[^,.;:!?\n]|\.(?=\w)){1,60}?,\s*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?)?"
    # "In todo.txt, mark …", "I've got the rice, take it off the list", "Crane & Co have paid, can you update that?"
    r"(?P<verb>add(?!\s+up\b)|put|append|insert|remove|delete|take\s+(?:\w+\s+){1,3}?off|take\s+(?:\w+\s+){1,4}?out\b|"
    r"cross|tick|mark|"
    r"send|text|email|e-mail|message|reply|forward|tell(?!\s+(?:me|us)\b)|let\s+(?!(?:me|us)\b)(?:\w+\s+){1,3}?know|"
    r"save|store|note\s+down|note(?=\s+that\b)|make\s+a\s+note|write\s+down|remember|"
    r"(?:write|make|create)\b(?=.*(?:\bfiles?\b|\bfolder\b|\.[a-z]{2,4}\b))|"
    r"book|order|schedule|cancel|set|turn|switch|change|update|rename|move|copy|edit|fix|replace|overwrite|swap|transfer|"
    r"remind(?!\s+me\b[,:]?\s*(?:when|what|where|who|which|how|of)\b)|pay|call|ring|phone(?=\s+(?:the|my|our|(?-i:[A-Z])))|install|run|unlock|lock|start(?!\s+(?:at|from|with|on)\b)|stop|play|dim|print|buy|water|heat|charge|"
    r"pop|stick|chuck|jot|log(?!\s+(?:in|on|out|off)\b)|record|scratch|get\s+rid\s+of|ping|(?:drop|shoot)\s+\w+\s+an?\s+(?:line|note|text|message|e-?mail)|"
    r"ask(?!\s+around\b)(?=\s+(?:(?:my|our|the)\s+)?[A-Za-z]+\s+(?:if|whether|to|for|about|when|what|where|how)\b)(?!\s+(?:me|us|you)\b))\b",
    re.IGNORECASE,
)
"""A request whose first word (after please / can you) asks for something to be done."""
SAID_PLAINLY = {"pop": "add", "stick": "add", "chuck": "add", "log": "add", "record": "add", "jot": "note",
                "scratch": "remove", "get": "remove",
                "ping": "message", "ring": "call", "phone": "call",
                "ask": "message"}
"""Everyday words for an errand, as the verb that names its tools ("Stick eggs on the list": add)."""
TOLD_DONE = re.compile(
    r"^\s*(?:I(?:'ve|’ve|\s+have)|we(?:'ve|’ve|\s+have))\s+(?:just\s+|already\s+|now\s+|finally\s+)?"
    r"(?:(?:packed|bought|returned|paid|posted|sent|finished|done|collected|picked\s+up)\s+"
    r"(?:(?:the|my|our|his|her|their|all\s+the)\b|(?-i:[A-Z])|(?:one|a\s+card|a\s+present|a\s+gift)\s+(?:to|for)\s+)|(?:[a-z]{3,}ed|bled|swept|hung|dug|mowed|sewed|fed|took\s+down|threw\s+out)\s+(?:all\s+)?the\b(?![^.!?]*\b(?:to|from|for|into)\b))"
    r"(?![^.!?]*\?)|"
    r"^\s*(?:I(?:'ve|’ve|\s+have)|we(?:'ve|’ve|\s+have))\s+(?:just\s+|already\s+|now\s+|finally\s+)?"  # "I've told the GP."
    r"(?:told|rung|rang|phoned|called|emailed|contacted|informed)\s+(?:the\s+|my\s+|our\s+)?[\w'’ ]{1,30}?\s*[.!]?\s*$|"
    r"^\s*(?:I|we)\s+(?:just\s+|already\s+|finally\s+)?(?:packed|bought|returned|paid|posted|sent|finished|collected|"
    r"picked\s+up|fixed|cleared|ordered|booked)\s+(?:the|my|our|his|her|their|all\s+the)\b(?![^.!?]*[?\d])|"
    r"^\s*(?:I|we)\s+(?:just\s+)?(?!(?:moved|changed|booked|rescheduled|cancelled|arranged|planned)\b)(?:[a-z]{3,}ed|gave|fed|took|did)\s+(?:the|my|our|(?-i:[A-Z])[\w'-]*)\b[^.!?\d]*\b(?:today|yesterday|this\s+(?:morning|afternoon|evening))"
    r"\s*[.!]?\s*$|"
    r"^\W*(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?\s+(?:has\s+)?(?:just\s+)?(?:paid|collected|returned|confirmed|signed|finished|completed|handed\s+in)(?:\s+up|\s+(?:us|me)(?:\s+back)?|\s+back)?"
    r"(?:\s+(?:for\s+)?(?:the|his|her|their|its|my|our)\s+[a-z' -]+|\s+(?-i:[A-Z]{2,})[\w-]*|"  # "her subs", "INV-045"
    r"\s+for\s+(?:\w+day|the\s+\d+\w*)(?:\s+(?:morning|afternoon|evening|night))?)?"  # "for Saturday afternoon"
    r"(?:\s+(?:today|tonight|yesterday|just\s+now|this\s+(?:morning|afternoon|evening)))?\s*[.!]?\s*$|"
    r"^\s*(?:I(?:'ve|’ve|\s+have)?|we(?:'ve|’ve|\s+have)?)\s+(?:just\s+|already\s+)?paid\s+for\s+(?:the\s+|my\s+|our\s+)?[\w' -]+[.!]?\s*$|"
    r"^\W*(?!(?:I|We|You|It|This|That|They|He|She)\b)(?-i:[A-Z])[\w'-]+\s+(?:just\s+)?[a-z]{3,}ed\s+the\b[^.!?\d]*"
    r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\s*[.!]?\s*$|"  # "Theo hoovered the stairs today."
    r"^\W*(?:the|my|our)\s+[\w' -]{2,30}?\s+(?:came|called|visited|arrived|delivered|was\s+here|has\s+been|went\s+out|came\s+out|"
    r"has\s+(?:gone|come)\s+out)\s+(?:round\s+)?"
    r"(?:today|this\s+(?:morning|afternoon|evening))\s*[.!]?\s*$|"  # "The window cleaner came today."
    r"^\W*(?:the|my|our|his|her|their)\s+[\w' -]{2,40}?\s+(?:is|are|has\s+been|have\s+been)\s+(?:all\s+)?"
    r"(?:done|finished|sorted|paid|booked|sent|posted|fixed|handed\s+in|packed)\s*[.!]?\s*$",
    re.IGNORECASE)
"""Told a thing on a list is done ("I've packed the charger.", "The electric came out today.", "I've pruned the raspberries.", "I
paid the football.", "I watered the monstera today.", "Ana paid.", "I've paid for karate."): the list's line is marked. The 1.5B said the words back. Not "I've moved
the meeting to 3pm": a change."""
TOLD_CANCELLED = re.compile(r"^\s*(?:I(?:'ve|’ve|\s+have)?|we(?:'ve|’ve|\s+have)?)\s+(?:just\s+|finally\s+)?"
                            r"(?:cancell?ed|stopped|quit)\s+(?:(?:the|my|our)\s+|(?-i:(?=[A-Z])))(?P<thing>[\w' -]+?)"
                            r"(?:\s+(?:subscription|membership|direct\s+debit|booking))?\s*[.!]?\s*$", re.IGNORECASE)
"""Told a thing was cancelled ("I've cancelled the gym.", "I cancelled Spotify."): its line goes."""
TAKEN_BACK = re.compile(r"^\s*(?:I(?:'ve|’ve|\s+have)?|we(?:'ve|’ve|\s+have)?)\s+(?:just\s+|already\s+)?(?:taken|took|given|gave)\s+"
                        r"(?:the\s+|my\s+|our\s+)?(?P<thing>[\w'’, ]{1,40}?)\s+back(?:\s+(?:today|yesterday))?\s*[.!]?\s*$", re.IGNORECASE)
"""Told a thing borrowed went back ("I've taken Wolf Hall back."): its line of what is out goes."""
SOMEONE_STOPPED = re.compile(r"^\W*(?!(?:I|We|You|It|They|He|She|This|That)\b)(?P<who>(?-i:[A-Z])[\w-]*)(?:'s|’s|\s+is|\s+has)?\s+(?:just\s+)?(?:dropping|dropped|quitting|quit|"
                             r"stopping|stopped|giving\s+up|gave\s+up|given\s+up)\s+(?:the\s+|his\s+|her\s+|their\s+)?"
                             r"(?P<thing>[\w' -]+?)\s*[.!]?\s*$", re.IGNORECASE)
"""Told someone stopped a thing ("Rory's dropping coding."): the line or row of theirs for it goes."""
GAVE_BACK = re.compile(r"^\W*(?!(?:I|We|You|It|They|He|She|This|That)\b)(?P<who>(?-i:[A-Z])[\w-]*)\s+(?:has\s+)?(?:just\s+)?"
                       r"(?:gave|given|brought|handed)\s+(?:me\s+|us\s+)?(?:back\s+(?:the\s+|my\s+|our\s+)?(?P<first>[\w'’ -]{1,40}?)|"
                       r"(?:the\s+|my\s+|our\s+)?(?P<thing>[\w'’ -]{1,40}?)\s+back)(?:\s+(?:today|yesterday))?\s*[.!]?\s*$", re.IGNORECASE)
"""Told someone gave a thing lent back ("Jo gave the box set back."): the line of theirs for it goes."""
BOUGHT_FOR = re.compile(r"^\s*(?:(?:I|we)(?:'ve|’ve|\s+have)?\s+)?(?:just\s+|finally\s+)?(?:bought|got|ordered|picked\s+up)\s+"
                        r"(?P<who>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)(?:['’]s\s+|\s+(?:the|a|an|some|his|her|their)\s+)"
                        r"(?P<thing>[^,.£$€?]+?)(?:,?\s*(?:for\s+)?(?P<money>[£$€]\s?\d[\d,]*(?:\.\d+)?))?\s*[.!]?\s*$", re.IGNORECASE)
"""Told a present was bought for someone ("Bought Jamie the football kit, £28.", "I bought Dad's book for £12."): their
gift line is marked bought."""
WENT_OUT = re.compile(r"\b(?:came|went|gone|come)\s+out\b", re.IGNORECASE)
"""A bill told paid by its money going out of the account ("The electric came out today.")."""
TOLD_LOGGED = re.compile(r"^\s*(?:(?:I|we)\s+)?(?:just\s+)?(?!(?:moved|changed|booked|rescheduled|cancelled|arranged|planned|"
                         r"need|feed|seed|speed|breed|bleed|weed|proceed|exceed|succeed)\b)"  # "Fed her at 15:30, 14 minutes."
                         r"(?:[a-z]+ed|ran|swam|rode|drove|spent|paid|did|took|bought|sold|put|fed|gave|ate|slept|read)\b[^?]*?"
                         r"\d[\d,.]*(?![\d:]|\s*(?:am|pm|st|nd|rd|th)\b)(?:\s*[a-z]+\b)?[^?\d]*$", re.IGNORECASE)
"""Told what was done with its amounts ("I filled up today, 39 litres for £56.20 at 43,760
miles.", "I weighed in this morning at 82.4."): a row of the log that keeps them. The 1.5B said
the words back."""
TOLD_MORE = re.compile(r"^\s*(?:I(?:'ve|\s+have)?|we(?:'ve|\s+have)?)\s+(?:just\s+)?(?:picked\s+up|got|bought|collected|"
                       r"received|fetched|had)\s+(?:another\s+)?\d+\s+more\b[^?]*$", re.IGNORECASE)
"""Told more of a thing came in ("I picked up 28 more metformin today."): its count left goes up."""
TOLD_LOGGED_IN_WORDS = re.compile(r"^\s*(?:I|we)\s+(?:just\s+)?(?!(?:moved|changed|booked|rescheduled|cancelled|arranged|planned)\b)"
                                  r"(?:[a-z]+ed|ran|swam|rode|drove|did|taught|spent|worked)\b[^?\d]*\bfor\s+(?:half\s+)?an?\s+"
                                  r"(?:hour|minute)\b[^?\d]*$", re.IGNORECASE)
"""Told what was done for an hour ("I taught Jack for an hour today."): a row of the log, as with figures."""
TOLD_ANSWER = re.compile(r"^\W*(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?\s+(?:has\s+)?(?:said|says|replied|answered)\s+"
                         r"(?P<answer>yes|no)\b(?![^?]*\?)", re.IGNORECASE)
"""Told someone's answer ("Ella said yes."): their row's yes/no cell is marked so."""
TOLD_COMING = re.compile(r"^\W*(?!(?:Christmas|Easter|Summer|Winter|Spring|Autumn|Halloween|It|This|That|The|Everyone|Nobody|"
                         r"Someone|Who|What|Which)\b)(?P<who>(?-i:[A-Z])[\w-]*(?:\s+(?-i:[A-Z])[\w-]*)?)(?:'s|\s+is|\s+can|\s+will|'ll)?"
                         r"(?P<not>\s+not|n't|\s+(?:can't|cannot|won't|isn't))?\s+(?:be\s+)?(?:coming|come|make\s+it)\b[^?]*$",
                         re.IGNORECASE)
"""Told someone is coming or not ("Noah's coming.", "Ava can't make it."): their answer."""


TOLD_READING = re.compile(r"^\W*(?:the\s+|my\s+)?[\w' -]{2,30}?\s+(?:says|reads|read|showed|shows|is\s+(?:at|on)|was)\s+"
                          r"\d[\d,.]*\s*[a-z%]*\s+(?:today|tonight|this\s+(?:morning|afternoon|evening)|just\s+now)\s*[.!]?\s*$",
                          re.IGNORECASE)
"""Told a reading of the day ("The odometer says 42,700 today."): a row of a log."""
SCORED_MORE = re.compile(r"^\W*(?P<who>(?-i:[A-Z])[\w'-]*)\s+(?:just\s+)?(?:scored|got|took|made)\s+(?:another\s+)?"
                         r"(?P<count>\d{1,3}|one|two|three|four|five|six|a|an)\s*(?P<what>goals?|tries|try|points?|runs?|wickets?|baskets?)?"
                         r"\s*(?:today|tonight|yesterday|this\s+(?:morning|afternoon|evening|week)|on\s+\w+day)?\s*[.!]?\s*$",
                         re.IGNORECASE)
"""Told someone scored so many ("Riya scored two today."): their count in a table goes up."""
GOT_SCORED = re.compile(r"^\W*(?:I\s+)?got\s+\d+\s*(?:/|out\s+of)\s*\d+\b[^?]*$", re.IGNORECASE)
"""Told a score ("Got 44 out of 60 in Physics today."): a row of a log."""


def told_answer(request: str) -> str | None:
    """The yes or no the request tells someone gave, if it tells one."""
    if found := TOLD_ANSWER.match(request):
        return found["answer"].lower()
    if found := TOLD_COMING.match(request):
        return "no" if found["not"] else "yes"
    return None
PRICE_TOLD = re.compile(r"^\W*(?:the\s+|my\s+|our\s+)?(?P<thing>(?!(?:I|we|it|that|this)\b)[\w'’ &-]{2,40}?)\s+(?:has\s+|have\s+)?"
                        r"(?:gone\s+(?:up|down)\s+to|went\s+(?:up|down)\s+to|(?:is|are)\s+now|costs?\s+now|now\s+costs?|"
                        r"(?:has|have)\s+(?:risen|dropped|fallen|increased|decreased)\s+to)\s+(?P<amount>[£$€]\s?\d[\d,]*(?:\.\d+)?)"
                        r"(?:\s+(?:a|per)\s+(?:month|year|week))?\s*[.!]?\s*$", re.IGNORECASE)
"""Told a thing's price changed ("The home insurance has gone up to £312."): its line's amount."""
DATE_TOLD = re.compile(r"^\W*(?:I(?:'ve|’ve|\s+have)\s+(?:just\s+)?(?:renewed|extended|moved|changed)\s+(?:the\s+|my\s+|our\s+)?"
                       r"(?P<renewed>[\w'’ -]{2,40}?)\s*[,;]\s*(?:and\s+)?(?:it|its|it's)\s+|(?:the\s+|my\s+|our\s+)?(?P<thing>[\w'’ -]{2,40}?)\s+)"
                       r"(?:now\s+)?(?:expires|renews|ends|runs\s+out|is\s+due|due)\s+(?:now\s+)?(?:on\s+)?"
                       r"(?P<date>\d{1,2}(?:st|nd|rd|th)?\s+[A-Z][a-z]+(?:\s+\d{4})?|\d{4}-\d\d-\d\d)(?:\s+now)?\s*[.!]?\s*$",
                       re.IGNORECASE)
"""Told a thing's day changed ("I've renewed my railcard, it now expires 19 December 2027."): its line's date."""
VALUE_NOW = re.compile(r"^\W*(?:the\s+|my\s+|our\s+)?(?P<thing>(?!(?:I|we|it|that|this|there|he|she|they|you)\b)[\w'’ -]{2,40}?)\s+"
                       r"(?:is|are)\s+now\s+(?:an?\s+)?(?P<new>(?![£$€])[^.!?]{1,40}?)\s*[.!]?\s*$", re.IGNORECASE)
"""Told what a thing is now ("Leo's shoes are now a 13."): its labelled line's value."""
MOVED_TO = re.compile(r"^\s*(?:I(?:'ve|’ve|\s+have)?|we(?:'ve|’ve|\s+have)?)\s+(?:just\s+)?(?:moved|put)\s+(?:the|my|our)\s+"
                      r"(?P<thing>[a-z][\w'’ -]{1,40}?)\s+(?:to|in|into)\s+(?P<new>(?:the|my|our)\s+[^.!?\d£$€]{1,40}?)\s*[.!]?\s*$",
                      re.IGNORECASE)
"""Told where a thing is kept now ("I've moved the car spare to the safe."): its labelled line's value."""
TOLD_ADDED = re.compile(r"^\s*(?:I(?:'ve|’ve|\s+have)?|we(?:'ve|’ve|\s+have)?)\s+(?:just\s+)?(?:added|put|paid|saved|moved|"
                        r"transferred)\s+(?:in\s+)?(?:another\s+|an\s+extra\s+)?[£$€]\s?\d|"
                        r"^\s*(?:please\s+)?(?:add|put|pop)\s+(?:another\s+|an\s+extra\s+)?[£$€]\s?\d[\d,.]*\s+(?:to|in|into|on)\b|"
                        r"^\s*(?:I(?:'ve|’ve|\s+have)?|we(?:'ve|’ve|\s+have)?)\s+(?:just\s+)?(?:spent|used|took)\s+[£$€]\s?\d[\d,.]*\s+"
                        r"(?:of|from|off)\s+(?:the|my|our)\b",
                        re.IGNORECASE)
"""Told money went into a thing a line counts ("I added £50 to the bike fund.", "Add £5 to Maya's
savings."), or was spent of one ("I spent £20 of the John Lewis card."): the line is updated."""
REMIND_SOMEONE = re.compile(r"^\s+(?!(?:me|us|myself)\b)(?:[A-Z][\w'-]*|(?:my|our)\s+\w+|him|her|them)\b")
"""A reminder for someone else ("Remind Tom that his invoice is overdue") is a message to them."""
INSTEAD = re.compile(r"\binstead\s+of\b|\bin\s+place\s+of\b", re.IGNORECASE)
OFF_A_LIST = re.compile(r"\b(?:from|off)\s+(?:my|our|the)\s+[\w-]+(?:\s+(?:list|file|notes?))?\s*[.!?]?\s*$",
                        re.IGNORECASE)
LATER_ACTION = re.compile(
    r"\b(?:and|then)\s+(?:also\s+)?(?P<verb>write|save|put|store|send|email|e-mail|text|add(?!\s+up\b)|append|"
    r"copy|note|record|forward|message|tell(?!\s+(?:me|us)\b))\b",
    re.IGNORECASE,
)
"""An action asked for after a lookup: "Find Ana's number in the KB and save it to ana.txt"."""


READ_TOOLS = frozenset({"read_file", "list_dir", "search_files", "kb_search", "kb_read"})
ASK_USER = "ask_user"
MAY_PRECEDE_AN_ACTION = READ_TOOLS | {ASK_USER}


CHANGES_SOMETHING_TOO = frozenset({"remember"})
"""Read-only as far as the gate goes, but it keeps a fact: "I've saved that" is true after it."""


def something_acted(passes: Iterable[PassTrace], registry: Registry) -> bool:
    """Whether any call that can change something ran in the turn."""
    for record in passes:
        for call in record.calls:
            tool = registry.get(call.name)
            if call.fate == "ran" and tool is not None and (
                tool.risk != "read_only" or tool.name in CHANGES_SOMETHING_TOO
            ):
                return True
    return False


NOT_TRIED = frozenset({"invalid", "refused_guess", "capped", "ask_first"})
"""Fates of a call sent back before anything ran or was decided about it: given the room number
its email had guessed, the 1.5B answered "The room number is 12B." and sent nothing."""


def something_tried(
    passes: Iterable[PassTrace], registry: Registry, names: frozenset[str] = frozenset(),
    fetch_counts: bool = True,
) -> bool:
    """Whether a call that can change something (or one of `names`) was proposed, whatever its
    fate, except one sent back unrun for its shape (NOT_TRIED): the 1.5B, told a send_message
    lacked its text, answered with the birthday wishes instead. `fetch_counts=False`: a web
    fetch, which only reads a page, does not count."""
    for record in passes:
        for call in record.calls:
            tool = registry.get(call.name)
            if call.fate in NOT_TRIED:
                continue
            if call.name in names or (tool is not None and (
                (tool.risk != "read_only" and (fetch_counts or tool.risk != "egress"))
                or tool.name in CHANGES_SOMETHING_TOO
            )):
                return True
    return False


NAMED_FILE = re.compile(r"(?<![\w/.@-])[\w-]+\.[a-z][a-z0-9]{0,4}\b(?!\.?[\w/@-])", re.IGNORECASE)
"""A file name the request names ("meeting.txt"), not an address's or a site's ("mail.example")."""
VERB_TOOL_WORDS = {
    "text": "message", "message": "message", "email": "email", "e-mail": "email", "reply": "email",
    "forward": "email", "add": "file", "put": "file", "append": "file", "insert": "file", "remove": "file",
    "take": "file", "cross": "file", "tick": "file", "mark": "file", "write": "file",
    "make": "file", "create": "file", "save": "file", "store": "file", "note": "file", "edit": "file",
    "fix": "file", "replace": "file", "overwrite": "file", "rename": "file", "update": "file", "change": "file",
    "move": "file", "swap": "file", "switch": "file", "run": "command",
    "tell": "message", "let": "message", "remember": "remember",
}
"""The request's first verb -> a word in the names or descriptions of the tools that do it. Not
"delete": naming edit_file sent the 1.5B to edit old.log; a file to delete is run_command's
(DELETE_A_FILE), and any other verb on a file the request names is the file tools'."""


DELETE_A_FILE = re.compile(
    r"^\W*(?:please\s+)?delete\s+(?:the\s+)?(?:file\s+|folder\s+|directory\s+)?"
    r"[\w./-]+(?:\.[a-z0-9]{1,5}\b|\s+(?:folder|directory|dir)\b)(?!.*\bfrom\b)",
    re.IGNORECASE)
""""Delete old.log", "Delete the tmp folder": a file or folder to remove, which run_command does;
not "delete the meeting from calendar.txt"."""


DAY_TAKEN = re.compile(r"\W*(?:\w+\W+){0,3}?(?P<who>I|(?!(?:Who|What|Which|Whose)\b)(?-i:[A-Z])[\w-]*)(?:'s|'m|\s+is|\s+am|"
                       r"\s+will\s+be|'ll\s+be)\s+(?:now\s+)?(?:doing|taking|covering)\s+(?:the\s+)?"
                       r"(?P<day>mon|tue|wed|thu|fri|sat|sun)[a-z]*\b", re.IGNORECASE)
"""Told who takes a weekday of a rota ("Olu's doing Monday now and I'm doing Thursday")."""


SAVE_A_NOTE = re.compile(r"\s+(?:a\s+)?note\s+(?:that|of|about|saying)\b", re.IGNORECASE)
"""A note saved, added to the notes: not a new file (the 1.5B wrote "We picked Cornwall." over notes.txt)."""


def asked_action(request: str) -> str:
    """The verb of the action the request asks for ("" if it asks for none): its first word, or
    one after "and" / "then"."""
    if found := ACTION_REQUEST.match(request):
        verb = found.group("verb").lower()
        if verb.startswith(("drop ", "shoot ")):  # "Drop Sam a line", "Shoot Tom an email"
            return "email" if "mail" in verb else "message"
        if verb.startswith(("make ", "write ")):  # "Make a note that …", "Write down …"
            return "note"
        if verb in ("save", "store") and SAVE_A_NOTE.match(request, found.end("verb")):  # "Save a note that we picked Cornwall."
            return "note"
        if verb.startswith("take ") and verb.endswith(" out"):  # "Take one portion of bolognese out": its count changes
            return "update"
        if verb == "cancel" and OFF_A_LIST.search(request):  # "Cancel Netflix from my subscriptions": its line goes
            return "remove"
        if verb in ("add", "put") and INSTEAD.search(request):  # "Add pasta bake on Sunday instead of soup"
            return "swap"
        if verb == "remind" and REMIND_SOMEONE.search(request[found.end("verb"):]):  # "Remind Tom that …"
            return "message"
        return SAID_PLAINLY.get(verb.split()[0], verb.split()[0])
    if TOLD_CANCELLED.match(request) or SOMEONE_STOPPED.match(request) or TAKEN_BACK.match(request) or GAVE_BACK.match(request):
        return "remove"
    if BOUGHT_FOR.match(request):
        return "mark"
    if TOLD_DONE.match(request) or told_answer(request):
        return "mark"
    if (TOLD_ADDED.match(request) or TOLD_MORE.match(request) or SCORED_MORE.match(request) or PRICE_TOLD.match(request)
            or VALUE_NOW.match(request) or MOVED_TO.match(request)
            or DATE_TOLD.match(request) and "now" in request.lower()
            or DAY_TAKEN.match(request) and "?" not in request):
        return "update"
    if (TOLD_LOGGED.match(request) or TOLD_LOGGED_IN_WORDS.match(request) or TOLD_READING.match(request)
            or GOT_SCORED.match(request)):
        return "add"
    later = LATER_ACTION.search(request)
    return later.group("verb").lower() if later else ""


def tools_for(request: str, registry: Registry) -> tuple[str, ...]:
    """The tools that can change something and whose name (else description) has the verb's word."""
    return _tools_for_verb(asked_action(request), request, registry)


NOT_BY_EMAIL = re.compile(r"\bnot\s+(?:by\s+|an?\s+|via\s+)?e-?mail\w*", re.IGNORECASE)
""""by text, not email": the email named only to be ruled out."""


def _tools_for_verb(verb: str, request: str, registry: Registry) -> tuple[str, ...]:
    by_email = re.search(r"\be-?mail\b", NOT_BY_EMAIL.sub(" ", request), re.IGNORECASE) is not None
    if verb == "send":
        verb = "email" if by_email else "text"
    elif verb in ("tell", "let") and by_email:
        verb = "email"  # "Can you tell Priya by email that …": the 1.5B was held to send_message
    word = "command" if verb == "delete" and DELETE_A_FILE.search(request) else VERB_TOOL_WORDS.get(verb, "")
    if not word and verb and NAMED_FILE.search(request):
        word = "file"  # "Set the timeout in settings.ini to 45"
    acting = [t for t in registry if t.risk != "read_only" or t.name in CHANGES_SOMETHING_TOO] if word else []
    by_name = tuple(t.name for t in acting if word in t.name)
    return by_name or tuple(t.name for t in acting if word in t.description.lower())


SECOND_ERRAND = re.compile(LATER_ACTION.pattern + r"(?:[^.,;:!?'\"]|(?<=\w)[.'](?=\w))*", re.IGNORECASE)
NOT_AN_ERRAND_OF_ITS_OWN = frozenset({"tell"})
""""Email Tom and tell him the kickoff moved": what to tell is the email's content."""


def undone_errand(request: str, passes: list[PassTrace], registry: Registry) -> tuple[str, tuple[str, ...]] | None:
    """(the request's words for it, its tools): an errand of the request, done by other tools,
    that nothing tried while another errand of it was. Asked to "Text Petra and email Tom the
    same note", the 1.5B texted Petra and answered "Message sent to Petra Novak."; it emailed Tom
    and answered too."""
    tried = {c.name for p in passes for c in p.calls if c.fate not in NOT_TRIED}
    errands = _errands(request, registry)
    begun = {name for _, tools in errands if tried & set(tools) for name in tools}
    if not begun:
        return None
    return next(((words, tools) for words, tools in errands if not set(tools) & (tried | begun)), None)


def _errands(request: str, registry: Registry) -> list[tuple[str, tuple[str, ...]]]:
    """(its words, its tools) of each errand an action request asks for, the first one first."""
    if not ACTION_REQUEST.match(request):
        return []
    later = [m for m in SECOND_ERRAND.finditer(request) if m.group("verb").lower() not in NOT_AN_ERRAND_OF_ITS_OWN]
    first = request[:later[0].start()] if later else request
    errands = [(first_sentence(first).rstrip(" ,.;:"), _tools_for_verb(asked_action(request), request, registry))]
    errands += [(m.group(0).split(maxsplit=1)[1], _tools_for_verb(m.group("verb").lower(), m.group(0), registry))
                for m in later]
    return [(words, tools) for words, tools in errands if tools]


def only_messages_asked(request: str, registry: Registry) -> tuple[str, ...]:
    """The messaging tools, when every errand the request asks for is a message ("Text my manager
    that I'm sick today. My contacts are in contacts.md."); else ()."""
    tools = {name for _, names in _errands(request, registry) for name in names}
    messaging = {t.name for t in registry if t.risk == "messaging"}
    return tuple(sorted(tools)) if tools and tools <= messaging else ()


def first_sentence(answer: str) -> str:
    sentence = re.split(r"(?<=[.!?])\s+|\n", answer.strip(), maxsplit=1)[0]
    return sentence[:120]



MAX_IDLE_FORCED_PASSES = 3


def forced_call(must_call: tuple[str, ...], passes: list[PassTrace], registry: Registry) -> tuple[str, ...]:
    """The tools the coming pass must call one of: `must_call` until a call that can change
    something was proposed (whatever became of it), or until MAX_IDLE_FORCED_PASSES of the forced
    `passes` got nothing: a read that ran or a question answered is progress and uses none (sent
    back to email the total, the 1.5B read budget.csv on its third forced pass, then answered the
    total instead of sending it). Asking for the plumber's address does not end it: the email
    still has to be tried; a calculate call the pass was sent to make ends it too."""
    idle = sum(1 for p in passes if not any(c.fate in ("ran", "asked") for c in p.calls))
    doers = frozenset(must_call) - MAY_PRECEDE_AN_ACTION
    if not must_call or idle >= MAX_IDLE_FORCED_PASSES or something_tried(passes, registry, doers):
        return ()
    return must_call
