from saturnd.turn.price_told import price_told
from saturnd.turn.retrieval import Document

BILLS = Document("yearly bills.md", "# Yearly bills\n- Car insurance: £412, renews 14 January\n"
                                    "- Home insurance: £286, renews 20 December\n")


def test_a_things_new_price_told_is_written_in_its_line():
    assert price_told("The home insurance has gone up to £312.", [BILLS]).content == (
        "# Yearly bills\n- Car insurance: £412, renews 14 January\n- Home insurance: £312, renews 20 December\n")


def test_no_write_for_a_thing_no_line_names_or_several_do_or_a_question():
    assert price_told("Netflix is now £12.99.", [BILLS]) is None
    assert price_told("The insurance has gone up to £312.", [BILLS]) is None  # car or home: not said
    assert price_told("Has the home insurance gone up?", [BILLS]) is None
