"""A part of an amount a line of the files takes (shares.py)."""

from saturnd.turn.shares import part_of_the_amount

RULES = "Pocket money paid on Saturdays.\nHalf of any birthday money goes in savings.\n"


def test_a_part_a_line_takes_of_any_amount_is_worked_out_of_the_amount_the_request_gives():
    assert part_of_the_amount("Maya got £20 for her birthday - how much of it goes in savings?", [RULES]) == (
        '[Saturn worked out] "Half of any birthday money goes in savings." of 20: 20 × 1/2 = 10')
    assert part_of_the_amount("I was paid £1,200 - how much goes to my pension?", ["10% of my pay goes to my pension."]) == (
        '[Saturn worked out] "10% of my pay goes to my pension." of 1200: 1200 × 1/10 = 120')


def test_no_part_is_worked_out_of_a_line_about_other_things_or_without_an_amount():
    assert part_of_the_amount("I was paid £1,200 - how much goes to my pension?", ["10% of my pay goes to savings."]) == ""
    assert part_of_the_amount("How much goes in savings?", [RULES]) == ""  # no amount given
