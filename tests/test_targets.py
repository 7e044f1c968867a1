from saturnd.turn.targets import (
    against_the_target,
    against_the_target_held,
    gap_missed,
    sets_a_target,
)

MEDS = ("meds.md", ["# My medicines", "Blood pressure target: under 140/90"])
BP = ("bp.csv", ["date,systolic,diastolic,pulse", "2026-11-09,142,88,68", "2026-11-02,148,92,71", "2026-11-23,136,85,66",
                 "2026-11-30,141,89,72"])


def test_readings_are_held_against_the_target_a_note_sets_for_them():
    said = against_the_target("Am I under my blood pressure target?", [MEDS, BP])
    assert said == ('[Saturn worked out] systolic/diastolic against "Blood pressure target: under 140/90": latest 141/89'
                    " (2026-11-30) is over it; average 141.8/88.5 is over it; over it: 3 of 4 (2026-11-02 148/92,"
                    " 2026-11-09 142/88, 2026-11-30 141/89)")
    assert against_the_target("What's my average blood pressure?", [MEDS, BP]).startswith("[Saturn worked out]")


def test_a_target_of_one_number_and_one_to_reach_over():
    steps = ("steps.csv", ["date,steps", "2026-12-01,11200", "2026-12-02,8400"])
    said = against_the_target("Am I hitting my goal?", [("health.md", ["Daily goal: at least 10000 steps"]), steps])
    assert said.endswith("latest 8400 (2026-12-02) is under it (1600 short); average 9800 is under it; under it: 1 of 2 (2026-12-02 8400 (1600 short));"
                         " reached it: 1 of 2")


def test_a_goal_below_where_the_log_began_is_one_to_get_down_to():
    weight = ("weight.csv", ["date,kg", "2026-10-01,88.4", "2026-12-01,84.0"])
    assert against_the_target("How far am I from my goal?", [("goals.md", ["Goal: 80kg by March"]), weight]) == (
        '[Saturn worked out] kg against "Goal: 80kg": latest 84 (2026-12-01) is over it (4 over); average 86.2 is over it; over it:'
        " 2 of 2 (2026-10-01 88.4 (8.4 over), 2026-12-01 84 (4 over))")


def test_no_target_no_log_or_a_money_limit_gives_nothing():
    assert against_the_target("Which expenses are over the food limit?",
                              [("work.md", ["Food limit £40 a day."]), ("x.csv", ["date,amount", "2026-11-03,64.20"])]) == ""
    assert against_the_target("Am I under my target?", [MEDS]) == ""
    assert against_the_target("What's the weather?", [MEDS, BP]) == ""
    runs = ("runs.csv", ["date,km,type", "2026-12-01,6,easy", "2026-12-03,10,tempo"])
    assert against_the_target("What's my target time?", [("race.md", ["Target: under 2 hours."]), runs]) == ""  # not km
    assert sets_a_target("Blood pressure target: under 140/90") and not sets_a_target("Food limit £40 a day.")


def test_a_yes_or_no_against_the_latest_reading_held_to_its_target_goes_back():
    seen = against_the_target("Am I under my blood pressure target?", [MEDS, BP])
    held = 'latest 141/89 (2026-11-30) is over it ("Blood pressure target: under 140/90")'
    assert against_the_target_held("Yes, you are under your target.", "Am I under my blood pressure target?", seen) == held
    assert against_the_target_held("No, you are over it.", "Am I under my blood pressure target?", seen) is None
    assert against_the_target_held("No.", "Is my blood pressure over target?", seen) == held
    assert against_the_target_held("141/89", "What was my last reading?", seen) is None


def test_a_goal_under_a_heading_of_goals_is_one_to_reach_held_against_its_own_column():
    goals = ("goals.md", ["# Goals", "Steps: 10,000 a day", "Sleep: at least 7 hours"])
    habits = ("habits.csv", ["date,sleep h,steps", "2026-12-01,8.0,9800", "2026-12-02,7.0,12100", "2026-12-03,5.5,10400"])
    assert against_the_target("On how many days did I hit my step goal?", [goals, habits]) == (
        '[Saturn worked out] steps against "Steps: 10,000": latest 10400 (2026-12-03) is within it; average 10766.7 is'
        " within it; under it: 1 of 3 (2026-12-01 9800 (200 short)); reached it: 2 of 3")
    assert against_the_target("What's my sleep goal?", [goals, habits]).startswith(
        '[Saturn worked out] sleep h against "Sleep: at least 7 hours": latest 5.5 (2026-12-03) is under it')


def test_asked_how_far_from_a_goal_an_answer_without_the_latest_gap_goes_back():
    seen = ('[Saturn worked out] kg against "Goal: 80kg": latest 83.6 (2026-12-04) is over it (3.6 over); average 85.7 is'
            " over it; over it: 2 of 2")
    assert gap_missed("You are 6 kg away from your goal.", "How far am I from my goal?", seen) == (
        '[Saturn worked out] against "Goal: 80kg": latest 83.6 (2026-12-04) is over it (3.6 over)')
    assert gap_missed("3.6 kg to go.", "How far am I from my goal?", seen) is None
    assert gap_missed("6 kg.", "What's my goal?", seen) is None  # not how far
