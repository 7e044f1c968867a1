"""Days from today to the dates the ground shows (dates.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from saturnd.tools import builtin_registry
from saturnd.tools.table_dates import dates_by_column
from saturnd.tools.table_sums import table_totals
from saturnd.turn.claims import unbacked_claim
from saturnd.turn.date_checks import (
    against_a_none_line,
    against_its_line,
    another_entrys_date,
    miscounted_days,
    next_due_missed,
    none_on_the_days_missed,
    not_due_named,
    not_on_that_day,
    soonest_unnamed,
    worked_out_date,
    yes_or_no_against_the_rows,
)
from saturnd.turn.dates import (
    before_day,
    dated,
    days_meant,
    days_named,
    holidays_named,
    months_meant,
    months_written,
    ways_written,
    week_named,
)
from saturnd.turn.day_lines import on_the_days
from saturnd.turn.ground import Ground, build_ground
from saturnd.turn.line_rates import amounts_by_period, at_a_rate, count_by_period
from saturnd.turn.pots import amount_added, progress
from saturnd.turn.repeats import age, lasts_until, next_due
from saturnd.turn.retrieval import Document, Excerpt, rank, relevant_excerpts, render_excerpts
from saturnd.turn.shares import percent_of_the_total, shares, table_share
from saturnd.turn.time_lines import (
    at_that_time_of_day,
    in_the_month,
    in_the_year,
    just_gone,
    span_ends,
)
from saturnd.turn.worked_lines import (
    bracketed_counts,
    list_amounts,
    most_of_a_list,
    quantities_summed,
    ratings,
    scaled_recipe,
    still_to_pay,
)
from saturnd.turn.worked_times import (
    another_journeys_time,
    arrival_for_leaving,
    arrival_times,
    before_the_day_asked,
    before_the_event,
    lengths_summed,
    time_between,
    times_worked_out,
)
from tests.conftest import of_type

TODAY = date(2026, 12, 2)  # a Wednesday
KIDS = ["# School", "Swimming: Wednesday 16:30", "Parents evening: 4 December 18:00", "- Nina: 19 July"]


@pytest.mark.parametrize(("request_text", "said"), [
    ("How many days until parents evening?",
     "[Saturn dated] Swimming, 2 December 2026: a Wednesday, today; Parents evening, 4 December 2026: a Friday, in 2"
     " days; Nina, 19 July 2027: a Monday, in 229 days"
     " (32 weeks 5 days)"),
    ("What day of the week is Nina's birthday?",
     "[Saturn dated] Swimming, 2 December 2026: a Wednesday, today; Parents evening, 4 December 2026: a Friday, in 2"
     " days; Nina, 19 July 2027: a Monday, in 229 days"
     " (32 weeks 5 days)"),
    ("When is parents evening?", ""),  # the date itself answers
    ("What's coming up next?",
     "[Saturn dated] soonest first: Swimming, 2 December 2026: a Wednesday, today; Parents evening, 4 December 2026:"
     " a Friday, in 2 days; Nina, 19 July 2027:"
     " a Monday, in 229 days (32 weeks 5 days)"),
    ("What's on next week?", ""),  # a day word's business (on_the_days)
    ("How long is my swim?", ""),
    ("How many days holiday have I got left?", ""),  # a count of days of leave, not days until a date
])
def test_dates_are_counted_from_today_when_the_request_asks_how_far_off(request_text, said):
    assert dated(KIDS, request_text, TODAY) == said


@pytest.mark.parametrize(("line", "said"), [
    ("Bins: 2 December", "Bins, 2 December 2026: a Wednesday, today"),
    ("Bins: 3rd of Dec", "Bins, 3 December 2026: a Thursday, tomorrow"),
    ("2026-11-23,8.1", "23 November 2026: a Monday, 9 days ago"),  # a year given stays
    ("MOT due January 14, 2027.", "MOT due, 14 January 2027: a Thursday, in 43 days (6 weeks 1 day)"),
    ("Dentist Friday 9am", "Dentist, 4 December 2026: a Friday, in 2 days"),  # the coming Friday
    ("Bins go out Wed", "Bins go out, 2 December 2026: a Wednesday, today"),
    ("Mon 7 Dec: call Priya", "call Priya, 7 December 2026: a Monday, in 5 days"),  # the date, not the weekday again
    ("Renew by 1 December", "Renew by, 1 December 2026: a Tuesday, yesterday"),  # gone, not next year's
])
def test_each_way_of_writing_a_date(line, said):
    assert dated([line], "How many days until it?", TODAY) == f"[Saturn dated] {said}"


def test_asked_what_comes_next_the_dates_to_come_are_shown_soonest_first():
    birthdays = ["Mum - 14 January", "Jo - 9 December", "Ann - 1 December 2026", "Grandad - 30 December"]
    assert dated(birthdays, "Whose birthday is next?", TODAY) == (
        "[Saturn dated] soonest first: Jo, 9 December 2026: a Wednesday, in 7 days; Grandad, 30 December 2026:"
        " a Wednesday, in 28 days (4 weeks); Mum, 14 January 2027: a Thursday, in 43 days (6 weeks 1 day)"
    )
    assert dated(birthdays, "Add the next birthday to my calendar", TODAY) == ""  # an errand, no question
    documents = ["- Passport: expires 3 March 2027", "- Railcard: expires 19 December 2026"]
    assert dated(documents, "Is anything expiring soon?", TODAY).startswith(
        "[Saturn dated] soonest first: Railcard expires, 19 December 2026")


def test_asked_what_comes_next_a_table_row_with_no_words_for_its_date_is_shown_whole():
    shifts = ["date,start,end", "2026-12-07,09:00,17:00", "2026-12-08,12:00,20:00"]
    assert dated(shifts, "When's my next shift?", TODAY) == (
        "[Saturn dated] soonest first: 7 December 2026: a Monday, in 5 days: 2026-12-07,09:00,17:00;"
        " 8 December 2026: a Tuesday, in 6 days: 2026-12-08,12:00,20:00")


def test_a_rows_later_date_with_no_words_of_its_own_is_the_rows_thing():
    books = ["| The Salt Path | 2026-11-14 | 2026-12-05 |", "| Wolf Hall | 2026-11-20 | 2026-12-11 |"]
    assert dated(books, "Which library book is due back first?", TODAY) == (
        "[Saturn dated] soonest first: The Salt Path, 5 December 2026: a Saturday, in 3 days;"
        " Wolf Hall, 11 December 2026: a Friday, in 9 days")


def test_asked_how_long_a_stay_lasts_the_two_dates_are_counted_apart():
    trip = ["# Trip to Lisbon", "Out: flight TP1337, Saturday 12 December", "Back: Wednesday 16 December"]
    span = "[Saturn dated] Saturday 12 December 2026 to Wednesday 16 December 2026: 4 nights, 5 days counting both"
    assert dated(trip, "How many nights am I away in Lisbon?", TODAY) == span
    assert dated(trip, "How many days until Lisbon?", TODAY).startswith("[Saturn dated] Out flight TP1337 Saturday, 12 De")
    assert dated(trip[:2], "How many nights am I away?", TODAY) == ""  # one date: no stay to count
    plan = [*trip, "## Plan", "- Sat: Alfama walk", "- Sun: Sintra day trip", "- Mon: Belem"]
    assert dated(plan, "How many nights am I away in Lisbon?", TODAY) == span  # the dates written, not the plan's days
    seen = "\n".join([*trip, span])
    assert miscounted_days("2 nights", "How many nights am I away in Lisbon?", seen) == span
    assert miscounted_days("4 nights", "How many nights am I away in Lisbon?", seen) is None
    assert miscounted_days("It's 5 days.", "How many nights am I away in Lisbon?", seen) is None


def test_no_date_no_line_and_a_date_that_is_none_is_left_out():
    assert dated(["May the force be with you", "31 February party"], "How many days until the party?", TODAY) == ""


def test_the_ground_shows_the_dates_after_the_excerpt():
    shown = render_excerpts([Excerpt("kids.md", 1, KIDS[:3], 3)], "How many days until parents evening?", TODAY)
    assert shown.splitlines()[-1] == ("[Saturn dated] Swimming, 2 December 2026: a Wednesday, today; Parents evening,"
                                      " 4 December 2026: a Friday, in 2 days")  # "Wednesday" whole was missed once


DATED = "[Saturn dated] Insurance renews, 3 March 2027: a Wednesday, in 91 days (13 weeks)"


@pytest.mark.parametrize(("request_text", "answer", "kind"), [
    ("How many days until my car insurance renews?", "3 weeks", "miscounted_days"),
    ("How many days until my car insurance renews?", "91 days", None),
    ("How long until my car insurance renews?", "13 weeks", None),
    ("How many days until my car insurance renews?", "It renews on a Wednesday.", None),  # no count given
    ("When does my car insurance renew?", "3 March", None),  # no count asked
])
def test_a_count_of_days_the_harness_did_not_work_out_goes_back(request_text, answer, kind):
    seen = f"--- car.md (whole file, 1 line)\nInsurance renews 3 March, Admiral, 540 a year\n{DATED}"
    claim = unbacked_claim(answer, [], builtin_registry(), request_text, documents_at_hand=True, seen=seen)
    assert (claim.kind if claim else None) == kind
    assert claim is None or claim.quote == DATED


CAR_DATED = ("[Saturn dated] Insurance renews, 14 January 2027: a Thursday, in 43 days (6 weeks 1 day);"
             " MOT due, 2 March 2027: a Tuesday, in 90 days (12 weeks 6 days); Bins, 3 December 2026: a Thursday,"
             " tomorrow")


@pytest.mark.parametrize(("request_text", "answer", "sent_back"), [
    ("How many days till the MOT?", "6 weeks 5 days", True),  # no date's count
    ("How many days till the MOT?", "6 weeks 1 day", True),  # the insurance's, not the MOT's
    ("How many days till the MOT?", "90 days", False),
    ("How many days till the MOT?", "12 weeks and 6 days", False),
    ("How many days until the bins?", "1 day", False),  # tomorrow
])
def test_a_count_must_be_the_one_of_the_date_asked_about(request_text, answer, sent_back):
    assert (miscounted_days(answer, request_text, CAR_DATED) is not None) is sent_back


def test_a_count_of_a_date_in_a_second_files_dated_line_is_no_miscount():
    seen = ("[Saturn dated] Repeat prescription ordered, 25 November 2026: a Wednesday, 8 days ago\n"
            "[Saturn dated] Fly out Fri, 12 February 2027: a Friday, in 71 days (10 weeks 1 day)")
    assert miscounted_days("71 days (10 weeks 1 day)", "How many days until Lisbon?", seen) is None
    assert miscounted_days("9 weeks", "How many days until Lisbon?", seen) == seen


def test_a_miscount_goes_back_with_the_date_asked_about_and_again_is_answered_by_it():
    assert miscounted_days("5", "How many days till the MOT?", CAR_DATED) == (
        "[Saturn dated] MOT due, 2 March 2027: a Tuesday, in 90 days (12 weeks 6 days)")
    assert worked_out_date("[Saturn dated] MOT due, 2 March 2027: a Tuesday, in 90 days (12 weeks 6 days)") == (
        "MOT due, 2 March 2027: a Tuesday, in 90 days (12 weeks 6 days).")
    assert worked_out_date(CAR_DATED) == ""  # several dates: none is the answer


async def test_a_second_miscount_is_answered_with_the_date_worked_out(harness):
    await harness.start()
    (harness.env.workdir / "notes.txt").write_text("Dentist Friday 9am\nBin day is Tuesday\n")
    harness.model.enqueue("5", "5")
    _, events = await harness.turn("How long until my dentist appointment?", headless=True)
    answer = of_type(events, "answer")[-1].text
    assert answer.startswith("Dentist, ") and ": a Friday, " in answer and answer.endswith(".")  # not "5"


async def test_sent_back_for_the_next_date_an_answer_still_without_it_is_answered_with_it(harness):
    await harness.start()
    soon, later = date.today() + timedelta(days=5), date.today() + timedelta(days=12)
    (harness.env.workdir / "appointments.csv").write_text(
        f"date,time,who,what\n{soon},10:30,Dr Okafor,blood test\n{later},14:00,Nurse Kim,diabetes check\n")
    harness.model.enqueue(f"On {later.day} {later:%B %Y} at 14:00.", "I couldn't find any appointments.")
    _, events = await harness.turn("When's Dad's next appointment?", headless=True)
    answer = of_type(events, "answer")[-1].text
    assert answer.startswith(f"From your files: Dr Okafor blood test, {soon.day} {soon:%B %Y}: a {soon:%A}")


async def test_sent_back_for_a_day_of_the_months_next_date_an_answer_still_without_it_is_answered_with_it(harness):
    await harness.start()
    (harness.env.workdir / "money.md").write_text("# Money\nPayday: 28th of each month\n## Bills\n- Phone: £18 on the 20th\n")
    harness.model.enqueue("On the 28th.", "On the 28th.")
    _, events = await harness.turn("When does the phone bill come out?", headless=True)
    assert of_type(events, "answer")[-1].text.startswith("From your files: Phone, the 20th: next 20 ")


@pytest.mark.parametrize(("request_text", "named"), [
    ("What's for dinner tomorrow?", [("tomorrow", date(2026, 12, 3))]),
    ("Have I got anything on Friday?", [("friday", date(2026, 12, 4))]),
    ("What have I got on Wednesday?", [("wednesday", TODAY)]),  # today's weekday is today
    ("What's on next Wednesday?", [("wednesday", date(2026, 12, 9))]),  # "next": not today
    ("Anything next Friday?", [("friday", date(2026, 12, 4))]),
    ("What did I spend last Wednesday?", [("wednesday", date(2026, 11, 25))]),
    ("Is there school on Monday 4 January?", [("monday", date(2027, 1, 4))]),  # that date, not the coming Monday
    ("Anything on this weekend?", [("weekend", date(2026, 12, 5)), ("weekend", date(2026, 12, 6))]),
    ("What's on tonight?", [("tonight", TODAY)]),
    ("How many hours did I work on Monday?", [("monday", date(2026, 11, 30))]),  # asked in the past: the last one
    ("When is the dentist?", []),
])
def test_the_days_a_request_names_by_words_that_change_with_the_clock(request_text, named):
    assert days_named(request_text, TODAY) == named


@pytest.mark.parametrize(("request_text", "said"), [
    ("What's for dinner tomorrow?", "[Saturn dated] tomorrow is Thursday 3 December 2026"),
    ("Have I got anything on Friday?", "[Saturn dated] Friday is 4 December 2026"),
    ("What have I got on Wednesday?", "[Saturn dated] Wednesday is 2 December 2026 (today)"),
    ("Anything this weekend?", "[Saturn dated] the weekend is Saturday 5 December 2026 and Sunday 6 December 2026"),
    ("When is the dentist?", ""),
])
def test_the_ground_says_which_date_a_day_word_means(request_text, said):
    assert days_meant(request_text, TODAY) == said


def test_a_day_is_searched_for_as_notes_write_it():
    assert ways_written(date(2026, 12, 4)) == ("friday", "fri", "4 dec", "4 december", "dec 4", "2026-12-04", "4/12",
                                              "04/12")
    diary = Document("diary.md", "# Diary\n- Thu 3 Dec: school play\n- Fri 4 Dec: Physio 10:30\n")
    meals = Document("meals.md", "Thursday: jacket potatoes\nFriday: pizza\n")
    notes = Document("notes.md", "Call the bank\n")
    ranked = [doc.source for _, doc in rank("Have I got anything on Friday?", [notes, diary, meals], TODAY)]
    assert "diary.md" in ranked and "notes.md" not in ranked
    assert [doc.source for _, doc in rank("Have I got anything on Friday?", [notes, diary, meals])] == ["meals.md"]


def test_the_ground_dates_a_day_word_of_a_question_but_not_of_an_errand(tmp_path):
    now = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
    asked = build_ground(Ground(cwd=tmp_path, home=tmp_path, now=now, request="What's for dinner tomorrow?")).text
    assert "[Saturn dated] tomorrow is Thursday 3 December 2026" in asked.split("## This turn")[1]
    errand = build_ground(Ground(cwd=tmp_path, home=tmp_path, now=now, request="Text Tom I'll see him tomorrow.")).text
    assert "[Saturn dated]" not in errand


WEEK = ["Wednesday: leftovers", "Thursday: jacket potatoes", "- Thu 3 Dec: school play", "- Thu 17 Dec: carols"]


@pytest.mark.parametrize(("request_text", "said"), [
    ("What's for dinner tomorrow?", "[Saturn dated] tomorrow, Thursday 3 December: Thursday: jacket potatoes;"
                                    " tomorrow, Thursday 3 December: - Thu 3 Dec: school play"),  # not the 17th
    ("What's on Wednesday?", "[Saturn dated] Wednesday 2 December: Wednesday: leftovers"),
    ("What's for dinner?", ""),
])
def test_the_lines_written_for_the_day_a_question_names(request_text, said):
    assert on_the_days(WEEK, request_text, TODAY) == said


def test_the_excerpt_of_a_question_names_its_lines_for_the_day_but_not_an_errands():
    part = Excerpt("meals.md", 1, WEEK[:2], 2)
    assert render_excerpts([part], "What's for dinner tomorrow?", TODAY).splitlines()[-1] == (
        "[Saturn dated] tomorrow, Thursday 3 December: Thursday: jacket potatoes")
    assert "[Saturn dated]" not in render_excerpts([part], "Change tomorrow's dinner to fish.", TODAY)


def test_a_tables_totals_over_the_weeks_rows_are_not_followed_by_the_rows_again():
    rows = ["date,minutes,piece", "2026-11-30,20,Minuet in G", "2026-12-01,15,The Entertainer", "2026-12-02,30,Fur Elise"]
    shown = render_excerpts([Excerpt("practice.csv", 1, rows, 4)], "How long did I practise this week?", TODAY)
    assert shown.splitlines()[-1].startswith("[Saturn worked out] totals over the 2026-11-30 to 2026-12-06 rows (3): minutes = 65")
    notes = ["- 30 Nov: piano", "- 2 Dec: swim", "- 9 Dec: piano"]
    assert render_excerpts([Excerpt("diary.md", 1, notes, 3)], "What's on this week?", TODAY).splitlines()[-1] == (
        "[Saturn dated] this week (30 November to 6 December): 2 lines; this week (30 November to 6 December): - 30 Nov:"
        " piano; this week (30 November to 6 December): - 2 Dec: swim")  # a note's lines: no totals stand for them


def test_a_day_the_excerpts_name_lines_for_is_dated_there_only(tmp_path):
    (tmp_path / "meals.md").write_text("# Dinners\nSaturday: takeaway\nSunday: roast\n")
    now = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
    text = build_ground(Ground(cwd=tmp_path, home=tmp_path, now=now, request="What's on this weekend?")).text
    dated_lines = [line for line in text.splitlines() if line.startswith("[Saturn dated]")]
    assert dated_lines == ["[Saturn dated] weekend, Saturday 5 December: Saturday: takeaway;"
                           " weekend, Sunday 6 December: Sunday: roast"]


def test_a_month_is_searched_for_as_a_tables_dates_write_it():
    assert months_written("november", TODAY) == ("nov", "2026-11", "2027-11")  # not a year gone
    assert months_written("january", TODAY) == ("jan", "2026-01", "2027-01")
    money = Document("money.csv", "date,what,amount\n2026-11-03,petrol,58.20\n")
    notes = Document("notes.md", "Call the bank\n")
    assert [d.source for _, d in rank("What did I buy in November?", [notes, money], TODAY)] == ["money.csv"]
    assert rank("What did I buy in November?", [notes, money]) == []
    assert rank("May I see the petrol?", [money], TODAY) == rank("May I see the petrol?", [money])


def test_a_list_by_weekday_without_the_day_asked_says_so():
    school = ["# School", "Mon: PE kit", "Tue: library books", "Fri: swimming"]
    assert on_the_days(school, "Does Ella need anything for school tomorrow?", TODAY) == (
        "[Saturn dated] tomorrow, Thursday 3 December: no line here is for that day")
    assert on_the_days(school, "What does Ella need on Tuesday?", TODAY) == (
        "[Saturn dated] Tuesday 8 December: Tue: library books")
    assert on_the_days(["Call the bank"], "Anything tomorrow?", TODAY) == ""  # not a list by weekday
    trip = ["passport", "sun cream", "- Sat: Alfama walk", "- Sun: Sintra day trip"]
    assert on_the_days(trip, "What are we doing on Sunday?", TODAY) == (
        "[Saturn dated] Sunday 6 December: - Sun: Sintra day trip")  # not the sun cream
    school = ["Back Tuesday 5 January (Monday 4th is an inset day)", "PE: Mondays"]
    assert on_the_days(school, "Is there school on Monday 4 January?", TODAY) == (  # the 4th's own words, in the 5th's line
        "[Saturn dated] Monday 4 January: Back Tuesday 5 January (Monday 4th is an inset day)")
    month = ["# December", "- Sat 5: swimming 9am", "- Sat 12: swimming 9am", "- Sat 10am: market"]
    assert on_the_days(month, "What's on this Saturday?", TODAY) == (  # the 12th is another Saturday; 10am no day
        "[Saturn dated] Saturday 5 December: - Sat 5: swimming 9am; Saturday 5 December: - Sat 10am: market")


@pytest.mark.parametrize(("line", "said"), [
    ("Wednesday: swimming, after school club till 5",
     "swimming after school club till, 2 December 2026: a Wednesday, today"),  # the words after the day
    ("Saturday: football 9am", "football, 5 December 2026: a Saturday, in 3 days"),
    ("4 December: parents evening", "parents evening, 4 December 2026: a Friday, in 2 days"),
    ("Sat 12 Dec: home v Millbrook", "home v Millbrook, 12 December 2026: a Saturday, in 10 days"),  # its weekday first
])
def test_a_line_that_opens_with_its_date_is_labelled_by_what_follows(line, said):
    assert dated([line], "What day is it on?", TODAY) == f"[Saturn dated] {said}"


@pytest.mark.parametrize(("request_text", "meant"), [
    ("What time do I finish on the 9th?", date(2026, 12, 9)),
    ("What's on the 2nd?", date(2026, 12, 2)),  # today
    ("Anything on the 1st?", date(2027, 1, 1)),  # gone this month: the next
    ("What's on the 9th of January?", None),  # a month named: no day word
    ("How far have I ridden since the 1st?", date(2026, 12, 1)),  # since it: the last one
    ("What did I spend on the 30th?", date(2026, 11, 30)),  # asked in the past: the last one
    ("How much did I sleep last night?", date(2026, 12, 1)),  # yesterday's row of a log
])
def test_a_day_of_the_month_alone_is_this_months_or_the_next(request_text, meant):
    assert [day for _, day in days_named(request_text, TODAY)] == ([meant] if meant else [])


def test_since_a_day_a_tables_rows_from_it_to_today_are_totalled():
    rides = "date,route,km\n2026-11-29,hills,38.2\n2026-12-01,commute,16.0\n2026-12-03,commute,16.0\n"
    part = Excerpt("rides.csv", 1, rides.splitlines(), 4)
    assert "totals over the 2026-12-01 to 2026-12-04 rows (2): km = 32" in render_excerpts(
        [part], "How far have I ridden since the 1st?", date(2026, 12, 4))


def test_a_tables_row_for_the_day_is_shown_with_its_header():
    rota = ["date,start,end,hours", "2026-12-05,09:00,17:00,8", "2026-12-09,08:00,14:00,6"]
    assert on_the_days(rota, "What time do I finish on the 9th?", TODAY) == (
        "[Saturn dated] the 9th, Wednesday 9 December: date 2026-12-09, start 08:00, end 14:00, hours 6")
    notes = ["Plans, calls, and more", "Fri 4 Dec, dentist, 9am"]
    assert on_the_days(notes, "What's on Friday?", TODAY) == "[Saturn dated] Friday 4 December: Fri 4 Dec, dentist, 9am"


def test_a_weekly_thing_by_its_plural_weekday_is_dated_to_the_coming_one():
    assert dated(["One-to-one with Ruth: Tuesdays 10am"], "When's my next one-to-one?", TODAY) == (
        "[Saturn dated] soonest first: One to one with Ruth, 8 December 2026: a Tuesday, in 6 days")


def test_days_of_something_left_are_no_days_until():
    assert dated(["Leave taken: 3-7 March (5 days)"], "How many days of holiday have I got left?", TODAY) == ""


def test_two_dates_on_a_line_are_each_labelled_by_its_topic_and_the_words_since_the_one_before():
    line = "Passports: mine expires 14 May 2027, Ava's expires 2 February 2027"
    assert dated([line], "Whose passport runs out first?", TODAY) == (
        "[Saturn dated] soonest first: Passports Ava's expires, 2 February 2027: a Tuesday, in 62 days (8 weeks 6 days);"
        " Passports mine expires, 14 May 2027: a Friday, in 163 days (23 weeks 2 days)")


def test_how_long_since_dates_a_yearless_date_to_the_last_one_gone():
    freezer = ["- chilli (frozen 2 Nov)", "- lasagne (frozen 20 Nov)"]
    assert dated(freezer, "How long has the chilli been in the freezer?", TODAY) == (
        "[Saturn dated] chilli frozen, 2 November 2026: a Monday, 30 days ago (4 weeks 2 days); lasagne frozen,"
        " 20 November 2026: a Friday, 12 days ago")


def test_a_line_of_clauses_by_day_shows_the_clause_for_the_day():
    chores = ["# Chores", "Dishwasher: Ava on Monday, Wednesday, Friday; Leo on Tuesday, Thursday"]
    assert on_the_days(chores, "Whose turn is it to do the dishwasher today?", date(2026, 12, 3)) == (
        "[Saturn dated] today, Thursday 3 December: Dishwasher: Leo on Tuesday, Thursday")


def test_a_date_gone_with_a_repeat_gives_the_next_time_it_falls():
    line = "Boiler: Worcester, last serviced 12 January 2026, service due every 12 months"
    assert next_due([line], "When is the boiler due a service?", TODAY) == (
        "[Saturn dated] Boiler Worcester last serviced, 12 January 2026, every 12 months: next 12 January 2027,"
        " a Tuesday, in 41 days (5 weeks 6 days)")
    assert next_due(["Window cleaner: every 4 weeks (last came 20 Nov)"], "When's he next due?", TODAY).endswith(
        "every 4 weeks: next 18 December 2026, a Friday, in 16 days (2 weeks 2 days)")
    assert next_due(["Dentist: 4 December, check-up"], "When's the dentist due?", TODAY) == ""  # no repeat
    plants = ["# Plants", "- Monstera: water every week, last watered 28 November",
              "- Cactus: water every 3 weeks, last watered 10 November"]
    assert next_due(plants, "Which plants need watering?", TODAY) == (  # what needs doing: each one's next, the heading no name
        "[Saturn dated] Monstera water last, 28 November 2026, every 1 week: next 5 December 2026, a Saturday, in 3 days;"
        " Cactus water, 10 November 2026, every 3 weeks: next 1 December 2026, a Tuesday, yesterday (overdue)")
    assert next_due(["Window cleaner every 6 weeks, last came 23 Oct, £15."], "When's the window cleaner due?", TODAY) == (
        "[Saturn dated] Window cleaner, 23 October 2026, every 6 weeks: next 4 December 2026, a Friday, in 2 days")  # not 2027
    assert next_due([line], "What's the boiler's make?", TODAY) == ""  # not asked when


def test_a_repeat_on_a_line_of_no_date_is_for_the_line_of_its_thing_that_has_one():
    car = ["- MOT due: 14 March 2027", "- Last service: 20 June 2026 at 41,200 miles",
           "- Service every 10,000 miles or 12 months"]
    assert next_due(car, "Is the car due a service yet?", TODAY) == (
        "[Saturn dated] Last service, 20 June 2026, every 12 months: next 20 June 2027, a Sunday, in 200 days"
        " (28 weeks 4 days)")
    assert next_due(["- Service every 12 months", "- MOT: 14 March 2026"], "When is the service due?", TODAY) == ""
    scripts = ["- Sertraline: repeat every 28 days, last collected 2026-11-20", "- Inhaler: as needed, last ordered 2026-10-02"]
    assert next_due(scripts, "When did I last order the inhaler?", TODAY) == ""  # "last" names no line: the inhaler has no repeat


def test_a_yearless_date_the_line_says_is_gone_or_that_fell_this_last_month_is_not_next_years():
    pets = ["- Worming tablet: every 3 months, last given 20 September", "- Flea treatment monthly, last 15 November"]
    assert next_due(pets, "When is Biscuit's next worming tablet due?", TODAY) == (
        "[Saturn dated] Worming tablet, 20 September 2026, every 3 months: next 20 December 2026, a Sunday, in 18 days"
        " (2 weeks 4 days)")  # the flea treatment's repeat is not what was asked
    prescription = ["Repeat prescription ordered 25 Nov, ready to collect after 1 Dec"]
    assert dated(prescription, "How many days until I can collect it?", TODAY) == (
        "[Saturn dated] Repeat prescription ordered, 25 November 2026: a Wednesday, 7 days ago; ready to collect after,"
        " 1 December 2026: a Tuesday, yesterday")
    assert dated(["Nan's birthday 30 Nov"], "How many days until Nan's birthday?", TODAY) == (
        "[Saturn dated] Nan's birthday, 30 November 2027: a Tuesday, in 363 days (51 weeks 6 days)")
    assert dated(["Tom - 30 November"], "How many days until Tom's birthday?", TODAY).endswith("in 363 days (51 weeks 6 days)")
    assert dated(["MOT due 14 March"], "How many days until the MOT?", TODAY).endswith("in 102 days (14 weeks 4 days)")


TIMETABLE = ("--- timetable.md (whole file, 4 lines)\n# Maya's school week\nMonday: PE (bring kit)\nThursday: PE (bring kit)\n"
             "Friday: packed lunch, home at 3:15\n[Saturn dated] tomorrow, Friday 4 December: Friday: packed lunch, home at 3:15")


@pytest.mark.parametrize(("request_text", "answer", "kind"), [
    ("Does Maya need her PE kit tomorrow?", "Yes, Maya needs her PE kit tomorrow.", "against_the_day"),
    ("Does Maya need her PE kit tomorrow?", "No, tomorrow is packed lunch.", None),
    ("Does Maya need a packed lunch tomorrow?", "No.", "against_the_day"),
    ("Does Maya need a packed lunch tomorrow?", "Yes, a packed lunch.", None),
])
def test_a_yes_or_no_against_the_days_own_line_goes_back_with_it(request_text, answer, kind):
    claim = unbacked_claim(answer, [], builtin_registry(), request_text, documents_at_hand=True, seen=TIMETABLE)
    assert (claim.kind if claim else None) == kind


def test_a_date_written_day_first_with_slashes_is_a_date_and_a_recipes_half_is_not():
    assert dated(["Library books due back 12/12", "Add 1/2 cup sugar"], "How many days until the library books are due?",
                 TODAY) == "[Saturn dated] Library books due back, 12 December 2026: a Saturday, in 10 days"
    assert on_the_days(["Library books due back 12/12"], "What's due on the 12th?", TODAY) == (
        "[Saturn dated] the 12th, Saturday 12 December: Library books due back 12/12")


@pytest.mark.parametrize(("lines", "request_text", "said"), [
    (["Season ticket expires 31 January", "Usual train: 07:42 from Leeds, arrives York 08:10"],
     "How long is my train journey?", "Usual train, 07:42 to 08:10: 28 minutes"),
    (["date,start,end", "2026-12-09,08:00,14:00"], "How long is my shift on the 9th?", "2026-12-09, 08:00 to 14:00: 6 hours"),
    (["Party 7pm till 11.30pm"], "How long is the party?", "Party, 7pm to 11.30pm: 4 hours 30 minutes"),
    (["Night shift 22:00 - 06:00"], "How long is the night shift?", "Night shift, 22:00 to 06:00: 8 hours"),
])
def test_asked_how_long_a_thing_lasts_the_time_between_its_lines_two_clock_times_is_worked_out(lines, request_text, said):
    assert time_between(lines, request_text) == f"[Saturn worked out] {said}"


def test_how_long_until_or_a_line_of_one_time_is_no_span():
    assert time_between(["Dentist moved to Weds 10th Dec 2.30pm"], "How long until the dentist?") == ""
    assert time_between(["Hotel: 3 nights, check-in 14:00"], "How long is the hotel?") == ""
    flights = "Flights: out Sat 12 December 08:40 (TP1331), back Wed 16 December 19:05 (TP1338)."
    assert time_between([flights], "How long is the train to Sintra?") == ""  # two days' times


def test_asked_when_a_journey_gets_in_its_leaving_and_arriving_times_are_named():
    train = ["Season ticket expires 31 January", "Usual train: 07:42 from Leeds, arrives York 08:10."]
    assert arrival_times(train, "What time does my train get in?") == (
        "[Saturn read] Usual train: leaves 07:42, arrives York 08:10")
    assert arrival_times(train, "What time is my train?") == (  # its leaving told apart from its arriving
        "[Saturn read] Usual train: leaves 07:42, arrives York 08:10")
    assert arrival_times(train, "When does the season ticket expire?") == ""
    assert arrival_times(["Arrive by 9:00, meeting 9:30-11"], "When do I arrive?") == ""  # no time after arriving
    trip = ["Flight out: BA 548, Thu 18 Feb, Heathrow 07:25, lands 11:05", "Flight back: BA 553, Mon 22 Feb, leaves Rome 15:10"]
    assert arrival_times(trip, "What time do we land back?") == ""  # not the flight out's landing
    assert arrival_times(trip, "What time is our flight to Rome?") == ("[Saturn read] Flight out: BA 548, Thu 18 Feb,"
                                                                        " Heathrow: leaves 07:25, lands 11:05")
    assert arrival_times(trip, "What time do we land in Rome?") == "[Saturn read] Flight out: BA 548, Thu 18 Feb, Heathrow:"\
        " leaves 07:25, lands 11:05"


LASAGNE = ["# Lasagne (serves 6)", "- 500g beef mince", "- 9 lasagne sheets", "- 400ml white sauce",
           "Oven: 190C for 40 minutes"]


def test_a_recipes_amounts_are_scaled_to_the_number_asked_for():
    assert scaled_recipe(LASAGNE, "How much mince for lasagne for 3?") == (
        "[Saturn worked out] for 3 of a recipe for 6 (each amount × 0.5): 500g beef mince → 250g")  # the one asked
    assert scaled_recipe(LASAGNE, "What do I need to feed eight?").endswith(
        "500g beef mince → 667g; 9 lasagne sheets → 12; 400ml white sauce → 533ml")
    assert scaled_recipe(LASAGNE, "How long does the lasagne take in the oven?") == ""
    assert scaled_recipe(LASAGNE, "How much mince for 6?") == ""  # as written
    assert scaled_recipe(["Pancakes (makes 8)", "- 1 tbsp oil"], "How much oil for 16 pancakes?").endswith(
        "1 tbsp oil → 2 tbsp")


NOTES = "--- notes.txt (whole file, 2 lines)\nBin day: Tues (green = garden waste, fortnightly)\nSwimming: Saturdays 9am"


@pytest.mark.parametrize(("request_text", "answer", "kind"), [
    ("Is the bin collection weekly?", "Yes, bin collection is weekly.", "against_the_line"),
    ("Is the bin collection weekly?", "No, it's fortnightly.", None),
    ("Is bin day on a Monday?", "Yes.", "against_the_line"),
    ("Is bin day Tuesday?", "No, it's Wednesday.", "against_the_line"),
    ("Is bin day Tuesday?", "Yes, Tuesdays.", None),
    ("Is swimming on Saturday?", "Yes, 9am.", None),
    ("Is the dentist weekly?", "Yes.", None),  # no line about the dentist
])
def test_a_yes_or_no_against_the_line_of_how_often_or_which_day_goes_back(request_text, answer, kind):
    claim = unbacked_claim(answer, [], builtin_registry(), request_text, documents_at_hand=True, seen=NOTES)
    assert (claim.kind if claim else None) == kind


TRIP = ("--- trip.md (whole file, 2 lines)\nHotel: The Grange, 2 nights, check-in from 3pm, booking ref GR-88213\n"
        "Dinner Saturday 7:30pm at Ondine (booked for 4)")


@pytest.mark.parametrize(("request_text", "answer", "kind"), [
    ("Can I check in at 1pm?", "Yes, you can check in at 1pm.", "against_the_line"),  # from 3pm
    ("Can I check in at 4pm?", "No.", "against_the_line"),
    ("Can I check in at 4pm?", "Yes, check-in is from 3pm.", None),
    ("Is dinner booked for 5?", "Yes, dinner is booked for 5.", "against_the_line"),  # for 4
    ("Is dinner booked for 4?", "Yes.", None),
    ("Is dinner at 7:30pm?", "Yes.", None),
])
def test_a_yes_or_no_against_the_time_a_line_opens_from_or_how_many_it_is_for_goes_back(request_text, answer, kind):
    claim = unbacked_claim(answer, [], builtin_registry(), request_text, documents_at_hand=True, seen=TRIP)
    assert (claim.kind if claim else None) == kind


LEVELS = ("--- bp.csv (whole file, 3 lines)\n[Saturn worked out] levels over time (not amounts to add): systolic latest 131"
          " (2026-12-02), first 142 (2026-11-26), change since the first -11; lowest 131 | diastolic latest 82 (2026-12-02),"
          " first 88 (2026-11-26), change since the first -6; lowest 82")


@pytest.mark.parametrize(("request_text", "answer", "quote"), [
    ("Is my blood pressure going down?", "No, it is not going down.",
     "levels systolic 142 → 131 (-11), diastolic 88 → 82 (-6)"),
    ("Is my blood pressure going down?", "Yes, from 142 to 131.", None),
    ("Is my blood pressure rising?", "Yes.", "levels systolic 142 → 131 (-11), diastolic 88 → 82 (-6)"),
    ("What's my blood pressure?", "No.", None),
])
def test_a_yes_or_no_against_the_levels_trend_goes_back(request_text, answer, quote):
    claim = unbacked_claim(answer, [], builtin_registry(), request_text, documents_at_hand=True, seen=LEVELS)
    assert (claim.quote if claim and claim.kind == "against_the_line" else None) == quote


TRAINS = ("--- trains.txt (whole file, 2 lines)\nSeason ticket expires 31 January\n"
          "Usual train: 07:42 from Leeds, arrives York 08:10")


@pytest.mark.parametrize(("request_text", "answer", "kind"), [
    ("What time does my train get in?", "Season ticket expires 31 January", "no_time_given"),
    ("What time does my train get in?", "08:10", None),
    ("What time does my train get in?", "It arrives in York at 08:10.", None),
    ("What time is the dentist?", "Friday.", None),  # nothing shown about the dentist
])
def test_asked_what_time_an_answer_without_one_goes_back_with_the_timed_lines(request_text, answer, kind):
    claim = unbacked_claim(answer, [], builtin_registry(), request_text, documents_at_hand=True, seen=TRAINS)
    assert (claim.kind if claim else None) == kind
    assert claim is None or claim.quote == "Usual train: 07:42 from Leeds, arrives York 08:10"


CAR = ("--- car.md (whole file, 2 lines)\nMOT due 14 March\nService: every 12 months, last done 2 February 2026\n"
       "[Saturn dated] Service last, 2 February 2026, every 12 months: next 2 February 2027, a Tuesday, in 61 days")


@pytest.mark.parametrize(("request_text", "answer", "kind"), [
    ("When's the car service due?", "The car service is due on 14 March.", "next_due_missed"),
    ("When's the car service due?", "The service is next due on 2 February 2027.", None),
    ("When's the car service due?", "Feb 2nd.", None),
    ("When's the car service due?", "On 2 February 2026.", "next_due_missed"),  # the last one, not the next
    ("When's the car service due?", "The next service date is 2027-02-02.", None),
    ("When's the MOT due?", "14 March.", None),  # no repeat worked out for it
])
def test_asked_when_a_repeat_is_next_due_another_date_goes_back_with_the_next_one(request_text, answer, kind):
    claim = unbacked_claim(answer, [], builtin_registry(), request_text, documents_at_hand=True, seen=CAR)
    assert (claim.kind if claim else None) == kind


PET = ("--- pet.md (whole file, 1 lines)\nFlea and worm: monthly, last done 8 November\n[Saturn dated] Flea and worm last,"
       " 8 November 2026, every 1 month: next 8 December 2026, a Tuesday, in 5 days")


@pytest.mark.parametrize(("request_text", "answer", "kind"), [
    ("Is he due his flea treatment?", "Yes, he is due his flea treatment.", "against_the_line"),  # in 5 days: not yet
    ("Is he due his flea treatment?", "No, not until 8 December.", None),
    ("Is his flea treatment due this week?", "Yes, on Tuesday.", None),  # asked of a time to come: it falls in it
])
def test_a_yes_to_whether_a_repeat_is_due_goes_back_while_it_is_still_to_come(request_text, answer, kind):
    claim = unbacked_claim(answer, [], builtin_registry(), request_text, documents_at_hand=True, seen=PET)
    assert (claim.kind if claim else None) == kind


def test_past_six_dates_the_one_the_request_names_and_written_dates_are_kept_before_weekdays_lines():
    school = ["Mon: I drop off, Sam picks up", "Tue: Sam drops off, Gran picks up", "Wed: I drop off and pick up",
              "Thu: Sam drops off, I pick up", "Fri: Gran does both",
              "Term ends Friday 18 December. INSET day Monday 4 January."]
    said = dated(school, "How many days until the INSET day?", TODAY)
    assert said.endswith("INSET day Monday, 4 January 2027: a Monday, in 33 days (4 weeks 5 days)")
    assert "Term ends Friday, 18 December 2026" in said and "Gran does both" not in said


BILLS = ["Electricity: £85 a month (Octopus), direct debit on the 1st", "Water: £38 a month",
         "Broadband: £29.99 a month, contract ends 30 April 2027", "TV licence: £169.50 a year, due 1 March"]


def test_asked_how_much_in_all_lines_of_amounts_by_the_month_or_year_are_summed_by_period():
    assert amounts_by_period(BILLS, "How much are my bills a month?") == (
        "[Saturn worked out] a month: Electricity 85 + Water 38 + Broadband 29.99 = 152.99; a year: TV licence"
        " 169.50; everything as a month: 167.12")
    assert amounts_by_period(BILLS, "How much is the TV licence a month?") == (
        "[Saturn worked out] TV licence: 169.50 a year = 14.12 a month")  # one line's amount, as the period asked
    assert amounts_by_period(BILLS, "What day is the electricity paid?") == ""


def test_last_month_and_this_month_are_named_for_a_tables_rows():
    assert months_meant("What did I spend the most on last month?", TODAY) == "What did I spend the most on November?"
    assert months_meant("How much this month?", TODAY) == "How much December?"
    assert months_meant("How much last month?", date(2027, 1, 5)) == "How much December?"


SCHOOL_RUNS = ("--- school.md (whole file, 2 lines)\nThu: Sam drops off, I pick up\nFri: Gran does both\n"
               "[Saturn dated] tomorrow, Friday 4 December: Fri: Gran does both")


@pytest.mark.parametrize(("request_text", "answer", "kind"), [
    ("Who's doing drop off tomorrow?", "Sam", "against_the_day"),
    ("Who's doing drop off tomorrow?", "Gran does both.", None),
    ("Who's doing drop off tomorrow?", "Gran", None),
])
def test_a_who_answer_naming_nobody_of_the_days_line_goes_back_with_it(request_text, answer, kind):
    claim = unbacked_claim(answer, [], builtin_registry(), request_text, documents_at_hand=True, seen=SCHOOL_RUNS)
    assert (claim.kind if claim else None) == kind


def test_a_who_answer_naming_someone_for_a_day_no_line_is_for_goes_back():
    seen = "[Saturn dated] tomorrow, Saturday 5 December: no line here is for that day"
    assert not_on_that_day("Jo", "Who's doing the school run tomorrow?", seen) == (
        "tomorrow, Saturday 5 December: no line here is for that day")
    assert not_on_that_day("Nobody: it's a Saturday.", "Who's doing the school run tomorrow?", seen) is None


def test_a_who_answer_of_you_is_the_users_own_i():
    seen = "[Saturn dated] today, Thursday 3 December: Thu: Sam drops off, I pick up"
    assert not_on_that_day("You are.", "Who's picking up today?", seen) is None
    assert not_on_that_day("Gran", "Who's picking up today?", seen) == (
        "today, Thursday 3 December: Thu: Sam drops off, I pick up")


GIFTS = ["# Christmas gifts (budget £300)", "- Mum: scarf £25 (bought)", "- Dad: book £15", "- Ava: lego £45 (bought)",
         "- Leo: trainers £60"]


def test_a_lists_amounts_are_its_listed_lines_of_the_month_asked_and_a_trailing_paid_is_a_mark():
    invoices = ["# Invoices", "- INV-12 Acme Ltd £450, sent 2 Nov, paid", "- INV-13 Bolt & Co £1,200, sent 10 Nov",
                "- INV-15 Crane £650, sent 1 Dec", "Savings pot: £1,240"]
    assert list_amounts(invoices, "How much am I owed?") == (
        "[Saturn worked out] all: INV-12 Acme Ltd 450 + INV-13 Bolt & Co 1200 + INV-15 Crane 650 = 2300; so far, marked paid:"
        " INV-12 Acme Ltd 450 = 450; still to come, not marked: INV-13 Bolt & Co 1200 + INV-15 Crane 650 = 1850")
    assert list_amounts(invoices, "How much did I invoice in November?").startswith(
        "[Saturn worked out] all: INV-12 Acme Ltd 450 + INV-13 Bolt & Co 1200 = 1650;")


def test_a_lists_amounts_are_summed_all_marked_and_not_and_against_its_budget():
    assert list_amounts(GIFTS, "How much have I spent on Christmas presents so far?") == (
        "[Saturn worked out] all: Mum 25 + Dad 15 + Ava 45 + Leo 60 = 145; so far, marked bought: Mum 25 + Ava 45 = 70;"
        " still to come, not marked: Dad 15 + Leo 60 = 75")
    assert list_amounts(GIFTS, "How much of my gift budget is left?").endswith("; budget 300 - all 145 = 155 left")
    assert list_amounts(GIFTS, "How much is Leo's present?") == ""  # one line's amount
    assert list_amounts(["Wash the car: £2", "Empty the dishwasher: 50p"], "How much for all the chores?") == (
        "[Saturn worked out] all: Wash the car 2 + Empty the dishwasher 0.50 = 2.50")  # pence written "50p"
    assert list_amounts(["Brownies £1.50 each", "Cupcakes £2 each", "Lemon cake £18"], "How much is Ana's order?") == ""
    assert list_amounts(GIFTS, "Who still needs a present?") == ""
    chores = ["| chore | who | pays |", "|---|---|---|", "| wash the car | Leo | £3 |", "| hoover upstairs | Mia | £2 |"]
    assert list_amounts(chores, "How much have I paid out altogether?") == ""  # a table's rows: summed by its columns


def test_a_share_of_an_amount_a_line_splits_is_worked_out():
    flat = ["Rent £1,450 split 3 ways (me, Jess, Omar)", "Energy £120 a month, split equally",
            "Jess owes me £35 for the takeaway"]
    assert shares(flat, "What's my share of the rent?") == (
        "[Saturn worked out] Rent £1,450 split 3 ways (me, Jess, Omar): 1450 / 3 = 483.33 each;"
        " Energy £120 a month, split equally: 120 / 3 = 40 each")
    assert shares(["Petrol £60 split between two"], "How much is my half?") == (
        "[Saturn worked out] Petrol £60 split between two: 60 / 2 = 30 each")
    assert shares(flat, "How much is the rent?") == ""


def test_a_line_of_comma_clauses_each_naming_its_day_shows_the_clause_for_the_day():
    kids = ["Ava: swimming Tue 5pm, piano Sat 10am", "Leo: football Wed 4:30pm, match Sat 9am"]
    assert on_the_days(kids, "What's Ava doing on Saturday?", TODAY) == (
        "[Saturn dated] Saturday 5 December: Ava: piano Sat 10am")  # not Leo's match: the request names Ava


def test_a_things_time_with_the_days_own_after_it_gives_the_days():
    kids = ["School pick-up 3:15pm, Fridays 1:30pm", "Swimming Saturdays 9am"]
    assert on_the_days(kids, "What time is pick-up on Friday?", TODAY) == (
        "[Saturn dated] Friday 4 December: School pick-up: Fridays 1:30pm")
    assert on_the_days(kids, "What time is pick-up on Monday?", TODAY) == ""


def test_asked_what_comes_next_of_a_thing_named_only_its_dates():
    meetings = ["Tue 14:00 1:1 with Ruth", "Thu 16:00 team retro", "Mon 10:00 standup"]
    assert dated(meetings, "When's my next one-to-one with Ruth?", TODAY) == (
        "[Saturn dated] soonest first: with Ruth, 8 December 2026: a Tuesday, in 6 days")


def test_a_lines_bracketed_counts_are_summed_and_taken_from_the_allowance_another_line_gives():
    work = ["Annual leave: 25 days a year", "Leave taken: 3-7 March (5 days), 14-18 July (5 days), 27 October (1 day)"]
    assert bracketed_counts(work, "How many days of holiday have I got left?") == (
        "[Saturn worked out] Leave taken: 5 + 5 + 1 = 11 days; 25 days a year - 11 = 14 days left")
    assert bracketed_counts(work, "When did I take leave in July?") == ""


def test_an_amount_so_far_against_a_goal_gives_what_is_to_go_and_at_a_lines_rate_how_long():
    savings = ["# Savings", "Holiday fund: £1,350 of £2,000", "New bike: £180 of £650", "Emergency fund: £5,000 of £5,000",
               "I put in £150 a month to the holiday fund."]
    assert progress(savings, "How much more do I need for the holiday?") == (
        "[Saturn worked out] Holiday fund 1350 of 2000: 2000 - 1350 = 650 more to go, 67.5% there; New bike 180 of 650:"
        " 650 - 180 = 470 more to go, 27.7% there; Emergency fund 5000 of 5000: reached; all 6530 of 7650: 7650 - 6530"
        " = 1120 more to go, 85.4% there; Holiday fund at 150 a month: 650 / 150 = 4.33, so 5 months")
    assert progress(["Rent £1,450 a month"], "How much is the rent?") == ""
    pocket = ["£5 a week each, paid on Fridays", "Leo is saving for a bike (£120), has £64 saved",
              "Isla is saving for a tablet (£90), has £71 saved"]
    assert quantities_summed(pocket + ["Extra jobs £1 to £3"], "How much more does Leo need for his bike?") == ""
    assert progress(pocket, "How many weeks until Isla can buy her tablet?") == (
        "[Saturn worked out] Leo is saving for a bike 64 of 120: 120 - 64 = 56 more to go, 53.3% there; Isla is saving"
        " for a tablet 71 of 90: 90 - 71 = 19 more to go, 78.9% there; all 135 of 210: 210 - 135 = 75 more to go, 64.3%"
        " there; Isla is saving for a tablet at 5 a week: 19 / 5 = 3.8, so 4 weeks")


def test_so_many_of_a_thing_the_request_counts_at_the_rate_a_line_gives_is_worked_out():
    work = ["Day rate: £350", "Tax: put aside 25% of every invoice", "Extra hours: £45 an hour"]
    assert at_a_rate(work, "How much would 3 days' work come to?") == (
        "[Saturn worked out] 3 days at Day rate: £350: 3 × 350 = 1050")
    assert at_a_rate(work, "And two hours on top?") == "[Saturn worked out] two hours at Extra hours: £45 an hour: 2 × 45 = 90"
    assert at_a_rate(work, "How many days until the tax bill?") == ""
    assert at_a_rate(work, "What did I earn 3 days ago?") == ""
    assert at_a_rate(["Mileage rate 45p a mile"], "I drove 86 miles to the Bristol office, how much can I claim?") == (
        "[Saturn worked out] 86 miles at Mileage rate 45p a mile: 86 × 0.45 = 38.70")  # a rate in pence
    rates = ["- Harbour Cafe: £35/hour", "- Greenway: £42/hour"]
    assert at_a_rate(rates, "I did 2 hours for Greenway today, log it.") == (  # the rate of the one it names
        "[Saturn worked out] 2 hours at Greenway: £42/hour: 2 × 42 = 84")


def test_asked_which_fall_in_a_year_the_lines_dated_in_it():
    vouchers = ["# Vouchers", "- John Lewis gift card: £50, expires 2027-03-31", "- Amazon: £12.40 left",
                "- Pizza Express 2-for-1: expires 2026-12-20", "- Odeon voucher: 2 tickets, expires 15 January 2027"]
    assert in_the_year(vouchers, "Which vouchers expire this year?", TODAY) == (
        "[Saturn listed] the lines dated in 2026 (1 of 3): Pizza Express 2-for-1: expires 2026-12-20")
    assert in_the_year(vouchers, "Which vouchers expire next year?", TODAY).startswith(
        "[Saturn listed] the lines dated in 2027 (2 of 3): John Lewis")
    assert in_the_year(vouchers, "Which vouchers expire soon?", TODAY) == ""  # no year asked
    leave = ["# Annual leave 2026", "- 3 March (1 day)", "- 23 October (1 day)"]
    assert in_the_year(leave, "How many days have I taken this year?", TODAY) == ""  # no year written: not next year's


def test_asked_whether_a_thing_holds_now_a_line_from_a_day_to_a_day_says_if_today_is_in_it():
    allotment = ["Plot 14. Gate code 4471.", "Water troughs are turned off from 1 November to 1 March."]
    assert in_the_month(allotment, "Can I use the water troughs now?", TODAY) == (
        "[Saturn dated] today, 2 December, is inside 1 November to 1 March, so this holds now: Water troughs are turned"
        " off.")
    assert in_the_month(allotment, "Can I use the water troughs now?", date(2027, 3, 2)).startswith(
        "[Saturn dated] today, 2 March, is outside")
    assert in_the_month(["Pool closed from 3 August to 17 August."], "Is the pool open now?", TODAY).startswith(
        "[Saturn dated] today, 2 December, is outside 3 August to 17 August")
    assert in_the_month(allotment, "Can I park at the gate now?", TODAY) == ""  # not the line's thing


def test_asked_which_did_best_a_lists_largest_and_smallest_amounts():
    harvest = ["2026 harvest (kg)", "- potatoes 18.5", "- courgettes 11", "- onions 4.9"]
    assert most_of_a_list(harvest, "What did best in the harvest?") == (
        "[Saturn worked out] the most: potatoes 18.5; the least: onions 4.9")
    assert most_of_a_list(harvest, "How much did I harvest?") == ""
    bills = ["## Bills", "- Rent: £950 on the 1st", "- Council tax: £142 on the 15th", "- Phone: £18 on the 20th"]
    assert most_of_a_list(bills, "Which bill is the biggest?") == "[Saturn worked out] the most: Rent 950; the least: Phone 18"


def test_asked_what_happened_in_a_month_the_lines_naming_it_are_listed():
    reading = ["Books read 2026:", "1. The Midnight Library (Jan)", "2. Klara and the Sun (Mar)", "3. Circe (March)"]
    assert in_the_month(reading, "What did I read in March?", TODAY) == (
        "[Saturn listed] the lines of March (2): 2. Klara and the Sun (Mar); 3. Circe (March)")
    assert in_the_month(reading, "What did I read last month?", TODAY) == ""  # November: none
    assert in_the_month(reading, "What's on 12 March?", TODAY) == ""  # a date, not the month
    assert in_the_month(["Birthday in May", "Car tax: may need renewing"], "What's in May?", TODAY) == (
        "[Saturn listed] the lines of May (1): Birthday in May")
    rota = ["We meet monthly.", "Host rota: December Hannah, January Raj, February me"]
    assert in_the_month(rota, "Whose house is it at this month?", TODAY) == (
        "[Saturn listed] the lines of December (1): Host rota: December Hannah")


@pytest.mark.parametrize(("answer", "sent_back"), [("10 days", True), ("9 days", False)])
def test_days_until_a_thing_no_date_is_labelled_with_are_the_soonests(answer, sent_back):
    trip = ["Train out: Fri 11 Dec, 08:00", "Train back: Sun 13 Dec, 15:30"]
    seen = "--- trip.md\n" + "\n".join(trip) + "\n" + dated(trip, "How many days until the trip?", TODAY)
    claim = unbacked_claim(answer, [], builtin_registry(), "How many days until the trip?", documents_at_hand=True,
                           seen=seen)
    assert (claim.quote if claim and claim.kind == "miscounted_days" else None) == (
        "[Saturn dated] Train out Fri, 11 December 2026: a Friday, in 9 days" if sent_back else None)


def test_a_bare_weekday_in_notes_of_a_few_coming_days_is_within_them():
    trip = ["Train out: Fri 11 Dec, 08:00", "Train back: Sun 13 Dec, 15:30", "Dinner Saturday 7:30pm at Ondine"]
    assert dated(trip, "How many days until the trip?", TODAY) == (
        "[Saturn dated] Train out Fri, 11 December 2026: a Friday, in 9 days; Train back Sun, 13 December 2026:"
        " a Sunday, in 11 days; Dinner, 12 December 2026: a Saturday, in 10 days")


def test_a_lines_quantities_of_one_unit_are_summed_when_asked_in_all():
    allotment = ["Allotment plot 14, rent £45 a year", "Harvested: potatoes 12kg, onions 4kg, beans 3.5kg"]
    assert quantities_summed(allotment, "How much did I harvest altogether?") == (
        "[Saturn worked out] Harvested: 12 + 4 + 3.5 = 19.5kg")
    assert quantities_summed(allotment, "How many kg of beans?") == ""
    assert quantities_summed(["Week 3: 4 runs - 5k easy, 6k tempo, 5k easy, 12k long"], "How far is week 3 altogether?") == (
        "[Saturn worked out] Week 3: 5 + 6 + 5 + 12 = 28k")
    assert quantities_summed(["Run: 5km in 28 mins"], "How far in total?") == ""  # two units
    assert quantities_summed(["Deposit: £150 paid, balance £350 due 12 December"], "What's it costing altogether?") == (
        "[Saturn worked out] Deposit: 150 + 350 = 500")
    assert quantities_summed(["Holiday fund: £1,350 of £2,000"], "How much have I saved altogether?") == ""


def test_a_lists_amounts_one_a_line_are_summed_in_the_headings_unit():
    harvest = ["2026 harvest (kg)", "- potatoes 18.5", "- runner beans 6.2", "- courgettes 11"]
    assert quantities_summed(harvest, "How much did I harvest this year in total?") == (
        "[Saturn worked out] 2026 harvest: potatoes 18.5 + runner beans 6.2 + courgettes 11 = 35.7 kg")
    assert quantities_summed(harvest, "How much did the potatoes come to in total?") == ""  # one item's
    assert quantities_summed(harvest, "How much rain fell in total?") == ""  # not the heading's words
    assert quantities_summed(["Runs", "- Monday 5 km", "- Wednesday 8 km"], "How far did I run in total? Runs") == (
        "[Saturn worked out] Runs: Monday 5 + Wednesday 8 = 13 km")


def test_asked_what_happens_at_a_part_of_the_day_the_lines_naming_it_are_listed():
    meds = ["# Medication", "- Ramipril 5mg: one each morning", "- Atorvastatin 20mg: one at night",
            "- Vitamin D: one a day, with food"]
    assert at_that_time_of_day(meds, "What do I take in the morning?") == (
        "[Saturn listed] the lines of the morning (1): - Ramipril 5mg: one each morning")
    assert at_that_time_of_day(meds, "What do I take tonight?") == (
        "[Saturn listed] the lines of the night (1): - Atorvastatin 20mg: one at night")
    assert at_that_time_of_day(meds, "What do I take a day?") == ""
    classes = ["day,time,class", "Monday,07:00,Spin", "Wednesday,12:15,HIIT", "Thursday,19:00,Yoga"]
    assert at_that_time_of_day(classes, "Is there a class at lunchtime?") == (
        "[Saturn listed] the lines of the lunchtime (1): Wednesday,12:15,HIIT")  # by its times, 11 to 2
    mum = ["# Mum", "Carer (Sunita) visits 9am and 6pm daily", "GP: surgery 01632 960777"]
    assert at_that_time_of_day(mum, "What time does the carer come in the evening?") == (
        "[Saturn listed] the lines of the evening (1): Carer (Sunita) visits 9am and 6pm daily: the evening's 6pm")
    assert at_that_time_of_day(mum, "What time does the carer come at night?") == ""  # no hours of night: none picked
    gym = ["# Classes", "- Mon 18:30 Pilates", "- Wed 07:00 spin", "- Sat 09:30 bootcamp"]
    saturday = date(2026, 12, 5)
    assert at_that_time_of_day(gym, "Is there a class this morning?", saturday) == (  # today's, not Wednesday's spin
        "[Saturn listed] the lines of this morning, Saturday (1): - Sat 09:30 bootcamp")
    assert at_that_time_of_day(gym, "Is there a class this evening?", saturday) == (
        "[Saturn listed] no line of this evening, Saturday; Saturday's: - Sat 09:30 bootcamp")
    assert at_that_time_of_day(gym, "Is there a class this morning?", date(2026, 12, 4)) == (
        "[Saturn listed] no line of this morning, Friday")


def test_told_money_went_into_a_thing_its_line_is_worked_out_so_much_more():
    savings = ["Holiday fund: £1,350 of £2,000", "Emergency fund: £4,200 of £5,000", "New bike: £180 of £650",
               "I put in £150 a month to the holiday fund."]
    assert amount_added(savings, "I added £50 to the bike fund.") == (
        '[Saturn worked out] 180 + 50 = 230: the line would read "New bike: £230 of £650"')  # one bike, three funds
    assert amount_added(savings, "I put £100 in the holiday fund") == (
        '[Saturn worked out] 1,350 + 100 = 1450: the line would read "Holiday fund: £1,450 of £2,000"')
    assert amount_added(savings, "How much is in the holiday fund?") == ""



def test_asked_which_pot_is_closest_to_its_target_by_the_share_reached():
    pots = ["- Holiday: £640 of £1,500", "- Emergency fund: £2,100, target £3,000", "- New laptop: £420 of £900"]
    assert progress(pots, "Which pot is closest to its target?").endswith("; closest: Emergency fund; furthest: Holiday")


def test_a_pot_with_its_target_and_its_rate_on_its_own_line_is_progress_never_a_sum():
    pots = ["- Holiday: £640 of £1,500 (paying in £150 a month)", "- Emergency fund: £2,100, target £3,000"]
    assert quantities_summed(pots, "How much is left in the emergency fund?") == ""  # not 2100 + 3000
    assert progress(pots, "How much more do I need for the holiday?") == (
        "[Saturn worked out] Holiday 640 of 1500: 1500 - 640 = 860 more to go, 42.7% there; Emergency fund 2100 of 3000:"
        " 3000 - 2100 = 900 more to go, 70% there; all 2740 of 4500: 4500 - 2740 = 1760 more to go, 60.9% there;"
        " Holiday at 150 a month: 860 / 150 = 5.73, so 6 months")
    assert amount_added(pots, "I've put another £100 in the holiday pot.") == (
        '[Saturn worked out] 640 + 100 = 740: the line would read "- Holiday: £740 of £1,500 (paying in £150 a month)"')


@pytest.mark.parametrize(("answer", "sent_back"), [
    ("There are no overdue books.", True), ("The Salt Path — due 8 Dec", True), ("Circe, due 1 Dec.", False)])
def test_asked_what_is_overdue_an_answer_naming_none_gone_by_its_date_goes_back(answer, sent_back):
    library = ["The Salt Path — due 8 Dec", "Circe — due 1 Dec"]
    seen = "--- library.txt\n" + "\n".join(library) + "\n" + dated(library, "Which library book is overdue?", TODAY)
    claim = unbacked_claim(answer, [], builtin_registry(), "Which library book is overdue?", documents_at_hand=True,
                           seen=seen)
    assert (claim.quote if claim and claim.kind == "against_the_line" else None) == (
        "Circe due, 1 December 2026: a Tuesday, yesterday (gone: overdue)" if sent_back else None)


@pytest.mark.parametrize(("answer", "sent_back"), [
    ("Spinach, Rice, Tinned tomatoes", True), ("The chicken thighs (600g).", False)])
def test_a_what_answer_sharing_no_word_with_the_days_line_goes_back(answer, sent_back):
    seen = ("--- pantry.md (whole file, 2 lines)\n- Spinach: 1 bag, use by 2 Dec\n- Chicken thighs: 600g, use by 3 Dec\n"
            "[Saturn dated] today, Thursday 3 December: - Chicken thighs: 600g, use by 3 Dec")
    claim = unbacked_claim(answer, [], builtin_registry(), "What needs using up today?", documents_at_hand=True, seen=seen)
    assert (claim is not None and claim.kind == "against_the_day") is sent_back


def test_a_repeat_gone_by_since_it_was_last_done_is_overdue_not_the_next_one():
    house = ["- Smoke alarms — test monthly, last tested 1 Nov", "- Boiler service — last done 15 Jan 2026, due every 12 months"]
    assert next_due(house, "Are the smoke alarms due a test?", TODAY) == (
        "[Saturn dated] Smoke alarms test last, 1 November 2026, every 1 month: next 1 December 2026, a Tuesday,"
        " yesterday (overdue)")
    seen = "--- house.md\n" + "\n".join(house) + "\n" + next_due(house, "When was the boiler last serviced?", TODAY)
    claim = unbacked_claim("15 Jan 2026", [], builtin_registry(), "When was the boiler last serviced?",
                           documents_at_hand=True, seen=seen)
    assert claim is None  # the date gone is asked, not the next
    seen = "--- house.md\n" + "\n".join(house) + "\n" + next_due(house, "Is the boiler service due?", TODAY)
    for answer in ("Yes, on 15 January 2027.", "Yes"):
        claim = unbacked_claim(answer, [], builtin_registry(), "Is the boiler service due?", documents_at_hand=True,
                               seen=seen)
        assert claim is not None and claim.kind == "against_the_line" and claim.quote.startswith("Boiler service last")
    plants = ["- Cactus: water every 3 weeks, last watered 10 November", "- Peace lily: water every week, last watered 1 December"]
    seen = "--- plants.md\n" + "\n".join(plants) + "\n" + next_due(plants, "Is the cactus due a water?", TODAY)
    claim = unbacked_claim("Yes, it's overdue.", [], builtin_registry(), "Is the cactus due a water?", documents_at_hand=True,
                           seen=seen)
    assert claim is None  # the cactus's line, not the peace lily's that shares "water"


def test_asked_what_is_past_its_date_with_none_gone_by_that_is_said():
    pantry = ["mince,500g,2026-12-05", "rice,1kg,2027-06-01"]
    assert dated(pantry, "Is anything past its date?", TODAY).endswith("; gone by: none")
    assert "gone by: none" not in dated(["milk,1l,2026-12-01"], "Is anything past its use-by?", TODAY)
    assert "gone by: none" not in dated(["Open Tue-Sat 9-5"], "Which books are overdue?", TODAY)  # a weekday's, no due day


def test_a_line_overdue_is_dated_gone_or_to_come():
    library = ["The Salt Path — due 8 Dec", "Circe — due 1 Dec"]
    assert dated(library, "Which library book is overdue?", TODAY) == (
        "[Saturn dated] Circe due, 1 December 2026: a Tuesday, yesterday (gone: overdue); The Salt Path due, 8 December"
        " 2026: a Tuesday, in 6 days")  # the gone first
    invoices = ["INV-042,Greenfield School,2026-10-20,£1200,paid", "INV-043,Harbour Cafe,2026-11-03,£450,unpaid"]
    assert dated(invoices, "Which invoices are overdue?", TODAY) == (
        "[Saturn dated] INV 043 Harbour Cafe, 3 November 2026: a Tuesday, 29 days ago (4 weeks 1 day) (gone: overdue)")


def test_how_long_a_thing_lasts_from_its_date_gives_the_day_it_ends():
    house = ["- Fridge (Bosch): bought 12 March 2024, 2 year warranty", "- Laptop: bought 20 November 2025, 1 year warranty"]
    assert lasts_until(house, "Is the laptop still under warranty?", TODAY) == (
        "[Saturn dated] Fridge (Bosch): 12 March 2024 + 2 year warranty: ends 12 March 2026, 265 days ago (37 weeks"
        " 6 days) (ended); Laptop: 20 November 2025 + 1 year warranty: ends 20 November 2026, 12 days ago (ended)")
    assert lasts_until(house, "What make is the fridge?", TODAY) == ""


def test_a_date_the_request_writes_or_names_by_a_holiday_is_dated_for_the_ground():
    assert days_meant("How many weeks until Christmas?", TODAY) == (
        "[Saturn dated] Christmas is Friday 25 December 2026, in 23 days (3 weeks 2 days)")
    assert days_meant("What day of the week is 14 February 2027?", TODAY) == (
        "[Saturn dated] 14 February 2027 is Sunday 14 February 2027, in 74 days (10 weeks 4 days)")


@pytest.mark.parametrize(("request_text", "said"), [
    ("I'm leaving at 2:15pm and the drive takes three and a half hours. When will I get there?",
     "2:15pm + 3 hours 30 minutes = 5:45pm"),
    ("My train is at 17:45 and it's a 25 minute walk. When should I leave?", "17:45 - 25 minutes = 17:20"),
    ("I need to be there by 9am and it takes 40 mins. What time should I leave?", "9am - 40 minutes = 8:20am"),
    ("How many minutes is an hour and three quarters?", "105 minutes"),
    ("How many hours is 210 minutes?", "3.5 hours"),
])
def test_a_clock_time_moved_by_a_length_or_a_length_in_other_units_is_worked_out(request_text, said):
    assert times_worked_out(request_text) == f"[Saturn worked out] {said}"


def test_a_clock_time_moved_by_the_length_a_shown_line_gives():
    assert times_worked_out("If the lasagne goes in at 6:20pm, when does it come out?", LASAGNE) == (
        "[Saturn worked out] 6:20pm + 40 minutes (Oven: 190C for 40 minutes) = 7:00pm")
    assert times_worked_out("What's in the lasagne?", LASAGNE) == ""


def test_a_yes_or_no_against_the_day_a_thing_ends_goes_back_with_it():
    seen = ("[Saturn dated] Fridge (Bosch): 12 March 2024 + 2 year warranty: ends 12 March 2026, 265 days ago (ended);"
            " Laptop: 20 November 2025 + 1 year warranty: ends 20 November 2026, 12 days ago (ended)")
    claim = unbacked_claim("Yes, the laptop is still under warranty.", [], builtin_registry(),
                           "Is the laptop still under warranty?", documents_at_hand=True, seen=seen)
    assert claim is not None and claim.kind == "against_the_line" and claim.quote.startswith("Laptop: 20 November 2025")
    assert unbacked_claim("No, it ended on 20 November.", [], builtin_registry(), "Is the laptop still under warranty?",
                          documents_at_hand=True, seen=seen) is None


def test_asked_whose_birthday_is_next_a_line_saying_birthday_is_not_the_only_one():
    birthdays = ["- Mum: 14 January", "- Jo: 9 December", "Jess's birthday is on 4 May."]
    assert dated(birthdays, "Whose birthday is next?", TODAY).startswith(
        "[Saturn dated] soonest first: Jo, 9 December 2026")


def test_a_weekday_said_as_every_one_of_it_names_that_day():
    clubs = ["child,club,day,time", "Maya,Swimming,Mon,16:30", "Maya,Choir,Thu,15:15", "Leo,Football,Tue,16:00"]
    assert on_the_days(clubs, "What does Maya do on Thursdays?", date(2026, 12, 3)) == (
        "[Saturn dated] Thursday 3 December: child Maya, club Choir, day Thu, time 15:15")


def test_asked_how_old_a_birth_date_gives_the_years_to_today():
    assert age(["Born: 12 May 2022", "Vet: Riverside Vets"], "How old is Biscuit?", TODAY) == (
        "[Saturn dated] Born, 12 May 2022: 4 years 6 months old today")
    assert age(["- Dad: born 3 December 1960"], "How old is Dad turning?", TODAY).startswith(
        "[Saturn dated] Dad born, 3 December 1960: 65 years 11 months old today; 66 on 3 December 2026, tomorrow")
    assert age(["- Mum: birthday 14 Feb", "- Jo: birthday 14 Dec"], "How old is Mum?", TODAY) == ""  # no year, no age
    assert age(["Born 2 November 2026, 3.4 kg."], "How old is Ada?", TODAY) == (
        "[Saturn dated] Born, 2 November 2026: 1 month (4 weeks 2 days) old today")  # a baby's in weeks too
    assert age(["Born 20 November 2026"], "How old is Ada?", TODAY).endswith(": 1 week 5 days old today")
    assert age(["Born: 12 May 2022"], "When was Biscuit born?", TODAY) == ""


def test_asked_how_long_in_all_the_lines_lengths_of_time_are_summed():
    walks = ["Mon: park, 40 min", "Tue: canal, 1 hour", "Thu: woods, 1 hour 15 min", "Sun: rest"]
    assert lengths_summed(walks, "How long do we walk him in a week?") == (
        "[Saturn worked out] lengths of time over 3 lines: 40 minutes + 1 hour + 1 hour 15 minutes = 2 hours 55 minutes")
    assert lengths_summed(walks, "How long is the walk on Tuesday?") == ""  # one line asked
    assert lengths_summed(["Train 07:42, arrives 08:10", "Bus 09:00 for 20 min"], "How long in total?") == ""


def test_asked_about_ratings_the_lines_that_give_one_show_the_highest_lowest_and_average():
    books = ["## Books", "- September: The Bee Sting (done, 4/5)", "- October: Tomorrow x3 (done, 3/5)",
             "- November: Orbital (done, 5/5)", "- December: Prophet Song (reading)"]
    assert ratings(books, "Which book did I rate highest?") == (
        "[Saturn worked out] ratings over 3 lines: highest 5/5: November: Orbital (done, 5/5); lowest 3/5: October:"
        " Tomorrow x3 (done, 3/5); average 4/5")
    assert ratings(books, "Which book was best?").startswith(  # the best of rated lines: the highest rated
        "[Saturn worked out] ratings over 3 lines: highest 5/5: November: Orbital")
    assert ratings(books, "Which book is first?") == ""  # no rating asked
    assert ratings(["Train 12/12", "Bus 3/5 stops"], "How did I rate them?") == ""  # one a date, not out of 5 or 10
    docs = [Document("bookclub.md", "\n".join(books)), Document("notes.txt", "Average week: busy")]
    assert [e.source for e in relevant_excerpts("What's my average rating?", docs)] == ["notes.txt", "bookclub.md"]


def test_asked_what_is_still_owed_a_whole_less_the_part_paid():
    removals = ["Removals: Swift Movers, quote £850, deposit £200 paid, 01632 960444"]
    assert still_to_pay(removals, "How much do I still owe the removals company?") == (
        "[Saturn worked out] Removals: 850 - 200 paid = 650 still to pay")
    assert quantities_summed(removals, "How much altogether?") == ""  # no sum of a whole and its part
    assert still_to_pay(removals, "When are the removals coming?") == ""
    assert quantities_summed(["Deposit: £150 paid, balance £350"], "How much is it altogether?").endswith("150 + 350 = 500")
    unnamed = ["Removals: Swift Movers, £850 (deposit £200 paid)"]  # the line's other amount is the whole
    assert still_to_pay(unnamed, "How much do I still owe the removals firm?") == (
        "[Saturn worked out] Removals: 850 - 200 paid = 650 still to pay")
    assert quantities_summed(unnamed, "How much do the removals cost altogether?") == ""
    suppliers = ["- Photographer: £1,200, deposit £300 paid, balance due 1 May", "- Florist: £650, deposit £100 paid, balance due 15 May"]
    assert still_to_pay(suppliers, "How much is still to pay altogether?") == (  # a balance with no amount of its own
        "[Saturn worked out] Photographer: 1200 - 300 paid = 900 still to pay; Florist: 650 - 100 paid = 550 still to pay;"
        " in all 1450 still to pay")
    assert quantities_summed(suppliers, "How much altogether?") == ""


def test_the_line_a_yes_or_no_goes_against_is_never_the_request_quoted_back():
    request = "Does Leo have anything on Tuesday?"
    seen = f"--- clubs.csv (whole file, 2 lines)\nLeo,Football,Tue,16:00,45\nThe user asked: {request}"
    assert against_its_line("No, nothing.", request, seen) == "Leo,Football,Tue,16:00,45"
    assert against_its_line("No, nothing.", request, f"The user asked: {request}") is None


def test_asked_one_lines_amount_by_another_period_it_is_converted():
    assert amounts_by_period(["Rent: £38 a year, due 1 April", "Water butts: 3"], "How much is the rent a month?") == (
        "[Saturn worked out] Rent: 38 a year = 3.17 a month")
    assert amounts_by_period(["Rent: £38 a year"], "How much is the rent a year?") == ""  # as written
    assert amounts_by_period(["# Gym", "Membership: £32 a month, renews on the 15th"], "How much is the gym a year?") == (
        "[Saturn worked out] Membership: 32 a month = 384 a year")  # the file's one amount by a period


def test_asked_whether_a_thing_can_be_done_now_the_lines_of_this_month_are_listed():
    seeds = ["Garlic - plant October/November", "Carrots - sow April to June", "Kale - Nov to Feb"]
    assert in_the_month(seeds, "Can I plant garlic now?", date(2026, 12, 3)) == (
        "[Saturn listed] now is December: the lines of December (1): Kale - Nov to Feb")
    assert in_the_month(seeds[:2], "Can I plant garlic now?", date(2026, 12, 3)) == (
        "[Saturn listed] now is December: no line here names December")
    assert in_the_month(seeds, "Can I plant garlic now?", date(2026, 5, 3)) == (
        "[Saturn listed] now is May: the lines of May (1): Carrots - sow April to June")
    plants = ["Feed the monstera once a month in spring and summer only.", "Orchid likes rainwater."]
    assert in_the_month(plants, "Does the monstera need feeding now?", date(2026, 12, 3)) == (
        "[Saturn listed] now is December: no line here names December")  # spring and summer are March to August
    assert in_the_month(plants, "Does the monstera need feeding now?", date(2026, 6, 3)).endswith("(1): " + plants[0])
    assert in_the_month(plants, "Is the orchid thirsty now?", date(2026, 12, 3)) == ""  # the one line is not about it
    ruled_out = ["Feed the monstera once a month in spring and summer, not in winter.", "Fern likes misting."]
    assert in_the_month(ruled_out, "Should I feed the monstera now?", date(2026, 12, 3)) == (
        "[Saturn listed] now is December: no line here names December")  # "not in winter" rules December out


def test_asked_how_many_by_another_period_a_lines_count_is_converted():
    assert count_by_period(["Formula: 150ml a feed", "Nappies: size 2, about 8 a day"],
                           "How many nappies does she use a week?") == "[Saturn worked out] Nappies: 8 a day = 56 a week"
    assert count_by_period(["Insurance: £23.50 a month"], "How much is the insurance a year?") == ""  # money: by period
    assert count_by_period(["Nappies: 8 a day"], "How many nappies a day?") == ""  # as written


def test_asked_of_the_last_one_a_days_table_by_its_times_names_the_latest():
    assert table_totals("feeds.csv", "time,ml\n06:10,150\n9:30,120\n19:20,150\n", "When was her last feed?").endswith(
        "; the latest row: (time 19:20, ml 150)")
    days = "date,time,minutes\n2026-12-03,22:10,15\n2026-12-04,01:40,20\n2026-12-04,12:05,16\n2026-12-04,08:50,18\n"
    assert table_totals("feeds.csv", days, "When did she last feed?").endswith(
        "; the latest row: (date 2026-12-04, time 12:05, minutes 16)")  # the day, then its time


def test_a_yes_to_whether_a_thing_can_be_done_now_goes_back_when_no_line_names_this_month():
    seen = ("--- seeds.txt (whole file, 1 lines)\nGarlic - plant October/November\n"
            "[Saturn listed] now is December: no line here names December")
    claim = unbacked_claim("Yes, you can plant garlic now.", [], builtin_registry(), "Can I plant garlic now?",
                           documents_at_hand=True, seen=seen)
    assert claim is not None and claim.kind == "against_the_line"
    assert claim.quote == "now is December: no line here names December"
    assert unbacked_claim("No, garlic goes in October or November.", [], builtin_registry(), "Can I plant garlic now?",
                          documents_at_hand=True, seen=seen) is None


def test_a_car_notes_dates_are_no_months_of_the_year_to_judge_now_by():
    car = ["- MOT due: 14 March 2027", "- Insurance renews: 2 January 2027"]
    assert in_the_month(car, "Is the car due a service yet?", date(2026, 12, 3)) == ""


def test_a_week_named_is_its_days_monday_to_sunday():
    today = date(2026, 12, 3)  # a Thursday
    assert week_named("How far did I run last week?", today) == [date(2026, 11, 23 + n) for n in range(7)]
    assert week_named("Who's on tea next week?", today)[0] == date(2026, 12, 7)
    assert week_named("What am I doing this week?", today)[-1] == date(2026, 12, 6)
    assert week_named("How many weeks until the race?", today) == []


def test_a_weekly_day_is_its_next_one_not_moved_into_the_dates_other_lines_write():
    choir = ["Rehearsals: Wednesdays 7:30pm to 9pm", "No rehearsal on 23 December or 30 December.",
             "Christmas concert: Saturday 19 December 2026, 7pm"]
    assert dated(choir, "When's the next rehearsal?", date(2026, 12, 3)).startswith(
        "[Saturn dated] soonest first: Rehearsals, 9 December 2026: a Wednesday, in 6 days;")
    trip = ["Train out: Fri 11 Dec", "Dinner Saturday 7:30pm", "Back: Mon 14 Dec"]
    assert "Dinner, 12 December 2026" in dated(trip, "How many days until dinner?", date(2026, 12, 3))


def test_a_file_of_several_recipes_scales_the_one_the_request_names():
    recipes = ["## Lasagne (serves 4)", "- 500g beef mince", "", "## Pancakes (makes 8)", "- 100g plain flour",
               "- 2 eggs"]
    assert scaled_recipe(recipes, "How much flour for 16 pancakes?") == (
        "[Saturn worked out] for 16 of a recipe for 8 (each amount × 2): 100g plain flour → 200g")
    bread = ["## Banana bread (makes 1 loaf)", "3 ripe bananas, 75g butter, 1 egg, 190g flour"]
    assert scaled_recipe(bread, "How many eggs for two loaves of banana bread?") == (
        "[Saturn worked out] for 2 of a recipe for 1 (each amount × 2): 1 egg → 2")  # a line of several amounts
    assert scaled_recipe(recipes, "How much do I need for 8?") == ""  # which recipe is not said


def test_the_price_of_one_is_no_sum_of_a_lines_prices():
    tickets = ["Tickets £12, under 16s £6."]
    assert quantities_summed(tickets, "How much is a ticket for a child?") == ""
    assert quantities_summed(["Deposit: £150 paid, balance £350"], "How much is the holiday in total?").endswith("= 500")


def test_a_message_sent_tonight_lists_no_lines_of_the_night():
    choir = ["Concert songs:", "1. O Holy Night", "2. Hallelujah"]
    shown = render_excerpts([Excerpt("choir.md", 1, choir, 3)], "Text Joan that rehearsal is cancelled tonight.",
                            date(2026, 12, 3))
    assert "[Saturn listed]" not in shown
    assert at_that_time_of_day(["Ibuprofen at night", "Vitamin D morning"], "What do I take tonight?") == (
        "[Saturn listed] the lines of the night (1): Ibuprofen at night")


def test_the_lines_dated_within_the_week_asked_are_its_lines():
    rota = ["Cleaning rota (week starting Monday)", "30 Nov: Ana - kitchen, Chris - hoovering",
            "7 Dec: Ben - kitchen, Ana - hoovering"]
    assert on_the_days(rota, "What am I cleaning this week?", date(2026, 12, 3)) == (
        "[Saturn dated] this week (30 November to 6 December): 30 Nov: Ana - kitchen, Chris - hoovering")
    assert on_the_days(rota, "Who's on the kitchen next week?", date(2026, 12, 3)).endswith(": 7 Dec: Ben - kitchen, Ana - hoovering")


def test_a_share_of_a_tables_total_is_over_the_ways_another_file_splits_it():
    shown = "[Saturn worked out] totals over the November 2026 rows (3): amount = 211.3; amount by bill: gas 76.9"
    flat = "Flatmates: Ana, Ben and me (Chris). Bills are split three ways.\nRent: £1,650 a month"
    assert table_share("What's my share of November's bills?", shown, [flat]) == (
        "[Saturn worked out] a share of amount over the November 2026 rows (3), split 3 ways: 211.3 / 3 = 70.43")
    assert table_share("What did November's bills come to?", shown, [flat]) == ""  # no share asked
    assert table_share("What's my share of the petrol?", shown, [flat]) == ""  # the split is the bills'
    netflix = "[Saturn worked out] totals over the Netflix rows (1): monthly = 10.99; the row: service Netflix"
    assert table_share("How much does Tom owe me for Netflix?", netflix, ["Tom pays half of anything shared."]) == (
        "[Saturn worked out] a share of monthly over the Netflix rows (1), split 2 ways: 10.99 / 2 = 5.50")
    house = "# Housemates\nSplit everything equally between the four of us: me, Chloe, Arun, Beth\n"
    assert table_share("How much is each person's share of the bills?", shown, [house]) == (
        "[Saturn worked out] a share of amount over the November 2026 rows (3), split 4 ways: 211.3 / 4 = 52.83")
    electric = "[Saturn worked out] totals over the electric rows (1): amount = 96; the row: bill electric, amount 96.00"
    assert table_share("Text Arun how much he owes for the electric.", electric, [house]) == (
        "[Saturn worked out] a share of amount over the electric rows (1), split 4 ways: 96 / 4 = 24")
    gig = "[Saturn worked out] totals over the 2026-12-31 rows (1): fee = 900"
    assert table_share("What's my share of the New Year's Eve gig?", gig, ["Split fees four ways (me, Kit, Jo, Ravi)"]) == (
        "[Saturn worked out] a share of fee over the 2026-12-31 rows (1), split 4 ways: 900 / 4 = 225")


def test_what_i_get_of_a_rows_fee_is_its_share_where_a_line_splits_the_fees():
    shown = "[Saturn worked out] totals over the 2026-12-31 rows (1): fee = 900; the row: date 2026-12-31, fee 900"
    assert table_share("How much will I get from the New Year's Eve gig?", shown, ["Fees split four ways"]) == (
        "[Saturn worked out] a share of fee over the 2026-12-31 rows (1), split 4 ways: 900 / 4 = 225")


def test_a_time_set_before_another_is_worked_out_from_the_days_row_of_another_file():
    shown = ("[Saturn dated] tomorrow, Saturday 5 December: date 2026-12-05, venue The Crown, start 21:00\n"
             "Load-in 90 minutes before the start")
    assert before_the_day_asked("What time do we need to load in tomorrow?", shown) == (
        "[Saturn worked out] tomorrow, Saturday 5 December: start 21:00 - 1 hour 30 minutes = 19:30 "
        "(Load-in 90 minutes before the start)")


def test_what_each_of_us_pays_is_the_total_over_the_people_a_line_lists_with_what_each_paid():
    shown = "[Saturn worked out] totals over 4 rows: cost = 1257; cost by paid by: Kate 486, me 684, Sam 87"
    trip = "# Rome\nTravelling: me, Kate, Sam\n"
    assert table_share("How much should each of us pay?", shown, [trip]) == (
        "[Saturn worked out] a share of cost over 4 rows, split 3 ways: 1257 / 3 = 419 (you paid 684, 265 over the share; "
        "Kate paid 486, 67 over the share; Sam paid 87, 332 short of it)")
    assert table_share("How much should each of us pay?", shown, ["Travelling: Kate, Sam"]) == ""  # not us
    assert table_share("How much does each one cost?", shown, [trip]) == ""  # no "us"


def test_a_yes_to_a_thing_on_a_day_a_line_says_it_is_not_goes_back_with_that_line():
    seen = ("Now: Thursday 2026-12-03 17:19 UTC\n--- choir.md (whole file, 2 lines)\nRehearsals: Wednesdays 7:30pm\n"
            "No rehearsal on 23 December or 30 December.")
    request_text = "Is there rehearsal on the 23rd?"
    assert against_a_none_line("Yes, there is.", request_text, seen) == "No rehearsal on 23 December or 30 December."
    assert against_a_none_line("No.", request_text, seen) is None
    assert against_a_none_line("Yes.", "Is there rehearsal on the 16th?", seen) is None


def test_an_amount_the_request_names_the_owner_of_is_not_summed_with_the_others():
    pocket = ["Pocket money every Saturday: Leo £5, Maya £3."]
    assert quantities_summed(pocket, "How much has Leo got?") == ""
    assert quantities_summed(pocket, "How much pocket money do I give altogether?").endswith("5 + 3 = 8")


def test_a_tables_rows_with_a_repeat_note_are_no_repeats_to_come():
    rows = ["date,child,amount,note", "2026-11-01,Leo,5.00,weekly", "2026-11-08,Leo,5.00,weekly"]
    shown = render_excerpts([Excerpt("pocket.csv", 1, rows, 3)], "When's pocket money next?", date(2026, 12, 3))
    assert "every 1 week" not in shown and "overdue" not in shown


def test_a_holiday_named_is_its_next_day_and_finds_a_table_of_that_month():
    assert holidays_named("Is the cottage free on New Year's Eve?", date(2026, 12, 3)) == [
        ("New Year's Eve", date(2026, 12, 31))]
    bookings = Document("bookings.csv", "guest,arrive,leave\nDev Patel,2026-12-28,2027-01-02\n")
    notes = Document("cottage.md", "# Seaview Cottage\nKey safe code: 4412\n")
    found = relevant_excerpts("Is the cottage free on New Year's Eve?", [notes, bookings], today=date(2026, 12, 3))
    assert "bookings.csv" in [part.source for part in found]


def test_a_tables_dates_are_told_by_their_column_and_row():
    stays = ["guest,arrive,leave,paid", "Morgan family,2026-12-18,2026-12-22,yes", "Ellie Shaw,2026-12-23,2026-12-27,no"]
    assert dates_by_column("bookings.csv", stays, "Who's arriving next?") == [
        "Morgan family, arrive: 2026-12-18", "Ellie Shaw, arrive: 2026-12-23"]
    assert dates_by_column("bookings.csv", stays, "What's on next?") == [
        "Morgan family, arrive: 2026-12-18", "Morgan family, leave: 2026-12-22",
        "Ellie Shaw, arrive: 2026-12-23", "Ellie Shaw, leave: 2026-12-27"]
    assert dated(dates_by_column("bookings.csv", stays, "Who's arriving next?"), "Who's arriving next?",
                 date(2026, 12, 3)).startswith("[Saturn dated] soonest first: Morgan family arrive, 18 December 2026")


def test_asked_what_is_overdue_a_table_is_dated_by_its_due_column_and_a_row_returned_is_not_late():
    loans = ["title,borrowed,due,returned", "The Salt Path,2026-11-10,2026-12-01,", "Orbital,2026-10-30,2026-11-20,2026-11-19",
             "Piranesi,2026-11-25,2026-12-16,"]
    assert dates_by_column("loans.csv", loans, "Which library books are overdue?") == [
        "The Salt Path, due: 2026-12-01", "Piranesi, due: 2026-12-16"]


def test_a_price_is_no_part_of_a_dates_label():
    lines = ["service,cost,billed,next_payment", "Netflix,10.99,monthly,2026-12-07"]
    assert dated(lines, "What's the next payment?", date(2026, 12, 3)) == (
        "[Saturn dated] soonest first: Netflix monthly, 7 December 2026: a Monday, in 4 days")


def test_a_day_of_the_month_without_its_month_is_the_next_to_come():
    lines = ["Membership: £32 a month, renews on the 15th"]
    assert next_due(lines, "When does my membership renew?", date(2026, 12, 3)) == (
        "[Saturn dated] Membership a month renews, the 15th: next 15 December 2026, a Tuesday, in 12 days")
    assert next_due(lines, "When does my membership renew?", date(2026, 12, 16)).endswith("next 15 January 2027, "
                                                                                           "a Friday, in 30 days (4 weeks 2 days)")
    assert next_due(["Payday: 25th", "Birthday: 25th March"], "When's payday?", date(2026, 12, 4)) == (
        "[Saturn dated] Payday, the 25th: next 25 December 2026, a Friday, in 21 days (3 weeks)")  # a label's day alone


def test_an_answer_but_no_to_a_day_no_line_is_for_goes_back():
    seen = ("--- timetable.csv (whole file, 3 lines)\nday,time,class\nMonday,07:00,Spin\nThursday,18:30,Yoga\n"
            "[Saturn dated] Sunday 6 December: no line here is for that day")
    assert not_on_that_day("Yoga", "Is there a class on Sunday?", seen) == "Sunday 6 December: no line here is for that day"
    assert not_on_that_day("No, there is no class on Sunday.", "Is there a class on Sunday?", seen) is None


def test_asked_when_a_thing_is_next_an_answer_without_the_soonest_date_goes_back():
    seen = ("--- kids.md (whole file, 2 lines)\nPocket money every Saturday: Leo £5, Maya £3.\n"
            "[Saturn dated] soonest first: Pocket money every, 5 December 2026: a Saturday, in 2 days\n--- pocket.csv")
    request = "When's pocket money next?"
    assert next_due_missed("Pocket money every Saturday: Leo £5, Maya £3.", request, seen) == (
        "[Saturn dated] Pocket money every, 5 December 2026: a Saturday, in 2 days")
    assert next_due_missed("This Saturday, 5 December.", request, seen) is None
    assert next_due_missed("Every Saturday.", "When's the next bin day?", seen) is None  # another thing's dates


def test_asked_what_is_next_an_answer_with_a_later_date_goes_back_to_the_soonest():
    seen = ("--- appointments.csv (whole file, 3 lines)\ndate,time,who,what\n2026-12-08,10:30,Dr Okafor,blood test\n"
            "2026-12-15,14:00,Nurse Kim,diabetes check\n[Saturn dated] soonest first: Dr Okafor blood test, 8 December"
            " 2026: a Tuesday, in 5 days; Nurse Kim diabetes check, 15 December 2026: a Tuesday, in 12 days")
    request = "When's Dad's next appointment?"
    assert next_due_missed("On 15 December 2026 at 14:00.", request, seen) == (
        "[Saturn dated] Dr Okafor blood test, 8 December 2026: a Tuesday, in 5 days")
    assert next_due_missed("Tuesday 8 December, the blood test.", request, seen) is None
    assert next_due_missed("I can't tell.", request, seen) is None  # no date given: no other one picked


def test_asked_what_was_missed_the_dates_of_the_last_month_gone():
    lines = ["# Birthdays", "- Mum: 14 January", "- Jack (nephew): 2 December, turns 8", "- Olivia: 21 December",
             "- Sophie (work): 30 November", "- Sam: 1 October"]
    assert just_gone(lines, "Did I miss anyone's birthday?", date(2026, 12, 3)) == (
        "[Saturn dated] gone in the last 31 days: Jack nephew, 2 December 2026, 1 day ago; "
        "Sophie work, 30 November 2026, 3 days ago")
    assert just_gone(lines, "Whose birthday is next?", date(2026, 12, 3)) == ""


def test_a_part_of_the_day_no_line_names_is_told_by_the_lines_clock_times():
    exams = ["subject,date,time", "Maths,2027-01-11,09:00", "English,2027-01-12,13:30", "Chemistry,2027-01-15,13:30"]
    assert at_that_time_of_day(exams, "Which exams are in the afternoon?") == (
        "[Saturn listed] the lines of the afternoon (2): English,2027-01-12,13:30; Chemistry,2027-01-15,13:30")
    assert at_that_time_of_day(exams, "Which exams are in the evening?") == ""


def test_days_until_a_thing_are_checked_against_the_dates_of_the_file_it_names():
    seen = ("--- exams.csv (whole file, 3 lines)\nsubject,date\nMaths,2027-01-11\n"
            "[Saturn dated] Maths, 11 January 2027: a Monday, in 39 days (5 weeks 4 days)\n"
            "--- revision.md (whole file, 1 lines)\nTutor: Mr Green, Tuesdays 5pm\n"
            "[Saturn dated] Tutor Mr Green, 8 December 2026: a Tuesday, in 5 days")
    assert miscounted_days("In 5 days, on Tuesday.", "How many days until my exams start?", seen) == (
        "[Saturn dated] Maths, 11 January 2027: a Monday, in 39 days (5 weeks 4 days)")


def test_a_weekday_followed_by_a_part_of_the_day_is_named():
    assert days_named("Who's on the till this Saturday morning?", TODAY) == [("saturday", date(2026, 12, 5))]
    assert days_named("What have I got on the 12th March?", TODAY) == []  # a date, not the 12th of this month


def test_my_next_of_a_rota_whose_rows_say_me_is_mine():
    rota = ["date,shift,volunteer", "2026-12-05,morning,Alice", "2026-12-12,afternoon,Me"]
    assert dated(rota, "When's my next shift?", TODAY).startswith("[Saturn dated] soonest first: afternoon Me, 12 December")


def test_how_long_things_keep_runs_from_the_date_of_the_line_asked():
    freezer = ["# Freezer", "- Chilli con carne (2 portions) - frozen 12 Oct", "- Soup (3 portions) - frozen 28 Aug",
               "Cooked food keeps 3 months in the freezer."]
    assert lasts_until(freezer, "Is the chilli still OK?", date(2026, 12, 3)) == (
        "[Saturn dated] Chilli con carne: 12 October 2026 + 3 months: until 12 January 2027, in 40 days (5 weeks 5 days)"
        " (still holds)")
    assert "(ended)" in lasts_until(freezer, "Is the soup still good?", date(2026, 12, 3))


BILLS_BY_DAY = ["# Bills", "Water £38 monthly, 15th", "Car insurance £486 yearly, renews 9 March",
         "TV licence £169.50 yearly, due 1 February", "Broadband £32 monthly, 22nd - contract ends 30 June 2027"]


def test_when_a_thing_is_due_gives_its_own_line_not_every_repeat():
    assert next_due(BILLS_BY_DAY, "When is car insurance due?", date(2026, 12, 3)) == (
        "[Saturn dated] Car insurance renews, 9 March 2026, every 1 year: next 9 March 2027, a Tuesday, in 96 days "
        "(13 weeks 5 days)")
    assert next_due(BILLS_BY_DAY, "When is the water bill?", date(2026, 12, 3)) == (
        "[Saturn dated] Water monthly, the 15th: next 15 December 2026, a Tuesday, in 12 days")
    assert next_due(BILLS_BY_DAY, "When does the broadband contract end?", date(2026, 12, 3)) == ""


def test_a_day_of_the_month_a_monthly_line_gives_is_among_what_comes_next():
    assert dated(BILLS_BY_DAY, "When's the next bill?", date(2026, 12, 3)).startswith(
        "[Saturn dated] soonest first: Water monthly, 15 December 2026: a Tuesday, in 12 days; Broadband monthly, "
        "22 December 2026")


def test_a_line_that_writes_its_next_date_gives_no_next_of_its_own():
    bins = ["- Bins: black Tues weekly, blue every other Friday (next 4 Dec)", "- Boiler: serviced 12 Feb 2026"]
    assert next_due(bins, "Which bin goes out next week?", date(2026, 12, 3)) == ""


def test_asked_when_a_thing_without_a_repeat_is_due_no_other_things_repeat_is_given():
    car = ["# Car", "MOT due 14 March 2027", "Last service: 20 June 2026", "Service every 12 months"]
    assert next_due(car, "When's my MOT?", date(2026, 12, 3)) == ""
    assert next_due(car, "Is the car due a service yet?", date(2026, 12, 3)).startswith(
        "[Saturn dated] Last service, 20 June 2026, every 12 months: next 20 June 2027")


def test_a_weekdays_turn_in_the_month_is_its_next_day_not_every_such_weekday():
    club = ["Book club meets first Thursday of the month at Sam's.", "Quiz: last Friday of the month"]
    assert next_due(club, "When's book club?", date(2026, 12, 4)) == (
        "[Saturn dated] Book club meets, first Thursday of the month: next 7 January 2027, a Thursday, in 34 days"
        " (4 weeks 6 days)")  # 3 December was this month's
    assert dated(club, "When's the next quiz?", date(2026, 12, 4)).startswith(
        "[Saturn dated] soonest first: Quiz, 25 December 2026: a Friday, in 21 days (3 weeks)")
    assert "10 December" not in dated(club, "When's the next book club?", date(2026, 12, 4))


def test_asked_what_to_use_first_every_dated_line_is_given_oldest_first():
    freezer = ["- Chilli con carne (2 portions) - frozen 12 Oct", "- Peas (big bag)", "- Soup, leek and potato - frozen 28 Sep",
               "Cooked food keeps 3 months in the freezer."]
    assert lasts_until(freezer, "What needs eating first?", date(2026, 12, 4)) == (
        "[Saturn dated] oldest first: Soup, leek and potato: 28 September 2026 + 3 months: until 28 December 2026, in 24"
        " days (3 weeks 3 days) (still holds); Chilli con carne: 12 October 2026 + 3 months: until 12 January 2027, in 39"
        " days (5 weeks 4 days) (still holds)")
    assert lasts_until(freezer[:3], "What should I use up first?", date(2026, 12, 4)).startswith(
        "[Saturn dated] oldest first: Soup, leek and potato: 28 September 2026, 67 days ago")
    invoices = ["- INV-12 Acme Ltd £450, sent 2 Nov, paid", "- INV-13 Bolt & Co £1,200, sent 10 Nov"]
    assert lasts_until(invoices, "Which invoice is the oldest unpaid one?", date(2026, 12, 4)) == (
        "[Saturn dated] oldest first: INV-13 Bolt & Co: 10 November 2026, 24 days ago (3 weeks 3 days)")  # not the paid one


def test_asked_what_falls_before_a_day_only_what_comes_before_it_is_given():
    assert next_due(BILLS_BY_DAY, "What's due before Christmas?", date(2026, 12, 4)) == (
        "[Saturn dated] Water monthly, the 15th: next 15 December 2026, a Tuesday, in 11 days; Broadband monthly, the"
        " 22nd: next 22 December 2026, a Tuesday, in 18 days (2 weeks 4 days)")
    assert "Water" not in next_due(BILLS_BY_DAY, "What's due before the 10th?", date(2026, 12, 4))
    assert before_day("Which bills come out by Friday?", date(2026, 12, 4)) == date(2026, 12, 4)
    assert before_day("What's due next?", date(2026, 12, 4)) is None


def test_asked_what_i_do_on_a_day_a_rotas_me_rows_are_the_ones_given():
    rota = ["date,shift,volunteer,role", "2026-12-12,morning,Me,sorting", "2026-12-12,afternoon,Carol,till"]
    assert on_the_days(rota, "What am I doing on the 12th?", date(2026, 12, 4)) == (
        "[Saturn dated] the 12th, Saturday 12 December: date 2026-12-12, shift morning, volunteer Me, role sorting")
    assert "Carol" in on_the_days(rota, "Who's on the till on the 12th?", date(2026, 12, 4))


def test_a_days_rows_holding_more_of_the_requests_words_are_the_ones_given():
    rota = ["date,shift,volunteer,role", "2026-12-05,morning,Alice,till", "2026-12-05,morning,Bob,sorting",
            "2026-12-05,afternoon,Me,till"]
    assert on_the_days(rota, "Who's on the till this Saturday morning?", TODAY) == (
        "[Saturn dated] Saturday 5 December: date 2026-12-05, shift morning, volunteer Alice, role till")
    assert on_the_days(rota, "Who's on this Saturday?", TODAY).count("Saturday 5 December") == 3


def test_asked_when_a_thing_is_next_due_the_dates_of_the_line_naming_most_of_it():
    help_at_home = ["- Window cleaner (Dave): every 4 weeks, £18, last came 2026-11-20",
                    "- Cleaner (Marta): Fridays 9-12, £15 an hour"]
    shown = render_excerpts([Excerpt("help.md", 1, help_at_home, 2)], "When's the window cleaner next due?", TODAY)
    assert shown.splitlines()[-1].startswith("[Saturn dated] Window cleaner Dave every 4, 20 November 2026, every 4 weeks:"
                                             " next 18 December 2026")  # not the cleaner's Fridays


def test_asked_what_falls_before_a_day_a_lists_dates_before_it_soonest_first():
    deadlines = ["- History essay: due 2026-12-11", "- Chemistry lab report: due 2026-12-08", "- English: read by 2026-12-14"]
    assert dated(deadlines, "What's due before the 12th?", date(2026, 12, 4)) == (
        "[Saturn dated] Chemistry lab report due, 8 December 2026: a Tuesday, in 4 days; History essay due, 11 December"
        " 2026: a Friday, in 7 days")
    assert dated(deadlines, "What's due before the 12th?", date(2026, 12, 4), rows=True) == ""  # a table's totals pick them
    assert dated(deadlines, "Email Sam before the 12th.", date(2026, 12, 4)) == ""  # no question


def test_an_entry_given_another_entrys_date_goes_back_with_its_own():
    seen = ("[Saturn dated] soonest first: Pizza Express 2 for 1, 20 December 2026: a Sunday, in 16 days; John Lewis gift"
            " card expires, 31 March 2027: a Wednesday, in 117 days")
    request_text = "Which voucher runs out first?"
    assert another_entrys_date("Pizza Express 2-for-1 expires, 31 March 2027", request_text, seen) == (
        "Pizza Express 2 for 1, 20 December 2026: a Sunday, in 16 days")
    assert another_entrys_date("Pizza Express, on 20 December.", request_text, seen) is None
    assert another_entrys_date("The Pizza Express one.", request_text, seen) is None  # no date given
    assert another_entrys_date("Pizza Express on 20 December, then John Lewis gift card on 31 March 2027.", request_text,
                               seen) is None  # both, each its own


def test_asked_which_comes_next_an_answer_not_naming_it_gets_the_first_to_come():
    seen = ("--- subscriptions.csv (whole file, 3 lines)\n[Saturn dated] soonest first: Times, 9 December 2026: a Wednesday,"
            " in 5 days; Netflix, 15 December 2026: a Tuesday, in 11 days")
    request_text = "Which subscription renews next?"
    assert soonest_unnamed("9 December 2026", request_text, seen) == "Times, 9 December 2026: a Wednesday, in 5 days"
    assert soonest_unnamed("The Times, on 9 December.", request_text, seen) is None
    assert soonest_unnamed("9 December 2026", "When does the Times renew next?", seen) is None  # not which
    birthdays = "[Saturn dated] birthday next, soonest first: Priya 11 December 2026 (a Friday, in 7 days), turns 36; Mum …"
    assert soonest_unnamed("Jake's, on 8 January.", "Whose birthday is next?", birthdays) == (
        "Priya 11 December 2026 (a Friday, in 7 days), turns 36")


def test_asked_whether_a_repeat_is_overdue_its_next_due_day_answers_not_its_last():
    lines = ["Clean gutters every 6 months, last done 15 June 2026", "Chimney sweep booked Tuesday 15 December, 9am"]
    assert "gutters" not in dated(lines, "Are the gutters overdue?", date(2026, 12, 4))  # 15 June was when it was done
    assert next_due(lines, "Are the gutters overdue?", date(2026, 12, 4)) == (
        "[Saturn dated] Clean gutters, 15 June 2026, every 6 months: next 15 December 2026, a Tuesday, in 11 days")


def test_a_time_set_by_another_is_worked_out_from_the_times_given_for_it():
    team = ["Meet 45 minutes before kick-off. Home kick-off 10am, away kick-off 11am."]
    assert before_the_event(team, "What time do we need to be there tomorrow?") == (
        "[Saturn worked out] Home kick-off 10am - 45 minutes = 9:15am; away kick-off 11am - 45 minutes = 10:15am")
    assert before_the_event(team, "Who's on oranges?") == ""
    assert before_the_event(["Arrive an hour before the show.", "Show starts 19:30"], "When should we arrive?") == (
        "[Saturn worked out] Show 19:30 - 1 hour = 18:30")


def test_of_an_events_two_kinds_the_time_is_the_kind_the_day_asked_names():
    shown = ("[Saturn dated] tomorrow, Saturday 5 December: date 2026-12-05, opponent Rovers, venue away, result \n"
             "[Saturn worked out] Home kick-off 10am - 45 minutes = 9:15am; away kick-off 11am - 45 minutes = 10:15am")
    request_text = "What time do we need to be there tomorrow?"
    assert before_the_day_asked(request_text, shown) == (
        "[Saturn worked out] tomorrow, Saturday 5 December is away: away kick-off 11am - 45 minutes = 10:15am")
    assert before_the_day_asked(request_text, shown.replace("venue away", "venue home")).endswith("9:15am")
    assert before_the_day_asked("Who do we play tomorrow?", shown) == ""
    assert before_the_day_asked(request_text, shown.replace("venue away", "venue tbc")) == ""


def test_a_time_from_another_journeys_line_is_caught():
    seen = ("--- trip.md\nFlight out: BA 548, Thu 18 Feb, Heathrow 07:25, lands 11:05\n"
            "Flight back: BA 553, Mon 22 Feb, leaves Rome 15:10\n")
    assert another_journeys_time("11:05", "What time do we land back?", seen) == (
        'Flight out: BA 548, Thu 18 Feb, Heathrow 07:25, lands 11:05; the line about it is'
        ' "Flight back: BA 553, Mon 22 Feb, leaves Rome 15:10"')
    assert another_journeys_time("It leaves Rome at 15:10; the landing time isn't given.", "What time do we land back?",
                                 seen) is None
    assert another_journeys_time("11:05", "What time do we land in Rome?", seen) is None


def test_asked_what_time_a_flight_is_an_answer_giving_its_landing_goes_back():
    seen = "[Saturn read] Flight out: BA 548, Thu 18 Feb, Heathrow: leaves 07:25, lands 11:05"
    assert arrival_for_leaving("11:05 AM on Thursday", "What time is our flight to Rome?", seen) == (
        "Flight out: BA 548, Thu 18 Feb, Heathrow: leaves 07:25, lands 11:05")
    assert arrival_for_leaving("07:25 from Heathrow", "What time is our flight to Rome?", seen) is None
    assert arrival_for_leaving("11:05", "What time do we land in Rome?", seen) is None


def test_asked_when_the_user_is_on_a_table_whose_rows_say_me_only_those_rows_are_dated():
    rota = ["date,event,tea", "2026-12-06,rehearsal,Helen", "2026-12-13,concert,me", "2026-12-20,rehearsal,Me"]
    assert dates_by_column("rota.csv", rota, "When am I on the rota next?") == [rota[0], rota[2], rota[3]]
    assert dates_by_column("rota.csv", rota, "When's the next rehearsal?") == rota


def test_asked_when_a_thing_finishes_a_lines_span_of_times_gives_its_start_and_end():
    choir = ["# Choir", "Rehearsals Sundays 4-6pm at St Luke's hall.", "Subs £12 a month."]
    assert span_ends(choir, "What time does rehearsal finish?") == (
        "[Saturn worked out] Rehearsals Sundays: starts 4pm, finishes 6pm")
    assert span_ends(["Swimming 10:30am to 12pm"], "When does swimming start?") == (
        "[Saturn worked out] Swimming: starts 10:30am, finishes 12pm")
    assert span_ends(choir, "Where is rehearsal?") == ""
    assert span_ends(["Oven service booked Wed 9 Dec, 8-10am: no baking."], "What time is the oven man coming?") == (
        "[Saturn worked out] Oven service booked Wed 9 Dec: starts 8am, finishes 10am")  # not 8:10
    party = ["# Mia's 8th birthday party", "Saturday 12 December, 2-4pm, Jumpzone, Mill Road"]
    assert span_ends(party, "What time does the party finish?") == (
        "[Saturn worked out] Saturday 12 December: starts 2pm, finishes 4pm")  # the heading says what it is


def test_a_tables_rows_are_no_list_of_amounts_to_add():
    clubs = ["child,activity,cost per term,paid", "Mia,swimming,£85,yes", "Mia,piano,£120,no", "Leo,karate,£75,no"]
    shown = render_excerpts([Excerpt("activities.csv", 1, clubs, 4)], "How much do I still owe for clubs?", TODAY)
    assert "cost per term = 195" in shown and "= 280" not in shown and "all:" not in shown


def test_a_date_labelled_only_date_is_labelled_with_its_files_heading():
    plan = ["# Wedding", "Date: Saturday 5 June 2027, 2pm at Rosebank Hall.", "Invitations to go out by 1 January."]
    assert dated(plan, "How many weeks until the wedding?", TODAY).startswith(
        "[Saturn dated] Wedding date Saturday, 5 June 2027: a Saturday, in 185 days")


def test_a_tables_rows_of_someone_the_request_names_are_shown_beside_a_note_naming_them():
    school = Document("school.md", "# School\nTerm ends Friday 18 December.\nMia's class teacher: Mrs Obi.\n")
    clubs = Document("activities.csv", "child,activity,day\nMia,swimming,Monday\nLeo,karate,Thursday\n")
    found = relevant_excerpts("What does Mia do after school?", [school, clubs], today=TODAY)
    assert [e.source for e in found] == ["school.md", "activities.csv"]


def test_a_percentage_a_line_takes_of_each_amount_is_taken_of_the_total_shown():
    shown = "[Saturn worked out] totals over the October 2026 rows (2): amount = 1650; amount by status: paid 1650"
    tax = "Self assessment due 31 January 2027.\nPut aside 25% of every payment for tax.\n"
    assert percent_of_the_total("How much should I have put aside for tax from October?", shown, [tax]) == (
        '[Saturn worked out] "Put aside 25% of every payment for tax." of amount over the October 2026 rows (2): '
        "1650 × 25% = 412.50")
    assert percent_of_the_total("How much did I invoice in October?", shown, [tax]) == ""  # the line is of no word asked
    assert percent_of_the_total("Is tax put aside?", shown, [tax]) == ""  # no amount asked


def test_a_status_and_its_un_form_pick_the_rows_asked():
    invoices = "client,amount,status\nHarbour Cafe,450,paid\nHarbour Cafe,450,unpaid\nMoss,780,unpaid\n"
    assert table_totals("invoices.csv", invoices, "How much has Harbour Cafe paid me so far?").startswith(
        "[Saturn worked out] totals over the Harbour Cafe status paid rows (1): amount = 450")
    assert table_totals("invoices.csv", invoices, "How much am I owed?").startswith(
        "[Saturn worked out] totals over the status not paid rows (2): amount = 1230")


def test_a_day_asked_of_a_span_of_weekdays_is_within_it_or_not():
    hours = ["# Library", "Open Tue-Sat 9-5"]
    assert on_the_days(hours, "Is the library open on Monday?", TODAY) == (
        '[Saturn dated] Monday 7 December: not within Tue-Sat of "Open Tue-Sat 9-5"')
    assert on_the_days(["Surgery: Mon to Fri 8-6"], "Is the surgery open on Wednesday?", TODAY) == (
        '[Saturn dated] Wednesday 2 December: within Mon to Fri of "Surgery: Mon to Fri 8-6"')


@pytest.mark.parametrize(("answer", "sent_back"), [
    ("Yes, the rice is past its date.", True),
    ("The mince.", True),
    ("No, nothing is past its date.", False),
])
def test_asked_what_is_past_its_date_with_none_gone_by_a_yes_goes_back(answer, sent_back):
    pantry = ["mince,500g,2026-12-05", "rice,1kg,2027-06-01"]
    seen = "--- pantry.csv\n" + "\n".join(pantry) + "\n" + dated(pantry, "Is anything past its date?", TODAY)
    claim = unbacked_claim(answer, [], builtin_registry(), "Is anything past its date?", documents_at_hand=True, seen=seen)
    assert (claim is not None and claim.kind == "against_the_line") is sent_back


@pytest.mark.parametrize(("request_text", "answer", "sent_back"), [
    ("Is the library open on Monday?", "No, it's closed on Mondays.", False),
    ("Is the library open on Monday?", "Yes, it is open.", True),
    ("Is the library closed on Monday?", "Yes.", False),
    ("Is the library closed on Monday?", "No.", True),
])
def test_a_day_outside_a_lines_weekdays_is_a_no_to_open_and_a_yes_to_closed(request_text, answer, sent_back):
    seen = ('--- library.md\n# Library\nOpen Tue-Sat 9-5\n[Saturn dated] Monday 7 December: not within Tue-Sat of'
            ' "Open Tue-Sat 9-5"')
    claim = unbacked_claim(answer, [], builtin_registry(), request_text, documents_at_hand=True, seen=seen)
    assert (claim is not None and claim.kind == "against_the_day") is sent_back


def test_asked_what_is_overdue_an_answer_naming_what_is_still_to_come_too_goes_back():
    library = ["The Salt Path — due 1 Dec", "Intermezzo — due 11 Dec"]
    seen = "--- library.txt\n" + "\n".join(library) + "\n" + dated(library, "Which library books are overdue?", TODAY)
    claim = unbacked_claim("The Salt Path, Intermezzo", [], builtin_registry(), "Which library books are overdue?",
                           documents_at_hand=True, seen=seen)
    assert claim is not None and claim.quote.startswith("The Salt Path due, 1 December 2026")
    assert unbacked_claim("The Salt Path", [], builtin_registry(), "Which library books are overdue?",
                          documents_at_hand=True, seen=seen) is None


async def test_no_time_given_twice_is_answered_from_the_lines_with_the_times(harness):
    await harness.start()
    (harness.env.workdir / "trip.md").write_text("# Edinburgh\nTrain out: Fri 18 Dec, King's Cross 08:00, arrives 12:20\n"
                                                 "Train home: Mon 21 Dec, leaves 15:30, arrives 19:52\n")
    harness.model.enqueue("Soon.", "Yes")
    _, events = await harness.turn("What time's our train home?", headless=True)
    answer = of_type(events, "answer")[-1].text
    assert answer.startswith("From your files: ") and "15:30" in answer


def test_asked_what_time_a_journey_is_the_answer_is_held_to_the_journey_named():
    seen = ("[Saturn read] Train out: Fri 18 Dec: leaves 08:00, arrives 12:20; Train home: Mon 21 Dec: leaves 15:30,"
            " arrives 19:52")
    assert arrival_for_leaving("Our train home leaves at 15:30.", "What time's our train home?", seen) is None
    assert arrival_for_leaving("It arrives at 19:52.", "What time's our train home?", seen) == (
        "Train home: Mon 21 Dec: leaves 15:30, arrives 19:52")


def test_asked_what_falls_on_a_day_no_row_does_that_is_said_and_an_answer_naming_rows_goes_back():
    homework = "subject,task,due,done\nMaths,fractions sheet,2026-12-07,no\nEnglish,book review,2026-12-04,no\n"
    shown = table_totals("homework.csv", homework, "What homework is due tomorrow?", days=[date(2026, 12, 5)])
    assert shown.startswith("[Saturn worked out] no rows with due 2026-12-05: none of the 2")
    assert table_totals("homework.csv", homework, "I did the maths today.", days=[date(2026, 12, 5)]).find("no rows") == -1
    claim = unbacked_claim("Maths, English", [], builtin_registry(), "What homework is due tomorrow?", documents_at_hand=True,
                           seen=shown)
    assert claim is not None and claim.quote == "no rows with due 2026-12-05: none of the 2"
    assert unbacked_claim("Nothing is due tomorrow.", [], builtin_registry(), "What homework is due tomorrow?",
                          documents_at_hand=True, seen=shown) is None


def test_how_many_of_a_thing_whose_column_is_its_amount_in_a_unit_counts_the_rows():
    calpol = "date,time,dose ml\n2026-12-04,06:10,5\n2026-12-04,10:20,5\n"
    assert table_totals("calpol.csv", calpol, "How many doses has she had today?", days=[date(2026, 12, 4)]).startswith(
        "[Saturn worked out] 2 doses (a row each); ")
    runs = "date,km\n2026-12-01,5\n2026-12-03,8\n2026-12-04,6\n"
    assert "(a row each)" not in table_totals("runs.csv", runs, "How many km have I run?")


@pytest.mark.parametrize(("answer", "sent_back"), [
    ("Maths (geometry)", True),  # half the day's list
    ("History and Maths (geometry).", False),
])
def test_asked_what_is_on_a_day_an_answer_with_part_of_its_list_goes_back(answer, sent_back):
    seen = "--- revision.md\nTue: English\nWed: History, Maths (geometry)\n[Saturn dated] Wednesday 9 December: Wed: History, Maths (geometry)"
    claim = unbacked_claim(answer, [], builtin_registry(), "What am I revising on Wednesday?", documents_at_hand=True, seen=seen)
    assert (claim is not None and claim.kind == "against_the_day") is sent_back


async def test_asked_if_free_on_a_day_no_line_is_for_a_no_goes_back_and_a_second_is_answered_yes(harness):
    await harness.start()
    (harness.env.workdir / "diary.txt").write_text("Mon 7 Dec - dentist 8:40\nWed 9 Dec - haircut 17:15\nThu 10 Dec - book club\n")
    harness.model.enqueue("No, you have plans.", "No.")
    _, events = await harness.turn("Am I free on Tuesday?", headless=True)
    assert of_type(events, "answer")[-1].text.startswith("Yes: nothing in your files is for Tuesday")


def test_the_lines_within_the_week_asked_are_counted_where_there_are_several():
    diary = ["Mon 7 Dec - dentist 8:40", "Tue 8 Dec - nativity 2pm", "Sat 12 Dec - market", "Mon 14 Dec - work do"]
    assert on_the_days(diary, "How many things have I got on next week?", date(2026, 12, 4)).startswith(
        "[Saturn dated] next week (7 December to 13 December): 3 lines; next week (7 December to 13 December): Mon 7 Dec")


def test_a_yes_or_no_of_a_day_against_the_tables_rows_for_it_goes_back():
    working = "[Saturn worked out] the rows dated 2026-12-24 (1): date 2026-12-24, start 08:00, end 14:00"
    assert yes_or_no_against_the_rows("No, I am not working on Christmas Eve.", "Am I working on Christmas Eve?", working) == (
        "the rows dated 2026-12-24 (1): date 2026-12-24, start 08:00, end 14:00")
    assert yes_or_no_against_the_rows("Yes, 8 till 2.", "Am I working on Christmas Eve?", working) is None
    assert yes_or_no_against_the_rows("Yes.", "Do I have Christmas Eve off?", working) is not None  # a shift: not off
    none = "[Saturn worked out] no rows with date 2026-12-09: none of the 5"
    assert yes_or_no_against_the_rows("No, I do not have Wednesday off.", "Do I have Wednesday off?", none) == (
        "no rows with date 2026-12-09: none of the 5")
    assert yes_or_no_against_the_rows("Yes, no shift that day.", "Do I have Wednesday off?", none) is None
    assert yes_or_no_against_the_rows("Yes.", "Am I working on Wednesday?", none) is not None
    assert none_on_the_days_missed("Yes, no shift that day.", "Do I have Wednesday off?", none) is None  # a yes, right


async def test_an_answer_sent_back_is_no_line_of_the_files_when_given_again(harness):
    """The model's own sent-back answer is no source: held against it, "No, I do not have Wednesday
    off." given twice had read as a file's line, and its yes-or-no was turned round into nonsense."""
    await harness.start()
    days = [date.today() + timedelta(days=n) for n in range(1, 15)]
    rows = "".join(f"{day.isoformat()},09:00,17:00\n" for day in days if day.weekday() != 2)
    (harness.env.workdir / "shifts.csv").write_text("date,start,end\n" + rows)
    harness.model.enqueue(*["No, I do not have Wednesday off."] * 2)
    _, events = await harness.turn("Do I have Wednesday off?", headless=True)
    answer = of_type(events, "answer")[-1].text
    assert answer.startswith("Yes") and "No, I do not" not in answer


def test_asked_which_need_doing_an_answer_naming_one_not_due_yet_goes_back():
    plants = ["- Monstera: water every week, last watered 25 November", "- Cactus: water every 3 weeks, last watered 10 November",
              "- Peace lily: water every week, last watered 1 December"]
    seen = next_due(plants, "Which plants need watering?", TODAY)
    said = not_due_named("Monstera, Cactus, Peace lily", "Which plants need watering?", seen)
    assert said is not None and said.startswith("due by today: Monstera water last, 25 November 2026") and "Peace" not in said
    assert not_due_named("The monstera and the cactus.", "Which plants need watering?", seen) is None
