"""A thing measured twice in a note: how much it changed (measures.py)."""

from saturnd.turn.measures import measure_change

BABY = ["# Ada", "Born 2 November 2026, 3.4 kg.", "Weighed 30 November: 4.1 kg.", "Vitamin D drops: 5 drops once a day."]


def test_asked_how_much_a_measure_changed_the_last_less_the_first():
    assert measure_change(BABY, "How much weight has she put on since birth?") == (
        '[Saturn worked out] from "Born 2 November 2026, 3.4 kg." to "Weighed 30 November: 4.1 kg.": 4.1 - 3.4 = 0.7 kg up')
    assert measure_change(["Start: 92.5 kg", "Now: 88 kg"], "How much have I lost?").endswith("88 - 92.5 = 4.5 kg down")


def test_no_change_asked_one_measure_or_two_units_give_nothing():
    assert measure_change(BABY, "How much does she weigh?") == ""
    assert measure_change(BABY[:2], "How much has she gained?") == ""
    assert measure_change(["Height 92 cm", "Weight 14 kg"], "How much has he grown?") == ""
