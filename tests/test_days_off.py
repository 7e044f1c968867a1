from saturnd.turn.days_off import days_off_added
from saturnd.turn.retrieval import Document

LEAVE = Document("leave.md", "# Annual leave 2026\nAllowance: 25 days\n\nTaken:\n- 3 March (1 day)\n- 14 to 18 July (5 days)\n")


def test_a_span_of_days_off_goes_on_the_list_with_its_days_counted_as_the_list_counts_them():
    assert days_off_added("I'm taking 21 to 23 December off, add it.", [LEAVE]).content == (
        LEAVE.text + "- 21 to 23 December (3 days)\n")
    assert days_off_added("Add 4 January as a day off.", [LEAVE]).content == LEAVE.text + "- 4 January (1 day)\n"


def test_no_line_without_a_list_counting_days_or_an_add():
    assert days_off_added("How many days did I take in July?", [LEAVE]) is None
    assert days_off_added("I'm taking 21 to 23 December off, add it.", [Document("notes.md", "- 3 March\n")]) is None
