"""What the request asks done (errands.py): its verb, its tools, its errands, and how long a
call stays forced."""

from __future__ import annotations

import pytest

from protocol.methods import CallTrace, PassTrace
from saturnd.tools import builtin_registry
from saturnd.turn.errands import (
    NAMED_FILE,
    asked_action,
    forced_call,
    only_messages_asked,
    tools_for,
    undone_errand,
)


def _passes(*calls: tuple[str, str]) -> list[PassTrace]:
    return [PassTrace(index=1, step="first_move", calls=[
        CallTrace(call_id=f"c{i}", name=name, arguments="{}", fate=fate) for i, (name, fate) in enumerate(calls)
    ])]


def test_the_call_stays_forced_until_something_that_acts_was_tried():
    registry = builtin_registry()
    must = ("ask_user", "send_email")
    asked = _passes(("ask_user", "asked"))
    assert forced_call(must, asked, registry) == must  # asking for the address is not the email
    assert forced_call(must, _passes(("send_email", "declined")), registry) == ()
    assert forced_call(must, _passes(("send_email", "invalid")), registry) == must  # sent back for its shape
    assert forced_call(must, _passes(("send_email", "refused_guess")), registry) == must  # for a made-up value
    assert forced_call((), [], registry) == ()


def test_forced_passes_that_get_nothing_end_the_forcing_and_reads_that_ran_do_not():
    registry = builtin_registry()
    must = ("read_file", "send_email")
    idle = _passes(("read_file", "error"))
    assert forced_call(must, idle * 2, registry) == must
    assert forced_call(must, idle * 3, registry) == ()  # at most three forced passes that got nothing
    assert forced_call(must, idle * 2 + _passes(("read_file", "ran")) * 3, registry) == must


@pytest.mark.parametrize(("request_text", "verb"), [
    ('In todo.txt, mark "water the plants" as done.', "mark"),
    ('In greeting.txt, replace "Jon" with "John".', "replace"),
    ("Could you please take eggs off my shopping list?", "take"),
    ("Fetch the prices page and save the kettle's price to kettle.txt.", "save"),
    ("In 2020, who won the cup?", ""),
    ("I'd like to add butter to my shopping list.", "add"),
    ("I need you to text Petra that I'm late.", "text"),
    ("I want to know the weather in Leeds.", ""),
    ("Remind me, when's parents evening?", ""),  # a question
    ("Remind me of the wifi password.", ""),
    ("Remind me to call Mum at six.", "remind"),
    ('Start at http://127.0.0.1/start.html and follow the "next" links.', ""),  # where to begin, no errand
    ("Start the dishwasher.", "start"),
    ("Make a note that the boiler man is coming Monday at 8.", "note"),
    ("Write down that Jo called.", "note"),
    ("Write a poem about autumn.", ""),  # nothing kept: an answer
    ("Crane & Co have paid, can you update that?", "update"),
    ("Ring the surgery for me.", "call"),
    ("Phone the pharmacy.", "call"),
    ("Phone number for the vet?", ""),
    ("I've packed the charger.", "mark"),  # told it is done: its line is marked
    ("I've told the GP.", "mark"),  # someone on a list of who to tell, told
    ("The home insurance has gone up to £312.", "update"),  # a price told: its line's amount
    ("I've renewed my railcard, it now expires 19 December 2027.", "update"),  # a day told: its line's date
    ("My passport expires 3 March 2027.", ""),  # said, not changed
    ("I've taken Wolf Hall back.", "remove"),  # a thing borrowed, gone back: off the list of what is out
    ("I took the drill back to Dan.", ""),  # no line of a list: said where it went
    ("I've told the kids they can stay up till nine.", ""),  # what was said to them: no line of a list
    ("I taught Jack for an hour today.", "add"),  # told what was done, its amount in words: a log's row
    ("I picked up 28 more metformin today.", "update"),  # told more came in: the count left goes up
    ("I've paid for karate.", "mark"),  # told a thing paid for: its row's paid cell
    ("I've returned Circe.", "mark"),
    ("I've pruned the raspberries.", "mark"),  # any thing done to a thing of the list
    ("I've bled the radiators.", "mark"),  # done in an irregular past
    ("Tom's confirmed for Saturday afternoon.", "mark"),  # someone's answer, for a day's row
    ("Olu's doing Monday now and I'm doing Thursday.", "update"),  # who takes a day of a rota
    ("The maths sheet is done.", "mark"),  # a thing told done by what it is
    ("Noah's coming.", "mark"),  # someone's answer
    ("The odometer says 42,700 today.", "add"),  # a reading of the day
    ("Got 44 out of 60 in Physics today.", "add"),  # a score
    ("Theo hoovered the stairs today.", "mark"),  # someone's job done
    ("Riverside paid us.", "mark"),  # someone paid the user
    ("Chloe paid me back.", "mark"),  # and paid back
    ("The window cleaner came today.", "mark"),  # a visit told
    ("The electric came out today.", "mark"),  # a bill gone out of the account
    ("I've cancelled the gym.", "remove"),  # its line goes
    ("Rory's dropping coding.", "remove"),  # someone stopped a thing: their line for it goes
    ("Jo gave the box set back.", "remove"),  # a thing lent out came back: its line goes
    ("Jo gave me a lift.", ""),
    ("Leo has finished his dinosaur.", "mark"),  # someone's job done: its line is marked
    ("I've sent one to the Patels.", "mark"),  # one sent to them: their line
    ("Has Leo finished his dinosaur?", ""),
    ("Leo's shoes are now a 13.", "update"),  # what a thing is now: its line changes
    ("I've moved the car spare to the safe.", "update"),  # where a thing is kept now
    ("I've moved the meeting to 3pm.", ""),  # a time: the diary's moves, not a place
    ("I cancelled Spotify.", "remove"),
    ("Save a note that we picked Cornwall.", "note"),  # into the notes, not a file of its own
    ("I stopped at the shop.", ""),
    ("Bought Jamie the football kit, £28.", "mark"),  # a present bought: its gift line is marked
    ("Riya scored two today.", "update"),  # her count goes up
    ("Christmas is coming.", ""),
    ("Who's doing the school run on Thursday?", ""),
    ("I paid the football.", "mark"),
    ("I watered the monstera today.", "mark"),  # done on a day: its date cell
    ("Ana paid.", "mark"),
    ("I gave Pickle her joint tablet today.", "mark"),
    ("I moved the meeting today.", ""),  # a change, not a thing done
    ("Ella said yes.", "mark"),  # told someone's answer: their row is marked
    ("Ella said yes?", ""),
    ("I fixed the shed door", "mark"),
    ("I needed the car on Friday.", ""),
    ("I've moved the meeting to 3pm.", ""),  # a change, not a mark
    ("I've got a cold.", ""),
    ("I added £50 to the bike fund.", "update"),  # told: its line is updated
    ("I spent £20 of the John Lewis card.", "update"),  # spent of a balance: its line goes down
    ("Log a run: 7 km today in 40 minutes.", "add"),  # a row for the table
    ("Record my weight: 71.2kg", "add"),
    ("I filled up today, 39 litres for £56.20 at 43,760 miles.", "add"),  # told what was done, with its amounts
    ("I ran 5 km this morning.", "add"),
    ("I had 2 coffees.", ""),
    ("I weighed in this morning at 82.4.", "add"),
    ("I moved the meeting to 3pm.", ""),  # a change, not a log
    ("I booked the dentist for the 12th.", ""),
    ("Log in to the bank.", ""),
    ("I've paid the gas bill?", ""),
    ("Where's my ring?", ""),
    ("Take one portion of bolognese out.", "update"),  # its count goes down
    ("Transfer 50 euros from my bank account to Tom.", "transfer"),  # no tool does it: said so
    ("What did I take out of savings?", ""),
])
def test_the_action_asked_for(request_text, verb):
    assert asked_action(request_text) == verb


@pytest.mark.parametrize(("request_text", "calls", "undone"), [
    ("Text Petra and email Tom the same note: 'Office closed Monday'.", (("send_message", "ran"),),
     ("email Tom the same note", ("send_email",))),
    ("Add butter to my shopping list and text Petra that it's done.", (("edit_file", "ran"),),
     ("text Petra that it's done", ("send_message",))),
    ("Add butter to my list and text Petra.", (("edit_file", "ran"), ("send_message", "declined")), None),
    ("Email Tom and tell him the kickoff moved.", (("send_email", "ran"),), None),  # what to tell is the email
    ("Text Petra and email Tom.", (("send_message", "invalid"),), None),  # the first is not done yet: not_acted's
    ("Find Ana's number in the KB and save it to ana.txt.", (("kb_search", "ran"),), None),  # one errand
    ("Text Petra and email Tom the same note: 'Office closed Monday'.", (("send_email", "ran"),),
     ("Text Petra", ("send_message",))),  # the second done, the first not
])
def test_an_errand_asked_beside_another_that_nothing_tried(request_text, calls, undone):
    assert undone_errand(request_text, _passes(*calls), builtin_registry()) == undone


@pytest.mark.parametrize(("request_text", "senders"), [
    ("Text my manager that I'm sick today. My contacts are in contacts.md.", ("send_message",)),
    ("Text Petra and email Tom the same note.", ("send_email", "send_message")),
    ("Add butter to my list and text Petra.", ()),  # a file to change too
    ("What's on my shopping list?", ()),
])
def test_a_request_that_only_asks_for_messages(request_text, senders):
    assert only_messages_asked(request_text, builtin_registry()) == senders


@pytest.mark.parametrize(("request_text", "named"), [
    ("Create a file called meeting.txt with the time of my next meeting.", ["meeting.txt"]),
    ("Copy notes.md into todo.txt.", ["notes.md", "todo.txt"]),
    ("Email bob@mail.example the list from www.shop.example.", []),
    ("Put it in list.txt.", ["list.txt"]),
])
def test_the_file_names_a_request_names(request_text, named):
    assert NAMED_FILE.findall(request_text) == named


@pytest.mark.parametrize(("request_text", "tools"), [
    ("Set the timeout in settings.ini to the value my team agreed on.", ("write_file", "edit_file")),
    ("Set an alarm for 7.", ()),  # names no file: no tool sets alarms
])
def test_an_errand_on_a_named_file_is_the_file_tools(request_text, tools):
    assert tools_for(request_text, builtin_registry()) == tools


@pytest.mark.parametrize(("request_text", "verb", "tools"), [
    ("Stick eggs and milk on the grocery list.", "add", ("write_file", "edit_file")),
    ("Could you pop butter on the shopping list?", "add", ("write_file", "edit_file")),
    ("Get rid of spinach on my groceries.", "remove", ("write_file", "edit_file")),
    ("Scratch eggs off the list.", "remove", ("write_file", "edit_file")),
    ("Drop Sam a line saying I'm late.", "message", ("send_message",)),
    ("Shoot Tom an email about the rota.", "email", ("send_email",)),
    ("Ping Alex that I'm outside.", "message", ("send_message",)),
    ("Get me the weather.", "", ()),
    ("Move the dentist to Thursday.", "move", ("write_file", "edit_file")),
    ("Swap flour for self-raising flour on the shopping list.", "swap", ("write_file", "edit_file")),
    ("Ask Gran if she can pick the kids up on Friday.", "message", ("send_message",)),  # answered "Yes, Gran can"
    ("Ask my sister whether she's coming.", "message", ("send_message",)),
    ("Ask me if you need anything.", "", ()),
    ("Remind Tom that his invoice is overdue.", "message", ("send_message",)),  # answered with the reminder's words
    ("Remind my sister about Sunday lunch.", "message", ("send_message",)),
    ("Remind me to call Mum at six.", "remind", ()),
])
def test_everyday_words_for_an_errand_name_its_tools(request_text, verb, tools):
    assert asked_action(request_text) == verb
    assert tools_for(request_text, builtin_registry()) == tools



@pytest.mark.parametrize(("request_text", "verb"), [
    ("Cancel Netflix from my subscriptions.", "remove"),  # its line goes
    ("Cancel my dentist appointment.", "cancel"),
    ("Cancel the gym on my calendar.", "cancel"),
])
def test_cancelling_a_thing_from_a_list_removes_its_line(request_text, verb):
    assert asked_action(request_text) == verb
