from datetime import date

from saturnd.turn.line_rates import by_the_hour, by_the_week_of_days, rate_figure_missed
from saturnd.turn.stay_costs import stay_costs
from saturnd.turn.worked_lines import quantities_summed
from tests.conftest import of_type

IDEAS = ["Holiday ideas", "- Lake District cottage, ~£600 for the week", "- Lisbon city break, flights £180 each + hotel £90/night",
         "- Camping in Cornwall, pitch £25/night", "We're thinking 4 nights, 2 of us."]


def test_an_options_rates_are_worked_out_over_the_nights_and_people_its_file_gives():
    assert stay_costs(IDEAS, "How much would Lisbon cost us altogether?") == (
        "[Saturn worked out] for 4 nights, 2 people: Lisbon city break: 2 × 180 + 4 × 90 = 720")
    assert stay_costs(IDEAS, "How much is Cornwall for 3 nights?") == (  # the request's count over the file's
        "[Saturn worked out] for 3 nights, 2 people: Camping in Cornwall: 3 × 25 = 75")


def test_asked_which_option_is_cheapest_every_priced_line_is_set_out_cheapest_first():
    assert stay_costs(IDEAS, "Which holiday is cheapest?") == (
        "[Saturn worked out] for 4 nights, 2 people: Camping in Cornwall: 4 × 25 = 100; Lake District cottage: 600 as the"
        " line gives it; Lisbon city break: 2 × 180 + 4 × 90 = 720; cheapest: Camping in Cornwall")
    assert stay_costs(IDEAS, "Which is the most expensive?").endswith("; dearest: Lisbon city break")


def test_no_cost_is_worked_out_without_a_count_for_each_rate_or_a_cost_asked():
    assert stay_costs(IDEAS, "What are we doing for the holiday?") == ""
    assert stay_costs(IDEAS, "How much is the Lake District?") == ""  # its price as it stands: nothing worked out
    assert stay_costs(IDEAS[:4], "How much would Lisbon cost?") == ""  # no nights nor people given
    assert stay_costs(IDEAS[:4] + ["4 nights"], "How much would Lisbon cost?") == ""  # £180 each, and nobody counted


def test_an_amount_on_each_of_some_weekdays_is_worked_out_a_week():
    assert by_the_week_of_days(["Walks: Amy does Mon/Wed/Fri, £12 a walk"], "How much do I pay Amy a week?") == (
        "[Saturn worked out] Walks: Amy does Mon/Wed/Fri, £12 a walk: 3 days (Mon/Wed/Fri) × 12 = 36 a week")
    assert by_the_week_of_days(["Milkman: 2 pints Mon/Wed/Fri"], "How many pints do we get a week?").endswith("= 6 pints a week")
    assert by_the_week_of_days(["Milkman: 2 pints Mon/Wed/Fri"], "When does the milkman come?") == ""
    assert by_the_week_of_days(["Lesson: Thursdays 5pm with Mrs Clarke, £28 a lesson"], "How much do lessons cost a month?") == (
        "[Saturn worked out] Lesson: Thursdays 5pm with Mrs Clarke, £28 a lesson: 1 day (Thursdays) × 28 = 28 a week;"
        " × 52 / 12 = 121.33 a month")  # one weekday, and a month of weeks
    assert by_the_week_of_days(["Cleaner: Fridays 9-12, £15 per hour"], "How much is the cleaner a week?") == ""  # by the hour
    assert by_the_week_of_days(["Cleaner: Fridays 9-12, £15 an hour"], "How much is the cleaner a week?") == ""  # no "15 an"


HELP = ["- Window cleaner (Dave): every 4 weeks, £18", "- Gardener (Sue): fortnightly on Tuesdays, £25 an hour, 2 hours a visit",
        "- Cleaner (Marta): Fridays 9-12, £15 an hour"]


def test_a_rate_by_the_hour_is_worked_out_a_visit_and_by_its_visits_a_week_or_a_month():
    assert by_the_hour(HELP, "How much do I pay the gardener each visit?") == (
        "[Saturn worked out] Gardener (Sue): fortnightly on Tuesdays, £25 an hour, 2 hours a visit: 2 hours × 25 = 50 a time")
    assert by_the_hour(HELP, "How much is the cleaner a week?") == (
        "[Saturn worked out] Cleaner (Marta): Fridays 9-12, £15 an hour: 3 hours × 15 = 45 a time; 1 visit a week: 45 a week")
    assert by_the_hour(HELP, "How much is the gardener a month?").endswith(
        "0.5 visit a week: 25 a week, × 52 / 12 = 108.33 a month")  # fortnightly
    assert by_the_hour(HELP, "When does the cleaner come?") == ""


def test_amounts_at_a_rate_are_never_added_as_parts_of_one_whole():
    assert quantities_summed(["- Lisbon city break, flights £180 each + hotel £90/night"], "How much would Lisbon cost?") == ""
    assert quantities_summed(["- Boat trip £30pp, lunch £12 pp"], "How much is the boat trip?") == ""


def test_the_nights_of_a_trip_are_the_days_between_the_first_and_last_it_writes():
    trip = ["Flight out: TP 1337, Fri 18 Dec, 07:15", "Flight back: TP 1338, Tue 22 Dec, 19:40",
            "Hotel: Casa Lisboa, booking ref HX7731, €95 a night"]
    assert stay_costs(trip, "How much is the hotel going to cost?", date(2026, 12, 5)) == (
        "[Saturn worked out] for 4 nights: Hotel: 4 × 95 = 380")
    assert stay_costs(trip, "How much is the hotel going to cost?") == ""  # no clock: no days to count between


def test_an_answer_without_the_worked_figure_for_the_visit_or_period_asked_goes_back():
    seen = "[Saturn worked out] " + HELP[1].strip(" -") + ": 2 hours × 25 = 50 a time"
    assert rate_figure_missed("£25 an hour", "How much do I pay the gardener each visit?", seen) == seen
    assert rate_figure_missed("£50 a visit.", "How much do I pay the gardener each visit?", seen) is None
    assert rate_figure_missed("£25 an hour", "What does the gardener charge?", seen) is None  # no visit nor period asked


async def test_the_worked_figure_for_a_visit_missed_twice_is_the_answer(harness):
    await harness.start()
    (harness.env.workdir / "help at home.md").write_text("# Help at home\n" + "\n".join(HELP) + "\n")
    harness.model.enqueue("£25 an hour", "£25 an hour.")
    _, events = await harness.turn("How much do I pay the gardener each visit?", headless=True)
    assert "2 hours × 25 = 50 a time" in of_type(events, "answer")[-1].text
