from saturnd.turn.to_go import reached_in, to_go, units_asked

CAR = ("car.md", ["# The car", "MOT due 22 March 2027", "Next service at 45,000 miles"])
FUEL = ("fuel.csv", ["date,litres,cost,mileage", "2026-11-06,36.2,52.10,42930", "2026-10-02,38.5,55.40,42110",
                     "2026-11-24,40.4,57.90,43350"])
RUNS = ("runs.csv", ["date,km", "2026-11-01,5", "2026-11-03,8.5", "2026-11-08,4"])


def test_a_target_less_the_latest_reading_is_what_is_left():
    said = to_go("How many miles until the next service?", [CAR, FUEL])
    assert said == ('[Saturn worked out] "Next service at 45,000 miles": 45000 - mileage 43350 (the latest, 2026-11-24)'
                    " = 1650 to go")


def test_a_column_that_does_not_only_rise_counts_by_its_total():
    said = to_go("How many more km to go to my goal?", [("goals.md", ["Goal: 100 km in November"]), RUNS])
    assert said == '[Saturn worked out] "Goal: 100 km in November": 100 - km 17.5 (the total of 3 rows) = 82.5 to go'


def test_a_target_reached_says_so():
    said = to_go("How many km left until 15 km?", [("goals.md", ["Aim 15 km"]), RUNS])
    assert said.endswith("= -2.5 (reached)")


def test_nothing_is_worked_out_without_a_target_a_column_or_a_question_of_what_is_left():
    assert units_asked("How many miles did I drive?") == ()
    assert to_go("How many miles until the next service?", [CAR]) == ""
    assert to_go("How many miles until the next service?", [FUEL]) == ""
    assert reached_in("car.md", CAR[1], "mile") is None


def test_how_far_before_a_target_reads_an_odometer_in_miles_or_km():
    van = ("van.md", ["# The van", "Service due at 60,000 miles"])
    log = ("mileage.csv", ["date,odometer,litres", "2026-10-11,57980,49", "2026-11-20,58420,50"])
    assert to_go("How far can I drive before the van needs its service?", [van, log]) == (
        '[Saturn worked out] "Service due at 60,000 miles": 60000 - odometer 58420 (the latest, 2026-11-20) = 1580 to go')


def test_a_target_done_at_so_many_and_due_every_so_many_is_their_sum():
    car = ("car.md", ["# Car", "Last service 2 June 2026 at 38,400 miles; service every 10,000 miles or 12 months"])
    mileage = ("mileage.csv", ["date,miles", "2026-11-01,41760", "2026-12-01,42530"])
    assert to_go("How many miles until the next service?", [car, mileage]) == (
        '[Saturn worked out] "Last service 2 June 2026 at 38,400 miles; service every 10,000 miles or 12 months":'
        " 38400 + 10000 = 48400 - miles 42530 (the latest, 2026-12-01) = 5870 to go")
