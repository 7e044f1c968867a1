"""Which weekly and fortnightly things fall on the day or week a request names (repeats.py)."""

from __future__ import annotations

from datetime import date

from saturnd.turn.repeats import repeats_on

FRIDAY = date(2026, 12, 4)
HOUSE = ["- Electrician: Spark Bros 01632 960771", "- Bins: black Tues weekly, blue every other Friday (next 4 Dec)"]


def test_a_day_asked_gets_the_repeats_falling_on_it_or_none():
    assert repeats_on(HOUSE, "Is it bin day tomorrow?", FRIDAY) == (
        "[Saturn dated] tomorrow, Saturday 5 December: no line here is for that day")
    assert repeats_on(HOUSE, "Is it bin day on Tuesday?", FRIDAY) == "[Saturn dated] Tuesday 8 December: Bins: black Tues weekly"
    assert repeats_on(HOUSE, "Which bin goes out on the 18th?", FRIDAY) == (
        "[Saturn dated] the 18th, Friday 18 December: blue every other Friday (next 4 Dec)")


def test_a_week_asked_gets_each_repeat_in_it_or_not():
    assert repeats_on(HOUSE, "Which bin goes out next week?", FRIDAY) == (
        "[Saturn dated] next week (7 December to 13 December): Bins: black Tues weekly: Tuesday 8 December; blue every other"
        " Friday (next 4 Dec): not that week")
    helpers = ["- Cleaner (Marta): Fridays 9-12, £15 an hour"]
    assert repeats_on(helpers, "Who comes on Fridays?", FRIDAY) == (
        "[Saturn dated] Friday 4 December: Cleaner (Marta): Fridays 9-12")  # with its label: who comes


def test_no_repeat_no_line_and_a_fortnight_from_no_date_is_not_guessed():
    assert repeats_on(["Bins: blue every other Friday"], "Is it bin day tomorrow?", FRIDAY) == ""
    assert repeats_on(["Swimming Tuesday 5pm"], "Is there swimming on Tuesday?", FRIDAY) == ""


def test_a_word_opening_like_a_weekday_is_no_weekday():
    assert repeats_on(["Pocket money paid on Saturdays."], "When do I pay pocket money this week?", FRIDAY) == (
        "[Saturn dated] this week (30 November to 6 December): Pocket money paid on Saturdays.: Saturday 5 December")


def test_every_other_weekday_with_its_next_day_in_the_next_clause_is_not_this_one():
    home = ["Bin day Tuesday. Recycling every other Friday, next 11 Dec."]
    assert repeats_on(home, "Is it recycling this Friday?", FRIDAY) == (
        "[Saturn dated] Friday 4 December: Recycling every other Friday: not this one")
    assert repeats_on(home, "Is it recycling next Friday?", FRIDAY) == (
        "[Saturn dated] Friday 11 December: Recycling every other Friday")


def test_a_repeats_clause_keeps_a_time_written_with_a_colon():
    office = ["- Post office on the High Street closes 5:30pm, Saturdays 12:30pm"]
    assert repeats_on(office, "What time does the post office close on Saturday?", FRIDAY) == (
        "[Saturn dated] Saturday 5 December: Saturdays 12:30pm")  # not "30pm"
