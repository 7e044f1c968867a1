"""An answer that copies Saturn's note to the model is replaced by what was not done."""

from __future__ import annotations

import pytest

from protocol.methods import CallTrace, PassTrace
from saturnd.turn.echoed_instructions import echoes_instructions, not_done_account, off_the_errand
from saturnd.turn.review import UNFIT
from saturnd.turn.tool_round import DECLINED_BY_USER, NOBODY_TO_APPROVE


@pytest.mark.parametrize(("answer", "echoes"), [
    (DECLINED_BY_USER, True),
    ("The user declined this call. Do not retry it or work around it; say what was not done.", True),
    (NOBODY_TO_APPROVE.format(tool="send_email", because=""), True),
    ("Do not\nretry it or work around it.", True),
    ("You declined the email, so Tom was not told.", False),
    ("I won't retry it.", False),
    (UNFIT.format(tool="bfcl.create_workspace"), True),
    ("The line added was not as the user worded it or as todo.txt writes its lines: the call wrote it so, its other"
     " lines as they were.", True),  # a put-right's note (prompts.ITEM_PUT_RIGHT) given back
    ("The change rewrote more of its line than the time asked: the call wrote only that time anew in kids.md.", True),
    ("The user asked to remind Mia about the bins tonight, but no tool has done it yet. If one of the tools can do it,"
     " call it now. If none can, tell the user plainly that it was not done.", True),  # the send-back, thought over
    ("I'll call it a day.", False),
    ("The user asked you to do something, and no tool has done it: your answer \"3 hours\" changes nothing.", True),
    ("You asked me to log it, and I did.", False),
    ("I don't know, do what you can.. Call write_file again with what the user said.", True),  # a value's send-back
])
def test_echoes_instructions(answer, echoes):
    assert echoes_instructions(answer) is echoes


def _pass(*calls: tuple[str, str]) -> PassTrace:
    return PassTrace(index=1, step="first_move", calls=[
        CallTrace(call_id=str(i), name=name, arguments="{}", fate=fate) for i, (name, fate) in enumerate(calls)
    ])


def test_not_done_account_names_each_declined_or_unapproved_call_once():
    passes = [_pass(("read_file", "ran"), ("send_email", "declined")), _pass(("send_email", "declined")),
              _pass(("run_command", "not_approved"))]
    assert not_done_account(passes) == (
        "Not done: send_email, because you declined it. Not done: run_command needs your approval and"
        " nobody was here to give it (--allow run_command approves it ahead)."
    )
    assert not_done_account([_pass(("read_file", "ran"))]) == ""


@pytest.mark.parametrize(("answer", "off"), [
    ("The cottage is a cottage.", True),  # told "Omar paid.", his row marked
    ("Omar's booking is now paid.", False),
    ("Message sent.", False),  # an account in its own words
    ("", False),
])
def test_an_answer_saying_nothing_of_the_errand_done_is_off_it(answer, off):
    assert off_the_errand(answer, "Omar paid.", []) is off


def test_an_answer_giving_a_figure_neither_the_request_nor_the_write_holds_is_off_the_errand():
    written = _pass(("write_file", "ran"))
    written.calls[0].arguments = '{"path": "feeds.csv", "content": "date,time,minutes\\n2026-12-04,12:05,16\\n2026-12-04,15:30,14\\n"}'
    request = "Fed her just now at 15:30, 14 minutes."
    assert off_the_errand("The total minutes over the left rows is 43.", request, [written])
    assert not off_the_errand("Logged: fed at 15:30 on 4 December for 14 minutes.", request, [written])
    texted = _pass(("send_message", "ran"))
    texted.calls[0].arguments = '{"to": "07700 900903", "text": "Just chasing up the invoice."}'
    assert off_the_errand("Message sent to Lena@harbourcafe.example.", "Text Lena to chase the invoice.", [texted])
    assert not off_the_errand("Message sent to 07700 900903.", "Text Lena to chase the invoice.", [texted])


def test_an_answer_naming_another_line_of_the_write_than_the_thing_told_is_off_the_errand():
    written = _pass(("write_file", "ran"))
    written.calls[0].arguments = ('{"path": "library.md", "content": "| The Salt Path | 2026-12-05 |\\n'
                                  '| Wolf Hall (returned) | 2026-12-11 |\\n"}')
    request = "I've taken Wolf Hall back."
    assert off_the_errand("The Salt Path (returned) has been updated in the library.", request, [written])
    assert not off_the_errand("Marked Wolf Hall as returned.", request, [written])
    assert not off_the_errand("Done.", request, [written])
