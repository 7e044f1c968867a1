"""When the next dose may be given (doses.py)."""

from datetime import date

from saturnd.turn.doses import next_dose

RUBY = ("ruby.md", ["# Ruby", "Calpol: 5 ml, at least 4 hours apart, no more than 4 doses in 24 hours"])
GIVEN = ("calpol.csv", ["date,time,dose ml,given by", "2026-12-04,06:10,5,me", "2026-12-04,10:20,5,Sam"])
TODAY = date(2026, 12, 4)


def test_the_next_dose_is_the_last_plus_the_spacing_and_the_rest_of_the_days_most():
    assert next_dose("When can she have her next dose?", [RUBY, GIVEN], TODAY) == (
        '[Saturn worked out] last given 10:20 on Friday 4 December; "Calpol: 5 ml, at least 4 hours apart, no more than 4'
        ' doses in 24 hours": next from 14:20; given today: 2 of no more than 4, so 2 more')


def test_a_late_dose_moves_the_next_to_tomorrow_and_other_questions_get_nothing():
    late = ("calpol.csv", ["date,time,dose ml", "2026-12-04,22:30,5"])
    assert "next from 02:30 tomorrow" in next_dose("When's the next dose?", [RUBY, late], TODAY)
    assert next_dose("What's the GP's number?", [RUBY, GIVEN], TODAY) == ""
