"""The row an add asks for in a folder's table, from the request's own words (table_rows.py), and the
cell told of in a row it already holds (table_cells_told.py)."""

from __future__ import annotations

from datetime import date

import pytest

from saturnd.turn.lists_named import ListToWrite
from saturnd.turn.marks import line_marked_as_told
from saturnd.turn.retrieval import Document
from saturnd.turn.table_cells_told import cell_told, score_added, stock_topped_up
from saturnd.turn.table_rows import (
    in_figures,
    row_against_the_request,
    row_asked,
    row_instead_of_a_new_file,
)

TODAY = date(2026, 12, 4)
HOURS = Document("hours.csv", "date,client,hours,task\n2026-11-02,Brightside,3.5,logo drafts\n"
                              "2026-11-04,Oakwell,2,website fixes\n2026-11-24,Harbour Cafe,2,menu design\n")
SHIFTS = Document("shifts.csv", "date,shift,volunteer,role\n2026-12-05,morning,Alice,till\n2026-12-05,afternoon,Me,till\n"
                                "2026-12-12,morning,Me,sorting\n")
BOOKS = Document("books.csv", "title,author,started,finished,pages\nThe Salt Path,Raynor Winn,2026-09-02,2026-09-20,288\n"
                              "Demon Copperhead,Barbara Kingsolver,2026-11-21,,560\n")
RIDES = Document("rides.csv", "date,route,km,leader,riders\n2026-11-08,Lakes loop,64,Gav,9\n2026-12-06,Forest trail,38,Ruth,\n")
FUEL = Document("fuel.csv", "date,litres,cost,mileage\n2026-11-06,36.2,52.10,42930\n2026-11-24,40.4,57.90,43350\n")
SUBSCRIPTIONS = Document("subscriptions.csv", "service,monthly,renews,shared with\nNetflix,10.99,2026-12-15,Tom\n"
                                              "Gym,34.00,2027-01-01,\n")
WARRANTIES = Document("warranties.csv", "item,bought,years,shop\nfridge freezer,2023-08-19,5,Currys\nTV,2022-12-26,3,Argos\n")
WEIGHT = Document("weight.csv", "date,kg\n2026-10-05,84.1\n2026-11-02,83.0\n")
BP = Document("bp.csv", "date,systolic,diastolic,pulse\n2026-11-23,136,85,66\n2026-11-30,141,89,72\n")
QUOTES = Document("quotes.csv", "job,company,quote,date,notes\nnew boiler,Heatwise,2850,2026-11-12,includes flush\n"
                                "rewiring,Sparks,4200,2026-11-30,\n")
READ = Document("books.csv", "month,title,author,pages,chosen by\n2026-11,The Orchard,Sam Reid,390,Hannah\n"
                             "2026-12,Winter Birds,Mary Cole,276,me\n")
STAYS = Document("bookings.csv", "guest,arrive,leave,guests,price\nLena Fischer,2026-12-04,2026-12-07,2,285\n")
COSTS = Document("costs.csv", "item,cost,paid by\nflights,486,Kate\nhotel,620,me\n")
NOTES = Document("work.md", "# Freelance\nRates: Brightside £40 an hour.\n")


@pytest.mark.parametrize(("request_text", "table", "row"), [
    ("Log 2 hours for Brightside today, business cards.", HOURS, "2026-12-04,Brightside,2,business cards"),
    ("Put me down for the 19th morning.", SHIFTS, "2026-12-19,morning,Me,"),
    ("Add Intermezzo to the books I'm reading, started today.", BOOKS, "Intermezzo,,2026-12-04,,"),
    ("Add a ride on 20 December: Lakes loop, 64 km, led by Gav.", RIDES, "2026-12-20,Lakes loop,64,Gav,"),
    ("I filled up today, 39 litres for £56.20 at 43,760 miles.", FUEL, "2026-12-04,39,56.20,43760"),  # told: a log's row
    ("Add Disney+ at 7.99 a month, renewing 2 January.", SUBSCRIPTIONS, "Disney+,7.99,2027-01-02,"),
    ("Log today's reading: 138 over 84, pulse 69.", BP, "2026-12-04,138,84,69"),  # numbers left go in order
    ("Add the cooker to the warranties: bought today at Currys, 2 years.", WARRANTIES, "cooker,2026-12-04,2,Currys"),
    ("I weighed in this morning at 82.4.", WEIGHT, "2026-12-04,82.4"),  # today said by its part
    ("I taught Jack for an hour today.", Document("lessons.csv", "date,student,hours\n2026-11-03,Jack,1.5\n"),
     "2026-12-04,Jack,1"),  # "an hour": 1
    ("I filled up today: 37.4 litres at 1.36, 46,870 miles.", Document("fuel.csv", "date,litres,price per litre,miles\n"
     "2026-11-29,39.0,1.38,46490\n"), "2026-12-04,37.4,1.36,46870"),  # the one number left by units: the column left
    ("Add train to the airport, £36, paid by Kate.", COSTS, "train to the airport,36,Kate"),  # "to the" is not the table
    ("Add taxi to the costs, £20, paid by me.", COSTS, "taxi,20,me"),
    ("Add a booking: Mia Clark, 8 to 10 January, 2 guests, £200.", STAYS, "Mia Clark,2027-01-08,2027-01-10,2,200"),
    ("Add a quote: rewiring from Bright Electrics, £3,950, today.", QUOTES, "rewiring,Bright Electrics,3950,2026-12-04,"),
    ("Add January's book: The Glass Road by Ben Ash, 302 pages, chosen by Hannah.", READ,
     "2027-01,The Glass Road,Ben Ash,302,Hannah"),  # names into the columns of names; the month next to come
    ("I ran 7k this morning in 39 minutes, easy.", Document("runs.csv", "date,km,time,type\n2026-11-29,14,1:22:30,long\n"
     "2026-12-01,6,33:00,easy\n"), "2026-12-04,7,39:00,easy"),  # "7k": km; minutes as its times taken are written
    ("Fed her just now at 3.30pm, left side, 14 minutes.", Document("feeds.csv", "date,time,side,minutes\n"
     "2026-12-04,01:40,right,20\n2026-12-04,12:05,left,16\n"), "2026-12-04,15:30,left,14"),  # a time of day is no amount
    ("Log 25 minutes on the Minuet today.", Document("practice.csv", "date,minutes,piece\n2026-11-30,20,Minuet in G\n"
     "2026-12-01,15,The Entertainer\n"), "2026-12-04,25,Minuet in G"),  # a value named by its first word
])
def test_an_add_to_a_table_is_the_row_of_the_cells_the_request_gives(request_text, table, row):
    found = row_asked(request_text, [NOTES, table], TODAY)
    assert found is not None and found.source == table.source
    assert found.content == table.text + row + "\n"


@pytest.mark.parametrize("request_text", [
    "Add milk to my shopping list.",  # no table's name nor value
    "What did I do for Brightside?",  # no add
    "Add Brightside to the list.",  # one cell only
])
def test_no_row_where_the_request_gives_too_little_of_one(request_text):
    assert row_asked(request_text, [NOTES, HOURS], TODAY) is None


def test_a_bare_reading_goes_in_the_folders_one_table():
    weight = Document("weight.csv", "date,kg\n2026-12-01,84.0\n")
    assert row_asked("Log 83.6 today.", [NOTES, weight], TODAY) == ListToWrite("weight.csv", weight.text + "2026-12-04,83.6\n")
    assert row_asked("Log 83.6 today.", [NOTES, weight, HOURS], TODAY) is None  # two tables: which is not said


def test_a_written_row_whose_day_or_number_is_not_the_requests_gets_the_requests_row(tmp_path):
    table = tmp_path / "subscriptions.csv"
    table.write_text(SUBSCRIPTIONS.text)
    request_text = "Add Disney+ at 7.99 a month, renewing 2 January."
    found = row_against_the_request(request_text, table, SUBSCRIPTIONS.text + "Disney+,7.99,2027-01-01,Tom\n", TODAY)
    assert found is not None and found.content == SUBSCRIPTIONS.text + "Disney+,7.99,2027-01-02,\n"
    assert row_against_the_request(request_text, table, SUBSCRIPTIONS.text + "Disney+,7.99,2027-01-02,\n", TODAY) is None
    assert row_against_the_request(request_text, table, SUBSCRIPTIONS.text + "Disney+,7.99,2027-01-02,Tom\n", TODAY) is None
    assert row_against_the_request(request_text, table, SUBSCRIPTIONS.text + "Disney+,8.99,2027-01-02,\n", TODAY) is not None
    fuel = tmp_path / "fuel.csv"
    fuel.write_text(FUEL.text)
    told = "I filled up today, 39 litres for £56.20 at 43,760 miles."
    assert row_against_the_request(told, fuel, FUEL.text + "2026-12-04,39.0,56.2,43760\n", TODAY) is None  # same numbers


def test_a_written_row_with_a_columns_words_in_another_cell_gets_the_requests_row(tmp_path):
    table = tmp_path / "costs.csv"
    table.write_text(COSTS.text)
    request_text = "Add train to the airport, £36, paid by Kate."
    found = row_against_the_request(request_text, table, COSTS.text + "paid by Kate,36,Kate\n", TODAY)
    assert found is not None and found.content == COSTS.text + "train to the airport,36,Kate\n"
    assert row_against_the_request(request_text, table, COSTS.text + "train,36,Kate\n", TODAY) is None
    policies = tmp_path / "policies.csv"
    policies.write_text("policy,provider,renews,yearly\nhome insurance,Aviva,2027-01-15,312\n")
    added = "Add a policy: pet insurance, PetCover, renews 1 March, £342 a year."
    found = row_against_the_request(added, policies, policies.read_text() + "PetCover,,2027-03-01,342\n", TODAY)
    assert found is not None and found.content.endswith("pet insurance,PetCover,2027-03-01,342\n")


CLUBS = Document("clubs.csv", "club,day,cost,paid\nBrownies,Monday,45,yes\nFootball,Wednesday,60,no\n")
BIRTHDAYS = Document("birthdays.csv", "name,birthday,gift idea,budget\nMum,1962-12-19,scarf,60\nPriya,1990-12-11,,30\n")


def test_the_cell_a_request_tells_of_is_set_in_the_row_it_names(tmp_path):
    assert cell_told("I paid the football.", [NOTES, CLUBS]) == ListToWrite(
        "clubs.csv", "club,day,cost,paid\nBrownies,Monday,45,yes\nFootball,Wednesday,60,yes\n")
    assert cell_told("Put down a candle for Priya.", [BIRTHDAYS]) == ListToWrite(
        "birthdays.csv", "name,birthday,gift idea,budget\nMum,1962-12-19,scarf,60\nPriya,1990-12-11,candle,30\n")
    assert row_instead_of_a_new_file("I paid the football.", tmp_path / "football.txt", [CLUBS]) is not None
    assert cell_told("Put down a candle for Mum.", [BIRTHDAYS]) is None  # her row has no blank to fill
    assert cell_told("I paid the brownies.", [CLUBS]) is None  # paid already
    assert cell_told("What did I pay for football?", [CLUBS]) is None  # no errand

    guests = Document("guests.csv", "name,rsvp,meal\nJean,yes,fish\nPete,yes,beef\nTom,,\n")
    assert cell_told("Tom said yes, and he'd like the fish.", [guests], TODAY) == ListToWrite(
        "guests.csv", "name,rsvp,meal\nJean,yes,fish\nPete,yes,beef\nTom,yes,fish\n")  # a value its column holds too
    subs = Document("subs.csv", "month,paid\n2026-10,yes\n2026-11,no\n2026-12,no\n")
    assert cell_told("I've paid November's subs.", [subs], TODAY) == ListToWrite(
        "subs.csv", "month,paid\n2026-10,yes\n2026-11,yes\n2026-12,no\n")  # the month named is its row
    sowing = Document("sowing.csv", "crop,sow from,sow until,sown on\ngarlic,2026-10-01,2026-12-15,\nonions,2027-02-15,2027-04-15,\n")
    assert cell_told("I sowed the garlic today.", [sowing], TODAY) == ListToWrite(  # "sown", not "sow from"
        "sowing.csv", "crop,sow from,sow until,sown on\ngarlic,2026-10-01,2026-12-15,2026-12-04\nonions,2027-02-15,2027-04-15,\n")


def test_told_someones_answer_their_rows_yes_no_cell_is_set():
    guests = Document("guests.csv", "name,side,rsvp\nElla Shaw,bride,\nFrank Shaw,bride,\nGita Rao,groom,yes\n")
    assert cell_told("Ella said yes.", [guests]) == ListToWrite(
        "guests.csv", "name,side,rsvp\nElla Shaw,bride,yes\nFrank Shaw,bride,\nGita Rao,groom,yes\n")
    assert cell_told("Did Ella say yes?", [guests]) is None


def test_told_a_thing_done_on_a_day_the_date_column_its_verb_names_is_set_to_it():
    plants = Document("plants.csv", "plant,water every,last watered\nfern,3 days,2026-12-02\nmonstera,7 days,2026-11-28\n")
    assert cell_told("I watered the monstera today.", [plants], TODAY) == ListToWrite(
        "plants.csv", "plant,water every,last watered\nfern,3 days,2026-12-02\nmonstera,7 days,2026-12-04\n")
    assert cell_told("I watered the fern yesterday.", [plants], TODAY).content.endswith("fern,3 days,2026-12-03\nmonstera,7 days,2026-11-28\n")
    assert cell_told("I repotted the fern today.", [plants], TODAY) is None  # no column of repotting
    meds = Document("meds.csv", "pet,medicine,last given\nPickle,flea drops,2026-11-24\nPickle,joint tablets,2026-12-03\n")
    assert cell_told("I gave Pickle her joint tablet today.", [meds], TODAY) == ListToWrite(
        "meds.csv", "pet,medicine,last given\nPickle,flea drops,2026-11-24\nPickle,joint tablets,2026-12-04\n")
    orders = Document("orders.csv", "customer,item,paid\nAna Lopez,cupcakes,no\nTom Burke,cake,no\n")
    assert cell_told("Ana paid.", [orders], TODAY) == ListToWrite(
        "orders.csv", "customer,item,paid\nAna Lopez,cupcakes,yes\nTom Burke,cake,no\n")
    assert cell_told("I watered the monstera and the fern this morning.", [plants], TODAY) == ListToWrite(
        "plants.csv", "plant,water every,last watered\nfern,3 days,2026-12-04\nmonstera,7 days,2026-12-04\n")  # each named
    assert cell_told("I gave Pickle her tablets today.", [meds], TODAY) is None  # which of Pickle's two rows?


def test_told_a_rows_new_state_the_column_holding_it_is_set():
    invoices = Document("invoices.csv", "invoice,client,amount,status\nINV-042,Greenfield School,1200,paid\n"
                                        "INV-045,Greenfield School,600,unpaid\nINV-046,Moss & Co,80,unpaid\n")
    assert cell_told("Greenfield paid INV-045 today.", [invoices], TODAY) == ListToWrite(
        "invoices.csv", "invoice,client,amount,status\nINV-042,Greenfield School,1200,paid\n"
                        "INV-045,Greenfield School,600,paid\nINV-046,Moss & Co,80,unpaid\n")
    members = Document("members.csv", "name,phone,paid subs\nPriya,07700 900801,yes\nEsme,07700 900804,no\n")
    assert cell_told("Esme paid her subs tonight.", [members], TODAY) == ListToWrite(
        "members.csv", "name,phone,paid subs\nPriya,07700 900801,yes\nEsme,07700 900804,yes\n")


def test_amounts_in_words_are_put_in_figures():
    assert in_figures("I ran for half an hour and walked two and a half miles.") == "I ran for 0.5 hour and walked 2.5 miles."
    assert in_figures("I taught Jack for an hour today.") == "I taught Jack for 1 hour today."


def test_told_more_came_in_the_count_left_of_its_row_goes_up():
    meds = Document("meds.csv", "medicine,times a day,tablets left\nAmlodipine,1,24\nMetformin,2,30\n")
    assert stock_topped_up("I picked up 28 more metformin today.", [NOTES, meds]) == ListToWrite(
        "meds.csv", "medicine,times a day,tablets left\nAmlodipine,1,24\nMetformin,2,58\n")
    assert stock_topped_up("I picked up 28 more plasters today.", [meds]) is None  # no row names them
    assert stock_topped_up("How many metformin are left?", [meds]) is None


def test_a_told_log_of_a_row_the_table_holds_fills_its_blank_day_and_money_put_in_goes_on_its_total():
    selling = Document("selling.csv", "item,listed,price,sold\nlamp,2026-11-25,12,\nlego box,2026-11-20,60,2026-11-28\n")
    assert cell_told("I sold the lamp today for 12.", [selling], TODAY) == ListToWrite(
        "selling.csv", "item,listed,price,sold\nlamp,2026-11-25,12,2026-12-04\nlego box,2026-11-20,60,2026-11-28\n")
    assert cell_told("I sold the lego box today for 60.", [selling], TODAY) is None  # sold already: a row of its own
    pots = Document("pots.csv", "pot,saved,target\nholiday,1240,2000\nnew car,3500,8000\n")
    assert stock_topped_up("I've put another £50 in the holiday pot.", [pots]) == ListToWrite(
        "pots.csv", "pot,saved,target\nholiday,1290,2000\nnew car,3500,8000\n")


def test_a_row_the_table_has_with_blanks_is_filled_in_not_added_again():
    rota = Document("shifts.csv", "date,shift,volunteer,confirmed\n2026-12-08,morning,,\n2026-12-08,afternoon,Bev,yes\n")
    assert row_asked("Put Aisha down for the morning of the 8th.", [rota], TODAY) == ListToWrite(
        "shifts.csv", "date,shift,volunteer,confirmed\n2026-12-08,morning,Aisha,\n2026-12-08,afternoon,Bev,yes\n")


def test_a_things_row_with_a_last_done_column_is_brought_up_to_date():
    pets = Document("pets.csv", "pet,kind,born,weight kg,last weighed\nBiscuit,dog,2019-05-14,18.2,2026-11-02\n"
                                "Miso,cat,2022-08-30,4.6,2026-10-15\n")
    assert row_asked("Weighed Biscuit today, 18.9 kg.", [pets], TODAY) == ListToWrite(
        "pets.csv", "pet,kind,born,weight kg,last weighed\nBiscuit,dog,2019-05-14,18.9,2026-12-04\n"
                    "Miso,cat,2022-08-30,4.6,2026-10-15\n")


def test_a_thing_told_of_whose_row_has_no_last_done_column_gets_no_second_row_nor_today_as_a_birthday():
    birthdays = Document("birthdays.csv", "name,birthday,relation,gift budget\nAunt Rose,1958-12-09,aunt,20\n"
                                          "Jamie,2016-12-21,nephew,30\n")
    assert row_asked("Bought Jamie the football kit, £28.", [birthdays], TODAY) is None
    assert row_asked("Add Priya, my friend, budget £25.", [birthdays], TODAY) == ListToWrite(
        "birthdays.csv", birthdays.text + "Priya,,my friend,25\n")


def test_asked_to_add_money_to_a_pot_its_saved_total_goes_up_written_as_the_table_writes_it():
    pocket = Document("pocket.csv", "child,weekly,saved,goal\nMaya,5.00,32.50,45\nTheo,3.00,11.00,25\n")
    assert stock_topped_up("Add £5 to Maya's savings.", [pocket]) == ListToWrite(
        "pocket.csv", "child,weekly,saved,goal\nMaya,5.00,37.50,45\nTheo,3.00,11.00,25\n")


def test_a_day_of_the_month_named_goes_in_the_day_of_month_column():
    bills = Document("bills.csv", "bill,amount,day of month\nRent,950.00,1\nGym,35.00,28\n")
    assert row_asked("Add Netflix, £10.99 on the 9th.", [bills], TODAY) == ListToWrite(
        "bills.csv", "bill,amount,day of month\nRent,950.00,1\nGym,35.00,28\nNetflix,10.99,9\n")


def test_a_time_goes_in_without_a_leading_nought_where_the_column_writes_none():
    rides = Document("rides.csv", "date,route,km,time\n2026-11-22,canal loop,24.5,1:05\n2026-11-26,commute,16.0,0:42\n")
    assert row_asked("Rode the canal loop this morning, 25.1 km in 1:02.", [rides], TODAY) == ListToWrite(
        "rides.csv", rides.text + "2026-12-04,canal loop,25.1,1:02\n")


def test_a_thing_told_taken_back_sets_its_returned_day():
    loans = Document("loans.csv", "title,due,returned\nThe Salt Path,2026-12-01,\nOrbital,2026-11-20,2026-11-19\n")
    assert cell_told("I took The Salt Path back today.", [loans], TODAY) == ListToWrite(
        "loans.csv", "title,due,returned\nThe Salt Path,2026-12-01,2026-12-04\nOrbital,2026-11-20,2026-11-19\n")


def test_a_name_before_the_comma_and_an_address_shaped_as_the_columns_make_a_row():
    cards = Document("cards.csv", "name,address,sent\nAuntie Jo,4 Elm Close Bristol,yes\nUncle Bob,19 Harbour View Whitby,no\n")
    assert row_asked("Add Mr and Mrs Patel, 12 Oak Lane Ely CB7 1AB.", [cards], TODAY) == ListToWrite(
        "cards.csv", cards.text + "Mr and Mrs Patel,12 Oak Lane Ely CB7 1AB,\n")


def test_a_dose_told_goes_in_by_its_unit_with_the_user_as_the_table_writes_them():
    calpol = Document("calpol.csv", "date,time,dose ml,given by\n2026-12-04,06:10,5,me\n2026-12-04,10:20,5,Sam\n")
    assert row_asked("I gave her 5 ml at 14:30.", [calpol], TODAY) == ListToWrite(
        "calpol.csv", calpol.text + "2026-12-04,14:30,5,me\n")


def test_a_score_out_of_a_number_goes_in_the_score_and_out_of_columns():
    scores = Document("scores.csv", "date,subject,score,out of\n2026-11-20,Maths,34,50\n2026-12-02,Chemistry,28,40\n")
    assert row_asked("Got 44 out of 60 in Physics today.", [scores], TODAY) == ListToWrite(
        "scores.csv", scores.text + "2026-12-04,Physics,44,60\n")


def test_several_rows_told_done_by_their_first_words_are_each_set():
    receipts = Document("receipts.csv", "date,item,amount,claimed\n2026-11-18,lunch,11.45,yes\n"
                                        "2026-11-25,hotel Manchester,118.00,no\n2026-11-26,taxi,23.50,no\n2026-12-02,parking,9.00,no\n")
    assert cell_told("I've claimed the hotel and the taxi.", [receipts], TODAY) == ListToWrite(
        "receipts.csv", receipts.text.replace("118.00,no", "118.00,yes").replace("23.50,no", "23.50,yes"))


def test_a_bill_told_gone_out_of_the_account_is_set_paid_and_no_other_line_is_marked(tmp_path):
    bills = "bill,amount,day of month,paid this month\nRent,950.00,1,yes\nElectric,88.00,15,no\n"
    money = "# Money\nDirect debits come out of the current account.\n"
    (tmp_path / "money.md").write_text(money)
    documents = [Document("bills.csv", bills), Document("money.md", money)]
    assert cell_told("The electric came out today.", documents) == ListToWrite(
        "bills.csv", bills.replace("Electric,88.00,15,no", "Electric,88.00,15,yes"))
    assert line_marked_as_told("The sun came out today.", documents, str(tmp_path)) is None  # "out" names no line


def test_someone_told_to_have_scored_so_many_has_their_count_gone_up_by_as_many():
    squad = "player,position,goals\nAlfie,striker,7\nRiya,striker,5\n"
    assert score_added("Riya scored two today.", [Document("squad.csv", squad)]) == ListToWrite(
        "squad.csv", squad.replace("Riya,striker,5", "Riya,striker,7"))
    assert score_added("Sam scored two today.", [Document("squad.csv", squad)]) is None  # no row of theirs


def test_a_reading_told_of_today_that_fills_a_logs_row_whole_is_its_new_row():
    mileage = "date,miles\n2026-11-01,41760\n2026-12-01,42530\n"
    assert row_asked("The odometer says 42,700 today.", [Document("mileage.csv", mileage)], date(2026, 12, 4)) == ListToWrite(
        "mileage.csv", mileage + "2026-12-04,42700\n")


def test_a_phrase_after_a_comma_asking_for_the_row_is_no_cell_and_the_price_list_fills_it():
    pocket = Document("pocket money.csv", "date,who,amount,for\n2026-11-28,Leo,3,wash the car\n2026-11-29,Mia,2,hoover upstairs\n")
    chores = Document("chores.md", "| chore | who | pays |\n|---|---|---|\n| wash the car | Leo | £3 |\n| empty dishwasher | Leo | £1 |\n")
    assert row_asked("Leo emptied the dishwasher today, add it.", [pocket], TODAY) == ListToWrite(
        "pocket money.csv", pocket.text + "2026-12-04,Leo,,\n")  # not "add it" for what was done
    assert row_asked("Leo emptied the dishwasher today, add it.", [pocket, chores], TODAY) == ListToWrite(
        "pocket money.csv", pocket.text + "2026-12-04,Leo,1,empty dishwasher\n")


def test_a_span_of_the_day_fills_a_tables_start_and_end_columns():
    shifts = Document("shifts.csv", "date,start,end\n2026-12-07,09:00,17:00\n2026-12-08,12:00,20:00\n")
    assert row_asked("Add a shift on the 14th, 9 till 5.", [shifts], TODAY) == ListToWrite(
        "shifts.csv", shifts.text + "2026-12-14,09:00,17:00\n")  # not "shift on the 14th" in the start column
    assert row_asked("Add a shift on the 15th, 2 till 8.", [shifts], TODAY) == ListToWrite(
        "shifts.csv", shifts.text + "2026-12-15,14:00,20:00\n")  # an afternoon's


def test_a_time_said_with_am_or_pm_goes_in_a_column_of_clock_times_as_it_writes_them():
    fixtures = Document("fixtures.csv", "date,opponent,venue,kick_off\n2026-12-06,Millbrook,home,10:00\n2026-12-13,Oakfield,away,11:30\n")
    assert row_asked("Add a match against Parkside on 17 January, home, 10am.", [fixtures], TODAY) == ListToWrite(
        "fixtures.csv", fixtures.text + "2027-01-17,Parkside,home,10:00\n")


def test_a_number_said_as_how_many_of_the_rest_fills_the_last_numeric_column():
    lifts = Document("lifts.csv", "date,exercise,kg,reps\n2026-11-30,squat,82.5,5\n2026-11-30,deadlift,95,5\n")
    assert row_asked("Log deadlift 100kg for 5 today.", [lifts], TODAY) == ListToWrite(
        "lifts.csv", lifts.text + "2026-12-04,deadlift,100,5\n")
