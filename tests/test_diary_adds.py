"""A thing put in a diary of dated lines (diary_adds.py)."""

from datetime import date, time

from saturnd.turn.diary_adds import cancelled_on_the_day, diary_line_added, moved_to_a_day
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


MONTH = Document("diary.md", "# December\n- Sat 5: swimming 9am (Ella), Dan's drinks 7pm\n- Sun 6: lunch at Mum's 1pm\n"
                             "- Tue 8: dentist 4:15pm\n- Sat 12: swimming 9am (Ella)\n")


def test_a_diary_of_a_months_days_without_the_month_gets_a_line_as_it_writes_them():
    assert diary_line_added("Add the boiler service on Monday at 8am.", [MONTH], TODAY) == ListToWrite(
        "diary.md", MONTH.text.replace("- Tue 8", "- Mon 7: boiler service 8am\n- Tue 8"))


def test_a_thing_cancelled_on_a_day_loses_that_days_line_or_its_clause_of_it():
    assert cancelled_on_the_day("Cancel swimming on the 12th.", [MONTH], TODAY) == ListToWrite(
        "diary.md", MONTH.text.replace("- Sat 12: swimming 9am (Ella)\n", ""))
    assert cancelled_on_the_day("Cancel swimming on Saturday.", [MONTH], TODAY) == ListToWrite(
        "diary.md", MONTH.text.replace("swimming 9am (Ella), Dan's", "Dan's"))
    assert cancelled_on_the_day("Cancel the dentist on Friday.", [MONTH], TODAY) is None  # not that day's


def test_a_thing_moved_to_another_day_goes_to_that_days_place_with_the_time_asked_or_its_own():
    assert moved_to_a_day("Move the dentist to Thursday at 10am.", [DIARY], TODAY) == ListToWrite(
        "diary.txt", "Tue 8 Dec - nativity play 2pm\nThu 10 Dec - book club 7.30pm\nThu 10 Dec - dentist 10am\n")
    assert moved_to_a_day("Move the dentist to Friday.", [MONTH], TODAY) == ListToWrite(  # a Friday: the coming one
        "diary.md", "# December\n- Sat 5: swimming 9am (Ella), Dan's drinks 7pm\n- Sun 6: lunch at Mum's 1pm\n"
                    "- Sat 12: swimming 9am (Ella)\n".replace("- Sat 12", "- Fri 11: dentist 4:15pm\n- Sat 12"))
    assert moved_to_a_day("Move swimming to Sunday.", [MONTH], TODAY) is None  # two days of it


def test_a_weekday_that_is_today_at_a_time_gone_is_next_weeks():
    friday = date(2026, 12, 4)
    diary = Document("diary.txt", "Fri 4 Dec - dentist 8:40\nTue 8 Dec - nativity play 2pm\nFri 11 Dec - book club 7.30pm\n")
    assert diary_line_added("Put the boiler man in for Friday at 9am.", [diary], friday, time(15, 0)).content == (  # type: ignore[union-attr]
        "Fri 4 Dec - dentist 8:40\nTue 8 Dec - nativity play 2pm\nFri 11 Dec - book club 7.30pm\nFri 11 Dec - boiler man 9am\n")
    assert "Fri 4 Dec - boiler man 5pm" in diary_line_added(  # type: ignore[union-attr]
        "Put the boiler man in for Friday at 5pm.", [diary], friday, time(15, 0)).content  # still to come today
