from saturnd.turn.priced_rows import priced_from_a_list
from saturnd.turn.retrieval import Document

POCKET = "date,who,amount,for\n2026-11-28,Leo,3,wash the car\n2026-11-29,Mia,2,hoover upstairs\n"
CHORES = "| chore | who | pays |\n|---|---|---|\n| wash the car | Leo | £3 |\n| empty dishwasher | Leo | £1 |\n"


def test_a_logs_empty_thing_and_amount_come_from_the_price_list_of_its_things():
    documents = [Document("pocket money.csv", POCKET), Document("chores.md", CHORES)]
    assert priced_from_a_list("2026-12-04,Leo,,", POCKET, "Leo emptied the dishwasher today, add it.", documents,
                              "pocket money.csv") == "2026-12-04,Leo,1,empty dishwasher"


def test_no_price_list_of_the_tables_things_or_no_one_line_the_request_names_leaves_the_row():
    other = [Document("pocket money.csv", POCKET), Document("prices.md", "- empty dishwasher: £1\n")]
    assert priced_from_a_list("2026-12-04,Leo,,", POCKET, "Leo emptied the dishwasher today.", other,
                              "pocket money.csv") == "2026-12-04,Leo,,"  # a list holding none of the logged things
    documents = [Document("pocket money.csv", POCKET), Document("chores.md", CHORES)]
    assert priced_from_a_list("2026-12-04,Leo,,", POCKET, "Leo did a chore today.", documents,
                              "pocket money.csv") == "2026-12-04,Leo,,"
    assert priced_from_a_list("2026-12-04,Leo,5,", POCKET, "Leo emptied the dishwasher today.", documents,
                              "pocket money.csv") == "2026-12-04,Leo,5,"  # an amount given stands
