"""A thing measured twice in a note: how much it changed (measures.py)."""

from saturnd.turn.measures import measure_change, readings_used

BABY = ["# Ada", "Born 2 November 2026, 3.4 kg.", "Weighed 30 November: 4.1 kg.", "Vitamin D drops: 5 drops once a day."]


def test_asked_how_much_a_measure_changed_the_last_less_the_first():
    assert measure_change(BABY, "How much weight has she put on since birth?") == (
        '[Saturn worked out] from "Born 2 November 2026, 3.4 kg." to "Weighed 30 November: 4.1 kg.": 4.1 - 3.4 = 0.7 kg up')
    assert measure_change(["Start: 92.5 kg", "Now: 88 kg"], "How much have I lost?").endswith("88 - 92.5 = 4.5 kg down")


def test_no_change_asked_one_measure_or_two_units_give_nothing():
    assert measure_change(BABY, "How much does she weigh?") == ""
    assert measure_change(BABY[:2], "How much has she gained?") == ""
    assert measure_change(["Height 92 cm", "Weight 14 kg"], "How much has he grown?") == ""


def test_asked_what_was_used_the_spans_between_a_lines_readings_each_named_by_its_month():
    meter = ["Water meter: 0412 on 2026-10-01, 0447 on 2026-11-01, 0481 on 2026-12-01"]
    assert readings_used(meter, "How much water did we use in November?") == (
        "[Saturn worked out] used between the readings of Water meter: 1 October to 1 November 2026 (October 2026):"
        " 447 - 412 = 35; 1 November to 1 December 2026 (November 2026): 481 - 447 = 34")
    assert readings_used(meter, "When was the meter read?") == ""
    assert readings_used(["Read 0412 on 2026-10-01"], "How much did we use?") == ""
