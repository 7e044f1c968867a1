"""A thing put in a diary of dated lines (diary_adds.py)."""

from datetime import date

from saturnd.turn.diary_adds import diary_line_added
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.retrieval import Document

DIARY = Document("diary.txt", "Mon 7 Dec - dentist 8:40\nTue 8 Dec - nativity play 2pm\nThu 10 Dec - book club 7.30pm\n")
TODAY = date(2026, 12, 4)


def test_a_thing_put_in_for_a_day_is_a_line_written_as_the_diarys_among_its_days_in_order():
    assert diary_line_added("Put the boiler man in for Wednesday at 9am.", [DIARY], TODAY) == ListToWrite(
        "diary.txt", "Mon 7 Dec - dentist 8:40\nTue 8 Dec - nativity play 2pm\nWed 9 Dec - boiler man 9am\n"
                     "Thu 10 Dec - book club 7.30pm\n")
    assert diary_line_added("Add the optician on Monday at 3pm to my diary.", [DIARY], TODAY).content.startswith(  # type: ignore[union-attr]
        "Mon 7 Dec - dentist 8:40\nMon 7 Dec - optician 3pm\n")


def test_no_day_or_no_diary_gives_nothing():
    assert diary_line_added("Put the boiler man in.", [DIARY], TODAY) is None
    assert diary_line_added("Put bread on Friday's list.", [Document("list.txt", "milk\neggs\n")], TODAY) is None
