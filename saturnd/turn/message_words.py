"""What a message says, put right in place: a message that tells of sending it instead of saying
it, one that opens with the request itself, one that leaves out what the request says to say, one that turns the person's own words to the recipient, one asked to carry a document that
holds too little of it, and a blank left for the sender to fill. Each returns (the arguments,
the note) or None; put_right.content_put_right calls them, and the call is then reviewed again.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from saturnd.tools.word_match import stems
from saturnd.turn import prompts
from saturnd.turn.look_first import MESSAGED, people_messaged
from saturnd.turn.overwrite import CONTAINERS
from saturnd.turn.retrieval import KB_SOURCE

if TYPE_CHECKING:
    from saturnd.turn.review import GateContext


ABOUT_SENDING = re.compile(
    r"^\s*(?:(?:sure|ok(?:ay)?|of course|certainly|alright)[,!.]?\s+)?"
    r"I(?:'ll|’ll|\s+will|\s+am\s+going\s+to|'m\s+going\s+to)\s+(?:send|e-?mail|text|message|let|tell)\b"
    r"(?P<about>.*?)\b(?:(?:to\s+say|saying|to\s+tell\s+(?:him|her|them)|know(?:\s+that)?|that)\s+(?P<message>\S.*)|"
    r"to\s+ask\s+(?P<ask>(?:for|about|if|whether)\s+\S.*?)[.!]?)$",
    re.IGNORECASE | re.DOTALL,
)
"""A message that tells of passing it on ("Sure, I'll let Uncle Ray know you'll bring the wine on
Saturday."): Saturn's reply to the person, where "you" is the person who sends it."""
SENDING_OPENING = re.compile(r"^\s*(?:(?:sure|ok(?:ay)?|of course|certainly|alright)[,!.]?\s+)?"
                             r"I(?:'ll|’ll|\s+will|\s+am\s+going\s+to|'m\s+going\s+to)\s+(?:send|e-?mail|text|message)\b",
                             re.IGNORECASE)
"""A body that tells of sending itself, with no words of the message after ("I'll send a text message to chase the invoice.")."""
REPORTED_SENDING = re.compile(
    r"^\s*(?:I(?:'ve|\s+have)?\s+)?(?:texted|messaged|emailed|e-mailed|told|asked)\s+(?P<about>[\w'’]+(?:\s+[A-Z][\w'’]*)?)"
    r"\s+(?:to\s+(?P<asked>\S.*)|that\s+(?P<message>\S.*))$",
    re.IGNORECASE | re.DOTALL,
)
"""A message that reports itself sent ("Texted Dan to skip next week."): asked to "Text the window
cleaner to skip next week", the 1.5B sent Dan that report."""
THE_SENDER = (
    (re.compile(r"\byou(?:'re|’re| are)\b", re.IGNORECASE), "I'm"),
    (re.compile(r"\byou(?:'ll|’ll| will)\b", re.IGNORECASE), "I'll"),
    (re.compile(r"\byou(?:'ve|’ve| have)\b", re.IGNORECASE), "I've"),
    (re.compile(r"\byou(?:'d|’d| would)\b", re.IGNORECASE), "I'd"),
    (re.compile(r"\byou were\b", re.IGNORECASE), "I was"),
    (re.compile(r"\byours\b", re.IGNORECASE), "mine"),
    (re.compile(r"\byour\b", re.IGNORECASE), "my"),
    (re.compile(r"\byourself\b", re.IGNORECASE), "myself"),
    (re.compile(r"(?:^|(?<=\bthat )|(?<=\band ))you\b", re.IGNORECASE), "I"),
    (re.compile(r"\byou\b", re.IGNORECASE), "me"),
)
"""The person's "you" in Saturn's reply, as the person says it in their own message."""


def message_itself(arguments: dict[str, Any], request: str) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message whose body tells of sending it to its recipient
    rather than saying it: "I will send an email to Dave Kerr at dave@kerrplumbing.example to say
    Tuesday morning works for the boiler valve." goes as "Tuesday morning works for the boiler
    valve.", and "Sure, I'll let Uncle Ray know you'll bring the wine" as "I'll bring the wine".
    Only where that opening names the recipient (the address, the person the request messages, or
    a name the request does not say: the landlord's "Mr Hughes"): "I'll send you the files that you
    asked for" is a message."""
    field = "body" if "body" in arguments else "text"
    body = str(arguments.get(field, ""))
    found = ABOUT_SENDING.match(body) or REPORTED_SENDING.match(body)
    to = str(arguments.get("to", "")).strip().lower()
    if found is None and SENDING_OPENING.match(body) and (words := message_asked(request)):
        return {**arguments, field: words}, prompts.MESSAGE_PUT_RIGHT.format(message=words)  # "I'll send a text … to chase"
    if found is None or not to:
        return None
    about = found.group("about").lower()
    asked = found.groupdict().get("asked")
    if found.re is REPORTED_SENDING:  # the report of the request itself ("to skip next week")
        reported = " ".join(_plain_words(asked or found.group("message"))[:3])
        if not reported or reported not in " ".join(_plain_words(request)):
            return None
    elif to not in about and not any(re.search(rf"\b{re.escape(p)}\b", about) for p in people_messaged(request)) and not (
            _name_not_in_the_request(found.group("about"), request)):
        return None
    if found.groupdict().get("ask"):  # "… to ask for a repeat of Atorvastatin."
        message = f"Could I ask {found.group('ask').strip()}?"
    else:
        message = f"Please {asked.strip()}" if asked else found.group("message").strip()
    for you, sender in THE_SENDER:
        message = you.sub(sender, message)
    message = message[0].upper() + message[1:]
    return {**arguments, field: message}, prompts.MESSAGE_PUT_RIGHT.format(message=message)


def _name_not_in_the_request(about: str, request: str) -> bool:
    """Whether the one the message tells of passing it on to is a name the request does not say
    ("I'll let Mr Hughes know …" of "Tell the landlord …": the landlord's name, from the user's files)."""
    names = re.findall(r"\b(?:(?:Mr|Mrs|Ms|Miss|Dr)\.?\s+)?[A-Z][a-z]+", about.strip())
    return bool(names) and not any(re.search(rf"\b{re.escape(name)}\b", request) for name in names)


INTRODUCED = re.compile(r"^\s*(?:that|to\s+say|saying)\s+", re.IGNORECASE)


def without_the_request(arguments: dict[str, Any], request: str) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message that opens with the request's own instruction: asked
    "Text Jo happy birthday from me.", the 1.5B texted Jo "Text Jo happy birthday from me." It goes
    as what follows the person's name: "Happy birthday from me."."""
    field = "body" if "body" in arguments else "text"
    body = str(arguments.get(field, "")).strip()
    opening = MESSAGED.match(request.strip())
    if opening is None or not body.lower().startswith(opening.group(0).lower()):
        return None
    message = INTRODUCED.sub("", body[len(opening.group(0)):].strip(" ,:"))
    if not re.search(r"\w", message):
        return None
    message = message[0].upper() + message[1:]
    return {**arguments, field: message}, prompts.REQUEST_PUT_RIGHT.format(message=message)


SENDERS_OWN = re.compile(
    r"^\s*(?:that\s+|to\s+say\s+|saying\s+)?(?P<said>(?:I|I'm|I’m|I'll|I’ll|I've|I’ve|I'd|we|we're|we'll|we've|my|our)\b.*)$",
    re.IGNORECASE | re.DOTALL,
)
THEM = re.compile(r"\b(?:him|her|them)\b", re.IGNORECASE)
OTHER_NAME = re.compile(
    r"(?<=\s)(?!I\b|I'|I’|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b|(?:Jan|Febr)uary\b|March\b|April\b|May\b|"
    r"June?\b|July\b|August\b|(?:Septem|Octo|Novem|Decem)ber\b)[A-Z]")
"""A name past the first word: "her" might be someone else ("I saw Jo and gave her the keys")."""
VOCATIVE = re.compile(r"^\s*(?:hi|hey|hello|dear)?\s*[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?\s*[,!:]\s*", re.IGNORECASE)


def in_the_senders_words(arguments: dict[str, Any], request: str) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message that gives back the request's own message as said to
    its recipient: asked "Text Tom I'm running ten minutes late.", the 1.5B texted "Tom, you're
    running ten minutes late." It goes in the person's words, as the request gives them; the
    recipient named where the request says "her", as "you"."""
    field = "body" if "body" in arguments else "text"
    body = str(arguments.get(field, ""))
    for person in people_messaged(request):
        after = re.search(rf"\b{re.escape(person)}\b(?:['’]s\s+[a-z]+\b)?(?P<rest>.*)$", request, re.IGNORECASE | re.DOTALL)
        own = SENDERS_OWN.match(after.group("rest")) if after else None
        if own is None:
            continue
        said = own.group("said").strip()
        swapped = VOCATIVE.sub("", body, count=1)
        for you, sender in THE_SENDER:
            swapped = you.sub(sender, swapped)
        named = re.sub(rf"\b{re.escape(person)}\b(?!['’])", "xperson", body, flags=re.IGNORECASE)
        if (swapped != body and _plain_words(swapped) == _plain_words(said)
                or _as_one(body) == _as_one(said) and _plain_words(body) != _plain_words(said)) and body.strip() != said:
            said = said[0].upper() + said[1:]  # "we'll get there" texted as "I'll get there"
        elif (named != body and _plain_words(named) == _plain_words(THEM.sub("xperson", said))
              or _plain_words(body) == _plain_words(said) and THEM.search(said) and not OTHER_NAME.search(said)):
            # "Tell Mum I'll pick her up" texted as "I'll pick Mum up", or as it is: to her, it is "you"
            said = THEM.sub("you", said[0].upper() + said[1:])
        else:
            continue
        return {**arguments, field: said}, prompts.OWN_WORDS_PUT_RIGHT.format(message=said)
    return None


SAY_THAT = re.compile(r"^\s*(?:an?\s+(?:quick\s+)?(?:text|message|note|line|email|e-mail)\s+)?"  # "Send Sam a text saying …"
                      r"(?:(?:that|to\s+say(?:\s+that)?|saying(?:\s+that)?|know(?:\s+that)?)\s+"
                      r"|(?=(?:I|I'm|I'll|I've|I'd|we|we're|we'll|we've)\s))(?P<said>\S.*?)\s*$",  # "Tell Lena I'll send it"
                      re.IGNORECASE | re.DOTALL)
ASKED_TO = re.compile(r"^\s*to\s+(?!(?:say|tell|let|ask|know|remind|chase|thank|wish|invite|congratulate|warn|apologi[sz]e|"
                      r"confirm|check|update|nudge|welcome|cancel|book)\b)(?P<said>[a-z]\S*.*?)\s*$", re.IGNORECASE | re.DOTALL)
"""What the person is asked to do ("Text Tom to feed Pepper while we're in Lisbon"): "Please …"; not
what the user texts them for ("to chase the invoice": no "Please chase the invoice.")."""
REMIND_THAT = re.compile(r"^\s*to\s+remind\s+(?:him|her|them)\s+(?:that\s+)?(?P<said>\S.*?)\s*$",
                         re.IGNORECASE | re.DOTALL)
"""A reminder to send ("Text Hannah to remind her it's at mine next week"): "Just a reminder: …"."""
CHASE_UP = re.compile(r"^\s*to\s+chase\s+(?:up\s+)?(?P<said>\S.*?)\s*$", re.IGNORECASE | re.DOTALL)
"""A thing to chase ("Text Lena to chase the invoice"): "Just chasing up the invoice."."""
THANK_FOR = re.compile(r"^\s*to\s+(?:say\s+)?thank(?:s|\s+(?:him|her|them|you))?\s+for\s+(?P<said>\S.*?)\s*$", re.IGNORECASE | re.DOTALL)
"""Thanks to send ("Text Gran to thank her for the flowers"): "Thank you for the flowers."."""
GREETING = re.compile(r"^\s*(?P<said>(?:happy|merry|congratulations|congrats|good\s+luck|get\s+well|well\s+done|bon\s+voyage|"
                      r"welcome\s+home|safe\s+travels|season'?s\s+greetings)\b.*?)\s*$", re.IGNORECASE | re.DOTALL)
"""Words of greeting to send ("Text Aunt Rose happy birthday from all of us"): "Happy birthday from all of us!"."""
ABOUT_THEM = re.compile(r"\b(?:he|she|him|her|his|hers|they|them|their|theirs|he's|she's|they're)\b", re.IGNORECASE)
HELD_SHARE = 0.5
NAMED = re.compile(r"(?<![.!?]\s)\b[A-Z][a-z]+\b")
"""A name within the words to say, mid-request (not one opening a sentence of them)."""


def with_the_words_asked(arguments: dict[str, Any], request: str) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message that leaves out most of what the request says to
    say: asked to "Text Dave that the car's making a funny noise", the 1.5B texted Dave to check
    the tyres; asked to "Text Tom to feed Pepper while we're in Lisbon", it texted the dog's
    feeding and worming from the notes, and no Lisbon; so too a message carrying the recipient's
    own number, or one without what the words are about ("The Crown is now 6pm." for "that load-in at
    the Crown is 6pm"). It says the request's words instead ("Please
    feed Pepper while we're in Lisbon."), when they speak of no third person (whose "she" would be
    the recipient's "you")."""
    field = "body" if "body" in arguments else "text"
    body = str(arguments.get(field, ""))
    for person, asked in _words_asked(request):
        said = asked.group("said")
        words = stems(said)
        named = {name.lower() for name in NAMED.findall(said)} - {person}
        lost_name = any(not re.search(rf"\b{re.escape(name)}\b", body, re.IGNORECASE) for name in named)
        # "Sophie's mum moved Thursday's lesson": the recipient told of, not told (not "Sam, the car …")
        opens_with_them = re.match(rf"\W*{re.escape(person)}(?:['’]s\s+[a-z]+)?\b(?!\s*[,!:])", body, re.IGNORECASE) is not None
        subject = next((stems(word) for word in re.findall(r"[\w'-]+", said) if stems(word)), set())
        lost_subject = bool(subject) and not subject & stems(body)  # "The Crown is now 6pm." of "load-in at the Crown is 6pm"
        if not words or (len(words & stems(body)) >= HELD_SHARE * len(words) and not lost_name and not opens_with_them
                         and not lost_subject and not _turned_round(said, body) and not own_address_carried(arguments)):
            return None  # "Maya is off sick today" sent as "I am off sick today": whose news it is lost
        said = _as_a_sentence(asked)
        return {**arguments, field: said}, prompts.WORDS_ASKED_PUT_RIGHT.format(message=said)
    return None


def _words_asked(request: str) -> list[tuple[str, re.Match[str]]]:
    """(the person, the words the request says to tell them) for each person messaged ("Sophie" or
    "Sophie's mum"), where the words speak of no third person."""
    found = []
    for person in people_messaged(request):
        after = re.search(rf"\b{re.escape(person)}\b(?:['’]s\s+[a-z]+\b)?(?P<rest>.*)$", request, re.IGNORECASE | re.DOTALL)
        rest = after.group("rest") if after else ""
        asked = (SAY_THAT.match(rest) or REMIND_THAT.match(rest) or CHASE_UP.match(rest) or THANK_FOR.match(rest)
                 or ASKED_TO.match(rest) or GREETING.match(rest)) if after else None
        if asked is not None and not ABOUT_THEM.search(asked.group("said")):
            found.append((person, asked))
    return found


def message_asked(request: str) -> str | None:
    """The words the request says to send its one recipient, as a sentence ("Text Sophie's mum that
    Thursday's lesson is moved to 5pm": "Thursday's lesson is moved to 5pm.")."""
    asked = _words_asked(request)
    return _as_a_sentence(asked[0][1]) if len(asked) == 1 and len(people_messaged(request)) == 1 else None


def _as_a_sentence(asked: re.Match[str]) -> str:
    said = asked.group("said")
    opened = {ASKED_TO: f"Please {said}", REMIND_THAT: f"Just a reminder{' ' if said.startswith('about ') else ': '}{said}",
              CHASE_UP: f"Just chasing up {said}", THANK_FOR: f"Thank you for {said}"}.get(asked.re, said[0].upper() + said[1:])
    return opened + ("" if said[-1] in ".!?" else "!" if asked.re is GREETING else ".")


def without_its_own_address(arguments: dict[str, Any], request: str) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message that carries the address it goes to, where the
    request gives no words to say instead: the clause holding it and what follows it in its
    sentence go ("… Thursday at 10:00, and Petra's contact information is petra.novak@…, +44 …")."""
    to = own_address_carried(arguments)
    field = "body" if "body" in arguments else "text"
    if to is None or _words_asked(request):
        return None
    kept = []
    for sentence in re.split(r"(?<=[.!?])\s+", str(arguments.get(field, ""))):
        clauses = re.split(r",\s+(?:and\s+|but\s+)?", sentence)
        at = next((i for i, clause in enumerate(clauses) if own_address_carried({"to": to, field: clause})), None)
        if at is None:
            kept.append(sentence)
        elif at > 0:
            kept.append(", ".join(clauses[:at]).rstrip(" .!?") + ".")
    text = " ".join(kept).strip()
    if not text or own_address_carried({"to": to, field: text}):
        return None
    return {**arguments, field: text}, prompts.OWN_ADDRESS_PUT_RIGHT.format(to=to)


def own_address_carried(arguments: dict[str, Any], skip: frozenset[str] = frozenset()) -> str | None:
    """The number or address a message goes to, when its text carries it too: the 1.5B texted Sam
    "Sam, 07700 900 456 (Mon, Wed, Fri), no walk …", the contacts' line written into the message,
    and sent back, wrote it so again."""
    to = str(arguments.get("to", "")).strip()
    plain = re.sub(r"[\s()+-]", "", to).lower()
    carried = " ".join(str(v) for k, v in arguments.items() if k not in skip and k != "to" and isinstance(v, str))
    return to if len(plain) >= 6 and plain in re.sub(r"[\s()+-]", "", carried).lower() else None


QUESTION_ASKED = re.compile(
    r"\b(?:ask|check|find\s+out)(?:\s+(?:with\s+)?(?:him|her|them|(?-i:[A-Z])[\w'-]*))?\s+"
    r"(?P<question>(?:when|what|where|whether|if|how|which|who|why)\b[^.!?]*|"
    r"(?:that\s+)?(?:he|she|they|he's|she's|they're)\b[^.!?]*)", re.IGNORECASE)
"""A question for the message to put: "ask when he needs my receipts", "to check he's still OK for
Monday" (whether he is)."""
MESSAGING_BEFORE = re.compile(r"\b(?:text|e-?mail|message|ring|call|phone|write\s+to|drop|remind)\b", re.IGNORECASE)
"""A check or a finding out the message is to do comes after its errand: "Text Kev to check he's
still OK"."""
TO_THE_RECIPIENT = {"he": "you", "she": "you", "they": "you", "his": "your", "their": "your", "him": "you", "them": "you",
                    "he's": "you're", "she's": "you're", "they're": "you're", "himself": "yourself", "herself": "yourself"}
AS_YOU_SAY_IT = {"is": "are", "was": "were", "has": "have", "does": "do", "needs": "need", "wants": "want",
                 "can": "can", "will": "will", "would": "would", "could": "could", "should": "should"}
OBJECT_AFTER = frozenset({"to", "for", "at", "on", "about", "with", "up", "back", "in", "know"})


def the_question_asked(arguments: dict[str, Any], request: str) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message asked to put a question ("Email Greg and ask when he
    needs my receipts") that asks none: the 1.5B emailed "I need your receipts. Please send them to
    me"; or one that greets another the request names ("Leo, can you please take Gran to football on
    Saturday?" to Gran). It asks the request's question, turned to its recipient: "Could you let me
    know when you need my receipts?"."""
    field = "body" if "body" in arguments else "text"
    body = str(arguments.get(field, ""))
    asked = QUESTION_ASKED.search(request)
    people = people_messaged(request)
    opening = VOCATIVE.match(body)
    greets = opening.group(0).strip(" ,!:").split()[-1] if opening else ""
    # "Leo, can you please take Gran to football?" sent to Gran: the two turned round
    turned = bool(greets) and greets.lower() not in people and re.search(rf"\b{re.escape(greets)}\b", request) is not None
    if asked is None or "?" in body and not turned or not people:
        return None
    if not asked.group(0).lower().startswith("ask") and not MESSAGING_BEFORE.search(request[:asked.start()]):
        return None  # "Find out when the kickoff is … and email the time to Petra": Saturn finds out, Petra is told
    question = asked.group("question").strip()
    if not re.match(r"(?:when|what|where|whether|if|how|which|who|why)\b", question, re.IGNORECASE):
        question = "if " + re.sub(r"^that\s+", "", question)  # "check he's still OK": if he is
    question = f"Could you let me know {_to_the_recipient(question)}?"
    return {**arguments, field: question}, prompts.QUESTION_PUT_RIGHT.format(message=question)


def _to_the_recipient(said: str) -> str:
    """The words with the recipient's "he", "his", "her" as "you", "your": "when he needs my
    receipts" as "when you need my receipts"."""
    words = said.split()
    for i, word in enumerate(words):
        core = word.rstrip(".,!?;:")
        lower, tail = core.lower(), word[len(core):]
        if lower == "her":
            after = words[i + 1].lower().rstrip(".,!?;:") if i + 1 < len(words) else ""
            turned = "you" if not after or tail or after in OBJECT_AFTER else "your"
        elif lower in TO_THE_RECIPIENT:
            turned = TO_THE_RECIPIENT[lower]
            if lower in ("he", "she") and i + 1 < len(words):
                after = words[i + 1].lower()
                words[i + 1] = AS_YOU_SAY_IT.get(after, after[:-1] if after.endswith("s") and not after.endswith("ss")
                                                 else after)
        else:
            continue
        words[i] = (turned.capitalize() if core[:1].isupper() else turned) + tail
    return " ".join(words)


REMINDED = re.compile(r"^\W*(?:please\s+)?remind\s+(?:my\s+|our\s+)?[\w'-]+\s+(?P<how>that|about|to|of)\s+(?P<rest>.+?)\s*[.!]?$",
                      re.IGNORECASE | re.DOTALL)
REMIND_GARBLED = re.compile(r"\bremind\s+(?:you|him|her|them)\b", re.IGNORECASE)


def as_a_reminder(arguments: dict[str, Any], request: str) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a reminder that tells its recipient to remind themselves:
    asked "Remind Mia about the bins tonight.", the 1.5B texted "Mia, please remind you to go out
    and empty the bins tonight." It goes as "Just a reminder about the bins tonight."."""
    field = "body" if "body" in arguments else "text"
    asked = REMINDED.match(request)
    if asked is None or not REMIND_GARBLED.search(str(arguments.get(field, ""))):
        return None
    message = f"Just a reminder {asked.group('how').lower()} {_to_the_recipient(asked.group('rest'))}."
    return {**arguments, field: message}, prompts.WORDS_ASKED_PUT_RIGHT.format(message=message)


THIRD_PERSON = re.compile(r"\b(?:he|she|his|him|her|he's|she's)\b", re.IGNORECASE)


def to_its_recipient(arguments: dict[str, Any], request: str) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message that says the request's words about its recipient
    as they were said to Saturn: asked "Text Josh that it's his turn on the bathroom.", the 1.5B
    texted Josh "It's his turn on the bathroom." It goes as "It's your turn on the bathroom."."""
    field = "body" if "body" in arguments else "text"
    body = str(arguments.get(field, ""))
    people = people_messaged(request)
    if len(people) != 1 or not THIRD_PERSON.search(body):
        return None
    after = re.search(rf"\b{re.escape(people[0])}\b(?P<rest>.*)$", request, re.IGNORECASE | re.DOTALL)
    asked = SAY_THAT.match(after.group("rest")) if after else None
    if asked is None or NAMED.search(asked.group("said")) or not THIRD_PERSON.search(asked.group("said")):
        return None  # "that Jo left her keys": whose keys is not plain
    turned = _to_the_recipient(body)
    return ({**arguments, field: turned}, prompts.RECIPIENT_PUT_RIGHT.format(message=turned)) if turned != body else None


SENDERS_DOING = re.compile(r"\bI(?:'ve|’ve|\s+have)?\s+(?:already\s+|also\s+)?(?P<verb>tried|contacted|called|phoned|rung|rang|spoken|"
                           r"spoke|emailed|texted|checked|asked|reported|told)\b", re.IGNORECASE)
SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


def without_made_up_doings(arguments: dict[str, Any], request: str) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message with a sentence saying the user did a thing the
    request never says: asked to "Email my landlord that the boiler's stopped working", the 1.5B
    wrote "I have tried to contact the landlord to check if they can fix it, but they have not
    responded yet." The message goes without that sentence."""
    field = "body" if "body" in arguments else "text"
    body = str(arguments.get(field, ""))
    said = stems(request)
    made_up = [sentence.group(0) for sentence in SENTENCE.finditer(body)
               if (doing := SENDERS_DOING.search(sentence.group(0))) and not stems(doing["verb"]) & said]
    if not made_up:
        return None
    kept = body
    for sentence in made_up:
        kept = kept.replace(sentence, "", 1)
    kept = re.sub(r"[ \t]+\n", "\n", re.sub(r"  +", " ", kept)).strip()
    if not re.search(r"\w", kept):
        return None
    return {**arguments, field: kept}, prompts.MADE_UP_DOING_PUT_RIGHT.format(sentence=made_up[0].strip())


TURNED_ROUND = ((r"I(?:'m|’m|\s+am)", r"you(?:'re|’re|\s+are)"), (r"I(?:'ll|’ll|\s+will)", r"you(?:'ll|’ll|\s+will)"),
                (r"I(?:'ve|’ve|\s+have)", r"you(?:'ve|’ve|\s+have)"), (r"my", r"your"))


def _turned_round(said: str, body: str) -> bool:
    """Whether the message says the sender's words back to them: "I'm running 5 minutes late" sent
    as "I'm sorry to hear that you're running 5 minutes late" (Saturn's reply to the user, texted)."""
    for mine, yours in TURNED_ROUND:
        for found in re.finditer(rf"\b{mine}\s+([\w']+)", said, re.IGNORECASE):
            if re.search(rf"\b{yours}\s+{re.escape(found.group(1))}\b", body, re.IGNORECASE):
                return True
    return False


def _plain_words(text: str) -> list[str]:
    return re.findall(r"[\w']+", text.lower().replace("’", "'"))


WE_AS_I = {"we": "i", "we'll": "i'll", "we're": "i'm", "we've": "i've", "we'd": "i'd", "us": "me", "our": "my",
           "ours": "mine", "ourselves": "myself"}


def _as_one(text: str) -> list[str]:
    """The words with "we" as "I": the person's "we" is theirs to say, not the model's to make "I"."""
    return [WE_AS_I.get(word, word) for word in _plain_words(text)]


DOCUMENT_SENT = re.compile(
    r"^\W*(?:please\s+)?(?:e-?mail|text|send|message|forward)\s+(?:(?P<person>[\w'-]+(?:\s+[A-Z][\w'-]*)?)\s+)?"
    r"(?:the|my|our)\s+(?P<thing>[\w' -]+?)(?:\s+to\s+(?:my\s+|the\s+)?[\w'-]+(?:\s+[A-Z][\w'-]*)?)?\s*[.!]?\s*$",
    re.IGNORECASE,
)
""""Email Grandma the pancake recipe", "Send the week plan to Jo": the thing to send."""
MESSAGE_DOCUMENT_CHARS = 2_000
CARRIED_SHARE = 0.5


def with_the_document_asked(arguments: dict[str, Any], context: GateContext) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message that was to send one of the user's documents and
    holds too little of it: asked "Email Grandma the pancake recipe", the 1.5B wrote "Here's the
    pancake recipe I made for you. Enjoy!" and no recipe. The document (the one whose name or
    heading holds every word of the thing asked, from the working folder) goes after the body."""
    asked = DOCUMENT_SENT.match(context.request)
    if asked is None:
        return None
    wanted = stems(asked.group("thing")) - stems(CONTAINERS)  # "my shopping list" is shopping.txt
    field = "body" if "body" in arguments else "text"
    body = str(arguments.get(field, ""))
    for document in context.documents:
        if document.source.startswith(KB_SOURCE) or len(document.text) > MESSAGE_DOCUMENT_CHARS:
            continue
        heading = next((line for line in document.text.splitlines() if line.strip()), "")
        if not wanted or not wanted <= stems(f"{re.sub(r'[^a-z]', ' ', document.source.lower())} {heading}"):
            continue
        words = stems(document.text) - stems(heading)
        if not words or len(words & stems(body)) >= CARRIED_SHARE * len(words):
            return None
        carried = f"{body.rstrip()}\n\n{document.text.strip()}" if body.strip() else document.text.strip()
        return {**arguments, field: carried}, prompts.DOCUMENT_PUT_RIGHT.format(source=document.source)
    return None


BLANK = re.compile(
    r"\[(?:(?:your|my|the|recipient'?s?|sender'?s?)\s+)?(?:full\s+)?"
    r"(?:name|date|time|day|phone(?:\s+number)?|number|address|e-?mail(?:\s+address)?|signature|company)\]"
    r"|\[(?:insert\s+|add\s+)?(?:list|number|names?|details|total|amount|count)\s+of\b[^\]\n]{1,40}\]|\[insert\b[^\]\n]{1,40}\]",
    re.IGNORECASE,
)
"""A blank for the sender to fill ("[Your Name]", "[list of guests]"): the 1.5B signs emails with one, and
emailed a caterer "Wedding guests: [list of guests]" for the numbers."""
SIGNED_IN_BRACKETS = re.compile(r"\[[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\]")
"""A name in brackets signing a message ("Best regards,\n[Ava]"): a blank the 1.5B filled with a guess."""


SIGNED_OFF_WITH_A_BLANK = re.compile(rf"\b(?:wishes|regards|love|thanks|best|cheers|sincerely|yours)\b[,!.]?\s*(?P<blank>{BLANK.pattern})\s*$",
                                     re.IGNORECASE)
"""A sign-off whose name is a blank, on one line: "… Stay happy. Best wishes, [Your Name]"."""
HTML_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)


def without_blank_lines(arguments: dict[str, Any]) -> tuple[dict[str, Any], str] | None:
    """(the arguments, the note) for a message with a line that is only a blank ("Best regards,
    [Your Name]"): it goes without that line; a sign-off ending the last line with one, without the blank. Lines broken with HTML's "<br>" (the 1.5B's, in a
    plain-text email) are lines too."""
    field = "body" if "body" in arguments else "text"
    lines = HTML_BREAK.sub("\n", str(arguments.get(field, ""))).splitlines()
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    blank = [i for i, line in enumerate(lines)
             if BLANK.fullmatch(line.strip()) or (i == last and SIGNED_IN_BRACKETS.fullmatch(line.strip()))]
    kept = [line for i, line in enumerate(lines) if i not in blank]
    if not blank and last >= 0 and (signed := SIGNED_OFF_WITH_A_BLANK.search(lines[last])):
        blank, kept = [last], [*lines[:last], lines[last][:signed.start("blank")].rstrip()]  # "Best wishes, [Your Name]"
    if not blank or not "".join(kept).strip():
        return None
    found = BLANK.search(lines[blank[0]]) or SIGNED_IN_BRACKETS.search(lines[blank[0]])
    dropped = found.group(0) if found else lines[blank[0]].strip()
    return {**arguments, field: "\n".join(kept).rstrip()}, prompts.BLANK_PUT_RIGHT.format(blank=dropped)
