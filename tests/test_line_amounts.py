"""The amounts one line lists, summed (line_amounts.py)."""

from saturnd.turn.line_amounts import amounts_in_a_line

SAVINGS = ["# Savings", "Paid in every month on the 28th: holiday £150, new car £300, emergency £50, christmas £45.",
           "Interest 4.1% on the emergency pot."]


def test_asked_how_much_in_all_a_lines_labelled_amounts_are_summed():
    assert amounts_in_a_line(SAVINGS, "How much do I pay into savings each month?") == (
        "[Saturn worked out] Paid in every month on the 28th: holiday 150 + new car 300 + emergency 50 + christmas 45 = 545")


def test_no_sum_without_a_question_of_how_much_or_a_word_of_the_line():
    assert amounts_in_a_line(SAVINGS, "When do I pay into savings?") == ""
    assert amounts_in_a_line(["Costs: flights £420, hotel £380, car £95"], "How much is the trip?") == ""
    assert amounts_in_a_line(["Paid in every month: holiday £150, car £300"], "How much a month?") == ""  # two: read them
