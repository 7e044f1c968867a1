"""The one line of a note that holds every word a question asks (asked_line.py)."""

from saturnd.turn.asked_line import (
    another_line_than_asked,
    days_not_listed,
    nothing_found_beside_the_line,
    others_lines_named,
    the_days_asked,
    the_line_asked,
    the_line_at_the_time,
    the_lines_naming,
)

CARE = ["Feed the monstera once a month in spring and summer, not in winter.", "Fern likes misting.",
        "Repot the fiddle leaf fig in March.", "Bought basil from the market for £2.50."]


def test_the_one_line_holding_each_word_of_the_question_is_named():
    assert the_line_asked(CARE, "When should I repot the fig?") == (
        "[Saturn listed] the one line with each word asked: Repot the fiddle leaf fig in March.")


def test_a_period_asked_by_is_held_by_a_line_writing_it_as_a_rate():
    help_at_home = ["- Window cleaner (Dave): every 4 weeks, £18", "- Cleaner (Marta): Fridays 9-12, £15 an hour",
                    "- Piano: Thursdays, £22 a lesson, paid monthly"]
    assert the_line_asked(help_at_home, "How much is the cleaner a week?") == ""  # "every 4 weeks" is no rate a week
    assert the_line_asked(help_at_home, "How much is piano a month?") == (
        "[Saturn listed] the one line with each word asked: Piano: Thursdays, £22 a lesson, paid monthly")


def test_no_line_named_for_an_errand_a_word_alone_or_lines_sharing_the_words():
    assert the_line_asked(CARE, "Repot the fig in April.") == ""  # no question
    assert the_line_asked(CARE, "What about the fern?") == ""  # one word: the file is read as it is
    assert the_line_asked([*CARE, "Repot the fig again in May."], "When should I repot the fig?") == ""
    assert the_line_asked(CARE[2:], "When should I repot the fig?") == ""  # two lines: read whole


def test_an_answer_with_none_of_the_named_lines_other_words_is_against_it():
    seen = "\n".join([*CARE, the_line_asked(CARE, "When should I repot the fig?")])
    assert another_line_than_asked("Bought basil from the market for £2.50.", "When should I repot the fig?", seen) == (
        "Repot the fiddle leaf fig in March.")
    assert another_line_than_asked("In March.", "When should I repot the fig?", seen) is None
    assert another_line_than_asked("Bought basil.", "When should I repot the fig?", "\n".join(CARE)) is None  # none named


def test_an_answer_with_the_lines_date_is_from_the_line_asked():
    seen = "[Saturn listed] the one line with each word asked: Miso: booster due 2026-12-18, dental check booked 2026-12-11 at 10:40"
    assert another_line_than_asked("Miso's booster is due on 2026-12-18.", "When is Miso's booster due?", seen) is None
    assert another_line_than_asked("On 18 December.", "When is Miso's booster due?", seen) is None
    assert another_line_than_asked("Miso's booster is due soon.", "When is Miso's booster due?", seen) is not None


def test_a_question_of_which_night_is_answered_from_the_one_line_with_its_other_word():
    week = ["# Dinners this week", "Mon: chilli", "Fri: pizza night", "Sat: out at Gran's", "Sun: roast lamb"]
    assert the_line_asked(week, "Which night are we at Gran's?") == "[Saturn listed] the one line with each word asked: Sat: out at Gran's"
    assert the_line_asked(week, "Are we at Gran's?") == ""  # one word, and no day asked
    assert the_line_asked(["Sleep: at least 7 hours", "Water: 2 litres", "Steps: 8000"], "Which day did I sleep the least?") == ""
    assert the_line_asked(["Booked: Yoga Thursday, Spin Saturday.", "Gym: 6am", "Pool: shut"], "What time is yoga?") == ""


def test_an_answer_that_nothing_was_found_beside_a_line_with_the_words_asked_is_sent_back_with_it():
    seen = "--- rules.txt (whole file, 2 lines)\nPocket money paid on Saturdays.\nHalf of any birthday money goes in savings."
    request = "When do I pay pocket money?"
    assert nothing_found_beside_the_line("The knowledge base is empty.", request, seen) == "Pocket money paid on Saturdays."
    assert nothing_found_beside_the_line("On Saturdays.", request, seen) is None
    assert nothing_found_beside_the_line("I couldn't find it.", "When is the bin day?", seen) is None  # no line with its words


def test_not_enough_information_beside_the_harness_line_for_the_day_asked_goes_back_with_it():
    seen = ("--- habits.csv (whole file, 3 lines)\ndate,sleep h,water glasses\n2026-11-30,6.0,4\n2026-12-01,8.0,8\n"
            "[Saturn dated] Tuesday 1 December: date 2026-12-01, sleep h 8.0, water glasses 8")
    assert nothing_found_beside_the_line("I don't have enough information to answer this question.",
                                         "How many glasses of water did I drink on Tuesday?", seen) == (
        "Tuesday 1 December: date 2026-12-01, sleep h 8.0, water glasses 8")


def test_a_when_question_of_one_word_is_answered_from_the_one_line_with_it_and_a_day():
    plan = ["# Revision plan", "Mon: Maths (algebra), Biology", "Tue: English (poetry), Chemistry", "Fri: mock paper"]
    assert the_line_asked(plan, "When do I do Chemistry?").endswith(": Tue: English (poetry), Chemistry")
    assert the_line_asked(["Chemistry notes", "Biology notes", "Maths notes"], "When do I do Chemistry?") == ""  # no day


def test_a_heading_is_no_line_asked_and_when_is_answered_by_a_line_with_a_day():
    club = ["# Book club", "Next: Thursday 17 December, 7:30pm at Jo's", "Reading: The Bee Sting", "Subs: £3 each"]
    assert the_line_asked(club, "When's book club?") == ""  # "# Book club" holds the words, and no day


def test_asked_which_days_a_plan_holds_a_thing_the_lines_that_do_and_an_answer_naming_others_goes_back():
    meals = ["# Meal plan", "- Mon: chilli", "- Tue: pasta bake", "- Wed: leftover chilli", "- Thu: fish pie"]
    listed = the_days_asked(meals, "Which nights are we having chilli?")
    assert listed == "[Saturn listed] the days with chilli (2 of 4): Mon: chilli; Wed: leftover chilli"
    assert the_days_asked(meals, "What's for dinner on Monday?") == ""
    assert days_not_listed("Monday, Tuesday, Wednesday and Thursday.", "Which nights are we having chilli?", listed) == listed
    assert days_not_listed("Monday and Wednesday.", "Which nights are we having chilli?", listed) is None


def test_asked_which_of_a_list_are_someones_the_lines_naming_them():
    gym = ["## Classes", "- Mon 18:30 Pilates (Jenny)", "- Wed 07:00 spin (Marco)", "- Wed 19:00 yoga (Jenny)"]
    assert the_lines_naming(gym, "Which classes does Jenny take?") == (
        "[Saturn listed] the lines with Jenny (2 of 3): - Mon 18:30 Pilates (Jenny); - Wed 19:00 yoga (Jenny)")
    assert the_lines_naming(gym, "Which classes does Marco take?") == (
        "[Saturn listed] the one line with each word asked: Wed 07:00 spin (Marco)")  # one: no count to read out
    films = ["## To watch", "- Dune Part Two (Netflix)", "- Past Lives (iPlayer)", "- Oppenheimer (Prime)"]
    assert the_lines_naming(films, "What can I watch on Netflix?") == (  # a name's, not a person's
        "[Saturn listed] the one line with each word asked: Dune Part Two (Netflix)")
    assert the_lines_naming(films[:2], "What can I watch on Netflix?") == ""  # the list's every line
    assert the_lines_naming(gym, "Text Jenny that I can't come.") == ""


def test_asked_what_was_at_a_time_the_one_line_written_at_it():
    given = ["## Given today", "- 06:30 Calpol 5ml", "- 09:15 ibuprofen 2.5ml"]
    assert the_line_at_the_time(given, "What did she have at 9:15?") == (
        "[Saturn listed] the one line with each word asked: 09:15 ibuprofen 2.5ml")
    assert the_line_at_the_time(given, "What did she have at 10:00?") == ""
    assert another_line_than_asked("She had medicine at 9:15.", "What did she have at 9:15?",
                                   the_line_at_the_time(given, "What did she have at 9:15?")) == "09:15 ibuprofen 2.5ml"


def test_an_answer_naming_a_thing_of_anothers_line_than_the_person_asked_goes_back():
    seen = ("--- gym.md (whole file, 4 lines)\n## Classes\n- Mon 18:30 Pilates (Jenny)\n- Wed 07:00 spin (Marco)\n"
            "- Wed 19:00 yoga (Jenny)\n- Sat 09:30 bootcamp (Marco)\n"
            "[Saturn listed] the lines with Jenny (2 of 4): - Mon 18:30 Pilates (Jenny); - Wed 19:00 yoga (Jenny)")
    request = "Which classes does Jenny take?"
    assert others_lines_named("Pilates on Monday and bootcamp on Saturday.", request, seen) == (
        "the lines with Jenny (2 of 4): - Mon 18:30 Pilates (Jenny); - Wed 19:00 yoga (Jenny)")
    assert others_lines_named("Pilates on Monday and yoga on Wednesday.", request, seen) is None
    assert others_lines_named("Yes", request, seen) is not None  # a yes to a "which" is no answer
