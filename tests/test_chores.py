"""A price list of jobs and a log of who did which (chores.py)."""

import json
from datetime import date

from saturnd.model.types import ToolCall
from saturnd.tools import builtin_registry
from saturnd.turn import review
from saturnd.turn.chores import done_jobs_priced
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.loop_rules import CallLedger
from saturnd.turn.marks import job_logged
from saturnd.turn.ready_calls import ready_write_of
from saturnd.turn.retrieval import Document

CHORES = ("# Chores\nWash the car: £2\nHoover the stairs: £1\nEmpty the dishwasher: 50p\n\n## Done this week\n"
          "- Maya: wash the car\n- Theo: empty the dishwasher\n")


def test_the_jobs_done_come_to_their_prices_each_persons_and_in_all():
    assert done_jobs_priced(CHORES.splitlines(), "How much extra do I owe the kids for chores this week?") == (
        "[Saturn worked out] the jobs done at their prices: Maya wash the car 2.00; Theo empty the dishwasher 0.50;"
        " by person: Maya 2.00, Theo 0.50; in all 2.50")
    assert done_jobs_priced(CHORES.splitlines(), "Which chores did Maya do?") == ""


def test_a_job_told_done_is_logged_in_the_done_list_as_its_items_are_written():
    assert job_logged("Theo hoovered the stairs today.", [Document("chores.md", CHORES)]) == ListToWrite(
        "chores.md", CHORES + "- Theo: hoover the stairs\n")
    assert job_logged("Theo painted the fence today.", [Document("chores.md", CHORES)]) is None  # no such job


def test_the_ready_write_for_a_job_told_done_logs_it_and_marks_no_price():
    write = ready_write_of("Theo hoovered the stairs today.", [Document("chores.md", CHORES)], "/nowhere", date(2026, 12, 4))
    assert write == ListToWrite("chores.md", CHORES + "- Theo: hoover the stairs\n")


def test_a_write_marking_the_price_list_for_a_job_told_done_goes_back_with_the_job_logged(tmp_path):
    (tmp_path / "chores.md").write_text(CHORES)
    marked = CHORES.replace("Hoover the stairs: £1", "Hoover the stairs: £1 (done)")
    context = review.GateContext(cwd=str(tmp_path), request="Theo hoovered the stairs today.",
                                 documents=[Document("chores.md", CHORES)])

    def decided(content: str) -> review.Decision:
        call = ToolCall(id="c1", name="write_file", arguments=json.dumps({"path": "chores.md", "content": content}))
        return review.review_calls([call], builtin_registry(), CallLedger(), 4, context)[0]

    sent_back = decided(marked)
    assert sent_back.fate == "invalid" and sent_back.result.endswith(CHORES + "- Theo: hoover the stairs\n")
    assert decided(CHORES + "- Theo: hoover the stairs\n").fate != "invalid"
