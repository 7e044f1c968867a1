from saturnd.turn.price_told import date_told, money_added, price_told
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


def test_money_put_in_a_pot_is_written_into_its_line():
    pots = Document("savings.md", "# Savings pots\n- Holiday: £640 of £1,500 (paying in £150 a month)\n- New laptop: £420 of £900\n")
    assert money_added("I've put another £100 in the holiday pot.", [pots]).content == (
        "# Savings pots\n- Holiday: £740 of £1,500 (paying in £150 a month)\n- New laptop: £420 of £900\n")
    assert money_added("How much is in the holiday pot?", [pots]) is None


def test_money_spent_of_a_card_is_taken_off_its_line():
    cards = Document("vouchers.md", "- John Lewis gift card: £50, expires 2027-03-31\n- Amazon: £12.40 left\n")
    assert money_added("I spent £20 of the John Lewis card.", [cards]).content == (
        "- John Lewis gift card: £30, expires 2027-03-31\n- Amazon: £12.40 left\n")  # its comma kept
    assert money_added("I used £5.40 from the Amazon voucher.", [cards]).content == (
        "- John Lewis gift card: £50, expires 2027-03-31\n- Amazon: £7.00 left\n")  # in pence, as written
    assert money_added("I spent £20 on the kids.", [cards]) is None  # spent on a thing: none of a card's


def test_a_things_new_day_told_is_written_in_its_line():
    papers = Document("documents.md", "# Documents\n- Passport: expires 3 March 2027\n- Railcard: expires 19 December 2026\n")
    assert date_told("I've renewed my railcard, it now expires 19 December 2027.", [papers]).content == (
        "# Documents\n- Passport: expires 3 March 2027\n- Railcard: expires 19 December 2027\n")
    assert date_told("My passport expires 3 March 2027.", [papers]) is None  # nothing changed, nothing said changed
