"""The unbacked-claim policy: which answers say something was done, and when a call backs them."""

from __future__ import annotations

import pytest

from protocol.methods import CallTrace, PassTrace
from saturnd.tools import builtin_registry
from saturnd.turn.claims import claimed_action, unbacked_claim


@pytest.mark.parametrize(("answer", "claim"), [
    ("Email sent to Tom Berg with the subject 'Budget'.", "Email sent"),
    ("The heating in the living room has been turned up to 22 degrees.", "has been turned"),
    ("I've sent Petra a text saying you'll be late.", "I've sent"),
    ("I have just saved the total to total.txt.", "I have just saved"),
    ("I booked a table for two at 8pm.", "I booked"),
    ("Your order has now been placed.", "has now been placed"),
    ("Done. Message delivered to Sam.", "Message delivered"),
    ("Sure! I have ordered a burger with no onions.", "I have ordered"),
    ("I haven't sent anything: sending email needs your approval.", None),
    ("I have not saved the file.", None),
    ("The email to Tom was sent on Monday, according to notes.txt.", None),
    ("Your dentist appointment is on 14 March.", None),
    ("I can send the email once you give me Tom's address.", None),
    ("I'm sorry, but I can't order pizza for you.", None),
    ("The file notes.txt says to call the plumber.", None),
    ("Which file should I read?", None),
])
def test_claimed_action(answer, claim):
    assert claimed_action(answer) == claim


def _passes(*calls: tuple[str, str]) -> list[PassTrace]:
    return [PassTrace(index=1, step="first_move", calls=[
        CallTrace(call_id=f"c{i}", name=name, arguments="{}", fate=fate) for i, (name, fate) in enumerate(calls)
    ])]


@pytest.mark.parametrize(("calls", "unbacked"), [
    ((), True),
    ((("read_file", "ran"), ("list_dir", "ran")), True),  # lookups change nothing
    ((("send_email", "declined"),), True),  # declined: nothing was sent
    ((("send_email", "error"),), True),
    ((("send_email", "ran"),), False),
    ((("write_file", "ran"),), False),
    ((("remember", "ran"),), False),  # "I've saved that" is true after remember
])
def test_a_claim_is_unbacked_until_a_call_that_changes_something_ran(calls, unbacked):
    claim = unbacked_claim("I've sent it.", _passes(*calls), builtin_registry())
    assert (claim == "I've sent") is unbacked
