"""A price list of jobs and a log of who did which (chores.py)."""

from saturnd.turn.chores import done_jobs_priced
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.marks import job_logged
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
