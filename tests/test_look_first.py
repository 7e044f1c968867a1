"""Look before asking: a question the user's files answer is answered from them."""

from __future__ import annotations

import json

import pytest

from saturnd.testing.fake_model import call
from saturnd.tools import builtin_registry
from saturnd.turn.claims import unbacked_claim
from saturnd.turn.look_first import (
    addresses_named,
    another_names_money,
    another_owners_line,
    contact_lines,
    contact_sources,
    people_messaged,
    people_named,
    someone_elses_contact,
    someone_elses_line,
)
from saturnd.turn.message_words import (
    BLANK,
    as_a_reminder,
    in_the_senders_words,
    message_asked,
    message_itself,
    own_address_carried,
    the_question_asked,
    to_its_recipient,
    with_the_document_asked,
    with_the_words_asked,
    without_blank_lines,
    without_made_up_doings,
    without_the_request,
)
from saturnd.turn.put_right import channel_put_right
from saturnd.turn.retrieval import Document, relevant_excerpts
from saturnd.turn.review import GateContext, quote_left_out
from tests.conftest import of_type
from tests.test_gate import decide_with, run_with_decisions

CONTACTS = Document("contacts.md", (
    "# Contacts\n- Petra Novak (my manager): +44 7700 900123, petra.novak@acme.example\n"
    "- Tom Berg (colleague): +44 7700 900456\n- Landlord, Mr Okafor: okafor@lettings.example\n"
    "- Petra's birthday: 4 May\n"
))


@pytest.mark.parametrize(("question", "request_text", "people"), [
    ("What is Petra's contact information?", "Text Petra that I'm late.", ["petra"]),
    ("What is the name, address, or number of the recipient?", "Text Ana that I'm late.", ["ana"]),
    ("What is your landlord's email address?", "Email my landlord that the boiler works.", ["landlord"]),
    ("Which phone number should I use?", "Please send it.", []),
])
def test_the_people_a_question_is_about(question, request_text, people):
    assert people_named(question, request_text) == people


@pytest.mark.parametrize(("question", "request_text", "lines"), [
    ("What is Petra's contact information?", "Text Petra that I'm late.", [2]),
    ("What is the email address of the recipient?", "Email my landlord that the boiler works.", [4]),
    ("What is Sam's phone number?", "Text Sam that dinner is at 8.", []),  # nobody the files know
    ("What is Petra's new address?", "Send Petra my new address by text.", []),  # not a contact detail
    ("What is Tom's new phone number?", "Text Tom.", []),  # a changed number is the person's to give
    ("What time should the email be sent?", "Email Tom the plan.", []),
    ("What is the landlord's address?", "Read notes.txt and email the landlord the plan.", [4]),  # his email
    ("What is the landlord's address?", "Post the landlord the keys.", []),  # a street: no file holds it
])
def test_contact_lines_hold_an_address_or_number_of_someone_named(question, request_text, lines):
    assert [f.line_number for f in contact_lines(question, request_text, [CONTACTS])] == lines


@pytest.mark.parametrize(("request_text", "addresses"), [
    ("Let Petra know I'll be late tonight.", {"+44 7700 900123", "petra.novak@acme.example"}),
    ("Email my manager that I'm off sick.", {"+44 7700 900123", "petra.novak@acme.example"}),
    ("Text tom that the van is booked.", {"+44 7700 900456"}),
    ("What is Petra's number?", set()),  # nobody is to be messaged
    ("Summarise the emails from Mr Okafor.", set()),
    ("Let me know what Tom said.", set()),
    ("Text Tom Berg that the van is booked.", {"+44 7700 900456"}),
    ("Text Tom Klein that the van is booked.", set()),  # not Tom Berg's
    ("Email the landlord to say the boiler works.", {"okafor@lettings.example"}),
    ("Email the report to Tom.", {"+44 7700 900456"}),  # the report goes to Tom: his line names him
    ("Send my shopping list to Tom Klein.", set()),  # not Tom Berg's
])
def test_the_addresses_the_users_files_give_for_whom_the_request_messages(request_text, addresses):
    assert addresses_named(request_text, [CONTACTS]) == addresses


def test_a_place_named_with_the_is_messaged_by_its_name():
    contacts = Document("contacts.md", "- The Red Lion: events@redlion.example, 01632 960777\n- Crumbs: 01632 960999\n")
    assert addresses_named("Email the Red Lion to say we'll be about 12 people.", [contacts]) == {
        "events@redlion.example", "01632 960777"}


async def test_a_question_the_users_files_answer_is_not_put_to_the_person(harness):
    await harness.start()
    (harness.env.workdir / "contacts.md").write_text(CONTACTS.text)
    harness.model.enqueue(call("ask_user", {"question": "What is Tom's phone number?"}), "It is +44 7700 900456.")
    turn_id, events = await harness.turn("Text Tom that I'm late.")
    result = harness.sent(1)[-1]["content"]
    assert result.startswith("<outside") and "contacts.md:3: - Tom Berg (colleague): +44 7700 900456" in result
    assert result.endswith("Not asked: the user's files hold this (above). Use it; ask only for what it does not give.")
    assert not of_type(events, "question")
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert trace.passes[0].note.endswith("ask_user answered from the user's files: contacts.md:3")
    assert [c.fate for c in trace.passes[0].calls] == ["asked"]


async def test_an_address_made_up_for_the_sender_is_left_out_of_a_message_to_several(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_email, decision: allow}\n")
    (harness.env.workdir / "club.csv").write_text("name,email\nSara,sara@example.com\nTom,tom.r@example.com\n")
    harness.model.enqueue(call("send_email", {"to": "sara@example.com,tom.r@example.com,me@example.com",
                                              "subject": "Prophet Song", "body": "We're reading Prophet Song."}), "Sent.")
    _, _, events = await run_with_decisions(harness, "Email everyone in club.csv that we're reading Prophet Song.",
                                            decide_with("once"))
    assert harness.sent(1)[-1]["content"].startswith(
        "(me@example.com stands for you, who send it: the message went to the others.) ")
    sent = [json.loads(p.read_text()) for p in (harness.env.data_dir / "outbox").iterdir()]
    assert [m["to"] for m in sent] == ["sara@example.com, tom.r@example.com"]


async def test_a_name_the_files_give_one_number_for_is_put_right_in_place(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_message, decision: allow}\n")
    (harness.env.workdir / "contacts.md").write_text("- Mum: +44 7700 900789\n- Tom: tom@mail.example\n")
    harness.model.enqueue(call("send_message", {"to": "mum", "text": "Home safe"}), "Sent.")
    _, turn_id, events = await run_with_decisions(harness, "Text mum that I got home safe.", decide_with("once"))
    result = harness.sent(1)[-1]["content"]
    assert result.startswith("('mum' is a name: the user's files give +44 7700 900789 for it (contacts.md:1),"
                             " so the call used that.) sent message to +44 7700 900789")
    assert [e.arguments["to"] for e in of_type(events, "tool_proposed")] == ["+44 7700 900789"]
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]
    sent = [json.loads(p.read_text()) for p in (harness.env.data_dir / "outbox").iterdir()]
    assert [m["to"] for m in sent] == ["+44 7700 900789"]
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert "send_message: ('mum' is a name" in trace.passes[0].note


async def test_a_name_written_with_what_the_files_say_of_him_is_put_right_too(harness):
    await harness.start()
    (harness.env.workdir / "contacts.csv").write_text("name,phone\nPriya Shah,07700 900111\nDave (mechanic),07700 900222\n")
    harness.model.enqueue(call("send_message", {"to": "Dave (the mechanic)", "text": "The car is making a funny noise."}),
                          "Sent.")
    _, events = await harness.turn("Text Dave that the car's making a funny noise.", headless=True,
                                   allow=["send_message"])
    assert [e.arguments["to"] for e in of_type(events, "tool_proposed")] == ["07700 900222"]
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]


async def test_a_message_to_someone_else_than_the_one_person_asked_goes_to_that_person(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_message, decision: allow}\n")
    (harness.env.workdir / "family.md").write_text(
        "# Family\nGrandma Rose: 14 Mill Lane, Bath, +44 1225 000321\nUncle Tom: tom.h@family.example\n")
    harness.model.enqueue(call("send_message", {"to": "tom.h@family.example", "text": "We'll visit on Sunday."}),
                          "Sent.")
    _, _, events = await run_with_decisions(harness, "Let Grandma know we'll visit on Sunday.", decide_with("once"))
    assert harness.sent(1)[-1]["content"].startswith(
        "(The user asked to message grandma, and tom.h@family.example is on none of their lines: family.md:2 gives"
        " +44 1225 000321, so the call used that.) sent message to +44 1225 000321")
    assert [e.arguments["to"] for e in of_type(events, "tool_proposed")] == ["+44 1225 000321"]


@pytest.mark.parametrize(("contacts", "request_text", "to", "sent_to"), [
    # an address the user typed is not put right
    ("- Jo Park: +44 7700 900123\n", "Text Jo on +44 7700 900777 that I'm late.", "+44 7700 900777", "+44 7700 900777"),
    # a message to an email address goes to the mobile the same line gives
    ("Alex Moreau - mobile 07700 900888 - alex.m@post.example\n", "Message Alex that dinner is at 7.",
     "alex.m@post.example", "07700 900888"),
])
async def test_where_a_text_goes(harness, contacts, request_text, to, sent_to):
    await harness.start("gate:\n  rules:\n    - {tool: send_message, decision: allow}\n")
    (harness.env.workdir / "contacts.md").write_text(contacts)
    harness.model.enqueue(call("send_message", {"to": to, "text": "Late"}), "Sent.")
    _, _, events = await run_with_decisions(harness, request_text, decide_with("once"))
    assert [e.arguments["to"] for e in of_type(events, "tool_proposed")] == [sent_to]


async def test_an_email_to_a_name_and_number_goes_to_the_address_beside_that_number(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_email, decision: allow}\n")
    (harness.env.workdir / "pets.md").write_text("# Biscuit (dog)\n- Vet: Greenway Vets, 01632 960111\n")
    (harness.env.workdir / "contacts.md").write_text(
        "- Mum: 07700 900222, mum@example.com\n- Greenway Vets: 01632 960111, reception@greenwayvets.example\n")
    harness.model.enqueue(call("send_email", {"to": "Greenway Vets, 01632 960111", "subject": "Jabs",
                                              "body": "Could we book Biscuit in for his jabs?"}), "Sent.")
    _, events = await harness.turn("Email the vet to book Biscuit in for his jabs.", headless=True)
    assert [e.arguments["to"] for e in of_type(events, "tool_proposed")] == ["reception@greenwayvets.example"]
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]


async def test_a_put_right_recipient_still_needs_the_persons_approval(harness):
    await harness.start()
    (harness.env.workdir / "contacts.md").write_text("- Mum: +44 7700 900789\n")
    harness.model.enqueue(call("send_message", {"to": "Mum", "text": "Home safe"}), "Not sent.")
    _, _, events = await run_with_decisions(harness, "Text mum that I got home safe.", decide_with("decline"))
    (asked,) = of_type(events, "approval_requested")
    assert asked.arguments["to"] == "+44 7700 900789"
    assert [f.fate for f in of_type(events, "tool_finished")] == ["declined"]
    assert not (harness.env.data_dir / "outbox").exists() or not list((harness.env.data_dir / "outbox").iterdir())


async def test_a_name_the_files_give_two_numbers_for_is_sent_back_with_the_lines(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_message, decision: allow}\n")
    (harness.env.workdir / "contacts.md").write_text("- Tom Berg: +44 7700 900456\n- Tom Ruiz: +34 600 111 333\n")
    harness.model.enqueue(
        call("send_message", {"to": "Tom", "text": "Late"}),
        call("send_message", {"to": "+44 7700 900456", "text": "Late"}),
        "Sent.",
    )
    _, _, events = await run_with_decisions(harness, "Text Tom that I'm late.", decide_with("once"))
    result = harness.sent(1)[-1]["content"]
    assert result.startswith("<outside") and "contacts.md:2: - Tom Ruiz: +34 600 111 333" in result
    assert result.endswith("tool error: 'Tom' is a name, not a phone number or email address. The user's files"
                           " hold the lines above: call send_message again with the number or address from them.")
    assert [f.fate for f in of_type(events, "tool_finished")] == ["invalid", "ran"]


@pytest.mark.parametrize("request_text", [
    "Text Petra that I'm late.",
    "Let Petra know I'm late.",  # telling someone is a text unless the request says email
])
async def test_a_text_to_an_email_address_goes_to_the_phone_beside_it(harness, request_text):
    await harness.start()
    (harness.env.workdir / "contacts.md").write_text(CONTACTS.text)
    harness.model.enqueue(call("send_message", {"to": "petra.novak@acme.example", "text": "Late"}), "Sent.")
    await run_with_decisions(harness, request_text, decide_with("once"))
    assert harness.sent(1)[-1]["content"].startswith(
        "(The user asked for a text: contacts.md:2 gives petra.novak@acme.example the phone number"
        " +44 7700 900123, so the call used that.) sent message to +44 7700 900123"
    )


async def test_a_text_to_the_email_address_the_request_gives_goes_to_its_phone_number(harness):
    await harness.start()
    harness.model.enqueue(call("send_message", {"to": "jo@mail.example", "text": "Running late"}), "Sent.")
    request = "Send this to Jo by text, not email: 'Running late'. Jo's details: jo@mail.example, +44 7700 900777."
    await run_with_decisions(harness, request, decide_with("once"))
    assert harness.sent(1)[-1]["content"].startswith(
        "(The user asked for a text: the request:1 gives jo@mail.example the phone number +44 7700 900777,"
        " so the call used that.) sent message to +44 7700 900777"
    )


async def test_an_email_to_a_phone_number_goes_to_the_address_beside_it(harness):
    await harness.start()
    (harness.env.workdir / "contacts.md").write_text(CONTACTS.text)
    harness.model.enqueue(
        call("send_email", {"to": "+44 7700 900123", "subject": "Kickoff", "body": "The kickoff moved."}), "Sent.")
    await run_with_decisions(harness, "Email Petra that the kickoff moved.", decide_with("once"))
    assert harness.sent(1)[-1]["content"].startswith(
        "(An email goes to an email address: contacts.md:2 gives +44 7700 900123 the address"
        " petra.novak@acme.example, so the call used that.) sent email to petra.novak@acme.example"
    )


async def test_a_text_to_an_email_address_with_no_number_beside_it_goes_as_an_email(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_email, decision: allow}\n")
    (harness.env.workdir / "house.md").write_text("# House\nLandlord: Mr Patel, patel.lettings@mail.example\n")
    harness.model.enqueue(call("send_message", {"to": "patel.lettings@mail.example",
                                                "text": "The boiler is making a funny noise."}), "Sent.")
    await harness.turn("Tell the landlord the boiler's making a funny noise.", headless=True)
    sent = [json.loads(p.read_text()) for p in (harness.env.data_dir / "outbox").iterdir()]
    assert [(m["kind"], m["to"], m["subject"], m["body"]) for m in sent] == [
        ("email", "patel.lettings@mail.example", "The boiler is making a funny noise",
         "The boiler is making a funny noise.")]
    assert harness.sent(1)[-1]["content"].startswith(
        "(patel.lettings@mail.example is an email address, and house.md:2 gives no number beside it, so the call"
        " went by send_email.)")


async def test_an_email_where_a_text_was_asked_is_texted_to_the_phone_beside_the_address(harness):
    await harness.start()
    harness.model.enqueue(call("send_email", {"to": "jo@mail.example", "subject": "Late",
                                              "body": "Running late, start without me"}), "Sent.")
    _, _, events = await run_with_decisions(
        harness, "Send this to Jo by text, not email: 'Running late, start without me'. Jo's details:"
                 " jo@mail.example, +44 7700 900777.", decide_with("once"))
    (asked,) = of_type(events, "approval_requested")
    assert (asked.name, asked.arguments) == (
        "send_message", {"to": "+44 7700 900777", "text": "Running late, start without me"})
    assert harness.sent(1)[-1]["content"].startswith(
        "(The user asked for a text here: the request:1 gives +44 7700 900777 beside jo@mail.example, so the call"
        " went by send_message.) sent message to +44 7700 900777")


@pytest.mark.parametrize(("request_text", "arguments", "said"), [
    ("Email the plumber to say Tuesday morning works for the valve.",
     {"to": "dave@kerrplumbing.example", "body": "I will send an email to Dave Kerr at dave@kerrplumbing.example"
                                                 " to say Tuesday morning works for the boiler valve."},
     "Tuesday morning works for the boiler valve."),
    ("Text Jo that I'm late.", {"to": "+44 7700 900777", "text": "I'll text Jo that I'm running late."},
     "I'm running late."),  # the person the request messages, by name
    ("Let Uncle Ray know I'll bring the wine on Saturday.",
     {"to": "+44 7700 900777", "text": "Sure, I'll let Uncle Ray know you'll bring the wine on Saturday."},
     "I'll bring the wine on Saturday."),
    ("Tell Sam I'm running late.", {"to": "+44 7700 900777", "text": "Okay, I'll tell Sam that you are running late"
                                                                    " and your train is stuck, call you later."},
     "I'm running late and my train is stuck, call me later."),
    ("Email Tom the files.", {"to": "tom@mail.example", "body": "I'll send you the files that you asked for."},
     None),  # a message that promises something is a message
    ("Text Jo by text, not email.", {"to": "+44 7700 900777", "text": "I'll send the message to Jo by text, not email."},
     None),  # nothing it says to pass on
    ("Text the window cleaner to skip next week.", {"to": "07700 900404", "text": "Texted Dan to skip next week."},
     "Please skip next week."),  # the report of the request, sent to Dan
    ("Text Sam that Bob is here.", {"to": "07700 900103", "text": "Asked Bob to come."}, None),  # not the request's
    ("Text the surgery to ask for a repeat of atorvastatin.",
     {"to": "0117 496 0555", "text": "I'll text Dr Patel at 0117 496 0555 to ask for a repeat of Atorvastatin."},
     "Could I ask for a repeat of Atorvastatin?"),
    ("Tell the landlord we're moving out on 15 January.",
     {"to": "07700 900444", "text": "I'll let Mr Hughes know we're moving out on 15 January."},
     "We're moving out on 15 January."),  # the landlord by the name the files give him
    ("Text Lena to chase the invoice.", {"to": "07700 900903", "text": "I'll send a text message to chase the invoice."},
     "Just chasing up the invoice."),  # no words of its own: the request's
])
def test_a_message_that_tells_of_sending_it_is_sent_as_what_it_says(request_text, arguments, said):
    put_right = message_itself(arguments, request_text)
    field = "body" if "body" in arguments else "text"
    assert (put_right[0][field] if put_right else None) == said


@pytest.mark.parametrize(("request_text", "body", "said"), [
    ("Text Sophie's mum that Thursday's lesson is moved to 5pm.", "Sophie's mum moved Thursday's lesson to 5pm.",
     "Thursday's lesson is moved to 5pm."),  # told of, not told
    ("Text Dave that the car's making a funny noise.", "Please check the tyres are inflated.",
     "The car's making a funny noise."),
    ("Email the plumber to say the boiler works again", "Hi, thanks!", "The boiler works again."),
    ("Text Dave that the car's making a funny noise.", "Hi Dave, the car is making a funny noise.", None),  # said
    ("Text Jo that she left her keys here.", "Hi Jo!", None),  # her "she" is the recipient's "you"
    ("Email Priya to ask if we can move our call.", "Hi Priya!", None),  # asked, not said
    ("Email Mr Hughes that Maya is off sick today.", "I hope you are well. I am off sick today.",
     "Maya is off sick today."),  # whose news it is lost
    ("Email Mr Hughes that Maya is off sick today.", "Dear Mr Hughes, Maya is off sick today.", None),
    ("Text Ruth that I'm running 5 minutes late.",
     "I'm sorry to hear that you're running 5 minutes late. Let me know if there's anything I can help with.",
     "I'm running 5 minutes late."),  # Saturn's reply to the user, texted to Ruth
    ("Text Ruth that I'm running 5 minutes late.", "Hi Ruth, I'm running 5 minutes late, sorry!", None),
    ("Text Tom to feed Pepper while we're in Lisbon.", "Tom, please feed Pepper with 2 scoops of morning and 1 scoop"
     " of evening. Pepper is allergic to chicken.", "Please feed Pepper while we're in Lisbon."),  # the notes, no Lisbon
    ("Text Tom to feed Pepper while we're in Lisbon.", "Hi Tom, could you feed Pepper while we're in Lisbon?", None),
    ("Text Tom to feed her cat.", "Hi Tom!", None),  # her cat is the recipient's
    ("Text Lena to chase the invoice.", "Hi Lena, just chasing invoice INV-044 for £780.", None),  # the user's chase
    ("Text Lena to chase the invoice.", "Hi Lena!", "Just chasing up the invoice."),
    ("Text Gran to thank her for the flowers.", "Hi Gran!", "Thank you for the flowers."),
    ("Text Hannah to remind her it's at mine next week.", "Hi Hannah!", "Just a reminder: it's at mine next week."),
    ("Text Hannah to remind her it's at mine next week.", "Hi Hannah, a reminder it's at mine next week!", None),
    ("Let Dee know the cake is ready.", "Hi Dee!", "The cake is ready."),
    ("Send Sam a text saying the accounts are ready.", "Hi Sam", "The accounts are ready."),
    ("Tell Lena I'll send the invoice tomorrow.", "Hi Lena!", "I'll send the invoice tomorrow."),  # she alone is messaged
    ("Text Kit that load-in at the Crown is 6pm.", "The Crown is now 6pm.", "Load-in at the Crown is 6pm."),  # what it's about lost
    ("Text Kit that load-in at the Crown is 6pm.", "Hi Kit, load-in at the Crown is at 6pm.", None),
])
def test_a_message_that_leaves_out_what_the_request_says_to_say_says_it(request_text, body, said):
    put_right = with_the_words_asked({"to": "+44 7700 900123", "text": body}, request_text)
    assert (put_right[0]["text"] if put_right else None) == said


def test_a_reminder_that_tells_its_recipient_to_remind_themselves_is_put_as_a_reminder():
    put_right = as_a_reminder({"to": "07700 900111", "text": "Mia, please remind you to go out and empty the bins tonight."},
                              "Remind Mia about the bins tonight.")
    assert put_right is not None and put_right[0]["text"] == "Just a reminder about the bins tonight."
    assert as_a_reminder({"to": "1", "text": "Hi Tom, your invoice is overdue."}, "Remind Tom that his invoice is overdue.") is None


@pytest.mark.parametrize(("request_text", "body", "said"), [
    ("Text Josh that it's his turn on the bathroom.", "It's his turn on the bathroom.", "It's your turn on the bathroom."),
    ("Text Jo that she left her keys here.", "She left her keys here.", "You left your keys here."),
    ("Text Jo that she left her keys here.", "You left your keys here!", None),
    ("Text Josh that Mia said it's his turn.", "Mia said it's his turn.", None),  # whose "his" is not plain
])
def test_a_message_that_speaks_of_its_recipient_as_the_request_did_speaks_to_them(request_text, body, said):
    put_right = to_its_recipient({"to": "07700 900222", "text": body}, request_text)
    assert (put_right[0]["text"] if put_right else None) == said


@pytest.mark.parametrize(("request_text", "body", "said"), [
    ("Email Greg and ask when he needs my receipts.", "I need your receipts. Please send them to me.",
     "Could you let me know when you need my receipts?"),  # the question turned round, and not asked
    ("Ask Gran if she can pick the kids up on Friday.", "Gran can pick up the kids on Friday.",
     "Could you let me know if you can pick the kids up on Friday?"),
    ("Text Mia to ask whether she has her keys.", "Keys!", "Could you let me know whether you have your keys?"),
    ("Email Priya to ask if we can move our call.", "Hi Priya!", "Could you let me know if we can move our call?"),
    ("Email Greg and ask when he needs my receipts.", "Hi Greg, when do you need my receipts?", None),
    ("Email Greg the receipts.", "Here they are.", None),  # no question asked
    ("Text Kev to check he's still OK for Monday.", "Kev, please check for urgent issues on Monday.",
     "Could you let me know if you're still OK for Monday?"),  # checking he is: whether he is
    ("Find out when the Orion kickoff is and email the time to Petra.", "It is Thursday at 10:00.", None),  # Saturn's to find
    ("Ask Gran if she can take Leo to football on Saturday.", "Leo, can you please take Gran to football on Saturday?",
     "Could you let me know if you can take Leo to football on Saturday?"),  # the two turned round
    ("Ask Gran if she can take Leo to football on Saturday.", "Gran, can you take Leo to football on Saturday?", None),
])
def test_a_message_asked_to_put_a_question_that_asks_none_asks_it(request_text, body, said):
    put_right = the_question_asked({"to": "greg@example.com", "body": body}, request_text)
    assert (put_right[0]["body"] if put_right else None) == said


@pytest.mark.parametrize(("request_text", "body", "said"), [
    ("Text Jo happy birthday from me.", "Text Jo happy birthday from me.", "Happy birthday from me."),
    ("Email the plumber to say the boiler works.", "email the plumber to say the boiler works", "The boiler works"),
    ("Text Jo happy birthday from me.", "Happy birthday from me!", None),
    ("Text Jo.", "Text Jo.", None),  # nothing after the instruction: no message to say
])
def test_a_message_that_opens_with_the_request_says_only_the_message(request_text, body, said):
    put_right = without_the_request({"to": "+44 7700 900123", "text": body}, request_text)
    assert (put_right[0]["text"] if put_right else None) == said


@pytest.mark.parametrize(("request_text", "body", "said"), [
    ("Text Tom I'm running ten minutes late.", "Tom, you're running ten minutes late.", "I'm running ten minutes late."),
    ("Email Jo that my parcel came.", "Hi Jo, your parcel came.", "My parcel came."),
    ("Text Tom I'm running ten minutes late.", "I'm running ten minutes late.", None),  # already the person's words
    ("Email Jo that I am coming.", "Hi Jo, are you coming?", None),  # other words
    ("Text Tom the plan for Friday.", "Tom, your plan is ready.", None),  # the request gives no words to say
    ("Tell Mum I'll pick her up at 10 on Saturday.", "I'll pick Mum up at 10 on Saturday.",
     "I'll pick you up at 10 on Saturday."),
    ("Tell Mum I'll see her car at 10.", "I'll see Mum's car at 10.", None),  # not "her" for her
    ("Tell Mum I'll pick her up on Saturday.", "I'll pick her up on Saturday.", "I'll pick you up on Saturday."),
    ("Tell Mum I saw Jo and gave her the keys.", "I saw Jo and gave her the keys.", None),  # "her" is Jo
    ("Text Aunt Sue that we'll get there Saturday about 3.", "I'll get there Saturday about 3.",
     "We'll get there Saturday about 3."),  # the person's "we"
    ("Text Ana that our car is fixed.", "My car is fixed.", "Our car is fixed."),
    ("Text Ana that we'll be late.", "We'll be late.", None),
])
def test_a_message_that_gives_the_users_words_back_goes_in_their_words(request_text, body, said):
    arguments = {"to": "+44 7700 900123", "text": body}
    put_right = in_the_senders_words(arguments, request_text)
    assert (put_right[0]["text"] if put_right else None) == said


@pytest.mark.parametrize(("body", "sent"), [
    ("Dear Reception,\nIs there an appointment on Monday?\nBest regards,\n[Your Name]",
     "Dear Reception,\nIs there an appointment on Monday?\nBest regards,"),
    ("Is there an appointment on Monday?\n[Name]", "Is there an appointment on Monday?"),
    ("Is there an appointment on Monday? [Your Name]", None),  # not a line of its own: sent back
    ("Happy birthday! Have a lovely week. Best wishes, [Your Name]",
     "Happy birthday! Have a lovely week. Best wishes,"),  # a sign-off's blank ending the last line
    ("Is there an appointment on Monday?", None),
    ("[Your Name]", None),  # nothing would be left
    ("Hi Ines,\nAre you coming to the party?\nBest regards,\n[Ava]",
     "Hi Ines,\nAre you coming to the party?\nBest regards,"),  # a guessed name in the signature's blank
    ("[Ava] is coming too.\nSee you there", None),  # not the signature
    ("Dear Dev,<br>The Grange, ref GR-88213.<br>Best regards,<br>[Your Name]",
     "Dear Dev,\nThe Grange, ref GR-88213.\nBest regards,"),  # lines broken as HTML's
])
def test_a_line_that_is_only_a_blank_to_fill_or_a_sign_offs_blank_goes_without_it(body, sent):
    put_right = without_blank_lines({"to": "reception@vets.example", "subject": "Monday", "body": body})
    assert (put_right[0]["body"] if put_right else None) == sent


async def test_a_figure_the_ground_worked_out_left_out_of_a_message_twice_is_added_to_it(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_email, decision: allow}\n")
    (harness.env.workdir / "budget.csv").write_text("item,amount\nrent,900\nfood,450\n")
    vague = call("send_email", {"to": "sam@numbers.example", "subject": "Budget",
                                "body": "Please find the total of your budget in the attached file."})
    harness.model.enqueue(vague, vague, "Sent.")
    await harness.turn("Email sam@numbers.example the total of my budget.", headless=True)
    assert harness.sent(1)[-1]["content"].startswith("not run: send_email would go without the total, which the user asked for.")
    sent = [json.loads(p.read_text()) for p in (harness.env.data_dir / "outbox").iterdir()]
    assert [m["body"] for m in sent] == ["Please find the total of your budget in the attached file.\n\nThe total: 1350"]


async def test_a_blank_inside_a_message_goes_back_and_a_blank_line_is_left_out(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_email, decision: allow}\n")
    harness.model.enqueue(
        call("send_email", {"to": "reception@vets.example", "subject": "Monday",
                            "body": "Hi, this is [Your Name]. Is Monday free?"}),
        call("send_email", {"to": "reception@vets.example", "subject": "Monday",
                            "body": "Is Monday free?\nThanks,\n[Your Name]"}),
        "Sent.")
    await harness.turn("Email the vets at reception@vets.example to ask if Monday is free.", headless=True)
    assert harness.sent(1)[-1]["content"] == (
        "not run: send_email would send [Your Name], a blank for the sender to fill. Write the message without"
        " blanks and call send_email again.")
    sent = [json.loads(p.read_text()) for p in (harness.env.data_dir / "outbox").iterdir()]
    assert [m["body"] for m in sent] == ["Is Monday free?\nThanks,"]
    assert harness.sent(2)[-1]["content"].startswith(
        "(The message ended with a blank for the sender to fill, [Your Name]: the call went without it.)")


async def test_a_refusal_written_as_the_message_goes_back(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_email, decision: allow}\n")
    harness.model.enqueue(
        call("send_email", {"to": "lena@studio.example", "subject": "Photos",
                            "body": "I'm sorry, but I can't assist with that request."}),
        call("send_email", {"to": "lena@studio.example", "subject": "Photos", "body": "Thanks, the photos arrived."}),
        "Sent.")
    await harness.turn("Email lena@studio.example saying thanks, the photos arrived.", headless=True)
    assert harness.sent(1)[-1]["content"].startswith(
        "not run: send_email would send the recipient a refusal ('I'm sorry, but I can't assist'), not a message from the user.")
    sent = [json.loads(p.read_text()) for p in (harness.env.data_dir / "outbox").iterdir()]
    assert [m["body"] for m in sent] == ["Thanks, the photos arrived."]


def test_a_blank_standing_for_what_the_message_should_carry_is_a_blank():
    assert BLANK.search("Wedding guests: [list of guests]").group(0) == "[list of guests]"
    assert BLANK.search("We are [number of people] adults.").group(0) == "[number of people]"
    assert BLANK.search("See [1] above.") is None


def test_a_message_carrying_the_number_it_goes_to_is_caught():
    carried = {"to": "07700 900 456", "text": "Sam, 07700 900 456 (Mon, Wed, Fri), no walk on Friday."}
    assert own_address_carried(carried, frozenset()) == "07700 900 456"
    assert own_address_carried({"to": "+447700900456", "text": "Ring 07700 900 111 about Friday."}, frozenset()) is None
    assert own_address_carried({"to": "jo@example.com", "subject": "Hi", "body": "Write to jo@example.com"},
                               frozenset({"body"})) is None  # a field the check leaves alone


async def test_a_text_carrying_its_own_number_says_the_words_asked(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_message, decision: allow}\n")
    (harness.env.workdir / "pets.md").write_text("Dog walker: Sam, 07700 900 456 (Mon, Wed, Fri)\n")
    harness.model.enqueue(
        call("send_message", {"to": "07700 900 456",
                              "text": "Sam, 07700 900 456 (Mon, Wed, Fri), no walk due to Biscuit's vet appointment on Friday."}),
        "Sent.")
    await harness.turn("Text Sam that Biscuit has a vet appointment on Friday so no walk.", headless=True)
    assert harness.sent(1)[-1]["content"].startswith("(The message left out what the user asked to say, so the call says"
                                                     " it in their words: Biscuit has a vet appointment on Friday so no walk.)")
    sent = [json.loads(p.read_text()) for p in (harness.env.data_dir / "outbox").iterdir()]
    assert [m["text"] for m in sent] == ["Biscuit has a vet appointment on Friday so no walk."]


async def test_an_email_carrying_its_own_address_goes_without_that_part(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_email, decision: allow}\n")
    harness.model.enqueue(call("send_email", {
        "to": "petra.novak@acme.example", "subject": "Orion kickoff",
        "body": "The Orion kickoff is on Thursday at 10:00, and Petra's contact is petra.novak@acme.example, +44 7700 900123."}),
        "Sent.")
    await harness.turn("Email the Orion kickoff time, Thursday 10:00, to Petra at petra.novak@acme.example.", headless=True)
    sent = [json.loads(p.read_text()) for p in (harness.env.data_dir / "outbox").iterdir()]
    assert [m["body"] for m in sent] == ["The Orion kickoff is on Thursday at 10:00."]


async def test_the_message_itself_goes_and_the_result_says_so(harness):
    await harness.start("gate:\n  rules:\n    - {tool: send_email, decision: allow}\n")
    harness.model.enqueue(call("send_email", {
        "to": "tom.berg@acme.example", "subject": "Report",
        "body": "I will send an email to Tom at tom.berg@acme.example that the report will be late."}), "Sent.")
    await harness.turn("Email Tom at tom.berg@acme.example that the report will be late.", headless=True)
    sent = [json.loads(p.read_text()) for p in (harness.env.data_dir / "outbox").iterdir()]
    assert [m["body"] for m in sent] == ["The report will be late."]
    assert harness.sent(1)[-1]["content"].startswith(
        "(The message told of sending it instead of saying it, so the call says: The report will be late.)")


MESSAGING = ["send_message", "send_email"]


@pytest.mark.parametrize(("request_text", "texted"), [
    ("Text Petra that I'm late.", True),
    ("Send Petra an SMS, not an email: late.", True),
    ("Email Tom and text Petra that I'm late.", True),  # Petra is the one to text
    ("Email Petra that I'm late; her phone is in contacts.md.", False),  # an email was asked for
    ("Text Tom and email Petra that I'm late.", False),  # Petra is the one to email
    ("Tell Petra that I'm late.", False),  # nothing asks for a text
])
def test_an_email_becomes_a_text_where_the_request_asks_to_text_its_recipient(request_text, texted):
    context = GateContext(request=request_text, documents=[CONTACTS])
    found = channel_put_right("send_email", {"to": "petra.novak@acme.example", "subject": "", "body": "Late"},
                              context, MESSAGING)
    assert (found is not None) == texted
    if found:
        tool, recipient, arguments = found
        assert (tool, arguments) == ("send_message", {"to": "+44 7700 900123", "text": "Late"})
        assert recipient.line.source == "contacts.md"
    assert channel_put_right("send_email", {"to": "petra.novak@acme.example", "subject": "", "body": "Late"},
                             context, ["send_email"]) is None  # no tool to text with


@pytest.mark.parametrize("to", ["petra.novak@acme.example", "+44 7700 900123"])
def test_a_text_becomes_an_email_where_the_request_pairs_its_recipient_with_email(to):
    context = GateContext(request="Text Tom and email Petra the same note: 'Office closed Monday'.",
                          documents=[CONTACTS])
    tool, recipient, arguments = channel_put_right(
        "send_message", {"to": to, "text": "Office closed Monday."}, context, MESSAGING)
    assert (tool, arguments) == ("send_email", {"to": "petra.novak@acme.example", "subject": "Office closed Monday",
                                                "body": "Office closed Monday."})
    assert channel_put_right("send_message", {"to": to, "text": "Office closed Monday."},
                             GateContext(request="Text Petra: office closed Monday.", documents=[CONTACTS]),
                             MESSAGING) is None


async def test_a_write_where_only_a_message_was_asked_goes_back_and_the_text_must_follow(harness):
    await harness.start()
    (harness.env.workdir / "contacts.md").write_text(CONTACTS.text)
    harness.model.enqueue(
        call("write_file", {"path": "contacts.md", "content": "Dear Petra, I'm sick today."}),
        call("send_message", {"to": "+44 7700 900123", "text": "I'm sick today."}), "Sent.",
    )
    _, turn_id, events = await run_with_decisions(
        harness, "Text my manager that I'm sick today. My contacts are in contacts.md.", decide_with("once"))
    assert harness.sent(1)[-1]["content"] == (
        "not run: the user asked for a message, and write_file sends nothing: it would change a file nobody asked"
        " to change. Call send_message to send it.")
    assert [f.fate for f in of_type(events, "tool_finished")] == ["invalid", "ran"]
    assert (harness.env.workdir / "contacts.md").read_text() == CONTACTS.text
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert trace.passes[1].note.startswith("must call one of:") and "send_message" in trace.passes[1].note


@pytest.mark.parametrize(("request_text", "arguments", "left_out"), [
    ("Send this to Jo by text: 'Running late, start without me'.",
     {"to": "+44 7700 900777", "text": "I'll send the message to Jo by text."}, "Running late, start without me"),
    ("Send this to Jo by text: 'Running late, start without me'.",
     {"to": "+44 7700 900777", "text": "Running late - start without me!"}, None),  # carried, punctuation aside
    ('Email Tom, subject "Leave request", asking for Friday off.',
     {"to": "t@x.example", "subject": "Leave request", "body": "Can I have Friday off?"}, None),
    ("Text Petra that I'm late and we're fine.", {"to": "+44 7700 900123", "text": "Late."}, None),  # no quote
])
def test_a_message_without_the_words_the_user_quoted_goes_back(request_text, arguments, left_out):
    assert quote_left_out(request_text, arguments, frozenset({"to"})) == left_out


SHOWN_CONTACTS = (
    "--- contacts.md (whole file, 5 lines)\n# People\nTom (son) - mobile 07700 900123\n"
    "Riverside Vets - 01632 960111\nMike the plumber - mobile 07700 900789\nDr Weiss (GP) - +44 20 7946 0991\n"
)


@pytest.mark.parametrize(("request_text", "answer", "line"), [
    ("What's the dentist's phone number?", "07700 900789", "Mike the plumber - mobile 07700 900789"),
    ("What's the number for my dentist?", "It's 07700 900123.", "Tom (son) - mobile 07700 900123"),
    ("What's the plumber's number?", "07700 900789", None),
    ("What's Tom's mobile?", "07700 900123", None),
    ("What's the vet's number?", "01632 960111", None),  # "Vets" names the vet
    ("What's my doctor's number?", "+44 20 7946 0991", None),  # "Dr Weiss (GP)" is the doctor
    ("What's the dentist's phone number?", "I could not find the dentist's number.", None),
    ("Text the dentist 07700 900789.", "07700 900789", None),  # not a question
])
def test_a_number_from_a_line_about_someone_else_goes_back(request_text, answer, line):
    assert someone_elses_contact(answer, request_text, SHOWN_CONTACTS) == line
    claim = unbacked_claim(answer, [], builtin_registry(), request_text, documents_at_hand=True, seen=SHOWN_CONTACTS)
    assert (claim.quote if claim and claim.kind == "someone_else" else None) == line


SHOWN_PRESENTS = (
    "--- christmas.md (whole file, 5 lines)\n# Christmas presents\n- Mum: scarf (bought)\n- Dad: book\n"
    "- Sam: ?\n- Tom: lego\n"
)


@pytest.mark.parametrize(("request_text", "answer", "lines"), [
    ("What's Sam getting for Christmas?", "a lego",
     '"- Tom: lego", about someone else; the line about them is "- Sam: ?"'),
    ("What am I getting Sam?", "Sam is getting a scarf.",
     '"- Mum: scarf (bought)", about someone else; the line about them is "- Sam: ?"'),
    ("What's Sam getting for Christmas?", "Nothing is decided for Sam yet.", None),
    ("What's Tom getting for Christmas?", "Tom is getting lego.", None),  # his own line
    ("What's Priya getting?", "a lego", None),  # no line of hers: another check's business
    ("Give Sam the lego.", "a lego", None),  # not a question
    ("When is Sam getting his present?", "Tom: lego", '"- Tom: lego", about someone else; the line about them is "- Sam: ?"'),
])
def test_an_answer_from_another_persons_line_goes_back(request_text, answer, lines):
    assert someone_elses_line(answer, request_text, SHOWN_PRESENTS) == lines
    claim = unbacked_claim(answer, [], builtin_registry(), request_text, documents_at_hand=True, seen=SHOWN_PRESENTS)
    assert (claim.quote if claim and claim.kind == "someone_elses_line" else None) == lines


SHOWN_CAR_AND_DOG = (
    "<outside source=\"your files\">\n--- car.txt (whole file, 2 lines)\nMOT due 14 January\n"
    "Insurance: Direct Line, renews 20 February\n--- pets.md (whole file, 2 lines)\n# Biscuit (dog)\n"
    "Insurance renews 1 March\n</outside>\nWhen is the car's insurance due?"
)


@pytest.mark.parametrize(("request_text", "answer", "lines"), [
    ("When is the dog's insurance due?", "20 February",
     '"Insurance: Direct Line, renews 20 February" (car.txt), about something else; the line about the dog is'
     ' "Insurance renews 1 March" (pets.md)'),
    ("When is the dog's insurance due?", "It renews on 1 March.", None),
    ("When is the car's insurance due?", "20 February", None),  # the request's own words after the files name no car
    ("When is the dog's MOT due?", "14 January", None),  # no line of the dog's is for an MOT
    ("Tell me the dog's insurance date", "20 February", None),  # not a question
])
def test_an_answer_from_a_file_that_never_names_the_thing_asked_about_goes_back(request_text, answer, lines):
    assert another_owners_line(answer, request_text, SHOWN_CAR_AND_DOG) == lines


def test_a_labelled_line_far_from_the_persons_own_is_not_of_their_list():
    seen = "Rules: answer with lego bricks\n" + "\n" * 20 + SHOWN_PRESENTS.replace("- Tom: lego\n", "")
    assert someone_elses_line("a lego", "What's Sam getting for Christmas?", seen) is None


def test_a_line_whose_value_names_the_person_is_theirs_too():
    rota = "Mon: me\nTue: Jo\nWed: Sam\nFri: Jo\nJo: 07700 900 561\n"
    assert someone_elses_line("Tuesday and Friday.", "Which days is Jo driving?", rota) is None


LENT = "# Lent out\n- Dan: my drill (since October)\n- Priya: £40 for the concert tickets\n- Sam: £15 (taxi) (paid)\n"


@pytest.mark.parametrize(("answer", "lines"), [
    ("Dan owes you £40 for the concert tickets.",
     '"- Priya: £40 for the concert tickets", about Priya, not Dan; the line about Dan is "- Dan: my drill (since October)"'),
    ("Priya owes you £40.", None),
    ("Priya owes you £40 and Sam £15.", None),  # each their own
    ("You are owed £55.", None),  # no one named
])
def test_one_persons_money_given_as_anothers_goes_back_with_both_lines(answer, lines):
    assert another_names_money(answer, "Who owes me money?", LENT) == lines


RECIPE = Document("recipes/pancakes.md", "# Pancakes (makes 8)\n- 100g plain flour\n- 2 eggs\n- 300ml milk\n")
WEEK = Document("week.md", "# Week plan\nMonday: gym\nTuesday: curry night\n")


@pytest.mark.parametrize(("request_text", "body", "carried"), [
    ("Email Grandma the pancake recipe.", "Here's the pancake recipe. Enjoy!",
     "Here's the pancake recipe. Enjoy!\n\n" + RECIPE.text.strip()),
    ("Send the week plan to Jo.", "Here is the week plan.", "Here is the week plan.\n\n" + WEEK.text.strip()),
    ("Email Jo the week plan.", "Monday: gym\nTuesday: curry night", None),  # it holds the plan
    ("Email Jo that the week plan is done.", "The week plan is done.", None),  # a message about it
    ("Email Jo the car reg.", "The reg is KX19 ABC.", None),  # no document is the car reg
    ("Send my week plan to Jo.", "Please find attached your week plan.",
     "Please find attached your week plan.\n\n" + WEEK.text.strip()),
])
def test_a_message_asked_to_carry_a_document_carries_it(request_text, body, carried):
    context = GateContext(request=request_text, documents=[RECIPE, WEEK])
    put_right = with_the_document_asked({"to": "jo@mail.example", "body": body}, context)
    assert (put_right[0]["body"] if put_right else None) == carried


def test_a_list_asked_for_by_its_files_name_is_carried():
    shopping = Document("shopping.txt", "flour\neggs\ncheddar\n")
    context = GateContext(request="Send my shopping list to Tom.", documents=[RECIPE, shopping])
    put_right = with_the_document_asked({"to": "07700 900123", "text": "Here is your shopping list."}, context)
    assert put_right is not None and put_right[0]["text"] == "Here is your shopping list.\n\nflour\neggs\ncheddar"


async def test_someone_elses_number_goes_back_and_not_finding_it_is_the_answer(harness):
    await harness.start()
    (harness.env.workdir / "contacts.md").write_text("# People\nMike the plumber - mobile 07700 900789\n")
    harness.model.enqueue("07700 900789", "I could not find the dentist's phone number in your files.")
    _, events = await harness.turn("What's the dentist's phone number?", headless=True)
    assert harness.sent(1)[-1]["content"].startswith(
        "[Saturn check] Your answer's number or address comes from the line \"Mike the plumber - mobile 07700 900789\"")
    answer = of_type(events, "answer")[-1]
    assert (answer.text, answer.note) == ("I could not find the dentist's phone number in your files.", "")


async def test_someone_elses_number_goes_back_with_their_own_line_where_one_is_shown(harness):
    await harness.start()
    (harness.env.workdir / "contacts.md").write_text(
        "# Contacts\n- Petra Novak (manager): +44 7700 900123\n- Dr Weiss (GP, Elm Street surgery): +44 20 7946 0991\n")
    harness.model.enqueue("+44 7700 900123", "+44 20 7946 0991")
    _, events = await harness.turn("What's my doctor's phone number?", headless=True)
    assert "- Dr Weiss (GP, Elm Street surgery): +44 20 7946 0991" in harness.sent(1)[-1]["content"]
    assert of_type(events, "answer")[-1].text == "+44 20 7946 0991"


async def test_the_someone_else_send_back_given_back_is_answered_not_found(harness):
    await harness.start()
    (harness.env.workdir / "contacts.md").write_text("# People\nMike the plumber - mobile 07700 900789\n")
    harness.model.enqueue("07700 900789", "I could not find it; never give someone else's.")
    _, events = await harness.turn("What's the dentist's phone number?", headless=True)
    assert of_type(events, "answer")[-1].text == "I could not find the dentist's phone number in your files."


def test_the_file_with_the_messaged_persons_number_is_shown_though_it_ranks_low():
    documents = [
        Document("party-guests.csv", "name,rsvp\nLeo,yes\nPriya,\nSam,yes\n"),
        Document("contacts.md", "# Contacts\n- Leo: 07700 900101\n- Sam: 07700 900103\n"),
        Document("pocket-money.csv", "week,Ava,Leo\n2026-11-08,5,4\n"),
    ]
    request = "Text Leo that the party starts at 7."
    assert contact_sources(request, documents) == {"contacts.md"}
    shown = [part.source for part in relevant_excerpts(request, documents, wanted=contact_sources(request, documents))]
    assert "contacts.md" in shown and "contacts.md" not in [part.source for part in relevant_excerpts(request, documents)]


def test_a_thing_the_message_sends_is_no_one_to_message_but_a_second_role_messaged_is():
    assert people_messaged("Tell Lena I'll send the invoice tomorrow.") == ["lena"]
    assert people_messaged("Email the plumber and text the electrician that the job is off.") == ["electrician", "plumber"]


def test_a_greeting_to_send_is_the_message():
    assert message_asked("Text Aunt Rose happy birthday from all of us.") == "Happy birthday from all of us."
    assert message_asked("Email Jo good luck for tomorrow") == "Good luck for tomorrow!"


def test_a_message_goes_without_a_sentence_saying_the_user_did_what_they_never_said():
    request = "Email my landlord that the boiler's stopped working."
    body = ("Dear Raj,\nThe boiler in my flat has stopped working. I have tried to contact the landlord to check if they"
            " can fix it, but they have not responded yet. Could you send someone?")
    fixed = without_made_up_doings({"to": "raj@example.com", "body": body}, request)
    assert fixed is not None and fixed[0]["body"] == "Dear Raj,\nThe boiler in my flat has stopped working. Could you send someone?"
    asked = "Email my landlord that I've tried resetting the boiler and it's still off."
    assert without_made_up_doings({"to": "raj@example.com", "body": "I have tried resetting the boiler."}, asked) is None


async def test_one_persons_money_given_as_anothers_twice_is_answered_with_the_owner(harness):
    await harness.start()
    (harness.env.workdir / "lent.md").write_text(LENT)
    harness.model.enqueue("Dan owes you £40 for the concert tickets.", "Dan owes you £40.")
    _, events = await harness.turn("Who owes me money?", headless=True)
    assert of_type(events, "answer")[-1].text == "Priya owes you £40."
