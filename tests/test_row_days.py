from datetime import date

from saturnd.tools.table_sums import table_totals
from saturnd.turn.date_checks import against_its_end
from saturnd.turn.row_days import runs_out, stock_runs_out, yearly_next

TODAY = date(2026, 12, 4)
BIRTHDAYS = ["name,birthday,budget", "Mum,1962-12-19,60", "Jake,2015-01-08,40", "Priya,1990-12-11,30",
             "Leap,2000-02-29,10"]


def test_birthdays_are_told_by_the_day_each_next_falls_with_the_age_it_brings():
    said = yearly_next("birthdays.csv", BIRTHDAYS, "Whose birthday is next?", TODAY)
    assert said.startswith("[Saturn dated] birthday next, soonest first: Priya 11 December 2026 (a Friday, in 7 days),"
                           " turns 36; Mum 19 December 2026")
    assert "Jake 8 January 2027 (a Friday, in 35 days (5 weeks)), turns 12" in said
    assert "Leap 1 March 2027" in said  # no 29 February in 2027


def test_a_person_named_gets_their_row_alone():
    said = yearly_next("birthdays.csv", BIRTHDAYS, "How old will Jake be?", TODAY)
    assert said == "[Saturn dated] birthday next, soonest first: Jake 8 January 2027 (a Friday, in 35 days (5 weeks)), turns 12"


def test_asked_how_old_someone_is_their_age_now_comes_first():
    pets = ["pet,kind,born,weight kg", "Biscuit,dog,2019-05-14,18.2", "Miso,cat,2022-08-30,4.6"]
    assert yearly_next("pets.csv", pets, "How old is Biscuit?", TODAY) == (
        "[Saturn dated] birthday next, soonest first: Biscuit is 7 now (born 14 May 2019); next birthday 14 May 2027"
        " (a Friday, in 161 days (23 weeks)), turns 8")


def test_a_table_of_one_row_a_thing_by_the_day_each_was_born_is_no_level_over_time():
    pets = "pet,born,weight kg\nBiscuit,2019-05-14,18.2\nMiso,2022-08-30,4.6\n"
    assert "levels over time" not in table_totals("pets.csv", pets, "How heavy is Miso?")


def test_other_tables_and_files_have_no_yearly_days():
    assert yearly_next("log.csv", ["date,kg", "2026-06-10,14.2", "2026-08-05,14.9"], "When?", TODAY) == ""
    assert yearly_next("notes.md", ["Mum's birthday 19 December"], "When?", TODAY) == ""


def test_a_birthday_today_is_today_not_next_year():
    said = yearly_next("b.csv", ["who,born", "Ann,1980-12-04", "Bo,1981-12-03"], "Whose birthday is next?", TODAY)
    assert "Ann 4 December 2026 (a Friday, today), turns 46; Bo 3 December 2027" in said


def test_birthday_budgets_sum_by_the_month_they_fall_in_not_the_birth_year():
    asked = table_totals("birthdays.csv", "\n".join(BIRTHDAYS), "How much do I need for December birthdays?",
                         today=TODAY)
    assert asked == "[Saturn worked out] totals over the December 2026 rows (2): budget = 90"
    every = table_totals("birthdays.csv", "\n".join(BIRTHDAYS), "What's the gift budget?", today=TODAY)
    assert "budget by month: December 2026 90, January 2027 40, March 2027 10" in every
    assert "the row: name Jake, birthday 2015-01-08 (next 2027-01-08)" in table_totals(
        "birthdays.csv", "\n".join(BIRTHDAYS), "What am I getting Jake?", today=TODAY)


WARRANTIES = ["item,bought,years,shop", "fridge freezer,2023-08-19,5,Currys", "dishwasher,2024-11-30,2,AO",
              "TV,2022-12-26,3,Argos"]


def test_a_day_and_how_long_it_lasts_give_each_rows_end_soonest_first():
    said = runs_out("warranties.csv", WARRANTIES, "Which warranty ends first?", TODAY)
    assert said == ("[Saturn dated] when each runs out, soonest first; TV 26 December 2025 (2022-12-26 + 3 years): 343 days"
                    " ago (49 weeks) (ended); dishwasher 30 November 2026 (2024-11-30 + 2 years): 4 days ago (ended); fridge"
                    " freezer 19 August 2028 (2023-08-19 + 5 years): in 624 days (89 weeks 1 day) (still holds)")
    ended = runs_out("warranties.csv", WARRANTIES, "Is the dishwasher still under warranty?", TODAY)
    assert ended == ("[Saturn dated] when each runs out, soonest first; dishwasher 30 November 2026 (2024-11-30 + 2 years):"
                     " 4 days ago (ended)")
    assert against_its_end("Yes, it is still under warranty.", "Is the dishwasher still under warranty?", ended) == (
        "dishwasher 30 November 2026 (2024-11-30 + 2 years): 4 days ago (ended)")
    assert against_its_end("The dishwasher is still under warranty, bought 2024-11-30.", "Is the dishwasher still under"
                           " warranty?", ended) == "dishwasher 30 November 2026 (2024-11-30 + 2 years): 4 days ago (ended)"
    assert against_its_end("It has expired.", "Is the dishwasher still under warranty?", ended) is None


def test_asked_how_old_a_thing_is_its_day_is_told_as_how_long_ago():
    assert runs_out("warranties.csv", WARRANTIES, "How old is the fridge freezer?", TODAY) == (
        "[Saturn dated] fridge freezer, bought 2023-08-19: 3 years 3 months ago")
    assert runs_out("log.csv", ["date,kg", "2026-06-10,14.2", "2026-08-05,14.9"], "When?", TODAY) == ""


def test_asked_of_a_year_only_the_ends_in_it_are_told():
    assert runs_out("warranties.csv", WARRANTIES, "Which warranties run out next year?", TODAY) == (
        "[Saturn dated] none runs out in 2027")
    assert runs_out("warranties.csv", WARRANTIES, "What runs out in 2028?", TODAY).endswith(
        "fridge freezer 19 August 2028 (2023-08-19 + 5 years): in 624 days (89 weeks 1 day) (still holds)")


def test_what_is_left_at_so_many_a_day_runs_out_on_its_day():
    meds = ["medicine,dose,times a day,tablets left", "Amlodipine,5mg,1,24", "Metformin,500mg,2,30", "Atorvastatin,20mg,1,9"]
    today = date(2026, 12, 4)
    assert stock_runs_out("meds.csv", meds, "When will Dad run out of metformin?", today) == (
        "[Saturn dated] when each runs out at its use a day, soonest first: Metformin 30 ÷ 2 a day = 15 days:"
        " 19 December 2026 (a Saturday, in 15 days (2 weeks 1 day))")
    assert stock_runs_out("meds.csv", meds, "Which tablets will run out first?", today).startswith(
        "[Saturn dated] when each runs out at its use a day, soonest first: Atorvastatin 9 ÷ 1 a day = 9 days")
    assert stock_runs_out("meds.csv", meds, "What dose is metformin?", today) == ""


def test_how_long_until_a_pot_reaches_its_target_at_what_a_line_puts_in_it_a_month():
    from saturnd.turn.to_go import months_to_target
    pots = ("pots.csv", ["pot,saved,target", "holiday,1240,2000", "new car,3500,8000"])
    savings = ("savings.md", ["# Savings", "Paid in every month on the 28th: holiday £150, new car £300."])
    assert months_to_target("How long until I've got enough for the new car?", [pots, savings]) == (
        '[Saturn worked out] new car: target 8000 - saved 3500 = 4500 to go; at 300 a month ("Paid in every month on'
        ' the 28th: holiday £150, new car £300."): 4500 / 300 = 15 months, rounded up')
    assert months_to_target("How much have I saved for the new car?", [pots, savings]) == ""
