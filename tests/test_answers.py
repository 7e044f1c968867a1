"""Who said what, of a list a line a person with their answer (answers.py), and the lines marks.py sets from what is told."""

from datetime import date

from saturnd.turn.answers import answers_counted
from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.marks import answer_told, bought_for, last_day_told
from saturnd.turn.ready_calls import ready_write_of
from saturnd.turn.retrieval import Document

RSVPS = ["# Mia's party", "## RSVPs", "- Olivia: yes", "- Leo: yes", "- Ava: no", "- Noah: ?", "- Isla: yes"]


def test_each_answer_is_counted_with_who_gave_it_and_a_question_mark_is_none_yet():
    assert answers_counted(RSVPS, "How many kids are coming to the party?") == (
        "[Saturn counted] yes 3 (Olivia, Leo, Isla); no 1 (Ava); no answer yet 1 (Noah)")
    assert answers_counted(RSVPS, "Who hasn't replied yet?").endswith("no answer yet 1 (Noah)")


def test_answers_with_a_note_after_them_are_counted_and_two_names_or_a_plus_one_are_more_people():
    guests = ["# Wedding guests", "- Aunt Sue: yes, vegetarian", "- Uncle Joe: no reply", "- Priya & Sam: yes, one vegan",
              "- Grandad: yes", "- Tom: no", "- Lucy + 1: yes"]
    assert answers_counted(guests, "How many people are coming?") == (
        "[Saturn counted] yes 6 people in 4 replies (Aunt Sue, Priya & Sam, Grandad, Lucy + 1); no answer yet 1 (Uncle Joe);"
        " no 1 (Tom)")


def test_a_request_asking_none_of_it_or_too_few_answers_give_nothing():
    assert answers_counted(RSVPS, "Where is the party?") == ""
    assert answers_counted(["- Olivia: yes", "- Ava: no"], "Who is coming?") == ""


def test_told_someones_answer_their_line_of_the_answers_is_given_it():
    party = Document("party.md", "\n".join(RSVPS) + "\n")
    assert answer_told("Noah's coming.", [party]) == ListToWrite("party.md", party.text.replace("- Noah: ?", "- Noah: yes"))
    assert answer_told("Leo can't make it.", [party]) == ListToWrite("party.md", party.text.replace("- Leo: yes", "- Leo: no"))
    assert answer_told("Is Noah coming?", [party]) is None
    assert answer_told("Sam's coming.", [party]) is None  # no line of theirs


def test_told_a_thing_done_today_its_lines_last_day_is_today_as_the_line_writes_days():
    mum = Document("mum.md", "# Mum\nRepeat prescription: order every 28 days, last ordered 20 Nov\nChiropodist every 8 weeks\n")
    assert last_day_told("I ordered Mum's prescription today.", [mum], date(2026, 12, 4)) == ListToWrite(
        "mum.md", mum.text.replace("last ordered 20 Nov", "last ordered 4 Dec"))
    assert last_day_told("I ordered Mum's prescription.", [mum], date(2026, 12, 4)) is None  # no day told
    plants = Document("plants.md", "- Monstera: water every week, last watered 28 November\n"
                                   "- Cactus: water every 3 weeks, last watered 10 November\n")
    assert last_day_told("I watered the monstera today.", [plants], date(2026, 12, 5)) == ListToWrite(
        "plants.md", plants.text.replace("last watered 28 November", "last watered 5 December"))  # of every "last watered"


GIFTS = "# Gift ideas\nJamie: Minecraft book, or a football kit (Spurs)\nPriya: candle from the market (bought, £18)\n"
CONTACTS = "# Contacts\nPriya - 07700 900655\nJamie's mum - 07700 900111\n"


def test_a_present_told_bought_marks_the_persons_gift_line_as_the_list_marks_another():
    documents = [Document("gifts.md", GIFTS), Document("contacts.md", CONTACTS)]
    assert bought_for("Bought Jamie the football kit, £28.", documents) == ListToWrite(
        "gifts.md", GIFTS.replace("(Spurs)", "(Spurs) (bought, £28)"))
    assert bought_for("I bought Priya the candle.", documents) is None  # bought already; her contact line is no gift
    assert ready_write_of("I bought Priya the candle.", documents, "/nowhere", date(2026, 12, 4)) is None
    assert bought_for("I bought Jamie's football kit for £28.", documents) == ListToWrite(  # "Jamie's" is his
        "gifts.md", GIFTS.replace("(Spurs)", "(Spurs) (bought, £28)"))


def test_told_someone_paid_back_the_line_of_what_they_owe_is_marked_not_another_naming_them(tmp_path):
    text = "# Housemates\nSplit the bills four ways: me, Chloe, Arun, Beth\nChloe owes me £18 from the takeaway\n"
    (tmp_path / "housemates.md").write_text(text)
    documents = [Document("housemates.md", text)]
    assert ready_write_of("Chloe paid me back.", documents, str(tmp_path), date(2026, 12, 4)) == ListToWrite(
        "housemates.md", text.replace("the takeaway", "the takeaway (paid)"))


def test_told_someone_paid_their_invoice_is_marked_not_their_contact_line(tmp_path):
    invoices = "# Invoices\n- INV-12 Acme Ltd £450, sent 2 Nov, paid\n- INV-13 Bolt & Co £1,200, sent 10 Nov\n"
    clients = "Acme Ltd - accounts@acme.example\nBolt & Co - jo@bolt.example\n"
    (tmp_path / "invoices.md").write_text(invoices)
    (tmp_path / "clients.md").write_text(clients)
    documents = [Document("invoices.md", invoices), Document("clients.md", clients)]
    assert ready_write_of("Bolt paid today.", documents, str(tmp_path), date(2026, 12, 4)) == ListToWrite(
        "invoices.md", invoices.replace("sent 10 Nov", "sent 10 Nov (paid)"))
