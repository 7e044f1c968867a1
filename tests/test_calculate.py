"""calculate: arithmetic, clock times, dates and durations, next-due dates and unit conversions."""

from __future__ import annotations

from datetime import date

import pytest

from saturnd.tools.calculate import CALCULATE, CalculateParams, as_interval, evaluate
from saturnd.tools.registry import ToolEnv, ToolFailure

TODAY = date(2026, 11, 28)  # a Saturday


@pytest.mark.parametrize(("expression", "shown"), [
    ("900 + 450 + 150 + 45 + 200", "900 + 450 + 150 + 45 + 200 = 1745"),
    ("42.10 + 37.90 + 20.00", "42.10 + 37.90 + 20.00 = 100"),
    ("2*180 + 4*90", "2*180 + 4*90 = 720"),
    ("(13*60+30 - 9*60) / 60", "(13*60+30 - 9*60) / 60 = 4.5"),
    ("10 / 3", "10 / 3 = 3.3333333333 (3.33 to 2 places)"),
    ("2 × 3", "2 * 3 = 6"),
    ("13:30 - 09:00", "13:30 - 09:00 = 4.5 hours (4 h 30 min)"),
    ("(17:15 - 08:45) * 5", "(17:15 - 08:45) * 5 = 42.5 hours (42 h 30 min)"),
    ("2 hours 45 minutes + 40 minutes", "2 hours 45 minutes + 40 minutes = 3.4166666667 hours (3 h 25 min)"),
    ("2h45m + 40min", "2h45m + 40min = 3.4166666667 hours (3 h 25 min)"),
    ("3.5 hours - 45 min", "3.5 hours - 45 min = 2.75 hours (2 h 45 min)"),
    ("17:45 - 25 min", "17:45 - 25 min = 17:20 (a time of day)"),  # when to leave for the train
    ("06:40 - 2 hours", "06:40 - 2 hours = 04:40 (a time of day)"),
    ("08:00 * 2", "08:00 * 2 = 16 hours (16 h 0 min)"),  # multiplied: no time of day
])
def test_arithmetic_and_clock_times_are_exact(expression, shown):
    assert evaluate(expression, today=TODAY) == shown


@pytest.mark.parametrize(("expression", "shown"), [
    ("2026-11-20 + 6 weeks", "2026-11-20 + 6 weeks = 2027-01-01 (Friday)"),
    ("2026-11-20 + weeks(6)", "2026-11-20 + weeks(6) = 2027-01-01 (Friday)"),
    ('date("2026-11-20") + weeks(6)', 'date("2026-11-20") + weeks(6) = 2027-01-01 (Friday)'),
    ('add("2026-11-20", "6 weeks")', 'add("2026-11-20", "6 weeks") = 2027-01-01 (Friday)'),
    ("2026-01-31 + 1 month", "2026-01-31 + 1 month = 2026-02-28 (Saturday)"),  # the calendar's month
    ("2024-02-29 + 1 year", "2024-02-29 + 1 year = 2025-02-28 (Friday)"),
    ("2026-12-24 - 10 days", "2026-12-24 - 10 days = 2026-12-14 (Monday)"),
    ("2027-01-01 - 2026-11-20", "2027-01-01 - 2026-11-20 = 42 days (6 weeks)"),
    ("2026-12-24 - 2026-11-28", "2026-12-24 - 2026-11-28 = 26 days (3 weeks 5 days)"),
    ("days_between(2026-11-20, 2027-01-01)", "days_between(2026-11-20, 2027-01-01) = 42 days"),
    ('days_between("2026-11-20", "2027-01-01") * 12.5', 'days_between("2026-11-20", "2027-01-01") * 12.5 = 525'),
    ("weekday(2026-12-24)", "weekday(2026-12-24) = Thursday"),
    ("today()", "today() = 2026-11-28 (Saturday; today is 2026-11-28)"),
    ("today + 2 weeks", "today + 2 weeks = 2026-12-12 (Saturday; today is 2026-11-28)"),
    ("2026-12-24 - today()", "2026-12-24 - today() = 26 days (3 weeks 5 days) (today is 2026-11-28)"),
    ("weeks(6) + days(2)", "weeks(6) + days(2) = 44 days"),
    ("2026-12-24 > 2026-11-01", "2026-12-24 > 2026-11-01 = true"),
])
def test_dates_and_durations(expression, shown):
    assert evaluate(expression, today=TODAY) == shown


@pytest.mark.parametrize(("expression", "shown"), [
    # German, French and Spanish dates and lengths, as a person copies them
    ('date("05.12.2026") + 3 Wochen', 'date("05.12.2026") + 3 Wochen = 2026-12-26 (Saturday)'),
    ("05.12.2026 + 2 weeks", "05.12.2026 + 2 weeks = 2026-12-19 (Saturday)"),
    ('date("5. Dezember 2026")', 'date("5. Dezember 2026") = 2026-12-05 (Saturday)'),
    ('date("5 déc. 2026") + 2 semaines', 'date("5 déc. 2026") + 2 semaines = 2026-12-19 (Saturday)'),
    ('date("5 de diciembre de 2026") + 1 mes', 'date("5 de diciembre de 2026") + 1 mes = 2027-01-05 (Tuesday)'),
    ('date("12/25/2026")', 'date("12/25/2026") = 2026-12-25 (Friday)'),  # the month first: 25 is no month
])
def test_dates_in_other_forms_and_languages(expression, shown):
    assert evaluate(expression, today=TODAY) == shown


@pytest.mark.parametrize(("expression", "shown"), [
    ("next_due(2026-03-01, 6 weeks)", "next_due(2026-03-01, 6 weeks) = 2026-12-20 (Sunday; today is 2026-11-28)"),
    ('next_due("2026-03-01", "every 6 weeks")', 'next_due("2026-03-01", "every 6 weeks") = 2026-12-20 (Sunday; today is 2026-11-28)'),
    ('next_due("2026-01-31", "monthly")', 'next_due("2026-01-31", "monthly") = 2026-11-30 (Monday; today is 2026-11-28)'),
    ('next_due("2025-11-28", "1 year")', 'next_due("2025-11-28", "1 year") = 2026-11-28 (Saturday; today is 2026-11-28)'),  # due today
    ('next_due("2026-11-20", "6 weeks")', 'next_due("2026-11-20", "6 weeks") = 2027-01-01 (Friday; today is 2026-11-28)'),
    ('next_due("2026-01-01", "3 months", "2026-07-15")', 'next_due("2026-01-01", "3 months", "2026-07-15") = 2026-10-01 (Thursday)'),
])
def test_next_due_repeats_the_interval_until_today(expression, shown):
    assert evaluate(expression, today=TODAY) == shown


@pytest.mark.parametrize(("expression", "shown"), [
    ("12 miles to km", "12 miles to km = 19.31 km"),
    ("350 g in oz", "350 g in oz = 12.35 oz"),
    ("3 cups to ml", "3 cups to ml = 709.76 ml"),
    ("20 °C to °F", "20 °C to °F = 68 °F"),
    ("100 F in C", "100 F in C = 37.78 C"),
    ("12 in to cm", "12 in to cm = 30.48 cm"),  # "in" is inches here, "to" the conversion
    ("1,5 kg in lb", "1,5 kg in lb = 3.31 lb"),
    ("2*350 g in oz", "2*350 g in oz = 24.69 oz"),
    ("5 ft → m", "5 ft → m = 1.52 m"),
    ("10 Meilen in km", "10 Meilen in km = 16.09 km"),
    ("2 tazas a ml", "2 tazas a ml = 473.18 ml"),
    ('convert(12, "mile", "km")', 'convert(12, "mile", "km") = 19.312128 (19.31 to 2 places)'),
    ('convert(20, "degC", "degF") + 1', 'convert(20, "degC", "degF") + 1 = 69'),
])
def test_unit_conversions(expression, shown):
    assert evaluate(expression, today=TODAY) == shown


@pytest.mark.parametrize(("expression", "problem"), [
    ('open("/etc/passwd").read()', "unknown names open"),
    ("(1).__class__", "use numbers"),
    ("1 / 0", "ZeroDivisionError"),
    ("9 ** 9 ** 9", "exponent"),
    ("x = 1", "not an arithmetic expression"),
    ("x + 2", "forms that work: .*2026-11-20 \\+ 6 weeks"),
    ('"abc"', "text is no number"),
    ('date("31.02.2026")', "not a date: '31.02.2026'"),
    ('date("hello")', "not a date"),
    ("2026-11-20 + 6", "unsupported operand.*forms that work"),  # six what? the forms say
    ('next_due(2026-03-01, "fortnight")', "not a length of time: 'fortnight' \\(write 6 weeks"),
    ("days_between(2026-11-20)", "missing 1 required positional argument: 'b'"),
    ("12 USD to EUR", "unknown unit 'USD'"),
    ("12 kg to km", "kg cannot be converted to km: they measure different things"),
    ('convert("a", "g", "oz")', "convert needs a number first"),
])
def test_errors_say_what_is_wrong_and_what_works(expression, problem):
    with pytest.raises(ToolFailure, match=problem):
        evaluate(expression, today=TODAY)


def test_an_error_inside_a_date_function_is_the_functions_own_message():
    with pytest.raises(ToolFailure) as caught:
        evaluate('date("hello")', today=TODAY)
    assert str(caught.value).startswith("not a date: 'hello'")
    assert "Error running function" not in str(caught.value)


@pytest.mark.parametrize(("text", "fields"), [
    ("6 weeks", {"days": 42}),
    ("every 3 months", {"months": 3}),
    ("monthly", {"months": 1}),
    ("alle 2 Wochen", {"days": 14}),
    ("cada 2 semanas", {"days": 14}),
    ("1 an", {"years": 1}),
    (10, {"days": 10}),
])
def test_intervals_read_as_people_write_them(text, fields):
    interval = as_interval(text)
    assert {k: getattr(interval, k) for k in fields} == fields


def test_today_is_the_real_date_when_none_is_given():
    assert evaluate("today()").startswith(f"today() = {date.today().isoformat()} (")


async def test_the_tool_runs_in_a_thread_and_says_what_it_computed(tmp_path):
    env = ToolEnv(cwd=tmp_path, kb_dir=tmp_path / "kb")
    shown = await CALCULATE.run(CalculateParams(expression="2026-11-20 + 6 weeks"), env)
    assert shown == "2026-11-20 + 6 weeks = 2027-01-01 (Friday)"


def test_the_description_names_the_forms_in_few_bytes():
    schema = CALCULATE.openai_schema()
    text = schema["function"]["description"] + schema["function"]["parameters"]["properties"]["expression"]["description"]
    assert "6 weeks" in text and "miles to km" in text and len(text) < 600


async def test_an_sql_query_given_to_calculate_is_sent_to_the_query_tool(tmp_path):
    env = ToolEnv(cwd=tmp_path, kb_dir=tmp_path / "kb")
    with pytest.raises(ToolFailure, match="call query with it as sql"):
        await CALCULATE.run(CalculateParams(expression="SELECT SUM(prix) FROM cave WHERE region = 'Bordeaux'"), env)


async def test_a_table_named_in_an_expression_is_sent_to_the_query_tool(tmp_path):
    (tmp_path / "regatten.csv").write_text("Datum;Boot;Punkte\n04.10.2026;Möwe;7\n11.10.2026;Möwe;5\n")
    env = ToolEnv(cwd=tmp_path, kb_dir=tmp_path / "kb")
    with pytest.raises(ToolFailure, match=r"regatten is a table: call query with SQL over it \(SELECT SUM"):
        await CALCULATE.run(CalculateParams(expression="sum(regatten.Punkte)"), env)
    with pytest.raises(ToolFailure, match=r"^unknown names zeug"):  # no table named: calculate's own error alone
        await CALCULATE.run(CalculateParams(expression="zeug + 2"), env)
