from saturnd.turn.retrieval import Document
from saturnd.turn.timed_log import timed_line_added

MEDICINE = Document("medicine.md", "# Ruby's medicine\nCalpol: 5ml every 4 to 6 hours\n\n## Given today\n"
                                   "- 06:30 Calpol 5ml\n- 09:15 ibuprofen 2.5ml\n")


def test_a_thing_given_at_a_time_is_a_line_of_the_log_in_its_shape_and_time_order():
    assert timed_line_added("I gave her Calpol at 11:00.", [MEDICINE]).content.endswith(
        "- 06:30 Calpol 5ml\n- 09:15 ibuprofen 2.5ml\n- 11:00 Calpol 5ml\n")  # the amount of its last line
    assert timed_line_added("I gave Ruby ibuprofen at 08:00.", [MEDICINE]).content.endswith(
        "- 06:30 Calpol 5ml\n- 08:00 ibuprofen 2.5ml\n- 09:15 ibuprofen 2.5ml\n")
    assert timed_line_added("Gave her 2.5ml Calpol at 14:30.", [MEDICINE]).content.endswith("- 14:30 Calpol 2.5ml\n")


def test_no_line_for_a_thing_the_log_does_not_hold_or_a_question():
    assert timed_line_added("I gave her Piriton at 11:00.", [MEDICINE]) is None
    assert timed_line_added("How much Calpol at 11:00?", [MEDICINE]) is None
