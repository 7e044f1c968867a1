"""An add that would lose the file is sent back before it runs."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from protocol.methods import CallTrace, PassTrace
from saturnd.testing.fake_model import call
from saturnd.turn.added_items import item_as_asked, item_edited_as_asked, listed_not_written
from saturnd.turn.listing import marked_line
from saturnd.turn.lists_named import (
    ListToWrite,
    cancelled_line,
    days_swapped,
    days_taken,
    list_it_goes_on,
    ready_write,
)
from saturnd.turn.look_first import FoundLine
from saturnd.turn.marks import (
    last_day_as_asked,
    last_day_in_edit,
    line_marked_as_told,
    marked_as_asked,
    marked_in_edit,
    row_marked_as_asked,
    row_marked_in_edit,
    ticked_as_asked,
    ticked_in_edit,
)
from saturnd.turn.overwrite import (
    LineToRemove,
    added_line_lacks_when,
    added_line_off_request,
    adds_nothing,
    asked_about,
    content_to_write,
    doubled_lines,
    dropped_lines,
    item_asked,
    item_line,
    kept_lines,
    line_named_elsewhere,
    request_as_a_line,
    where_it_is,
)
from saturnd.turn.put_right import names_of_the_kind_asked, without_the_grounds_lines
from saturnd.turn.retrieval import Document
from saturnd.turn.review import GateContext, someone_elses_line
from saturnd.turn.time_moves import time_moved_as_asked, time_moved_in_edit, time_moved_ready
from tests.conftest import of_type
from tests.test_gate import decide_with, run_with_decisions
from tests.test_turn_loop import run_answering


@pytest.mark.parametrize(("request_text", "content", "dropped"), [
    ("Add butter to my shopping list.", "butter\n", ["milk", "eggs"]),
    ("Add butter to my shopping list.", "milk\neggs\nbutter\n", []),
    ("Add butter to my shopping list.", "milk, eggs, butter", ["milk", "eggs"]),  # one line is not the list
    ("Add butter to my shopping list.", "milk\neggs butter\n", []),  # a line that holds one line keeps it
    ("Replace my shopping list with butter.", "butter\n", []),  # replacing is asked
    ("Take eggs off my shopping list, I bought some.", "milk\n", []),
    ("Take eggs off my shopping list, I bought some.", "", ["milk"]),
])
def test_an_add_that_drops_the_files_lines(tmp_path, request_text, content, dropped):
    shopping = tmp_path / "shopping.txt"
    shopping.write_text("milk\neggs\n")
    assert dropped_lines(request_text, shopping, content) == dropped


@pytest.mark.parametrize(("request_text", "written", "suggested"), [
    ("Add call the council to my to-do list.", "call council", "renew passport\ncall the council\n"),
    ("Add call the council to my to-do list.", "- Call council", "renew passport\n- call the council\n"),
    ("Add butter to my to-do list.", "butter", "renew passport\nbutter\n"),
    ("Add the council to my to-do list.", "call the council", "renew passport\ncall the council\n"),  # more
    ("Add bread and jam to my to-do list.", "bread\njam", "renew passport\nbread\njam\n"),  # two lines
    ("Put the council call on my to-do list.", "council", "renew passport\nthe council call\n"),
])
def test_the_line_added_keeps_the_words_the_request_gives_the_item(tmp_path, request_text, written, suggested):
    todo = tmp_path / "todo.txt"
    todo.write_text("renew passport\n")
    assert content_to_write(request_text, todo, written) == suggested


@pytest.mark.parametrize(("request_text", "content", "dropped", "suggested"), [
    ("Set the timeout in settings.ini to the value my team agreed on.", "timeout = 45",
     ["[net]", "retries = 3"], "[net]\ntimeout = 45\nretries = 3\n"),
    ("Change the timeout in settings.ini to 45.", "[net]\ntimeout = 45\nretries = 3\n", [], None),
    ("Change settings.ini to hold only timeout = 45.", "timeout = 45", [], None),  # the rest is meant to go
])
def test_a_change_that_drops_lines_the_request_does_not_name(tmp_path, request_text, content, dropped, suggested):
    settings = tmp_path / "settings.ini"
    settings.write_text("[net]\ntimeout = 30\nretries = 3\n")
    assert dropped_lines(request_text, settings, content) == dropped
    if suggested:
        assert content_to_write(request_text, settings, content) == suggested


def test_a_removal_keeps_the_lines_that_share_only_a_small_word_with_the_request(tmp_path):
    todo = tmp_path / "todo.md"
    todo.write_text("# To do\n- wash the car\n- renew passport\n- fix the garden gate\n")
    assert dropped_lines("Tick off washing the car.", todo, "Done washing the car.") == [
        "# To do", "- renew passport", "- fix the garden gate"]
    assert content_to_write("Tick off washing the car.", todo, "") == "# To do\n- renew passport\n- fix the garden gate\n"


def test_a_note_saved_goes_into_the_notes_not_over_them(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("Dentist Friday 9am\nCall mum Sunday\n")
    assert dropped_lines("Save a note that we picked Cornwall.", notes, "We picked Cornwall.") == [
        "Dentist Friday 9am", "Call mum Sunday"]
    assert ready_write("Save a note that we picked Cornwall.", [Document("notes.txt", notes.read_text())]) == ListToWrite(
        "notes.txt", "Dentist Friday 9am\nCall mum Sunday\nWe picked Cornwall\n")


def test_a_removal_keeps_the_heading_and_the_lines_named_only_by_the_files_own_name(tmp_path):
    christmas = tmp_path / "christmas.md"
    christmas.write_text("# Christmas presents\n- Mum: scarf (bought)\n- Ella: lego (bought)\n- Christmas cards\n")
    right = "# Christmas presents\n- Mum: scarf (bought)\n- Christmas cards\n"
    request_text = "Take the lego off the Christmas list."
    assert kept_lines(request_text, christmas, right) == []
    assert dropped_lines(request_text, christmas, "- Mum: scarf (bought)\n- Christmas cards") == ["# Christmas presents"]
    assert content_to_write(request_text, christmas, "") == right


@pytest.mark.parametrize(("request_text", "content", "kept"), [
    ("Take eggs off the shopping list.", "milk\neggs\nrice", ["eggs"]),
    ("Take eggs off the shopping list.", "milk\nrice\n", []),
    ("Add eggs to the shopping list.", "milk\neggs\nrice", []),  # not a removal
    ("Remove eggs, milk and rice from the list.", "milk\neggs\nrice", []),  # every line named: nothing to tell
])
def test_a_removal_that_keeps_the_line_named(tmp_path, request_text, content, kept):
    shopping = tmp_path / "shopping.txt"
    shopping.write_text("milk\neggs\nrice\n")
    assert kept_lines(request_text, shopping, content) == kept


@pytest.mark.parametrize(("request_text", "content", "nothing_added"), [
    ("Put call the bank on my to-do list.", "- renew passport\n- book MOT", True),
    ("Put call the bank on my to-do list.", "- renew passport\n- book MOT\n- call the bank", False),
    ("Add renew passport to my to-do list.", "- renew passport\n- book MOT", False),  # already on it
    ("Take the MOT off my to-do list.", "- renew passport\n- book MOT", False),  # not an add
    ("Change the MOT to the car service.", "- renew passport\n- book MOT", True),  # a change, written back as it was
    ("Change the MOT to the car service.", "- renew passport\n- book car service", False),
])
def test_an_add_that_writes_the_file_back_unchanged(tmp_path, request_text, content, nothing_added):
    (tmp_path / "todo.md").write_text("- renew passport\n- book MOT\n")
    assert adds_nothing(request_text, tmp_path / "todo.md", content) is nothing_added


async def test_an_add_written_back_unchanged_goes_back_before_it_runs(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    todo = harness.env.workdir / "todo.md"
    todo.write_text("- renew passport\n- book MOT\n")
    harness.model.enqueue(call("write_file", {"path": "todo.md", "content": "- renew passport\n- book MOT"}),
                          call("write_file", {"path": "todo.md", "content": "- renew passport\n- book MOT\n- call the bank"}),
                          "Added.")
    _, events = await harness.turn("Put call the bank on my to-do list.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["invalid", "ran"]
    assert harness.sent(1)[-1]["content"].startswith("tool error: write_file would write back what todo.md already holds")
    assert todo.read_text().splitlines()[-1] == "- call the bank"


async def test_a_value_changed_as_told_runs_though_it_drops_the_old_value(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    club = harness.env.workdir / "book club.md"
    club.write_text("# Book club\nNext: Thursday 17 December, 7:30pm at Jo's\nReading: The Bee Sting\n")
    harness.model.enqueue(call("write_file", {"path": "book club.md", "content": "# Book club\nNext: Thursday 17 December,"
                                              " 7:30pm at Jo's\nReading: Western Lane\n"}), "Changed.")
    _, events = await harness.turn("Change the book to Western Lane.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]  # not refused for dropping "The Bee Sting"
    assert club.read_text().splitlines()[-1] == "Reading: Western Lane"


@pytest.mark.parametrize(("request_text", "item"), [
    ("Make a note that the boiler man is coming Monday at 8.", "the boiler man is coming Monday at 8"),
    ("Jot down call Ana in my notes", "call Ana"),
    ("Note down the gas meter reading 4471", "the gas meter reading 4471"),
    ("Add eggs to my shopping list.", "eggs"),
    ("Add a bike pump to my wish list for £20.", "a bike pump for £20"),  # the price goes with it
    ("Add eggs to my shopping list please.", "eggs"),
    ("What's in my notes?", None),
])
def test_the_item_an_add_or_a_note_puts_down(request_text, item):
    assert item_asked(request_text) == item


def test_a_new_file_written_for_a_list_the_folder_heads_by_its_name_points_to_that_list(tmp_path):
    travel = Document("travel.md", "# Trip to Lisbon\n\nHotel: Casa Azul\n\n- get euros\n")
    found = list_it_goes_on("Add charge the camera to my trip list.", tmp_path / "trip-list.txt",
                            [Document("groceries.txt", "milk\n"), travel])
    assert found == ListToWrite("travel.md", travel.text + "- charge the camera\n")  # blank lines kept


def test_a_removal_takes_the_line_the_request_names_most_not_one_sharing_a_word(tmp_path):
    todo = tmp_path / "todo.txt"
    todo.write_text("- defrost freezer\n- return library books\n- book car service\n")
    request_text = "Tick off the library books."
    assert content_to_write(request_text, todo, "") == "- defrost freezer\n- book car service\n"
    assert dropped_lines(request_text, todo, "- defrost freezer\n") == ["- book car service"]


def test_a_note_answered_instead_of_made_goes_to_the_notes_file():
    notes = Document("notes.txt", "Dentist Friday 9am\n")
    written = ready_write("Make a note that the boiler man is coming Monday at 8.", [Document("shop.txt", "eggs\n"), notes])
    assert written == ListToWrite("notes.txt", "Dentist Friday 9am\nThe boiler man is coming Monday at 8\n")


KIDS = "# Kids' week\n\nElla: swimming Monday 5pm, piano Thursday 4pm\nLeo: Cubs Wednesday 6:30pm, football Saturday 10am\n"


@pytest.mark.parametrize(("request_text", "written", "fixed"), [
    ("Move Ella's piano to 5pm.", KIDS.replace("piano Thursday 4pm", "piano 5pm"),
     KIDS.replace("Thursday 4pm", "Thursday 5pm")),  # the day kept, the piano's time, not the swimming's
    ("Move Leo's football to 11am.", KIDS.replace("Saturday 10am", "11am"), KIDS.replace("10am", "11am")),
    ("Move Ella's piano to 5pm.", KIDS.replace("Thursday 4pm", "Thursday 5pm"), None),  # right as written
    ("Move Ella's piano to Friday.", KIDS.replace("Thursday", "Friday"), None),  # a day, not a time
    ("Add piano at 5pm.", KIDS + "piano 5pm\n", None),  # no change
])
def test_a_time_moved_changes_only_that_time(tmp_path, request_text, written, fixed):
    kids = tmp_path / "kids.md"
    kids.write_text(KIDS)
    assert time_moved_as_asked(request_text, kids, written) == fixed


def test_a_time_moved_by_an_edit_changes_only_that_time(tmp_path):
    kids = tmp_path / "kids.md"
    kids.write_text(KIDS)
    old = "Ella: swimming Monday 5pm, piano Thursday 4pm"
    assert time_moved_in_edit("Move Ella's piano to 5pm.", kids, old, "Ella: swimming Monday 5pm, piano 5pm") == (
        old, "Ella: swimming Monday 5pm, piano Thursday 5pm")
    assert time_moved_in_edit("Move Ella's piano to 5pm.", kids, "piano Thursday 4pm", "piano 5pm") == (
        old, "Ella: swimming Monday 5pm, piano Thursday 5pm")  # a part of the line: the whole line is edited
    assert time_moved_in_edit("Move Ella's piano to 5pm.", kids, "piano Thursday 4pm", "piano Thursday 5pm") is None


def test_a_time_written_with_a_dot_is_moved_whole(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("Bin day: Tues\nDentist moved to Weds 10th Dec 2.30pm\n")
    old = "Dentist moved to Weds 10th Dec 2.30pm"
    assert time_moved_in_edit("Move the dentist to 3pm.", notes, old, "Dentist moved to Weds 10th Dec 2.3pm") == (
        old, "Dentist moved to Weds 10th Dec 3pm")


TRIP = "# Trip to Lisbon\n\nHotel: Casa Azul\n\n- book parking\n- get euros\n"


@pytest.mark.parametrize(("request_text", "written", "fixed"), [
    ("Add charge the camera to my trip list.",
     "# Trip to Lisbon\nHotel: Casa Azul\n- book parking\n- get euros\ncharge the camera to my trip list\n",
     TRIP + "- charge the camera\n"),  # the request's own words off, the bullet on, the blank lines kept
    ("Add charge the camera to my trip list.",
     "# Trip to Lisbon\nHotel: Casa Azul\n- book parking\n- charge camera\n- get euros\n",
     "# Trip to Lisbon\n\nHotel: Casa Azul\n\n- book parking\n- charge the camera\n- get euros\n"),  # where put
    ("Add charge the camera to my trip list.", TRIP + "- charge the camera\n", None),  # as it should be
    ("Add charge the camera to my trip list.", "- charge the camera\n", None),  # drops lines: another check's
    ("Replace my trip list with a camera.", "camera\n", None),  # no add
    ("Add milk to my trip list.", TRIP + "Milk added to trip list.\n", TRIP + "- milk\n"),  # the report as the item
])
def test_the_line_an_add_writes_is_put_as_the_user_worded_it_in_the_files_own_text(
        tmp_path, request_text, written, fixed):
    trip = tmp_path / "trip.md"
    trip.write_text(TRIP)
    assert item_as_asked(request_text, trip, written) == fixed


def test_an_item_written_among_a_files_other_lines_goes_on_its_list(tmp_path):
    allotment = tmp_path / "allotment.md"
    allotment.write_text("# Allotment\nRent: £38 a year\n\n## To do\n- [x] Dig over bed 2\n- [ ] Fix the shed door\n")
    written = "# Allotment\nRent: £38 a year\nBuy netting\n## To do\n- [x] Dig over bed 2\n- [ ] Fix the shed door\n"
    assert item_as_asked('Add "Buy netting" to the allotment to do list.', allotment, written) == (
        allotment.read_text() + "- [ ] Buy netting\n")
    choir = tmp_path / "choir.md"
    choir.write_text("# Choir\n\nConcert songs:\n1. O Holy Night\n2. Hallelujah\n\nI'm Hannah (alto).\n")
    assert item_as_asked("Add Silent Night to the concert songs.", choir, choir.read_text() + "3. Silent Night\n") == (
        "# Choir\n\nConcert songs:\n1. O Holy Night\n2. Hallelujah\n3. Silent Night\n\nI'm Hannah (alto).\n")
    films = tmp_path / "films.md"
    films.write_text("# Films\n\n## To watch\n- Dune Part Two\n\n## Watched\n- Barbie (4/5)\n")
    assert item_as_asked("Add Anatomy of a Fall to the watchlist.", films, films.read_text() + "- Anatomy of a Fall\n") == (
        "# Films\n\n## To watch\n- Dune Part Two\n- Anatomy of a Fall\n\n## Watched\n- Barbie (4/5)\n")  # not "Watched"


def test_ticking_off_a_line_with_a_tick_box_ticks_it(tmp_path):
    shopping = tmp_path / "shopping.md"
    shopping.write_text("# Shopping\n- [ ] milk\n- [ ] bread\n- [x] apples\n")
    assert ticked_as_asked("Tick off milk.", shopping, "# Shopping\n- [ ] bread\n- [x] apples\n") == (
        "# Shopping\n- [x] milk\n- [ ] bread\n- [x] apples\n")
    assert ticked_in_edit("Tick off milk.", shopping, "- [ ] milk\n", "") == ("- [ ] milk", "- [x] milk")
    assert ticked_as_asked("Take milk off the list.", shopping, "# Shopping\n- [ ] bread\n- [x] apples\n") is None


def test_a_tables_new_row_written_with_spaces_gets_its_commas(tmp_path):
    runs = tmp_path / "runs.csv"
    runs.write_text("date,km,time_mins\n2026-11-22,5.0,28\n")
    today = date.today().isoformat()  # "today's run": the clock's date, whatever the model wrote
    assert item_as_asked("Add today's run to my log: 6km in 33 minutes.", runs, runs.read_text() + "2026-12-03 6.0 33\n") == (
        f"date,km,time_mins\n2026-11-22,5.0,28\n{today},6.0,33\n")


def test_a_tables_new_row_has_the_date_and_time_asked_and_no_made_up_cell(tmp_path):
    visits = tmp_path / "appointments.csv"
    visits.write_text("date,time,who,what,where\n2027-01-11,09:15,Mr Shah,eye clinic,City Hospital\n")
    made_up = visits.read_text() + "2027-01-11,15:00,Dentist,oral hygiene,City Hospital\n"
    assert item_as_asked("Add a dentist appointment on 20 January 2027 at 3pm.", visits, made_up) == (
        visits.read_text() + "2027-01-20,15:00,Dentist,,City Hospital\n")  # the column's own value may stay


def test_a_tables_new_row_leaves_blank_a_cell_the_request_does_not_give_where_other_rows_are_blank(tmp_path):
    rides = tmp_path / "rides.csv"
    rides.write_text("date,route,km,leader,riders\n2026-11-29,Lakes loop,64,Mo,7\n2026-12-06,Forest trail,38,Ruth,\n")
    assert item_as_asked("Add a ride on 20 December 2026: Lakes loop, 64 km, led by Gav.", rides,
                         rides.read_text() + "2026-12-20,Lakes loop,64,Gav,0\n") == (
        rides.read_text() + "2026-12-20,Lakes loop,64,Gav,\n")


def test_a_tables_new_row_with_a_cell_in_another_columns_place_has_it_moved(tmp_path):
    guests = tmp_path / "guests.csv"
    guests.write_text("name,rsvp,dietary,plus_one\nAnna Lee,yes,vegetarian,no\nDan Frost,maybe,vegan,no\n")
    assert item_as_asked("Add Fran Hall to the guest list, vegetarian.", guests,
                         guests.read_text() + "Fran Hall,vegetarian,yes,no\n") == (
        guests.read_text() + "Fran Hall,yes,vegetarian,no\n")  # the rsvp and dietary cells the other way round


def test_a_tables_row_an_add_dropped_lines_for_keeps_its_commas(tmp_path):
    invoices = tmp_path / "invoices.csv"
    invoices.write_text("invoice,client,amount\nINV-101,Harper & Co,1200\n")
    assert content_to_write("Add an invoice INV-105 for Blue Door Cafe, 700.", invoices,
                            "invoice,client,amount\nINV-105,Blue Door Cafe,700") == (
        "invoice,client,amount\nINV-101,Harper & Co,1200\nINV-105,Blue Door Cafe,700\n")  # not "INV-105 Blue Door …"


def test_a_row_named_by_its_reference_is_the_one_a_change_replaces(tmp_path):
    invoices = tmp_path / "invoices.csv"
    invoices.write_text("invoice,client,amount,paid\nINV-101,Harper & Co,1200,yes\nINV-103,Harper & Co,800,no\n")
    assert content_to_write("Harper paid INV-103, can you mark it?", invoices, "INV-103,Harper & Co,800,yes") == (
        "invoice,client,amount,paid\nINV-101,Harper & Co,1200,yes\nINV-103,Harper & Co,800,yes\n")  # not INV-101's


def test_a_tables_header_sharing_the_requests_word_is_no_line_kept(tmp_path):
    plants = tmp_path / "plants.csv"
    plants.write_text("plant,water every,last watered\nfern,3 days,2026-12-02\nmonstera,7 days,2026-11-28\n")
    written = "plant,water every,last watered\nfern,3 days,2026-12-02\nmonstera,7 days,2026-12-04"
    assert kept_lines("I watered the monstera today.", plants, written) == []


def test_an_add_instead_of_a_line_replaces_it(tmp_path):
    meals = tmp_path / "meals.md"
    meals.write_text("# Meal plan\nSat: roast chicken\nSun: soup\n")
    written = "# Meal plan\nSat: roast chicken\nSun: soup\nSun: pasta bake\n"
    assert kept_lines("Add pasta bake on Sunday instead of soup.", meals, written) == ["Sun: soup"]
    assert content_to_write("Add pasta bake on Sunday instead of soup.", meals, written) == (
        "# Meal plan\nSat: roast chicken\nSun: pasta bake\n")


def test_the_line_an_add_edits_in_is_put_as_the_user_worded_it(tmp_path):
    trip = tmp_path / "trip.md"
    trip.write_text(TRIP)
    request_text = "Add charge the camera to my trip list."
    assert item_edited_as_asked(request_text, trip, "- get euros", "- get euros\ncharge the camera to my trip list") == (
        "- get euros", "- get euros\n- charge the camera")
    assert item_edited_as_asked(request_text, trip, "- get euros", "- get euros\n- charge the camera") is None
    assert item_edited_as_asked(request_text, trip, "- lost text", "- lost text\ncamera") is None


async def test_a_time_moved_by_an_edit_of_part_of_its_line_keeps_the_rest(harness):
    await harness.start("gate:\n  rules:\n    - {tool: edit_file, decision: allow}\n")
    kids = harness.env.workdir / "kids.md"
    kids.write_text(KIDS)
    harness.model.enqueue(call("edit_file", {"path": "kids.md", "old": "piano Thursday 4pm", "new": "piano 5pm"}), "Moved.")
    _, events = await harness.turn("Move Ella's piano to 5pm.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]
    assert kids.read_text() == KIDS.replace("Thursday 4pm", "Thursday 5pm")


async def test_a_write_copying_the_grounds_line_or_a_bare_heading_writes_the_file_as_it_is_kept(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    savings = harness.env.workdir / "savings.md"
    savings.write_text("# Savings\nHoliday fund: £1,350 of £2,000\nNew bike: £180 of £650\n")
    harness.model.enqueue(call("write_file", {"path": "savings.md", "content": (
        "Savings\nHoliday fund: £1,350 of £2,000\nNew bike: £230 of £650\n[Saturn worked out] 180 + 50 = 230: the line"
        ' would read "New bike: £230 of £650"')}), "Updated.")
    _, events = await harness.turn("I added £50 to the bike fund.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"], of_type(events, "tool_finished")
    assert savings.read_text() == "# Savings\nHoliday fund: £1,350 of £2,000\nNew bike: £230 of £650\n"


def test_a_grounds_line_written_without_its_tag_is_left_out_of_the_write(tmp_path):
    (tmp_path / "budget.csv").write_text("category,budget,spent\ngroceries,400,312.40\n")
    seen = "[Saturn worked out] totals over 1 rows: budget = 400, spent = 312.4"
    written = {"path": "budget.csv", "content": "category,budget,spent\ngroceries,400,312.40\ntotals over 1 rows: budget = 400,"
                                                " spent = 312.4\n"}
    put_right = without_the_grounds_lines(written, GateContext(cwd=str(tmp_path), seen=seen))
    assert put_right is not None and put_right[0]["content"] == "category,budget,spent\ngroceries,400,312.40\n"


async def test_an_added_row_with_the_harnesss_check_and_another_day_goes_back_with_the_row_asked(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    table = harness.env.workdir / "subscriptions.csv"
    old = "service,monthly,renews\nNetflix,10.99,2026-12-15\niCloud,2.99,2026-12-21\nGym,34.00,2027-01-01\n"
    table.write_text(old)
    harness.model.enqueue(call("write_file", {"path": "subscriptions.csv", "content": (
        old.replace("iCloud", "Icloud") + "Disney+,7.99,2027-01-01\n[Saturn check] The user asked you to do something.")}),
        call("write_file", {"path": "subscriptions.csv", "content": old + "Disney+,7.99,2027-01-02\n"}), "Added.")
    _, events = await harness.turn("Add Disney+ at 7.99 a month, renewing 2 January.", headless=True)
    sent_back = of_type(events, "tool_finished")[0].result
    assert "Icloud" not in sent_back and "[Saturn check]" not in sent_back and "Disney+,7.99,2027-01-02\n" in sent_back
    assert table.read_text() == old + "Disney+,7.99,2027-01-02\n"


async def test_a_rows_blank_filled_as_asked_is_written_not_taken_for_a_dropped_row(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    table = harness.env.workdir / "birthdays.csv"
    old = "name,birthday,gift idea,budget\nMum,1962-12-19,scarf,60\nPriya,1990-12-11,,30\n"
    table.write_text(old)
    harness.model.enqueue(call("write_file", {"path": "birthdays.csv", "content": old.replace(",,30", ",candle,30")}), "Done.")
    _, events = await harness.turn("Put down a candle for Priya.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"], of_type(events, "tool_finished")
    assert table.read_text() == old.replace(",,30", ",candle,30")


async def test_a_weigh_in_told_shows_the_log_so_its_row_is_no_guess(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    log = harness.env.workdir / "weight.csv"
    log.write_text("date,kg\n2026-10-05,84.1\n2026-11-02,83.0\n")
    (harness.env.workdir / "goals.md").write_text("Goal: 80 kg by March\n")
    written = f"{log.read_text()}{date.today().isoformat()},82.4\n"
    harness.model.enqueue(call("write_file", {"path": "weight.csv", "content": written}), "Done.")
    _, events = await harness.turn("I weighed in this morning at 82.4.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]  # not "10" of a row never shown
    assert log.read_text() == written


async def test_told_a_thing_is_done_its_tick_box_is_ticked_not_the_words_said_back(harness):
    await harness.start("gate:\n  rules:\n    - {tool: edit_file, decision: allow}\n")
    packing = harness.env.workdir / "packing.txt"
    packing.write_text("- [x] passport\n- [ ] charger\n- [ ] gloves\n")
    harness.model.enqueue("I've packed the charger.",  # said back: sent back as not done
                          call("edit_file", {"path": "packing.txt", "old": "- [ ] charger\n", "new": ""}), "Ticked.")
    _, events = await harness.turn("I've packed the charger.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]
    assert packing.read_text() == "- [x] passport\n- [x] charger\n- [ ] gloves\n"


async def test_an_add_in_other_words_is_written_as_asked_and_says_so(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    trip = harness.env.workdir / "trip.md"
    trip.write_text(TRIP)
    harness.model.enqueue(call("write_file", {"path": "trip.md", "content": (
        "# Trip to Lisbon\nHotel: Casa Azul\n- book parking\n- get euros\ncharge the camera to my trip list")}),
        "Added.")
    _, events = await harness.turn("Add charge the camera to my trip list.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]
    assert trip.read_text() == TRIP + "- charge the camera\n"
    assert harness.sent(1)[-1]["content"].startswith("(The line added was not as the user worded it")


TODO = Document("todo.txt", "renew passport\nbook dentist\nfix bike light\n")


@pytest.mark.parametrize(("request_text", "name", "found"), [
    ("Tick off book dentist.", "book dentist.md",
     LineToRemove(FoundLine("todo.txt", 2, "book dentist"), "renew passport\nfix bike light\n")),
    ("Cross the bike light off.", "done.txt",
     LineToRemove(FoundLine("todo.txt", 3, "fix bike light"), "renew passport\nbook dentist\n")),
    ("Tick off book dentist.", "todo.txt", None),  # the file is there: the other checks judge it
    ("Tick off the plumber.", "plumber.txt", None),  # no file names it: nothing to point to
    ("Add book dentist to my list.", "list.txt", None),  # a new file may hold what is added
])
def test_a_new_file_written_to_remove_a_line_points_to_the_file_that_holds_it(
    tmp_path, request_text, name, found,
):
    (tmp_path / "todo.txt").write_text(TODO.text)
    assert where_it_is(request_text, tmp_path / name, [TODO, Document("kb:todo.md", "book dentist\n")]) == found


@pytest.mark.parametrize(("request_text", "name", "found"), [
    ("Add call the council to my to-do list.", "council.txt",
     ListToWrite("todo.txt", "renew passport\nbook dentist\nfix bike light\ncall the council\n")),
    ("Chuck some bin bags on the shopping list.", "bags.txt", ListToWrite("shopping.md", "- eggs\n- bin bags\n")),
    ("Add call the council to my to-do list.", "todo.txt", None),  # the list itself: the other checks judge it
    ("Add milk to my packing list.", "packing.txt", None),  # no file of the folder is that list
    ("Add milk to my grocery list.", "grocery.txt", ListToWrite("shopping.md", "- eggs\n- milk\n")),  # as written
    ("Add milk to the list in new.txt.", "new.txt", None),  # the request names its own file
])
def test_a_new_file_written_to_add_to_a_list_the_folder_holds_points_to_that_list(
    tmp_path, request_text, name, found,
):
    (tmp_path / "todo.txt").write_text(TODO.text)
    documents = [TODO, Document("shopping.md", "- eggs\n")]
    assert list_it_goes_on(request_text, tmp_path / name, documents) == found


SUBSCRIPTIONS = Document("subscriptions.csv", "service,monthly\nNetflix,10.99\niCloud,2.99\n")
GARDEN = Document("garden.md", "# Garden jobs\n- prune the roses\n- plant garlic\n")


@pytest.mark.parametrize(("request_text", "ready"), [
    ("I've cancelled iCloud, take it off my subscriptions.",
     ListToWrite("subscriptions.csv", "service,monthly\nNetflix,10.99\n")),
    ("Cross plant garlic off my garden jobs.", ListToWrite("garden.md", "# Garden jobs\n- prune the roses\n")),
    ("Add call the council to my to-do list.",
     ListToWrite("todo.txt", "renew passport\nbook dentist\nfix bike light\ncall the council\n")),
    ("Pop mulch on my garden jobs.", ListToWrite("garden.md", "# Garden jobs\n- prune the roses\n- plant garlic\n- mulch\n")),
    ("Add book dentist to my to-do list.", None),  # already on it
    ("Take Spotify off my subscriptions.", None),  # no line names it
    ("Take the thing off my to-do list.", None),  # no line shares a word
    ("Add milk to my grocery list.", None),  # no list of the folder is named
    ("What's on my to-do list?", None),
    ("Cross the roses off the list, they're done.", None),  # "prune the roses": not every word said
    ("Cross prune the roses off the list, done it.", ListToWrite("garden.md", "# Garden jobs\n- plant garlic\n")),
])
def test_the_write_that_does_a_list_errand_answered_instead_of_done(request_text, ready):
    assert ready_write(request_text, [TODO, SUBSCRIPTIONS, GARDEN]) == ready


async def test_a_list_errand_answered_instead_of_done_goes_back_with_the_write_that_does_it(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    subscriptions = harness.env.workdir / "subscriptions.csv"
    subscriptions.write_text(SUBSCRIPTIONS.text)
    harness.model.enqueue("I've cancelled iCloud, taking it off my subscriptions.",
                          call("write_file", {"path": "subscriptions.csv", "content": "service,monthly\nNetflix,10.99\n"}),
                          "Done.")
    _, events = await harness.turn("I've cancelled iCloud, take it off my subscriptions.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["ran"]
    assert harness.sent(1)[-1]["content"].endswith(
        " The list is subscriptions.csv; to do it, call write_file with path subscriptions.csv and this content:\n"
        "service,monthly\nNetflix,10.99\n")
    assert subscriptions.read_text() == "service,monthly\nNetflix,10.99\n"


def test_a_line_only_the_knowledge_base_holds_is_not_written_over():
    assert where_it_is("Tick off book dentist.", Path("/nowhere/x.md"), [Document("kb:todo.md", "book dentist\n")]) is None


HOURS = "date,client,hours,task\n2026-11-02,Brightside,3.5,logo drafts\n2026-11-04,Oakwell,2,website fixes\n"


@pytest.mark.parametrize(("request_text", "files", "wrong", "refusal", "note", "after"), [
    ("Take eggs off the shopping list.", {"shopping.txt": "milk\neggs\nrice\n"},
     {"path": "shopping.txt", "content": "milk\neggs\nrice"},
     "tool error: write_file would keep 'eggs' in shopping.txt, which the user asked to remove. Call write_file"
     " again with path shopping.txt and this content:\nmilk\nrice\n",
     "(The same content came back: the call wrote the content the last result gave for shopping.txt.) ",
     {"shopping.txt": "milk\nrice\n"}),
    ("Tick off book dentist.", {"todo.txt": TODO.text}, {"path": "book dentist.md", "content": "Book dentist."},
     "tool error: book dentist.md does not exist, so writing it removes nothing. todo.txt:2 holds 'book dentist'."
     " Call write_file again with path todo.txt and this content:\nrenew passport\nfix bike light\n",
     "(The same call came back: book dentist.md does not exist and the list the user named is todo.txt, so the"
     " call wrote todo.txt as the last result gave it.) ",
     {"todo.txt": "renew passport\nfix bike light\n"}),
    ("Add call the council to my to-do list.", {"todo.txt": TODO.text},
     {"path": "council.txt", "content": "Add the council to my to-do list."},
     "tool error: council.txt is a new file, and the list the user named is todo.txt. Call write_file again with"
     " path todo.txt and this content:\nrenew passport\nbook dentist\nfix bike light\ncall the council\n",
     "(The same call came back: council.txt does not exist and the list the user named is todo.txt, so the call"
     " wrote todo.txt as the last result gave it.) ",
     {"todo.txt": "renew passport\nbook dentist\nfix bike light\ncall the council\n"}),
    ('Add "Change address at the bank" to the list.',
     {"move.md": "# Move\n- [ ] Redirect post\n", "boxes.csv": "room,boxes\nkitchen,12\n"},
     {"path": "boxes.csv", "content": "room,boxes\nkitchen,12\nChange address at the bank\n"},
     "tool error: boxes.csv is a table, and the list the user named is move.md. Call write_file again with"
     " path move.md and this content:\n# Move\n- [ ] Redirect post\n- [ ] Change address at the bank\n",
     "(The same call came back: boxes.csv is a table and the list the user named is move.md, so the call"
     " wrote move.md as the last result gave it.) ",
     {"move.md": "# Move\n- [ ] Redirect post\n- [ ] Change address at the bank\n", "boxes.csv": "room,boxes\nkitchen,12\n"}),
    ("Log 2 hours for Brightside today, business cards.", {"hours.csv": HOURS},
     {"path": "log.txt", "content": "Log 2 hours for Brightside today, business cards."},
     "tool error: log.txt is a new file, and the list the user named is hours.csv. Call write_file again with"
     f" path hours.csv and this content:\n{HOURS}{date.today().isoformat()},Brightside,2,business cards\n",
     "(The same call came back: log.txt does not exist and the list the user named is hours.csv, so the call"
     " wrote hours.csv as the last result gave it.) ",
     {"hours.csv": f"{HOURS}{date.today().isoformat()},Brightside,2,business cards\n"}),
])
async def test_a_removal_sent_back_then_proposed_again_writes_what_it_was_given(
    harness, request_text, files, wrong, refusal, note, after,
):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    for name, text in files.items():
        (harness.env.workdir / name).write_text(text)
    harness.model.enqueue(call("write_file", wrong), call("write_file", wrong), "Done.")
    _, events = await harness.turn(request_text, headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["invalid", "ran"]
    assert harness.sent(1)[-1]["content"] == refusal
    assert harness.sent(2)[-1]["content"].startswith(note)
    assert sorted(p.name for p in harness.env.workdir.iterdir()) == sorted(after)
    assert all((harness.env.workdir / name).read_text() == text for name, text in after.items())


def test_a_new_file_drops_nothing(tmp_path):
    assert dropped_lines("Add butter to list.txt", tmp_path / "list.txt", "butter") == []


async def test_write_file_that_would_lose_the_list_is_sent_back(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    shopping = harness.env.workdir / "shopping.txt"
    shopping.write_text("milk\neggs\nflour\nrice\n")
    harness.model.enqueue(
        call("write_file", {"path": "shopping.txt", "content": "butter\n"}),
        call("write_file", {"path": "shopping.txt", "content": "milk\neggs\nflour\nrice\nbutter\n"}),
        "Added butter.",
    )
    _, events = await harness.turn("Add butter to my shopping list.", headless=True)
    assert harness.sent(1)[-1]["content"] == (
        "tool error: write_file replaces all of shopping.txt, and this content drops 4 of its lines that the user"
        " did not ask to change ('milk', 'eggs', 'flour' …). Call write_file again with path shopping.txt and"
        " this content:\nmilk\neggs\nflour\nrice\nbutter\n"
    )
    assert [f.fate for f in of_type(events, "tool_finished")] == ["invalid", "ran"]
    assert shopping.read_text() == "milk\neggs\nflour\nrice\nbutter\n"


async def test_a_made_up_number_in_a_write_that_drops_lines_is_no_part_of_the_file_offered(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    contacts = harness.env.workdir / "contacts.txt"
    contacts.write_text("Olivia - 07700 900311\nMum - 07700 900322\n")
    harness.model.enqueue(call("write_file", {"path": "contacts.txt", "content": "Leo - 07700 900312"}), "I need Leo's number.")
    await harness.turn("Add a birthday for Leo on 9 February.", headless=True)
    refusal = harness.sent(1)[-1]["content"]
    assert "900312" in refusal and "a guess" in refusal and "Call write_file again" not in refusal
    assert contacts.read_text() == "Olivia - 07700 900311\nMum - 07700 900322\n"


@pytest.mark.parametrize(("request_text", "content", "suggested"), [
    ("Add butter to my shopping list.", "butter\n", "milk\neggs\nflour\nbutter\n"),
    ("Take eggs off my shopping list, I bought some.", "milk\neggs\n", "milk\nflour\n"),
    ("Add butter to my shopping list.", "milk eggs flour butter butter", "milk\neggs\nflour\nbutter\n"),
    ("Add butter to my shopping list.", "milk, eggs, flour, peanut butter", "milk\neggs\nflour\npeanut butter\n"),
    ("Add butter to my shopping list.", "milk\neggs\nflour\nbutter\nbutter\n", "milk\neggs\nflour\nbutter\n"),
])
def test_the_content_a_rejected_write_should_have_held(tmp_path, request_text, content, suggested):
    shopping = tmp_path / "shopping.txt"
    shopping.write_text("milk\neggs\nflour\n")
    assert content_to_write(request_text, shopping, content) == suggested


@pytest.mark.parametrize(("request_text", "content", "doubled"), [
    ("Add butter to my shopping list.", "milk\neggs\nbutter\nbutter\n", ["butter"]),
    ("Add butter to my shopping list.", "milk\neggs\nbutter\n", []),
    ("Add eggs to my shopping list.", "milk\neggs\neggs\n", ["eggs"]),
    ("Write butter twice into my shopping list.", "butter\nbutter\n", []),  # not an add
])
def test_an_add_that_writes_a_line_twice(tmp_path, request_text, content, doubled):
    shopping = tmp_path / "shopping.txt"
    shopping.write_text("milk\neggs\n")
    assert doubled_lines(request_text, shopping, content) == doubled


async def test_a_write_that_joins_the_list_and_doubles_the_item_is_sent_back(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    shopping = harness.env.workdir / "shopping.txt"
    shopping.write_text("milk\neggs\nflour\n")
    harness.model.enqueue(
        call("write_file", {"path": "shopping.txt", "content": "milk\neggs\nflour\nbutter\nbutter\n"}),
        call("write_file", {"path": "shopping.txt", "content": "milk eggs flour butter butter"}),
        "Added butter.",
    )
    _, events = await harness.turn("Add butter to my shopping list.", headless=True)
    assert harness.sent(1)[-1]["content"] == (
        "tool error: write_file would put 'butter' in shopping.txt twice. Call write_file again with path"
        " shopping.txt and this content:\nmilk\neggs\nflour\nbutter\n"
    )
    assert harness.sent(2)[-3]["content"] == (
        "tool error: write_file replaces all of shopping.txt, and this content drops 3 of its lines that the user"
        " did not ask to change ('milk', 'eggs', 'flour'). Call write_file again with path shopping.txt and"
        " this content:\nmilk\neggs\nflour\nbutter\n"
    )  # two passes of wrong writes: the harness proposes the ready write (ready_calls.stuck)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["invalid", "invalid", "ran"]
    assert shopping.read_text() == "milk\neggs\nflour\nbutter\n"


async def test_an_add_that_would_delete_lines_with_edit_file_is_sent_back_too(harness):
    await harness.start("gate:\n  rules:\n    - {tool: edit_file, decision: allow}\n")
    shopping = harness.env.workdir / "shopping.txt"
    shopping.write_text("milk\neggs\nflour\n")
    harness.model.enqueue(
        call("read_file", {"path": "shopping.txt"}),
        call("edit_file", {"path": "shopping.txt", "old": "eggs\nflour", "new": ""}),
        "Done.",
    )
    _, events = await harness.turn("Add butter to my shopping list.", headless=True)
    assert harness.sent(2)[-1]["content"] == (
        "tool error: edit_file would delete from shopping.txt, and this content drops 2 of its lines that the user"
        " did not ask to change ('eggs', 'flour'). Call write_file again with path shopping.txt and"
        " this content:\nmilk\neggs\nflour\n"
    )
    assert shopping.read_text() == "milk\neggs\nflour\n"


@pytest.mark.parametrize(("request_text", "added", "lacking"), [
    ("Add my meeting with the bank to calendar.txt.", "Mon 09:00 standup\nWed 14:00 dentist\nbank meeting",
     ("bank meeting", "a day and a time")),
    ("Add my meeting with the bank to calendar.txt.", "Wed 14:00 dentist\nThursday bank meeting",
     ("Thursday bank meeting", "a time")),
    ("Add my meeting with the bank to calendar.txt.", "Thu 11am bank meeting", None),
    ("Add butter to my shopping list.", "butter", None),  # no line of the list has a day or a time
    ("Make calendar.txt hold only the bank meeting.", "bank meeting", None),  # not an add
])
def test_an_added_line_without_the_day_or_time_every_line_has(tmp_path, request_text, added, lacking):
    calendar = tmp_path / "calendar.txt"
    calendar.write_text("Mon 09:00 standup\nWed 14:00 dentist\n" if "calendar" in request_text else "milk\neggs\n")
    assert added_line_lacks_when(request_text, calendar, added) == lacking


async def test_an_added_line_without_a_when_is_asked_of_the_person(harness):
    await harness.start("gate:\n  rules:\n    - {tool: edit_file, decision: allow}\n")
    calendar = harness.env.workdir / "calendar.txt"
    calendar.write_text("Mon 09:00 standup\nWed 14:00 dentist\n")
    harness.model.enqueue(
        call("edit_file", {"path": "calendar.txt", "old": "Wed 14:00 dentist", "new": "Wed 14:00 dentist\nbank meeting"}),
        call("edit_file", {"path": "calendar.txt", "old": "Wed 14:00 dentist",
                           "new": "Wed 14:00 dentist\nThu 11:00 bank meeting"}),
        "Added.",
    )
    seen = await run_answering(harness, "Add my meeting with the bank to calendar.txt.", "Thursday at 11:00")
    assert [q.question for q in of_type(seen, "question")] == [
        "Every line of calendar.txt has a day and a time, and 'bank meeting' has none. When is it?"
    ]
    assert harness.sent(1)[-1]["content"] == (
        "not run: 'bank meeting' went without a day and a time. The user says: Thursday at 11:00. Call edit_file"
        " again with what the user said."
    )
    assert calendar.read_text() == "Mon 09:00 standup\nWed 14:00 dentist\nThu 11:00 bank meeting\n"


async def test_an_added_line_goes_in_without_a_when_the_person_does_not_give(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    notes = harness.env.workdir / "notes.txt"
    notes.write_text("Dentist Friday 9am\nCall mum on Sunday\n")
    harness.model.enqueue(
        call("write_file", {"path": "notes.txt", "content": "Dentist Friday 9am\nCall mum on Sunday\nRenew passport\n"}),
        "Added renew passport to your notes.",
    )
    seen = await run_answering(harness, "Add renew passport to my notes.", "I don't know, do what you can.")
    assert [q.question for q in of_type(seen, "question")] == [
        "Every line of notes.txt has a day, and 'Renew passport' has none. When is it?"]
    assert notes.read_text() == "Dentist Friday 9am\nCall mum on Sunday\nRenew passport\n"
    assert harness.sent(1)[-1]["content"].startswith(
        "(Asked when it is, the user said: I don't know, do what you can. The call wrote the line without a day or time.)")


async def test_a_thing_set_to_the_value_the_person_gave_is_written_with_their_number(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    settings = harness.env.workdir / "settings.ini"
    settings.write_text("[net]\ntimeout = 30\nretries = 3\n")
    harness.model.enqueue(
        call("ask_user", {"question": "What is the value your team agreed on?"}),
        call("write_file", {"path": "settings.ini", "content": "[net]\ntimeout = 75\nretries = 3"}),
        "The timeout is set.",
    )
    await run_answering(harness, "Set the timeout in settings.ini to the value my team agreed on.", "We agreed on 45")
    assert settings.read_text() == "[net]\ntimeout = 45\nretries = 3\n"
    assert harness.sent(2)[-1]["content"].startswith(
        "(The user gave 45 when asked, not 75: the call wrote 45 in settings.ini.)")


async def test_a_thing_set_to_the_persons_value_and_claimed_done_is_written_by_the_harness(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    settings = harness.env.workdir / "settings.ini"
    settings.write_text("[net]\ntimeout = 30\nretries = 3\n")
    asked_again = call("ask_user", {"question": "What did you do to set the timeout?"})
    harness.model.enqueue(call("ask_user", {"question": "What is the value your team agreed on?"}),
                          "The timeout in settings.ini has been set to 45.", asked_again, asked_again, asked_again,
                          "The timeout is set.", "The timeout is set.")
    await run_answering(harness, "Set the timeout in settings.ini to the value my team agreed on.", "We agreed on 45")
    assert settings.read_text() == "[net]\ntimeout = 45\nretries = 3\n"


async def test_headless_an_added_line_without_a_when_goes_back_to_the_model(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    (harness.env.workdir / "calendar.txt").write_text("Mon 09:00 standup\nWed 14:00 dentist\n")
    harness.model.enqueue(
        call("write_file", {"path": "calendar.txt", "content": "Mon 09:00 standup\nWed 14:00 dentist\nbank meeting\n"}),
        "I need the time of the meeting.",
    )
    await harness.turn("Add my meeting with the bank to calendar.txt.", headless=True)
    assert harness.sent(1)[-1]["content"] == (
        "not run: every line of calendar.txt has a day and a time, and 'bank meeting' has none. Take it from what"
        " you read, or ask the user with ask_user, then call write_file again with it in."
    )


@pytest.mark.parametrize(("request_text", "added", "known", "off"), [
    ("Add my meeting with the bank to calendar.txt.", "Mon 09:00 standup\nMon 17:29 standup", "", "Mon 17:29 standup"),
    ("Add my meeting with the bank to calendar.txt.", "Thu 11:00 Bank meetings", "", None),
    ("Add the three things from my notes to todo.txt.", "renew the passport", "- renew the passport\n", None),
    ("Add butter to my shopping list.", "Butter", "", None),
    ("Make calendar.txt hold only the standup.", "Mon 17:29 lunch", "", None),  # not an add
    ("Put just the number in calendar.txt.", "123.45", "", None),  # numbers only: nothing to compare
])
def test_an_added_line_with_nothing_of_the_request(tmp_path, request_text, added, known, off):
    (tmp_path / "calendar.txt").write_text("Mon 09:00 standup\n")
    assert added_line_off_request(request_text, tmp_path / "calendar.txt", added, known) == off


async def test_an_added_line_with_nothing_of_the_request_is_sent_back(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    calendar = harness.env.workdir / "calendar.txt"
    calendar.write_text("Mon 09:00 standup\n")
    harness.model.enqueue(
        call("write_file", {"path": "calendar.txt", "content": "Mon 09:00 standup\nMon 17:29 standup\n"}),
        call("write_file", {"path": "calendar.txt", "content": "Mon 09:00 standup\nThu 11:00 bank meeting\n"}),
        "Added.",
    )
    _, events = await harness.turn("Add my meeting with the bank on Thursday at 11:00 to calendar.txt.", headless=True)
    assert harness.sent(1)[-1]["content"] == (
        "not run: 'Mon 17:29 standup' has nothing of what the user asked to add (\"Add my meeting with the bank on"
        " Thursday at 11:00 to calendar.txt.\"). Call write_file again with the line the user asked for; take what"
        " it needs from what you read, or ask the user with ask_user."
    )
    assert [f.fate for f in of_type(events, "tool_finished")] == ["invalid", "ran"]
    assert calendar.read_text() == "Mon 09:00 standup\nThu 11:00 bank meeting\n"


async def test_the_same_write_again_writes_the_content_it_was_given(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    shopping = harness.env.workdir / "shopping.txt"
    shopping.write_text("milk\nbread\n")
    joined = call("write_file", {"path": "shopping.txt", "content": "milk bread eggs"})
    harness.model.enqueue(joined, joined, "Added eggs.")
    _, events = await harness.turn("Add eggs to the end of shopping.txt.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")] == ["invalid", "ran"]
    assert harness.sent(2)[-1]["content"].startswith(
        "(The same content came back: the call wrote the content the last result gave for shopping.txt.) ")
    assert shopping.read_text() == "milk\nbread\neggs\n"



async def test_a_name_of_another_kind_is_left_out_of_a_list_of_one_kind(harness):
    await harness.start()
    for name in ("a.txt", "b.txt", "notes.md"):
        (harness.env.workdir / name).write_text("x\n")
    harness.model.enqueue(call("write_file", {"path": "index.txt", "content": "a.txt\nb.txt\nnotes.md"}), "Done.")
    await run_with_decisions(harness, "Write the names of all the .txt files in this folder into index.txt, one per"
                                      " line.", decide_with("once"))
    assert (harness.env.workdir / "index.txt").read_text() == "a.txt\nb.txt\n"
    assert harness.sent(1)[-1]["content"].startswith(
        "(notes.md is not a .txt file, and the user asked for the .txt files, so the call left it out.) wrote index.txt")


@pytest.mark.parametrize(("request_text", "content", "kept"), [
    ("List every md file here in index.txt.", "notes.md\na.txt", "notes.md\n"),
    ("Write the names of my files into index.txt.", "notes.md\na.txt", None),  # no kind asked
    ("Write the names of the .txt files into index.txt.", "a.txt\nold.md", None),  # old.md is no file here
])
def test_names_of_the_kind_asked(tmp_path, request_text, content, kept):
    for name in ("a.txt", "notes.md"):
        (tmp_path / name).write_text("x\n")
    context = GateContext(cwd=str(tmp_path), request=request_text)
    found = names_of_the_kind_asked({"path": "index.txt", "content": content}, context)
    assert (found[0]["content"] if found else None) == kept


CAR = "Reg: AB12 CDE\nInsurance renews 14 January\n"
CHRISTMAS = "# Christmas presents\n- Mum: scarf (bought)\n- Dad: book\n- Ella: lego (bought)\n"


@pytest.mark.parametrize(("request_text", "written_to", "found"), [
    ("Mark Dad's present as bought.", "car.txt", FoundLine("christmas.md", 3, "- Dad: book")),
    ("Mark Dad's present as bought.", "christmas.md", None),  # the right file
    ("Take the lego off the Christmas list.", "car.txt", FoundLine("christmas.md", 4, "- Ella: lego (bought)")),
    ("Mark Dad's present as bought in car.txt.", "car.txt", None),  # the person named the file
    ("Add Granny to the Christmas list.", "car.txt", None),  # not a change
    ("Change the insurance to 15 January.", "car.txt", None),  # it holds the line
    ("Mark Dad's present as bought.", "dad.txt", FoundLine("christmas.md", 3, "- Dad: book")),  # a new file
    ("Take the lego off the Christmas list.", "lego.txt", None),  # a removal to a new file: where_it_is's
])
def test_a_change_written_to_a_file_without_the_line_points_to_the_file_that_has_it(
        tmp_path, request_text, written_to, found):
    (tmp_path / "car.txt").write_text(CAR)
    (tmp_path / "christmas.md").write_text(CHRISTMAS)
    documents = [Document("car.txt", CAR), Document("christmas.md", CHRISTMAS)]
    assert line_named_elsewhere(request_text, tmp_path / written_to, documents) == found


async def test_a_change_written_over_the_wrong_file_goes_back_before_it_runs(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    (harness.env.workdir / "car.txt").write_text(CAR)
    (harness.env.workdir / "christmas.md").write_text(CHRISTMAS)
    harness.model.enqueue(call("write_file", {"path": "car.txt", "content": "Reg: AB12 CDE, Dad: book"}), "Done.")
    await harness.turn("Mark Dad's present as bought.", headless=True)
    assert (harness.env.workdir / "car.txt").read_text() == CAR
    assert harness.sent(1)[-1]["content"] == (
        "tool error: car.txt holds no line the user asked about, so nothing in it is to change. christmas.md:3 holds"
        " '- Dad: book'. Change that line in christmas.md: call edit_file with path christmas.md, old '- Dad: book'"
        " and the new line.")


async def test_an_edit_of_the_wrong_file_is_pointed_to_the_right_one_before_it_is_asked_to_read(harness):
    await harness.start("gate:\n  rules:\n    - {tool: edit_file, decision: allow}\n")
    (harness.env.workdir / "car.txt").write_text(CAR)
    (harness.env.workdir / "christmas.md").write_text(CHRISTMAS)
    harness.model.enqueue(call("edit_file", {"path": "car.txt", "old": "Dad", "new": "Dad: book"}), "Done.")
    await harness.turn("Mark Dad's present as bought.", headless=True)
    assert harness.sent(1)[-1]["content"].startswith("tool error: car.txt holds no line the user asked about")


async def test_an_edit_whose_old_text_another_file_holds_edits_that_file(harness):
    await harness.start("gate:\n  rules:\n    - {tool: edit_file, decision: allow}\n")
    (harness.env.workdir / "car.txt").write_text(CAR)
    (harness.env.workdir / "christmas.md").write_text(CHRISTMAS)
    harness.model.enqueue(
        call("edit_file", {"path": "dad.txt", "old": "- Dad: book", "new": "- Dad: book (bought)"}), "Done.")
    await harness.turn("Mark Dad's present as bought.", headless=True)
    assert "- Dad: book (bought)\n" in (harness.env.workdir / "christmas.md").read_text()
    assert not (harness.env.workdir / "dad.txt").exists()
    assert harness.sent(1)[-1]["content"].startswith(
        "(The text to replace is not in dad.txt; christmas.md holds it, so the call edits christmas.md.)")


def test_an_item_added_to_a_list_of_tick_boxes_gets_an_empty_box(tmp_path):
    packing = tmp_path / "packing.md"
    packing.write_text("# Packing\n- [x] passport\n- [ ] swimsuit\n- [x] sandals\n")
    written = "# Packing\n- [x] passport\n- [ ] swimsuit\n- [x] sandals\n- sun cream\n"
    assert item_as_asked("Add sun cream to my packing list.", packing, written) == (
        "# Packing\n- [x] passport\n- [ ] swimsuit\n- [x] sandals\n- [ ] sun cream\n")


BOOK_CLUB = "# Book club\nNow reading: The Marriage Portrait\nNext meeting: Tuesday 15 December, 7:30pm at Hannah's\n"


def test_the_time_of_what_a_file_is_about_is_its_one_timed_line(tmp_path):
    club = tmp_path / "bookclub.md"
    club.write_text(BOOK_CLUB)
    written = BOOK_CLUB.replace("7:30pm", "8:30pm")
    assert time_moved_as_asked("Move book club to 8pm.", club, written) == BOOK_CLUB.replace("7:30pm", "8pm")
    assert dropped_lines("Move book club to 8pm.", club, written) == []  # the line asked, not one dropped
    assert time_moved_as_asked("Move the dentist to 8pm.", club, written) is None  # not this file's


TASKS = "# Tasks\n- [ ] send Q4 report to Ruth (due Friday)\n- [ ] renew parking permit\n- [x] update timesheet\n"


@pytest.mark.parametrize(("written", "fixed"), [
    (TASKS.replace("- [ ] send Q4 report to Ruth (due Friday)", "Mark the Q4 report as done."),
     TASKS.replace("- [ ] send Q4", "- [x] send Q4")),  # the request's words in the line's place
    (TASKS.replace("- [ ] send Q4", "- [x] send Q4"), None),  # as it should be
    (TASKS.replace("(due Friday)", "(due Friday) ✓"), None),  # marked its own way
    (TASKS, TASKS.replace("- [ ] send Q4", "- [x] send Q4")),  # written back as it was
])
def test_a_line_marked_done_keeps_its_words_with_the_mark(tmp_path, written, fixed):
    tasks = tmp_path / "tasks.md"
    tasks.write_text(TASKS)
    assert marked_as_asked("Mark the Q4 report as done.", tasks, written) == fixed


def test_a_thing_done_today_gets_its_lines_last_day_set_to_today_not_a_mark(tmp_path):
    home = tmp_path / "home.md"
    home.write_text("# Home\nWindow cleaner every 6 weeks, last came 23 Oct, £15.\nBin day Tuesday.\n")
    today = f"{date.today().day} {date.today():%b}"
    dated = f"# Home\nWindow cleaner every 6 weeks, last came {today}, £15.\nBin day Tuesday.\n"
    marked = home.read_text().replace("£15.", "£15. (done)")
    assert last_day_as_asked("The window cleaner came today.", home, marked) == dated
    assert last_day_as_asked("The window cleaner came today.", home, dated) is None  # as it should be
    assert last_day_as_asked("The window cleaner came.", home, marked) is None  # no day told: a mark
    assert last_day_in_edit("The window cleaner came today.", home, "last came 23 Oct, £15.", "last came 23 Oct, £15. (done)") == (
        "Window cleaner every 6 weeks, last came 23 Oct, £15.", f"Window cleaner every 6 weeks, last came {today}, £15.")


def test_the_content_suggested_for_a_mark_marks_the_line_not_the_requests_words(tmp_path):
    tasks = tmp_path / "tasks.md"
    tasks.write_text(TASKS)
    assert content_to_write("Mark the Q4 report as done.", tasks, "Mark the Q4 report as done.") == (
        TASKS.replace("- [ ] send Q4", "- [x] send Q4"))
    assert marked_in_edit("Mark the Q4 report as done.", tasks, "- [ ] send Q4 report to Ruth (due Friday)",
                          "Mark the Q4 report as done.") == (
        "- [ ] send Q4 report to Ruth (due Friday)", "- [x] send Q4 report to Ruth (due Friday)")


def test_a_change_that_keeps_the_old_line_beside_the_new_goes_back_with_the_line_replaced(tmp_path):
    work = tmp_path / "work.md"
    work.write_text("# Work\nOne-to-one with Ruth: Tuesdays 10am\nPrinter code: 4471\n")
    written = "# Work\nOne-to-one with Ruth: Tuesdays 10am\nPrinter code: 4471\nOne-to-one with Ruth: Tuesdays 11am\n"
    assert kept_lines("Move my one-to-one to 11am.", work, written) == ["One-to-one with Ruth: Tuesdays 10am"]
    assert content_to_write("Move my one-to-one to 11am.", work, written) == (
        "# Work\nOne-to-one with Ruth: Tuesdays 11am\nPrinter code: 4471\n")
    assert kept_lines("Move my one-to-one to 11am.", work, written.replace("Tuesdays 10am\n", "Tuesdays 11am\n", 1)
                      .replace("One-to-one with Ruth: Tuesdays 11am\n", "", 1)) == []


def test_what_happened_before_the_comma_says_the_mark(tmp_path):
    money = tmp_path / "money-owed.md"
    money.write_text("# Money\n- Sam owes me £20 for the concert tickets\n- Hana owes me £8 for the taxi\n")
    written = "# Money\nI owe Sam £20 for the concert tickets\n- Hana owes me £8 for the taxi\n"  # the debt turned round
    assert marked_as_asked("Sam paid me back, can you update that?", money, written) == (
        "# Money\n- Sam owes me £20 for the concert tickets (paid)\n- Hana owes me £8 for the taxi\n")
    invoices = tmp_path / "invoices.csv"
    invoices.write_text("client,amount,paid\nAcme,450,yes\nCrane & Co,300,no\n")
    assert marked_as_asked("Crane & Co have paid, can you update that?", invoices,
                           "client,amount,paid\nAcme,450,yes\nCrane & Co,300,yes\n") is None  # its own column


def test_a_mark_the_request_words_itself_is_kept(tmp_path):
    todo = tmp_path / "todo.txt"
    todo.write_text("call the bank\nwater the plants\nbook the dentist\n")
    request = 'In todo.txt, mark "water the plants" as done by adding " [done]" at the end of that line.'
    assert content_to_write(request, todo, "water the plants [done]") == (
        "call the bank\nwater the plants [done]\nbook the dentist\n")
    assert marked_as_asked(request, todo, "call the bank\nwater the plants [done]\nbook the dentist\n") is None


def test_a_change_replaces_the_line_the_request_names_most_not_one_sharing_its_verb(tmp_path):
    plants = tmp_path / "plants.md"
    plants.write_text("# Plants\n- Fern (bathroom): water twice a week\n"
                      "- Cactus (kitchen): water every 3 weeks, last watered 20 November\n- Basil: water daily\n")
    written = ("## Plants\n- Fern (bathroom): water twice a week\n"
               "- Cactus (kitchen): water every 3 weeks, last watered 20 November\n- Basil: water daily\n"
               "- Cactus (kitchen): watered 3 December\n- Basil: water daily\n")
    assert content_to_write("Mark the cactus as watered today.", plants, written) == (
        "# Plants\n- Fern (bathroom): water twice a week\n- Cactus (kitchen): watered 3 December\n- Basil: water daily\n")
    unbulleted = ("Cactus (kitchen): water every 3 weeks, last watered 20 November\n- Basil: water daily\n"
                  "- Cactus (kitchen): watered 3 December\n- Fern (bathroom): water twice a week\n")  # the old line, bare
    assert kept_lines("Mark the cactus as watered today.", plants, unbulleted) == [
        "- Cactus (kitchen): water every 3 weeks, last watered 20 November"]
    assert content_to_write("Mark the cactus as watered today.", plants, unbulleted) == (
        "# Plants\n- Fern (bathroom): water twice a week\n- Cactus (kitchen): watered 3 December\n- Basil: water daily\n")


def test_an_answer_listing_lines_an_adds_file_does_not_hold_is_replaced_by_what_was_added(tmp_path):
    (tmp_path / "shopping.txt").write_text("milk\nbread\nspinach\ngarlic\n")
    wrote = [PassTrace(index=1, step="first_move", calls=[CallTrace(
        call_id="c1", name="write_file", arguments='{"path": "shopping.txt", "content": "milk\\nbread\\nspinach\\ngarlic\\n"}',
        fate="ran")])]
    request_text = "Add garlic to the shopping list."
    assert listed_not_written(request_text, "The updated shopping list is: milk, bread, spinach, garlic, lasagne sheets",
                              wrote, str(tmp_path)) == "Added garlic to shopping.txt."
    assert listed_not_written(request_text, "Your shopping list is now: milk, bread, spinach and garlic.",
                              wrote, str(tmp_path)) == ""
    assert listed_not_written(request_text, "Added garlic.", wrote, str(tmp_path)) == ""
    assert listed_not_written(request_text, "It is: milk, bread, spinach, garlic, eggs", [], str(tmp_path)) == ""
    assert listed_not_written(request_text, "I've added milk, bread and garlic to your shopping list.", wrote,
                              str(tmp_path)) == "Added garlic to shopping.txt."  # the list's old lines said added
    assert listed_not_written("Add garlic and bread to the shopping list.", "I've added garlic, and bread to your list.",
                              wrote, str(tmp_path)) == ""


def test_a_tables_row_marked_as_a_value_has_that_cell_set_and_nothing_else(tmp_path):
    orders = tmp_path / "orders.csv"
    orders.write_text("order,customer,status\n1042,Mark Dunn,packed\n1043,Ruth Ellis,not shipped\n"
                      "1045,Sara Kim,not shipped\n")
    made_up = orders.read_text() + "1043,Sara Kim,shipped\n"
    assert row_marked_as_asked("Mark order 1043 as shipped.", orders, made_up) == (
        "order,customer,status\n1042,Mark Dunn,packed\n1043,Ruth Ellis,shipped\n1045,Sara Kim,not shipped\n")
    assert row_marked_in_edit("Mark order 1043 as shipped.", orders, "1043,Ruth Ellis,not shipped",
                              "1043,Ruth Ellis,shipped") is None  # as asked
    assert row_marked_in_edit("Mark order 1043 as shipped.", orders, "1045,Sara Kim,not shipped",
                              "1045,Sara Kim,shipped") == ("1043,Ruth Ellis,not shipped", "1043,Ruth Ellis,shipped")
    invoices = tmp_path / "invoices.csv"
    invoices.write_text("invoice,client,paid\nINV-101,Acme,Yes\nINV-103,Harper,No\n")
    assert row_marked_as_asked("Mark INV-103 as paid", invoices, invoices.read_text()) == (
        "invoice,client,paid\nINV-101,Acme,Yes\nINV-103,Harper,Yes\n")
    assert row_marked_as_asked("Mark the shed as painted", invoices, invoices.read_text()) is None


def test_a_row_added_as_a_value_the_table_has_already_is_that_row_marked(tmp_path):
    guests = tmp_path / "guests.csv"
    guests.write_text("name,side,rsvp\nPriya Nair,Alex,no\nRuth Moss,Alex,\nBen Moss,Alex,yes\n")
    made_up = guests.read_text() + "Ruth Moss,Alex,yes\n"
    assert row_marked_as_asked("Add Ruth Moss as a yes.", guests, made_up) == (
        "name,side,rsvp\nPriya Nair,Alex,no\nRuth Moss,Alex,yes\nBen Moss,Alex,yes\n")
    assert row_marked_as_asked("Put Priya down as a yes", guests, guests.read_text()) == (
        "name,side,rsvp\nPriya Nair,Alex,yes\nRuth Moss,Alex,\nBen Moss,Alex,yes\n")


def test_an_add_written_to_a_new_file_goes_on_the_list_a_heading_in_a_file_names(tmp_path):
    choir = "# Choir\n\nConcert songs:\n1. O Holy Night\n2. Hallelujah\n\nI'm Hannah (alto).\n"
    found = list_it_goes_on("Add Silent Night to the concert songs.", tmp_path / "concert_songs.md",
                            [Document("choir.md", choir)])
    assert found is not None and (found.source, found.content) == (
        "choir.md", "# Choir\n\nConcert songs:\n1. O Holy Night\n2. Hallelujah\n3. Silent Night\n\nI'm Hannah (alto).\n")


def test_told_an_answer_only_the_line_it_names_is_asked_not_every_yes(tmp_path):
    guests = tmp_path / "guests.csv"
    guests.write_text("name,side,rsvp\nAlice Moore,bride,yes\nElla Shaw,bride,\nGita Rao,groom,yes\n")
    assert asked_about("Ella said yes.", guests) == {"Ella Shaw,bride,"}
    assert kept_lines("Ella said yes.", guests, guests.read_text().replace("Ella Shaw,bride,", "Ella Shaw,bride,yes")) == []


def test_an_add_to_the_jobs_goes_on_the_one_list_the_folder_holds(tmp_path):
    garden = "# Allotment\n\nRent £38 due 1 January\n\n## To do\n- dig over bed 3\n- fix the shed door\n"
    sowing = Document("sowing.csv", "crop,sown\ngarlic,2026-10-20\n")
    found = list_it_goes_on('Add "net the brassicas" to the jobs.', tmp_path / "jobs.txt", [Document("garden.md", garden), sowing])
    assert found == ListToWrite("garden.md", garden + "- net the brassicas\n")
    assert list_it_goes_on('Add "net the brassicas" to the jobs.', tmp_path / "jobs.txt",
                           [Document("garden.md", garden), Document("shop.md", "- milk\n")]) is None  # which list: not said


def test_a_reference_the_request_names_says_which_line_elsewhere_is_asked(tmp_path):
    deliveries = "order,customer,status\n304,Ann Rowe,delivered\n305,Jo Pike,out for delivery\n306,Kim Ng,not delivered\n"
    customers = "- Jo Pike: jo.pike@example.com\n- Kim Ng: kim@example.com\n"
    (tmp_path / "customers.md").write_text(customers)
    documents = [Document("deliveries.csv", deliveries), Document("customers.md", customers)]
    assert line_named_elsewhere("Mark order 305 as delivered.", tmp_path / "customers.md", documents) == (
        FoundLine("deliveries.csv", 3, "305,Jo Pike,out for delivery"))


def test_a_line_asked_gone_written_back_reworded_is_kept(tmp_path):
    subscriptions = tmp_path / "subscriptions.csv"
    subscriptions.write_text("service,cost\nNetflix,10.99\nThe Guardian,12.00\n")
    assert kept_lines("Cancel the Guardian from my list.", subscriptions,
                      "service,cost\nNetflix,10.99\nGuardian,12.00\n") == ["The Guardian,12.00"]
    assert kept_lines("Cancel the Guardian from my list.", subscriptions,
                      "service,cost\nNetflix,10.99\nDisney,7.99\n") == []  # another thing added: not the line kept


REVISION = "# Revision plan\n\nWeak topics: algebra, organic chemistry\nDone: cells, poetry\n"


def test_an_add_to_a_list_written_on_its_labels_line_goes_on_that_line(tmp_path):
    revision = tmp_path / "revision.md"
    revision.write_text(REVISION)
    wanted = "# Revision plan\n\nWeak topics: algebra, organic chemistry, genetics\nDone: cells, poetry\n"
    assert list_it_goes_on("Add genetics to my weak topics.", tmp_path / "weak_topics.txt",
                           [Document("revision.md", REVISION)]) == ListToWrite("revision.md", wanted)
    assert item_as_asked("Add genetics to my weak topics.", revision, REVISION + "genetics\n") == wanted
    assert item_as_asked("Add genetics to my weak topics.", revision, wanted) is None  # written so already


def test_a_thing_told_done_marks_its_one_line_in_the_folders_list(tmp_path):
    chores = "# House\n- [ ] Clean the oven\n- [x] Defrost the freezer\n"
    (tmp_path / "chores.md").write_text(chores)
    (tmp_path / "notes.txt").write_text("Window cleaner on the 14th\n")
    documents = [Document("chores.md", chores), Document("notes.txt", "Window cleaner on the 14th\n")]
    assert line_marked_as_told("I've cleaned the oven.", documents, str(tmp_path)) == ListToWrite(
        "chores.md", "# House\n- [x] Clean the oven\n- [x] Defrost the freezer\n")
    assert line_marked_as_told("I've defrosted the freezer.", documents, str(tmp_path)) is None  # marked already
    assert line_marked_as_told("Clean the oven tomorrow.", documents, str(tmp_path)) is None


def test_a_book_taken_back_goes_from_the_table_of_what_is_out_and_a_row_is_marked_in_its_first_cell(tmp_path):
    library = Document("library.md", "# Library books\n\n| book | due |\n|---|---|\n| Wolf Hall | 2026-12-11 |\n"
                                     "| The Salt Path | 2026-12-05 |\n\nLibrary card: 2290 4471 88\n")
    assert ready_write("I've taken Wolf Hall back.", [library]) == ListToWrite(
        "library.md", "# Library books\n\n| book | due |\n|---|---|\n| The Salt Path | 2026-12-05 |\n\nLibrary card: 2290 4471 88\n")
    chores = "| job | who |\n|---|---|\n| Clean the oven | me |\n"
    (tmp_path / "chores.md").write_text(chores)
    assert line_marked_as_told("I've cleaned the oven.", [Document("chores.md", chores)], str(tmp_path)) == ListToWrite(
        "chores.md", "| job | who |\n|---|---|\n| Clean the oven (done) | me |\n")


def test_someone_told_is_marked_on_the_list_of_who_to_tell_by_initials_too(tmp_path):
    moving = "# Move\n## Tell\n- bank (done)\n- GP\n- council tax\n"
    (tmp_path / "moving.md").write_text(moving)
    documents = [Document("moving.md", moving)]
    assert line_marked_as_told("I've told the GP.", documents, str(tmp_path)) == ListToWrite(
        "moving.md", "# Move\n## Tell\n- bank (done)\n- GP (done)\n- council tax\n")
    assert line_marked_as_told("I've rung the council tax people.", documents, str(tmp_path)) == ListToWrite(
        "moving.md", "# Move\n## Tell\n- bank (done)\n- GP\n- council tax (done)\n")


def test_an_add_to_the_to_do_list_goes_under_a_files_to_do_heading_written_as_its_items():
    move = Document("move.md", "# Moving house\nMove day: 15 January.\n\n## To do\n- [x] Book van\n- [ ] Buy boxes\n\n"
                               "Removals: Swift Movers.\n")
    assert ready_write("Add change address with the bank to the to-do list.", [move]) == ListToWrite(
        "move.md", "# Moving house\nMove day: 15 January.\n\n## To do\n- [x] Book van\n- [ ] Buy boxes\n"
                   "- [ ] Change address with the bank\n\nRemovals: Swift Movers.\n")


def test_an_add_to_one_of_a_files_headed_lists_goes_under_the_heading_its_list_is_named_by():
    lists = Document("lists.md", "# Shopping\n- eggs\n- bread\n\n# To do\n- [ ] book haircut\n- [x] pay council tax\n")
    assert ready_write("Put milk and bananas on the shopping list.", [lists]) == ListToWrite(
        "lists.md", "# Shopping\n- eggs\n- bread\n- milk\n- bananas\n\n# To do\n- [ ] book haircut\n- [x] pay council tax\n")
    assert ready_write("Add shopping bags to my to-do list.", [lists]) == ListToWrite(  # the item's words name no list
        "lists.md", lists.text + "- [ ] shopping bags\n")


def test_a_folders_one_list_of_bare_lines_is_the_list_an_add_or_a_removal_names_none_of():
    todo = Document("todo.txt", "ring the council about the bins\nbook flu jab\npay window cleaner\n")
    assert ready_write("Add 'buy printer ink' to my list.", [todo]) == ListToWrite("todo.txt", todo.text + "buy printer ink\n")
    assert ready_write("Take the window cleaner off, I've paid him.", [todo]) == ListToWrite(
        "todo.txt", "ring the council about the bins\nbook flu jab\n")
    notes = Document("notes.txt", "Dentist Friday 9am\nCall mum Sunday\n")
    assert ready_write("Add 'buy printer ink' to my list.", [todo, notes]) is None  # two such lists: which is not said


def test_an_item_added_loses_its_article_on_a_list_of_bare_names():
    packing = Document("packing.txt", "passport\nadapter\n")
    assert ready_write("Add an umbrella to my packing list.", [packing]) == ListToWrite("packing.txt", "passport\nadapter\numbrella\n")
    gifts = Document("gifts.txt", "a scarf for Mum\n")
    assert ready_write("Add a book for Dad to my gifts list.", [gifts]) == ListToWrite("gifts.txt", "a scarf for Mum\na book for Dad\n")


def test_a_line_is_marked_with_the_mark_the_request_spells_out():
    request_text = 'In todo.txt, mark "water the plants" as done by adding " [done]" at the end of that line.'
    assert marked_line("water the plants", request_text) == "water the plants [done]"
    assert marked_line("water the plants", "Mark water the plants as done.") == "water the plants (done)"
    assert marked_line("| December | The Covenant of Water | me |", "I've finished The Covenant of Water.") == (
        "| December | The Covenant of Water (finished) | me |")  # in the cell it names: the table stays whole


def test_an_item_for_a_weekday_goes_on_that_days_line_of_a_week_set_out_by_day():
    week = Document("week.md", "# Week\nMon: Leo swimming 5pm\nTue: Ava piano 4:30\nThu: Ava Brownies 6:15\n\nSchool run: Mon/Wed me\n")
    assert ready_write("Add Leo dentist Thursday 3:40 to the week.", [week]) == ListToWrite(
        "week.md", "# Week\nMon: Leo swimming 5pm\nTue: Ava piano 4:30\nThu: Ava Brownies 6:15, Leo dentist 3:40\n\n"
                   "School run: Mon/Wed me\n")
    assert ready_write("Add wedding cake tasting to the week.", [week]).content.endswith(  # type: ignore[union-attr]
        "School run: Mon/Wed me\nWedding cake tasting\n")  # no weekday: "wedding" is none


def test_an_add_of_several_short_things_puts_each_on_its_own_line_and_a_remove_takes_each_off():
    shopping = Document("shopping.txt", "milk\neggs\nflour\n")
    assert ready_write("Put bread and butter on the shopping list.", [shopping]) == ListToWrite(
        "shopping.txt", "milk\neggs\nflour\nbread\nbutter\n")
    assert ready_write("Add milk and onions to the shopping list.", [shopping]) == ListToWrite(
        "shopping.txt", "milk\neggs\nflour\nonions\n")  # milk is on it
    assert ready_write("Remove flour and milk from my shopping list.", [shopping]) == ListToWrite("shopping.txt", "eggs\n")
    written_capitalised = Document("shopping.txt", "Milk\nPeppers\n")
    assert ready_write("Add soy sauce and an onion to the shopping.", [written_capitalised]) == ListToWrite(
        "shopping.txt", "Milk\nPeppers\nSoy sauce\nOnion\n")  # each as the list writes its things
    reading = Document("reading.txt", "Want to read:\n- Demon Copperhead\n- The Bee Sting\n")
    assert ready_write("Put Klara and the Sun on my reading list.", [reading]) == ListToWrite(
        "reading.txt", "Want to read:\n- Demon Copperhead\n- The Bee Sting\n- Klara and the Sun\n")  # one title


def test_a_thing_added_for_someone_goes_on_their_line_of_a_file_set_out_a_line_a_person():
    gifts = Document("gifts.md", "# Gift ideas\nJamie: the new Minecraft book\nAunt Rose: garden gloves\n")
    assert ready_write("Add a scarf to the ideas for Dad.", [gifts]) == ListToWrite(
        "gifts.md", "# Gift ideas\nJamie: the new Minecraft book\nAunt Rose: garden gloves\nDad: scarf\n")
    assert ready_write("Add a football to the ideas for Jamie.", [gifts]) == ListToWrite(
        "gifts.md", "# Gift ideas\nJamie: the new Minecraft book, football\nAunt Rose: garden gloves\n")


def test_a_write_of_a_thing_for_someone_is_put_on_their_line_and_theirs_is_left_as_written(tmp_path):
    gifts = tmp_path / "gifts.md"
    gifts.write_text("# Gift ideas\nJamie: the new Minecraft book\nAunt Rose: garden gloves\n")
    ideas = "# Gift ideas\nJamie: the new Minecraft book\nAunt Rose: garden gloves\n"
    assert item_as_asked("Add a scarf to the ideas for Dad.", gifts, ideas + "Scarf\n") == ideas + "Dad: scarf\n"
    assert item_as_asked("Add a scarf to the ideas for Dad.", gifts, ideas + "Dad: a scarf\n") is None


def test_two_days_swapped_change_what_follows_their_colons():
    meals = Document("meals.md", "# Dinners\nMon: chilli\nTue: fish pie\nWed: leftovers\nThu: stir fry\n")
    assert days_swapped("Swap Tuesday and Thursday dinners.", [meals]) == ListToWrite(
        "meals.md", "# Dinners\nMon: chilli\nTue: stir fry\nWed: leftovers\nThu: fish pie\n")
    assert days_swapped("Swap Tuesday and Friday dinners.", [meals]) is None  # no Friday line
    assert days_swapped("What's on Tuesday?", [meals]) is None


def test_told_who_takes_a_day_the_rota_gives_it_them_and_i_as_it_writes_the_user():
    lifts = Document("lifts.md", "# School run\nMon: me\nTue: Hannah\nWed: me\nThu: Olu\n\nPick-up 15:15.\n")
    assert days_taken("Olu's doing Monday now and I'm doing Thursday.", [lifts]) == ListToWrite(
        "lifts.md", "# School run\nMon: Olu\nTue: Hannah\nWed: me\nThu: me\n\nPick-up 15:15.\n")
    meals = Document("meals.md", "Mon: chilli con carne\nTue: fish pie\nWed: leftovers\n")
    assert days_taken("Gran's doing Monday.", [meals]) is None  # no rota of one name a day


def test_what_a_recipe_needs_added_to_a_list_is_its_ingredients_without_amounts_or_what_the_list_holds():
    recipes = Document("recipes.md", "# Recipes\n\n## Banana bread (makes 1 loaf)\n3 ripe bananas, 75g butter, 1 egg,"
                                     " 1 tsp bicarb\nBake 60 minutes at 175C\n\n## Pancakes (serves 4)\n200g flour\n")
    shopping = Document("shopping.txt", "eggs\nmilk\n")
    assert ready_write("Add what I need for banana bread to the shopping.", [shopping, recipes]) == ListToWrite(
        "shopping.txt", "eggs\nmilk\nripe bananas\nbutter\nbicarb\n")
    assert ready_write("Add the banana bread ingredients to my shopping list.", [shopping, recipes]) == ListToWrite(
        "shopping.txt", "eggs\nmilk\nripe bananas\nbutter\nbicarb\n")


def test_an_add_to_my_notes_goes_on_the_notes_file():
    notes = Document("notes.txt", "Dentist Friday 9am\nCall mum on Sunday\n")
    assert ready_write("Add renew passport to my notes.", [notes, Document("todo.md", "- [ ] bins\n- [ ] post\n")]) == (
        ListToWrite("notes.txt", "Dentist Friday 9am\nCall mum on Sunday\nRenew passport\n"))


def test_tick_off_on_a_list_of_boxes_ticks_the_box():
    todo = Document("todo.md", "# To do\n- [ ] call the bank\n- [ ] renew passport\n")
    assert ready_write("Tick off renew passport.", [todo]) == ListToWrite(
        "todo.md", "# To do\n- [ ] call the bank\n- [x] renew passport\n")
    assert ready_write("Take renew passport off my to do list.", [todo]) == ListToWrite(
        "todo.md", "# To do\n- [ ] call the bank\n")


def test_note_that_is_a_note_written_as_the_notes_are():
    notes = Document("notes.txt", "Dentist Friday 9am\nBins Tuesday\n")
    assert ready_write("Note that the boiler man comes Monday at 8.", [Document("shop.txt", "eggs\n"), notes]) == ListToWrite(
        "notes.txt", "Dentist Friday 9am\nBins Tuesday\nThe boiler man comes Monday at 8\n")


def test_a_box_ticked_for_tick_off_is_not_the_line_kept(tmp_path):
    todo = tmp_path / "todo.md"
    todo.write_text("# To do\n- [ ] call the bank\n- [ ] renew passport\n")
    assert kept_lines("Tick off renew passport.", todo, "# To do\n- [ ] call the bank\n- [x] renew passport\n") == []
    assert kept_lines("Tick off renew passport.", todo, todo.read_text()) == ["- [ ] renew passport"]


def test_told_someone_did_a_thing_a_write_marking_a_file_that_is_not_about_them_goes_back(tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("Oven service booked Wed 9 Dec.\nCake boxes: 6 left.\n")
    assert someone_elses_line("Dev has collected his cake.", notes, "Oven service booked Wed 9 Dec.\nCake boxes: 6 left. (collected)\n") == "Dev"
    orders = tmp_path / "orders.csv"
    orders.write_text("customer,cake\nDev Patel,carrot cake\n")
    assert someone_elses_line("Dev has collected his cake.", orders, "customer,cake,collected\nDev Patel,carrot cake,yes\n") == ""
    assert someone_elses_line("I've collected the cake.", notes, "Oven service booked Wed 9 Dec.\nCake boxes: 5 left.\n") == ""


def test_a_time_move_asked_is_the_one_line_naming_the_thing_with_its_time_moved():
    diary = Document("diary.txt", "Mon 7 Dec - dentist 8:40\nWed 9 Dec - haircut 17:15 with Jess\n")
    assert time_moved_ready("Move my haircut to 6pm.", [diary]) == ListToWrite(
        "diary.txt", "Mon 7 Dec - dentist 8:40\nWed 9 Dec - haircut 6pm with Jess\n")
    assert time_moved_ready("Move my haircut to Friday.", [diary]) is None  # a day, not a time


def test_a_thing_told_cancelled_is_the_one_line_or_row_naming_it_gone():
    bills = "bill,amount,day of month\nRent,950.00,1\nGym,35.00,28\n"
    calendar = "Mon 09:00 standup\nWed 14:00 dentist\n"
    documents = [Document("bills.csv", bills), Document("calendar.txt", calendar)]
    assert cancelled_line("I've cancelled the gym membership.", documents) == ListToWrite(
        "bills.csv", "bill,amount,day of month\nRent,950.00,1\n")
    assert cancelled_line("I cancelled the dentist.", documents) == ListToWrite("calendar.txt", "Mon 09:00 standup\n")
    assert cancelled_line("I've cancelled the meeting.", documents) is None  # no line names it


def test_someone_told_to_stop_a_thing_loses_the_one_row_naming_them_and_it():
    clubs = "child,club,day\nIvy,ballet,Tuesday\nRory,football,Wednesday\nRory,coding,Thursday\n"
    documents = [Document("clubs.csv", clubs)]
    assert cancelled_line("Rory's dropping coding.", documents) == ListToWrite(
        "clubs.csv", "child,club,day\nIvy,ballet,Tuesday\nRory,football,Wednesday\n")
    assert cancelled_line("Ivy has given up ballet.", documents) == ListToWrite(
        "clubs.csv", "child,club,day\nRory,football,Wednesday\nRory,coding,Thursday\n")
    assert cancelled_line("Ivy's dropping coding.", documents) is None  # no row of hers for it
    assert cancelled_line("Has Rory dropped coding?", documents) is None  # asked, not told


def test_a_thing_someone_gave_back_loses_the_line_naming_them_and_it():
    lent = Document("lent.md", "# Lent out\n- Dan: my drill\n- Jo: the Harry Potter box set\n- Jo: £10 (taxi)\n")
    assert cancelled_line("Jo gave the box set back.", [lent]) == ListToWrite(
        "lent.md", "# Lent out\n- Dan: my drill\n- Jo: £10 (taxi)\n")
    assert cancelled_line("Dan brought back my drill.", [lent]) == ListToWrite(
        "lent.md", "# Lent out\n- Jo: the Harry Potter box set\n- Jo: £10 (taxi)\n")
    assert cancelled_line("Dan gave the box set back.", [lent]) is None  # no line of his for it


def test_an_item_added_with_an_article_to_a_list_without_them_goes_without_it():
    packing = ["- [x] Passports", "- [ ] Chargers"]
    assert item_line("Add an umbrella to the packing.", "- [ ] An umbrella", packing) == "- [ ] Umbrella"
    assert item_line("Add an umbrella to the list.", "- an umbrella", ["- a torch", "- some rope"]) == "- an umbrella"


def test_a_change_written_as_the_request_added_at_the_end_goes_back(tmp_path):
    club = tmp_path / "book club.md"
    club.write_text("# Book club\nReading: The Bee Sting\n")
    request = "Change the book to Western Lane."
    assert request_as_a_line(request, club, "# Book club\nReading: The Bee Sting\nChange the book to Western Lane.") == (
        "Change the book to Western Lane.")
    assert request_as_a_line(request, club, "# Book club\nReading: Western Lane\n") is None
    assert request_as_a_line("Add change the book to the list.", club, "# Book club\nReading: The Bee Sting\nchange the book") is None


async def test_a_new_file_named_as_a_heading_of_a_file_is_refused(harness):
    await harness.start("gate:\n  rules:\n    - {tool: write_file, decision: allow}\n")
    films = harness.env.workdir / "films.md"
    films.write_text("# Films\n\n## To watch\n- Past Lives\n\n## Watched\n- Barbie (4/5)\n")
    harness.model.enqueue(call("write_file", {"path": "Watched", "content": "Past Lives (4/5)"}), "Done.")
    _, events = await harness.turn("We watched Past Lives last night, 4 out of 5.", headless=True)
    assert [f.fate for f in of_type(events, "tool_finished")][0] == "invalid"
    assert harness.sent(1)[-1]["content"].startswith("tool error: Watched is a heading of films.md, not a file.")
    assert not (harness.env.workdir / "Watched").exists()


def test_a_line_marked_sent_is_not_the_line_a_told_send_names_by_its_mark(tmp_path):
    cards = tmp_path / "christmas cards.md"
    cards.write_text("# Christmas cards\n- Auntie Jean (sent)\n- The Patels\n- Uncle Raj (got one from him)\n")
    assert asked_about("I've sent one to the Patels.", cards) == {"- The Patels"}  # not "(sent)"'s nor "got one"'s
