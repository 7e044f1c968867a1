"""Fines owed at a rate a day over the days each loan is late (fines.py)."""

from datetime import date

from saturnd.turn.fines import fines_owed
from saturnd.turn.retrieval import Document

TODAY = date(2026, 12, 4)
LIBRARY = Document("library.md", "# Library\nFines: 25p a day per book\nOpen Tue-Sat 9-5\n")
LOANS = Document("loans.csv", "title,author,borrowed,due,returned\nThe Salt Path,Raynor Winn,2026-11-10,2026-12-01,\n"
                              "Intermezzo,Sally Rooney,2026-11-20,2026-12-11,\nOrbital,Samantha Harvey,2026-10-30,2026-11-20,2026-11-19\n")


def test_fines_are_the_days_each_loan_not_returned_is_late_at_the_rate_a_day():
    assert fines_owed("How much do I owe in fines?", [LIBRARY, LOANS], TODAY) == (
        '[Saturn worked out] fines at "Fines: 25p a day per book": The Salt Path 3 days late × 0.25 = 0.75; in all 0.75 (75p)')


def test_no_fine_is_worked_out_unasked_or_without_a_rate_and_none_is_owed_where_nothing_is_late():
    assert fines_owed("Which books are overdue?", [LIBRARY, LOANS], TODAY) == ""
    assert fines_owed("How much do I owe in fines?", [LOANS], TODAY) == ""
    assert fines_owed("Do I owe any fines?", [LIBRARY, LOANS], date(2026, 11, 30)).endswith("so none")
