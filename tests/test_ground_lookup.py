"""The ground's folder map and ranked excerpts, and the calculate tool: pure pieces, tested alone."""

from __future__ import annotations

import time
from datetime import date, datetime
from pathlib import Path

import pytest

from saturnd.testing.fake_model import Reply, call
from saturnd.tools import builtin_registry
from saturnd.tools.calculate import evaluate
from saturnd.tools.registry import ToolFailure
from saturnd.tools.table_sums import table_totals
from saturnd.tools.word_match import name_as_asked, query_terms
from saturnd.turn.claims import unbacked_claim
from saturnd.turn.folder_scan import ScanLimits, scan_folder
from saturnd.turn.ground import Ground, build_ground, folder_map_text
from saturnd.turn.listing import section_named
from saturnd.turn.rated import (
    a_price_a_time,
    a_term_by_the_week,
    against_the_budget,
    cost_a_head,
    gone_up,
    hours_at_table_rates,
    hours_at_their_rates,
    left_after_spent,
    rows_at_their_prices,
    unpaid_at_a_price,
    used_at_its_rate,
)
from saturnd.turn.retrieval import (
    Document,
    Excerpt,
    RetrievalLimits,
    counted,
    limit_as_written,
    not_done,
    rank,
    relevant_excerpts,
    render_excerpts,
)
from saturnd.turn.the_user import own_count_missed, own_part_missed, the_user_named
from saturnd.turn.worked_lines import against_the_worked_entry, bracketed_counts
from tests.conftest import of_type
from tests.test_gate import decide_with, run_with_decisions

HOME_FILES = {
    "shopping.txt": "milk\neggs\nflour\n",
    "notes.txt": "Dentist Friday 9am\nCall mum on Sunday\n",
    "budget.csv": "item,amount\nrent,900\nfood,450\n",
}


def lay(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


def docs(files: dict[str, str]) -> list[Document]:
    return [Document(name, text) for name, text in files.items()]


@pytest.mark.parametrize(("request_text", "best"), [
    ("What's on my shopping list?", "shopping.txt"),
    ("When is my dentist appointment?", "notes.txt"),
    ("Make a file todo.txt with the three things from my notes", "notes.txt"),
    ("How much did I spend on food?", "budget.csv"),
])
def test_the_file_a_person_means_ranks_first(request_text, best):
    assert rank(request_text, docs(HOME_FILES))[0][1].source == best


def test_words_are_matched_as_people_write_them_in_their_notes():
    contacts = Document("contacts.md", "# Contacts\n- Petra Novak (manager): +44 7700 900123\n"
                                       "- Dr Weiss (GP, Elm Street surgery): +44 20 7946 0991\n")
    ranked = rank("What's my doctor's phone number?", [contacts, Document("notes.txt", "Dentist Friday 9am\n")])
    assert [d.source for _, d in ranked] == ["contacts.md"]
    assert query_terms("What's my doctor's phone number?") == ["doctor", "dr", "gp", "phone", "tel", "mobile", "number"]
    groceries = Document("groceries.txt", "milk\nbread\n")
    assert [d.source for _, d in rank("Put eggs on the shopping list.", [groceries, contacts])] == ["groceries.txt"]
    trip = Document("travel.md", "# Trip\nReturn: flight TP1338, Lisbon 19:20\n")
    assert [d.source for _, d in rank("When do I fly back?", [trip, groceries])] == ["travel.md"]
    invoices = Document("invoices.csv", "client,amount,paid\nAcme,450,yes\nBolt Ltd,1200,no\n")
    assert [d.source for _, d in rank("How much am I still owed?", [groceries, invoices])] == ["invoices.csv"]
    wishes = Document("wishlist.txt", "Kindle - £95\nHeadphones - £60\n")
    assert [d.source for _, d in rank("What's on my wish list?", [groceries, wishes])] == ["wishlist.txt"]
    appointments = Document("appointments.md", "- Optician: Tue 8 Dec, 11:15\n")
    assert [d.source for _, d in rank("When's my eye test?", [groceries, appointments])] == ["appointments.md"]
    budget = Document("budget.csv", "item,amount\nrent,950\nfood,320\n")
    assert [d.source for _, d in rank("What's left of my money each month?", [groceries, budget])] == ["budget.csv"]


def test_a_latin_word_written_against_chinese_is_a_word_of_its_own():
    request = "我可以创建一个名为'DevelopmentEnv'的workspace，基于'feature-branch'吗？"
    assert query_terms(request) == ["我可以创建一个名为", "developmentenv", "workspace", "feature", "branch"]
    assert query_terms("perform 다용도실 통돌이 중지, café, don't") == ["perform", "다용도실", "통돌이", "café", "don't"]


def test_a_hyphenated_word_with_a_short_part_is_also_a_word_written_whole():
    assert query_terms("Add call the council to my to-do list.") == ["add", "call", "council", "todo", "tasks", "list"]
    assert query_terms("Send it by e-mail") == ["send", "email", "mail"]


def test_a_short_name_written_with_a_capital_is_a_word():
    assert query_terms("Text Jo that I'm late, is it OK?") == ["text", "jo", "late"]
    people = Document("people.csv", "name,phone\nJo Park,+44 7700 900123\n")
    assert [p.source for p in relevant_excerpts("Text Jo that I'll be there soon.", [people, *docs(HOME_FILES)])] == [
        "people.csv"
    ]


def test_a_document_under_the_floor_comes_in_for_a_word_nothing_shown_holds():
    files = {
        "people.csv": "name,phone,email\nJo Park,+44 7700 900123,jo@park.example\n"
                      "Sam Reed,+44 7700 900456,sam.reed@mail.example\n",
        "household.md": "# Household\nBins: black bin Tuesday, recycling every other Thursday.\n"
                        "Boiler service: Heatwise, 12 January.\nWifi: network Lark5, password plum-river-42\n",
        "lisbon-trip.md": "# Trip to Lisbon\nFlight TP1351 leaves Heathrow Fri 11 Dec 07:40, lands 10:25.\n",
        "shopping-list.md": "tomatoes\npasta\nparmesan\n",
        "spending-nov.csv": "date,shop,category,amount\n2026-11-02,Tesco,food,54.30\n2026-11-05,Shell,fuel,61.00\n",
    }
    ranked = rank("Email Sam the wifi details.", docs(files))
    assert ranked[1][0] < ranked[0][0] * RetrievalLimits().relative_floor  # under the floor by score alone
    assert [p.source for p in relevant_excerpts("Email Sam the wifi details.", docs(files))] == [
        "people.csv", "household.md"
    ]
    # shopping.txt holds "shop", a word shopping list's own file already holds: it stays out
    assert [p.source for p in relevant_excerpts("What's on my shopping list?", docs({
        "shopping-list.md": "tomatoes\npasta\n", "spending.csv": "date,shop,amount\n2026-11-02,Tesco,54.30\n",
    }))] == ["shopping-list.md"]


def test_a_time_of_day_finds_the_file_writing_it_with_a_leading_zero():
    files = {"medicine.md": "## Given today\n- 06:30 Calpol 5ml\n- 09:15 ibuprofen 2.5ml\n", "notes.md": "Call the school\n"}
    assert [p.source for p in relevant_excerpts("What did she have at 9:15?", docs(files))] == ["medicine.md"]


def test_this_year_finds_the_table_dating_its_rows_in_that_year():
    files = {"giving.md": "# Giving\n\nBudget for the year: £300\nGift Aid: yes for all of them\n",
             "donations.csv": "date,charity,amount\n2025-12-20,RNLI,15\n2026-03-14,Oxfam,10\n2026-09-22,Shelter,25\n"}
    shown = [p.source for p in relevant_excerpts("How much have I given this year?", docs(files), today=date(2026, 12, 4))]
    assert shown == ["donations.csv", "giving.md"]


def test_a_table_whose_number_column_the_request_names_comes_in_though_a_note_covered_its_words():
    habits = {"goals.md": "# Goals\nSteps: 10,000 a day\nSleep: at least 7 hours\n",
              "habits.csv": "date,sleep h,steps\n2026-12-01,8.0,9800\n2026-12-02,7.0,12100\n"}
    assert [p.source for p in relevant_excerpts("On how many days did I hit my step goal?", docs(habits))] == [
        "goals.md", "habits.csv"]
    rides = {"bike.md": "# Bike\nChain: cleaned and oiled 2026-11-15, every 300 km\n",
             "rides.csv": "date,route,km\n2026-12-01,commute,16.0\n2026-12-03,hills,38.2\n"}
    assert [p.source for p in relevant_excerpts("How many km have I done since I oiled the chain?", docs(rides))] == [
        "bike.md", "rides.csv"]


def test_asked_what_time_a_line_with_a_time_and_the_words_asked_comes_in_beside_the_rows_naming_them():
    files = {"shifts.csv": "date,shift,volunteer\n2026-12-05,morning,Bev\n2026-12-05,afternoon,Tom\n"
                           "2026-12-08,afternoon,Bev\n",
             "foodbank.md": "# Food bank\nMorning 9:30-12:30, afternoon 13:30-16:30\nMost needed: tinned meat\n"}
    assert [p.source for p in relevant_excerpts("What time does the afternoon shift start?", docs(files))] == [
        "shifts.csv", "foodbank.md"]


def test_still_got_out_asks_for_the_rows_a_date_column_leaves_blank():
    files = {"library.md": "# Library\nFines: 25p a day per book\n",
             "loans.csv": "title,borrowed,returned\nPiranesi,2026-11-25,\nOrbital,2026-10-30,2026-11-19\n"}
    assert "loans.csv" in [p.source for p in relevant_excerpts("Which books have I still got out?", docs(files))]


def test_a_request_about_nothing_in_the_files_finds_nothing():
    assert relevant_excerpts("What is 17*23?", docs(HOME_FILES)) == []
    assert query_terms("What is the total of it?") == ["total"]


def test_a_small_file_is_shown_whole_and_a_large_one_by_its_matching_lines():
    big = "\n".join(f"line {i} about gardening" for i in range(200)) + "\nThe dentist is on Friday.\n"
    parts = relevant_excerpts("dentist", [Document("diary.md", big), Document("notes.txt", "Dentist Friday 9am\n")])
    assert [(p.source, p.whole) for p in parts] == [("notes.txt", True), ("diary.md", False)]
    assert parts[1].first_line == 200 and parts[1].lines[1] == "The dentist is on Friday."
    assert render_excerpts(parts) == (
        "--- notes.txt (whole file, 1 lines)\nDentist Friday 9am\n"
        "--- diary.md:200-201 (of 201 lines)\nline 199 about gardening\nThe dentist is on Friday."
    )


def test_excerpts_keep_to_their_character_budget():
    files = {f"dentist-{i}.txt": "dentist " * 140 for i in range(5)}
    parts = relevant_excerpts("dentist", docs(files))
    assert len(parts) == 2  # 3 would pass the 2,400 characters


def test_the_ground_shows_the_map_and_fenced_excerpts_after_the_fixed_part(tmp_path):
    cwd = lay(tmp_path / "w", HOME_FILES)
    built = build_ground(Ground(cwd=cwd, home=tmp_path / "home", now=datetime.now().astimezone(),
                                request="What's on my shopping list?"))
    text, found = built.text, built.trace
    fixed, this_turn = text.split("## This turn\n")
    assert "shopping.txt" not in fixed
    assert "- shopping.txt (16 B): milk" in this_turn and "- notes.txt (38 B): Dentist Friday 9am" in this_turn
    assert '<outside source="your files">' in this_turn
    assert "--- shopping.txt (whole file, 3 lines)\nmilk\neggs\nflour\n</outside>" in this_turn
    assert found.files_mapped == 3 and found.excerpts == ["shopping.txt:1-3"]


def test_a_trail_to_follow_gets_the_names_but_no_line_from_its_end(tmp_path):
    cwd = lay(tmp_path / "w", {"start.txt": "The first clue is in f81.txt.\n", "f81.txt": "The treasure is under the oak.\n"})
    built = build_ground(Ground(cwd=cwd, home=tmp_path, now=datetime.now().astimezone(),
                                request="Read start.txt and follow the clues to the treasure."))
    assert "- f81.txt" in built.text and "oak" not in built.text and built.trace.excerpts == []


def test_the_ground_can_leave_both_out(tmp_path):
    cwd = lay(tmp_path / "w", HOME_FILES)
    built = build_ground(Ground(cwd=cwd, home=tmp_path, now=datetime.now().astimezone(),
                                request="shopping", folder_map=False, retrieval=False))
    text, found = built.text, built.trace
    assert "shopping.txt" not in text and found.excerpts == []


def test_kb_documents_are_ranked_beside_the_folder(tmp_path):
    lay(tmp_path / "home" / "kb", {"home.md": "# Home\nThe bins go out on Tuesday night.\n"})
    found = build_ground(Ground(cwd=lay(tmp_path / "w", HOME_FILES), home=tmp_path / "home",
                                now=datetime.now().astimezone(), request="Which day do the bins go out?")).trace
    assert found.excerpts == ["kb:home.md:1-2"]


def test_the_scan_skips_hidden_binary_and_large_files(tmp_path):
    lay(tmp_path, {".secret": "x", "a.txt": "a\n", ".git/config": "x", "sub/b.md": "# B\n"})
    (tmp_path / "big.log").write_text("x" * 40_000)
    (tmp_path / "pic.bin").write_bytes(b"\0\1\2")
    scan = scan_folder(tmp_path)
    assert [(f.rel, f.text is not None) for f in scan.files] == [
        ("a.txt", True), ("big.log", False), ("pic.bin", False), ("sub/b.md", True),
    ]
    assert "- sub/b.md (4 B): B" in folder_map_text(scan)


def test_the_scan_of_a_huge_tree_stops_at_its_caps(tmp_path):
    for d in range(30):
        lay(tmp_path / f"d{d:02}", {f"f{i:03}.txt": "hello\n" for i in range(100)})
    started = time.monotonic()
    scan = scan_folder(tmp_path, ScanLimits(max_entries=2_000))
    assert time.monotonic() - started < 1.0  # the cap is 50 ms; generous for a loaded machine
    assert scan.cut and len(scan.files) < 2_000
    assert sum(f.text is not None for f in scan.files) <= ScanLimits().max_read_files


def test_a_small_folder_is_scanned_whole_whatever_the_clock_says(tmp_path):
    lay(tmp_path, {f"note{i}.txt": "hello\n" for i in range(5)})
    scan = scan_folder(tmp_path, ScanLimits(max_seconds=0.0))  # a busy machine: the wall-time cap long gone
    assert not scan.cut and sum(f.text is not None for f in scan.files) == 5


@pytest.mark.parametrize(("expression", "shown"), [
    ("900 + 450 + 150 + 45 + 200", "900 + 450 + 150 + 45 + 200 = 1745"),
    ("42.10 + 37.90 + 20.00", "42.10 + 37.90 + 20.00 = 100"),
    ("(13*60+30 - 9*60) / 60", "(13*60+30 - 9*60) / 60 = 4.5"),
    ("10 / 3", "10 / 3 = 3.3333333333 (3.33 to 2 places)"),
    ("2 × 3", "2 * 3 = 6"),
    ("13:30 - 09:00", "13:30 - 09:00 = 4.5 hours (4 h 30 min)"),
    ("(17:15 - 08:45) * 5", "(17:15 - 08:45) * 5 = 42.5 hours (42 h 30 min)"),
    ("2 hours 45 minutes + 40 minutes", "2 hours 45 minutes + 40 minutes = 3.4166666667 hours (3 h 25 min)"),
    ("2h45m + 40min", "2h45m + 40min = 3.4166666667 hours (3 h 25 min)"),
    ("3.5 hours - 45 min", "3.5 hours - 45 min = 2.75 hours (2 h 45 min)"),
    ("17:45 - 25 min", "17:45 - 25 min = 17:20 (a time of day)"),  # when to leave for the train
    ("06:40 - 2 hours", "06:40 - 2 hours = 04:40 (a time of day)"),
    ("08:00 * 2", "08:00 * 2 = 16 hours (16 h 0 min)"),  # multiplied: no time of day
])
def test_calculate_is_exact(expression, shown):
    assert evaluate(expression) == shown


@pytest.mark.parametrize(("expression", "problem"), [
    ('open("/etc/passwd").read()', "unknown names open"),
    ("(1).__class__", "use numbers"),
    ("1 / 0", "ZeroDivisionError"),
    ("9 ** 9 ** 9", "exponent"),
    ("x = 1", "not an arithmetic expression"),
])
def test_calculate_refuses_what_is_not_arithmetic(expression, problem):
    with pytest.raises(ToolFailure, match=problem):
        evaluate(expression)


async def test_a_lookup_turn_sends_the_excerpt_and_traces_what_the_ground_found(harness):
    await harness.start()
    lay(harness.env.workdir, HOME_FILES)
    harness.model.enqueue(Reply(text="Milk, eggs and flour.", usage=(600, 5), cache_n=450))
    turn_id, events = await harness.turn("What's on my shopping list?")
    assert of_type(events, "answer")[0].text == "Milk, eggs and flour."
    system = harness.model.requests[0]["messages"][0]["content"]
    assert "--- shopping.txt (whole file, 3 lines)\nmilk\neggs\nflour\n</outside>" in system
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert trace.ground.excerpts == ["shopping.txt:1-3"] and trace.ground.files_mapped == 3
    assert (trace.passes[0].prompt_tokens, trace.passes[0].prompt_tokens_cached) == (600, 450)
    assert of_type(events, "receipt")[0].tokens_cached == 450


async def test_the_ground_can_be_turned_off_in_config(harness):
    await harness.start(config_extra="ground:\n  folder_map: false\n  retrieval: false\n")
    lay(harness.env.workdir, HOME_FILES)
    harness.model.enqueue("I will look.")
    turn_id, _ = await harness.turn("What's on my shopping list?")
    assert "shopping.txt" not in harness.model.requests[0]["messages"][0]["content"]
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert trace.ground.excerpts == [] and trace.ground.files_mapped == 0


def test_a_csv_table_gets_its_totals_worked_out():
    assert table_totals("budget.csv", HOME_FILES["budget.csv"] + "travel,150\n") == (
        "[Saturn worked out] totals over 3 rows: amount = 1500"
    )
    spending = "date,category,amount\n03-02,food,42.10\n03-09,bus,15.00\n03-15,food,37.90\n"
    assert table_totals("march.csv", spending) == (
        "[Saturn worked out] totals over 3 rows: amount = 95; amount by category: food 80, bus 15"
    )
    assert table_totals("notes.txt", spending) == "" and table_totals("x.csv", "1,2\n3,4\n5,6\n") == ""
    by_month = "date,category,amount\n2026-10-03,food,42.10\n2026-10-17,bus,15\n2026-10-21,food,18.40\n2026-11-02,food,30\n"
    assert table_totals("expenses.csv", by_month) == (
        "[Saturn worked out] totals over 4 rows: amount = 105.5; amount by category: food 90.5, bus 15;"
        " amount by month: October 2026 75.5, November 2026 30;"
        " by month and category: October 2026 food 60.5, October 2026 bus 15, November 2026 food 30"
    )
    assert table_totals("expenses.csv", by_month, "What did November cost?") == (
        "[Saturn worked out] totals over the November 2026 rows (1): amount = 30; the row: date 2026-11-02, category"
        " food, amount 30; amount by category: food 30"
    )
    assert table_totals("expenses.csv", by_month, "How much did I spend on food in October?") == (
        "[Saturn worked out] totals over the October 2026 food rows (2): amount = 60.5"
    )


def test_a_table_is_totalled_over_the_rows_the_request_names_and_grouped_by_its_category():
    spending = ("date,shop,category,amount\n2026-11-02,Tesco,food,54.30\n2026-11-05,Shell,fuel,61.00\n"
                "2026-11-09,Lidl,food,38.75\n2026-11-16,Tesco,food,47.20\n2026-11-21,Pizza Go,takeaway,22.50\n")
    assert table_totals("spending.csv", spending, "How much did I spend on food in November?") == (
        "[Saturn worked out] totals over the November 2026 food rows (3): amount = 140.25"
    )
    assert table_totals("spending.csv", spending, "What did the takeaways and the fuel come to?") == (
        "[Saturn worked out] totals over the fuel and takeaway rows (2): amount = 83.5;"
        " amount by category: fuel 61, takeaway 22.5"
    )
    assert table_totals("spending.csv", spending, "How much did I spend in November?") == (
        "[Saturn worked out] totals over the November 2026 rows (5): amount = 223.75;"
        " amount by category: food 140.25, fuel 61, takeaway 22.5"
    )


def test_how_many_gets_the_count_of_a_list_under_its_heading():
    reading = ["Books to read:", "The Overstory", "Klara and the Sun", "Piranesi"]
    shown = render_excerpts([Excerpt("reading.txt", 1, reading, 4)], "How many books are on my reading list?")
    assert shown.endswith("Piranesi\n[Saturn counted] 3 lines besides the heading 'Books to read:'")
    assert counted(reading, "Which book is first on my reading list?") == ""  # no count asked
    assert counted(["milk", "eggs"], "How many things are on my list?") == ""  # the header's count is right
    library = ["The Salt Path — due 8 Dec", "Piranesi — due 15 Dec", "Circe — due 1 Dec"]
    assert counted(library, "How many library books have I got out?", "library.txt") == (
        "[Saturn counted] 3 lines in library.txt")  # no heading, but the file named
    read = ["Books I've read this year", "- Demon Copperhead (loved it)", "- Klara and the Sun", "- Circe"]
    assert counted(read, "How many books have I read this year?") == (
        "[Saturn counted] 3 lines besides the heading 'Books I've read this year'")  # a heading by its list below
    trip = ["# Trip to Lisbon", "Out: Saturday 12 December", "Back: Wednesday 16 December", "- get euros"]
    assert counted(trip, "How many nights am I away in Lisbon?") == ""  # nights are no line of it
    assert counted(["# Pancakes (makes 8)", "- 2 eggs", "- 300ml milk"], "How many eggs for a double batch?") == ""
    books = ["## Books", "- October: Tomorrow x3 (done, 3/5)", "- November: Orbital (done, 5/5)", "- December: Prophet Song"]
    assert counted(books, "How many books have we finished?") == (
        "[Saturn counted] 2 of the 3 lines marked done: October: Tomorrow x3 (done, 3/5); November: Orbital (done, 5/5)")
    assert counted(["# Jobs", "- gutters", "- shed"], "How many jobs have I got?").startswith("[Saturn counted] 2")


def test_asked_about_a_budget_each_rows_rest_or_overspend_is_worked_out_and_those_over_named():
    budget = "category,budget,spent\ngroceries,400,312.40\neating out,120,134.50\nclothes,60,0\n"
    assert table_totals("budget.csv", budget, "Am I over budget on anything?").endswith(
        "; against the budget, budget - spent: groceries 87.6 left, eating out 14.5 over, clothes 60 left;"
        " over: eating out; in all 133.1 left")
    assert "against the budget" not in table_totals("budget.csv", budget, "What have I spent the most on?")


def test_asked_who_is_still_to_do_the_lines_for_someone_not_marked_done():
    christmas = ["# Christmas", "- Mum: scarf (bought, £25)", "- Dad: book", "- Sam: headphones", "## Food",
                 "- turkey, collect 23 Dec"]
    assert not_done(christmas, "Who have I still got to buy for?") == "[Saturn counted] 2 not marked done: - Dad: book; - Sam: headphones"
    assert not_done(christmas, "What have I still got to get?").startswith("[Saturn counted] 3 not marked done:")
    assert counted(["ring the council", "book flu jab"], "How many things have I got to do?", "todo.txt") == (
        "[Saturn counted] 2 lines in todo.txt")  # "to do" names todo.txt
    todo = ["ring the council", "book flu jab (booked)", "buy printer ink"]
    assert not_done(todo, "How many things have I got to do?") == (  # got to do: what is not done yet
        "[Saturn counted] 2 not marked done: ring the council; buy printer ink")
    suppliers = ["- Photographer: £1,200, deposit £300 paid", "- Band: £900, paid in full"]
    assert not_done(suppliers, "How much do I still owe the photographer?") == ""  # an amount asked, not lines left


def test_how_many_of_a_file_of_several_lists_counts_the_list_its_heading_names():
    lists = ["# Shopping", "- eggs", "- bread", "- washing up liquid", "", "# To do", "- [ ] book haircut",
             "- [x] pay council tax", "- [ ] renew car insurance"]
    assert counted(lists, "How many things are on the shopping list now?") == (
        "[Saturn counted] 3 lines besides the heading '# Shopping'")
    assert counted(lists, "How many things have I done on my to do list?") == (
        "[Saturn counted] 1 of the 3 lines marked done: [x] pay council tax")
    assert counted(lists, "How many things are on my lists?") == (  # no one list named: all of them
        "[Saturn counted] 6 lines besides the headings '# Shopping' and '# To do'")
    assert counted(["# Christmas presents", "- Dad: book"], "How many presents left?").startswith("[Saturn counted] 1")
    plan = ["# Half marathon plan", "Race: Sunday 14 March 2027", "## Each week", "- Tuesday: easy 6-8 km"]
    assert counted(plan, "How many weeks until the race?") == ""  # weeks are no line under "## Each week"


def test_a_month_written_short_in_the_table_is_named_by_its_whole_name():
    bills = "month,gas,electric\nSep,38.20,61.10\nOct,52.75,64.30\nNov,71.40,68.90\n"
    assert table_totals("bills.csv", bills, "How much was the electric in October?") == (
        "[Saturn worked out] totals over the Oct rows (1): gas = 52.75, electric = 64.3; the row: month Oct, gas"
        " 52.75, electric 64.30"
    )
    assert table_totals("bills.csv", bills, "What did I pay for gas altogether?") == (
        "[Saturn worked out] totals over 3 rows: gas = 162.35, electric = 194.3"
    )


INVOICES = "client,amount,paid\nAcme,450,yes\nBolt Ltd,1200,no\nCrane & Co,300,no\n"


@pytest.mark.parametrize(("request_text", "said"), [
    ("Who hasn't paid me yet?", "totals over the paid = no rows (2: Bolt Ltd, Crane & Co): amount = 1500"),
    ("How much am I still owed?", "totals over the paid = no rows (2: Bolt Ltd, Crane & Co): amount = 1500"),
    ("Who has paid?", "totals over the paid = yes rows (1: Acme): amount = 450; the row: client Acme, amount 450,"
                      " paid yes"),
    ("How much have I invoiced?", "totals over 3 rows: amount = 1950; amount by paid: yes 450, no 1500"),
])
def test_a_yes_no_column_asked_about_totals_the_rows_with_the_value_asked(request_text, said):
    assert table_totals("invoices.csv", INVOICES, request_text) == f"[Saturn worked out] {said}"


MONTHLY_BILLS = "bill,amount,day of month,paid this month\nRent,950.00,1,yes\nElectric,88.00,15,no\nPhone,18.00,22,no\n"


def test_still_to_come_asks_for_the_rows_a_yes_no_column_says_no_and_a_day_of_the_month_is_no_amount():
    assert table_totals("bills.csv", MONTHLY_BILLS, "Which bills are still to come out this month?") == (
        "[Saturn worked out] totals over the paid this month = no rows (2: Electric, Phone): amount = 106")
    assert table_totals("bills.csv", MONTHLY_BILLS, "How much are my bills altogether?") == (
        "[Saturn worked out] totals over 3 rows: amount = 1056; amount by paid this month: yes 950, no 106")


def test_how_many_of_a_thing_a_column_counts_in_other_words_is_no_count_of_rows():
    habits = "date,sleep h,water glasses\n2026-12-01,8.0,8\n2026-12-02,7.0,6\n"
    assert "(a row each)" not in table_totals("habits.csv", habits, "How many glasses of water did I drink?")


def test_a_value_set_aside_picks_the_other_rows():
    assert table_totals("bills.csv", MONTHLY_BILLS, "What's my biggest bill after rent?") == (
        "[Saturn worked out] totals over the other than Rent rows (2): amount = 106; largest amount:"
        " (bill Electric, amount 88.00, day of month 15, paid this month no)")


def test_still_out_of_a_loans_table_is_by_its_blank_returned_day_not_by_borrowed_to_due():
    loans = "title,borrowed,due,returned\nIntermezzo,2026-11-20,2026-12-11,\nOrbital,2026-10-30,2026-11-20,2026-11-19\n"
    said = table_totals("loans.csv", loans, "Which books have I still got out?", today=date(2026, 12, 4))
    assert "covering" not in said and "not returned yet 1 (Intermezzo)" in said


def test_how_many_done_by_a_yes_no_columns_verb_is_no_count_of_every_row():
    cards = "name,address,sent\nAuntie Jo,4 Elm Close,yes\nUncle Bob,19 Harbour View,no\nGrandma,2 Church Lane,yes\n"
    said = table_totals("cards.csv", cards, "How many cards have I sent?")
    assert "(a row each)" not in said and "sent: yes 2 (Auntie Jo, Grandma); no 1 (Uncle Bob)" in said


def test_a_month_of_an_odometers_log_is_no_total_of_its_reading():
    mileage = "date,miles\n2026-10-01,41015\n2026-11-01,41760\n2026-12-01,42530\n"
    said = table_totals("mileage.csv", mileage, "How many miles did I do in November?")
    assert "miles = 41760" not in said and "2026-11-01 to 2026-12-01: 770" in said


def test_an_average_or_a_speed_column_is_not_totalled():
    rides = "date,km,avg speed\n2026-11-26,16.0,22.9\n2026-12-01,16.0,24.0\n2026-12-03,16.0,21.8\n"
    assert table_totals("rides.csv", rides, "How far have I ridden?") == "[Saturn worked out] totals over 3 rows: km = 48"
    assert table_totals("rides.csv", rides, "What was my fastest ride?") == (
        "[Saturn worked out] totals over 3 rows: km = 48; by avg speed, fastest first: date 2026-12-01, km 16.0, avg speed 24.0"
        " | date 2026-11-26, km 16.0, avg speed 22.9 | date 2026-12-03, km 16.0, avg speed 21.8")


def test_asked_how_many_weeks_until_a_goal_the_rest_over_the_weekly_amount_rounded_up():
    pocket = "child,weekly,saved,goal\nMaya,5.00,32.50,45\nTheo,3.00,11.00,25\n"
    assert "; weeks to go, (goal - saved) / weekly, rounded up: Theo 14 / 3 = 5 weeks" in table_totals(
        "pocket.csv", pocket, "How many more weeks until Theo can buy his lego set?")
    assert "months to go" not in table_totals("pocket.csv", pocket, "How many months until Theo can buy it?")


RUNS = "date,km\n2026-11-02,5.2\n2026-11-09,6.0\n2026-11-16,7.5\n2026-11-23,8.1\n"


@pytest.mark.parametrize(("request_text", "said"), [
    ("What's the average distance of my runs?", "; average over 4 rows: km = 6.7"),
    ("What was my longest run?", "; largest km: (date 2026-11-23, km 8.1)"),
    ("Which was my shortest run?", "; smallest km: (date 2026-11-02, km 5.2)"),
    ("Which was my best week for running?", "; largest km: (date 2026-11-23, km 8.1)"),
    ("How far did I run?", ""),
])
def test_a_table_carries_the_average_or_the_largest_row_the_request_asks_for(request_text, said):
    assert table_totals("runs.csv", RUNS, request_text) == "[Saturn worked out] totals over 4 rows: km = 26.8" + said

FUEL = "date,litres,cost,miles\n2026-10-04,41.2,58.10,412\n2026-10-29,38.5,54.30,398\n2026-11-22,40.1,57.20,405\n"


def test_one_column_per_another_is_their_totals_divided_not_an_average_of_either():
    totals = "[Saturn worked out] totals over 3 rows: litres = 119.8, cost = 169.6, miles = 1215"
    assert table_totals("fuel.csv", FUEL, "What's my average miles per litre?") == (
        f"{totals}; miles per litre over 3 rows: miles 1215 / litres 119.8 = 10.14")
    assert table_totals("fuel.csv", FUEL, "What did I pay a litre?") == totals  # "pay" names no column
    assert table_totals("fuel.csv", FUEL, "How much did fuel cost per litre?").endswith("cost 169.6 / litres 119.8 = 1.42")


TIMESHEET = "date,start,finish,break_mins\n2026-11-30,09:00,17:30,30\n2026-12-01,08:30,16:00,45\n"


def test_a_table_of_start_and_end_times_carries_each_rows_hours_less_its_break():
    assert table_totals("timesheet.csv", TIMESHEET, "How many hours did I work this week?").splitlines()[-1] == (
        "[Saturn worked out] hours from start to finish less break_mins: 2026-11-30 8 hours, 2026-12-01 6.75 hours"
        " (6 h 45 min); total 14.75 hours (14 h 45 min)")
    assert table_totals("rota.csv", "date,start,end\n2026-12-09,08:00,14:00\n2026-12-10,22:00,06:00\n") == (
        "[Saturn worked out] hours from start to end: 2026-12-09 6 hours, 2026-12-10 8 hours; total 14 hours")
    assert table_totals("timesheet.csv", TIMESHEET, "How many hours did I work on Tuesday?",
                        [date(2026, 12, 1)]).splitlines()[-1] == (
        "[Saturn worked out] hours from start to finish less break_mins: 2026-12-01 6.75 hours (6 h 45 min)")


def test_asked_the_fastest_of_a_table_of_distances_and_times_each_rows_pace_is_worked_out():
    runs = "date,km,time_mins\n2026-11-22,5.0,28\n2026-11-29,10.1,60\n2026-12-02,5.0,26\n"
    assert table_totals("runs.csv", runs, "What was my fastest run?") == (
        "[Saturn worked out] totals over 3 rows: km = 20.1, time_mins = 114; pace, fastest first: 2026-12-02,5.0,26:"
        " 5.2 min a km, 2026-11-22,5.0,28: 5.6 min a km, 2026-11-29,10.1,60: 5.94 min a km")


def test_how_many_rows_a_table_holds_is_counted_for_the_request():
    assert table_totals("runs.csv", RUNS, "How many runs did I do?") == (
        "[Saturn worked out] 4 runs (a row each); totals over 4 rows: km = 26.8")
    assert table_totals("runs.csv", RUNS, "How many km did I run?") == "[Saturn worked out] totals over 4 rows: km = 26.8"



async def test_a_file_the_ground_showed_whole_counts_as_read_for_edit_file(harness):
    await harness.start()
    lay(harness.env.workdir, HOME_FILES)
    harness.model.enqueue(
        call("edit_file", {"path": "shopping.txt", "old": "flour\n", "new": "flour\nbutter\n"}), "Added butter.",
    )
    _, _, events = await run_with_decisions(harness, "Add butter to my shopping list.", decide_with("once"))
    finished = [e.event for e in events if e.event.__struct_config__.tag == "tool_finished"]
    assert [e.fate for e in finished] == ["ran"]  # no "⛔ call read_file first"
    assert (harness.env.workdir / "shopping.txt").read_text() == "milk\neggs\nflour\nbutter\n"


@pytest.mark.parametrize(("request_text", "said"), [
    ("What have I still got to buy for Christmas?", "[Saturn counted] 2 not marked done: - Dad: book; - Sam: ?"),
    ("What haven't I bought yet?", "[Saturn counted] 2 not marked done: - Dad: book; - Sam: ?"),
    ("What's on my Christmas list?", ""),  # nothing asked about what is left
])
def test_asked_what_is_left_the_list_names_the_lines_not_marked_done(request_text, said):
    presents = ["# Christmas presents", "- Mum: scarf (bought)", "- Dad: book", "- Ella: lego (bought)", "- Sam: ?"]
    assert not_done(presents, request_text) == said
    assert not_done(["- milk", "- eggs"], request_text) == ""  # nothing marked: nothing to tell apart


def test_asked_what_still_needs_doing_the_lines_that_say_not_done_in_its_word_are_listed():
    jobs = ["# House jobs", "- Leaking tap — plumber booked Mon 7 Dec", "- Gutters — quote £120, not booked",
            "- Smoke alarms — test monthly"]
    assert not_done(jobs, "What jobs still need booking?") == (
        "[Saturn counted] 1 not done, as their lines say: - Gutters — quote £120, not booked")
    assert not_done(jobs, "What jobs still need paying?") == ""


def test_asked_what_is_still_to_do_only_a_files_list_is_counted():
    allotment = ["# Allotment", "Rent: £38 a year, due 1 April", "Water butts: 3", "## To do", "- [x] Dig over bed 2",
                 "- [ ] Prune the raspberries", "- [ ] Fix the shed door"]
    assert not_done(allotment, "What still needs doing on the allotment?") == (
        "[Saturn counted] 2 not marked done: - [ ] Prune the raspberries; - [ ] Fix the shed door")


def test_a_list_shown_whole_carries_what_is_not_marked_done():
    shown = render_excerpts([Excerpt("todo.md", 1, ["- [x] milk", "- [ ] eggs"], 2)], "What's left on my list?")
    assert shown.splitlines()[-1] == "[Saturn counted] 1 not marked done: - [ ] eggs"


PRESENTS_SHOWN = (
    "--- christmas.md (whole file, 5 lines)\n# Christmas presents\n- Mum: scarf (bought)\n- Dad: book\n"
    "- Ella: lego (bought)\n- Sam: ?\n[Saturn counted] 2 not marked done: - Dad: book; - Sam: ?\n"
)


@pytest.mark.parametrize(("answer", "kind"), [
    ("You still have to buy a scarf and a lego for Christmas.", "marked_done"),
    ("Dad's book, and something for Sam.", None),
    ("Dad: book", "part_of_list"),  # Sam left out of what is left
])
def test_asked_what_is_left_an_answer_naming_what_is_marked_done_goes_back(answer, kind):
    claim = unbacked_claim(answer, [], builtin_registry(), "What's left on my Christmas list?",
                           documents_at_hand=True, seen=PRESENTS_SHOWN)
    assert (claim.kind if claim else None) == kind
    if kind == "marked_done":
        assert claim.quote == "[Saturn counted] 2 not marked done: - Dad: book; - Sam: ?"


@pytest.mark.parametrize("again", ["A scarf and a lego.", "I need to check the list again to see what is not done."])
async def test_an_answer_that_still_names_what_is_marked_done_is_replaced_by_what_is_not(harness, again):
    await harness.start()
    (harness.env.workdir / "christmas.md").write_text(
        "# Christmas presents\n- Mum: scarf (bought)\n- Dad: book\n- Ella: lego (bought)\n- Sam: ?\n")
    harness.model.enqueue("A lego.", again)  # named again, or only a promise to check
    _, events = await harness.turn("What have I still got to buy for Christmas?", headless=True)
    assert harness.sent(1)[-1]["content"].startswith("[Saturn check] The user asked what is still to do")
    assert of_type(events, "answer")[-1].text == "Not marked done on your list: Dad: book; Sam: ?"


async def test_an_answer_that_found_nothing_after_the_send_back_is_replaced_by_what_is_not_done(harness):
    await harness.start()
    (harness.env.workdir / "christmas.md").write_text(
        "# Christmas presents\n- Mum: scarf (bought)\n- Dad: book\n- Ella: lego (bought)\n- Sam: ?\n")
    harness.model.enqueue("A lego.", call("kb_search", {"query": "still to buy"}), "The knowledge base is empty.")
    _, events = await harness.turn("What have I still got to buy for Christmas?", headless=True)
    assert of_type(events, "answer")[-1].text == "Not marked done on your list: Dad: book; Sam: ?"


def test_meter_readings_show_what_was_used_between_readings_not_their_totals():
    readings = "date,gas,electric\n2026-10-01,4120,18850\n2026-11-01,4310,19040\n2026-12-01,4580,19265\n"
    assert table_totals("meter-readings.csv", readings, "How much gas did we use in November?") == (
        "[Saturn worked out] used between readings (the readings count up): October 2026 (2026-10-01 to"
        " 2026-11-01): gas 190, electric 190; November 2026 (2026-11-01 to 2026-12-01): gas 270, electric 225")
    assert table_totals("meter-readings.csv", readings, "How much gas have we used since October?").endswith(
        "; since October 2026 (2026-10-01 to 2026-12-01): gas 460, electric 415")
    spending = "date,amount\n2026-10-01,40\n2026-11-01,30\n2026-12-01,50\n"  # no reading: totals
    assert table_totals("spending.csv", spending).startswith("[Saturn worked out] totals over 3 rows: amount = 120")
    falling = "date,meter\n2026-10-01,50\n2026-11-01,30\n2026-12-01,10\n"  # does not count up
    assert table_totals("meter.csv", falling).startswith("[Saturn worked out] totals over 3 rows")


def test_a_column_of_clock_times_is_no_category():
    rota = "date,start,end,hours\n2026-12-05,09:00,17:00,8\n2026-12-07,12:00,20:00,8\n2026-12-12,09:00,13:00,4\n"
    assert table_totals("rota.csv", rota, "How many hours am I working?") == (
        "[Saturn worked out] totals over 3 rows: hours = 20")


@pytest.mark.parametrize(("request_text", "term"), [
    ("When's my next shift?", "rota"), ("How much more do I need for the holiday fund?", "savings"),
])
def test_words_are_also_searched_as_notes_write_them(request_text, term):
    assert term in query_terms(request_text)


def test_a_yes_no_column_of_a_table_without_numbers_is_counted_blank_answers_too():
    guests = "name,rsvp,diet\nLeo,yes,\nPriya,,vegetarian\nSam,yes,\nHana,no,\nInes,,\n"
    assert table_totals("party-guests.csv", guests, "Who hasn't replied about the party?") == (
        "[Saturn counted] rsvp: yes 2 (Leo, Sam); blank (no answer) 2 (Priya, Ines); no 1 (Hana)")
    assert table_totals("party-guests.csv", guests, "Is anyone vegetarian?") == (  # a column of kinds, named
        "[Saturn counted] rsvp: yes 2 (Leo, Sam); blank (no answer) 2 (Priya, Ines); no 1 (Hana)"
        " | diet: blank 4 (Leo, Sam, Hana, Ines); vegetarian 1 (Priya)")
    party = "name,coming,diet\nTom,yes,vegetarian\nPriya,yes,\nIness,no,\nSam,yes,vegan\nLeo,maybe,\n"
    assert table_totals("party.csv", party, "Is anyone vegan?") == (
        "[Saturn counted] coming: yes 3 (Tom, Priya, Sam); no 1 (Iness); maybe 1 (Leo)"
        " | diet: vegetarian 1 (Tom); blank 3 (Priya, Iness, Leo); vegan 1 (Sam)")
    assert table_totals("people.csv", "name,city\nLeo,Leeds\nSam,York\nAl,Hull\n") == ""


def test_asked_who_is_coming_the_yes_rows_are_counted_among_the_rows_a_value_picks():
    guests = "name,side,rsvp\nAlice,bride,yes\nChloe,groom,no\nDavid,groom,yes\nElla,bride,\nGita,groom,yes\n"
    assert table_totals("guests.csv", guests, "How many guests are coming?").startswith(
        "[Saturn counted] coming (rsvp yes): 3 of the 5 rows (Alice, David, Gita)")
    assert table_totals("guests.csv", guests, "How many from the groom's side are coming?").startswith(
        "[Saturn counted] coming (rsvp yes): 2 of the 3 rows with side groom (David, Gita)")
    assert "coming" not in table_totals("guests.csv", guests, "Who hasn't replied?")


def test_a_column_of_results_is_counted_by_the_first_word_the_request_names():
    fixtures = ("date,opponent,result\n2026-11-07,Rovers,won 3-1\n2026-11-14,Colts,lost 0-2\n2026-11-28,Rangers,won 2-0\n"
                "2026-12-05,Rovers,\n")
    assert "result: won 2 (2026-11-07, 2026-11-28); lost 1 (2026-11-14); blank 1 (2026-12-05)" in table_totals(
        "fixtures.csv", fixtures, "How many games have we won?")
    assert "won 2" not in table_totals("fixtures.csv", fixtures, "Who do we play next?")


def test_a_hyphenated_word_is_found_as_the_request_writes_it():
    documents = [Document("work.md", "Printer code: 4471\nOne-to-one with Ruth: Tuesdays 10am\n"),
                 Document("todo.md", "- call the bank\n")]
    assert [doc.source for _, doc in rank("When's my next one-to-one?", documents)] == ["work.md"]


def test_the_rows_of_a_yes_no_column_are_named_by_a_text_column_not_their_dates():
    expenses = "date,item,amount,claimed\n2026-11-04,train fare,38.50,yes\n2026-11-12,hotel,112.00,no\n" \
               "2026-11-20,client lunch,26.80,no\n"
    assert table_totals("expenses.csv", expenses, "How much can I still claim on expenses?").startswith(
        "[Saturn worked out] totals over the claimed = no rows (2: hotel, client lunch): amount = 138.8")
    invoices = "invoice,client,amount,paid\nINV-101,Harper,1200,yes\nINV-102,Blue Door,450,no\nINV-103,Harper,800,no\n"
    assert table_totals("invoices.csv", invoices, "Who still owes me money?").startswith(
        "[Saturn worked out] totals over the paid = no rows (2: Blue Door, Harper)")  # a name, not INV-102


def test_a_dated_table_of_levels_shows_its_changes_not_its_totals():
    weights = "date,kg\n2026-10-01,82.4\n2026-10-15,81.9\n2026-11-01,81.1\n2026-12-01,80.2\n"
    assert table_totals("weight.csv", weights, "How much weight have I lost since October?") == (
        "[Saturn worked out] levels over time (not amounts to add): kg latest 80.2 (2026-12-01), first 82.4"
        " (2026-10-01), change since the first -2.2; change since the start of October 2026 -2.2, November 2026"
        " -0.9, December 2026 0; lowest 80.2 (2026-12-01), highest 82.4 (2026-10-01)")
    bank = "date,amount,balance\n2026-11-01,40,500\n2026-11-02,30,470\n2026-11-03,50,420\n"
    assert table_totals("bank.csv", bank).startswith("[Saturn worked out] totals over 3 rows: amount = 120")
    harvest = "date,crop,kg\n2026-08-03,courgettes,2.4\n2026-08-10,beans,1.1\n2026-09-02,potatoes,6.5\n2026-10-05,potatoes,5.0\n"
    assert table_totals("harvest.csv", harvest, "What was my biggest harvest?").startswith(
        "[Saturn worked out] totals over 4 rows: kg = 15; largest kg: (date 2026-09-02, crop potatoes, kg 6.5)")  # picked, not a weight


def test_a_dated_table_of_readings_by_their_own_names_is_levels_with_an_average_when_asked():
    pressure = "date,systolic,diastolic\n2026-11-26,142,88\n2026-12-02,131,82\n"
    shown = table_totals("bp.csv", pressure, "What's my average blood pressure?")
    assert shown.startswith("[Saturn worked out] levels over time (not amounts to add): systolic latest 131")
    assert "; average 136.5 |" in shown and shown.endswith("; average 85")
    assert table_totals("bp.csv", pressure, "What was my last blood pressure?").startswith(
        "[Saturn worked out] levels over time (not amounts to add): the latest row: date 2026-12-02, systolic 131,"
        " diastolic 82; systolic latest 131")  # both levels of the one reading


def test_a_column_of_how_often_gives_every_row_as_the_period_asked():
    subscriptions = "service,cost,billed\nSpotify,11.99,monthly\niCloud,2.99,monthly\nAmazon Prime,95,yearly\n"
    assert "; everything as a month: 22.90;" in table_totals("subs.csv", subscriptions, "What do they cost a month?")
    assert "; everything as a year: 274.76;" in table_totals("subs.csv", subscriptions, "And a year?")
    assert "everything" not in table_totals("subs.csv", subscriptions, "How much is Spotify?")


def test_how_many_days_until_counts_no_rows_of_a_day_column():
    clubs = "child,club,day,cost\nAva,Brownies,Monday,45\nLeo,Gymnastics,Saturday,72\nLeo,Art,Wednesday,30\n"
    assert "(a row each)" not in table_totals("clubs.csv", clubs, "How many days until the end of term?")
    assert table_totals("clubs.csv", clubs, "How many sessions are there?").startswith(
        "[Saturn worked out] 3 sessions (a row each)")


def test_a_column_of_three_kinds_with_blanks_the_request_names_a_kind_of_is_counted():
    guests = "name,rsvp,dietary\nAnna,yes,vegetarian\nBen,yes,\nCarla,no,\nDan,maybe,vegan\nEve,yes,gluten free\n"
    assert "dietary: vegetarian 1 (Anna); blank 2 (Ben, Carla); vegan 1 (Dan); gluten free 1 (Eve)" in table_totals(
        "guests.csv", guests, "Who's vegetarian?")


def test_everyday_words_find_how_notes_write_them():
    documents = [Document("pantry.md", "- Spinach: 1 bag, use by 2 Dec\n"), Document("guests.csv", "name,rsvp\nAnna,yes\n"),
                 Document("todo.md", "- call the bank\n")]
    assert [doc.source for _, doc in rank("What's gone out of date?", documents)] == ["pantry.md"]
    assert [doc.source for _, doc in rank("Who hasn't replied yet?", documents)] == ["guests.csv"]


def test_a_short_file_name_is_found_by_the_words_it_stands_for():
    assert name_as_asked("bp.csv", "What's my average blood pressure?") == "bp.csv blood pressure"
    assert name_as_asked("subs.csv", "Which subscription costs most?") == "subs.csv subscription"
    assert name_as_asked("car.md", "Be careful with the cards") == "car.md"  # "car" is too short to stand for more
    documents = [Document("bp.csv", "date,systolic\n2026-11-26,142\n"), Document("notes.md", "- pressure washer\n")]
    assert [doc.source for _, doc in rank("Is my blood pressure going down?", documents)][0] == "bp.csv"


def test_a_sub_heading_the_request_names_has_its_lines_listed():
    shopping = ["# Shopping", "## Supermarket", "- bread", "- bananas", "## Chemist", "- plasters", "- Calpol"]
    shown = render_excerpts([Excerpt("shopping.md", 1, shopping, len(shopping))], "What's on the supermarket list?")
    assert shown.splitlines()[-1] == "[Saturn listed] under the heading 'Supermarket': bread; bananas"
    assert "[Saturn listed]" not in render_excerpts([Excerpt("shopping.md", 1, shopping, len(shopping))],
                                                    "What's on my shopping list?")  # the file's own heading
    recipes = ["# Recipes", "## Lasagne (serves 4)", "- 1 onion", "- 9 lasagne sheets", "## Pancakes (makes 8)",
               "- 100g plain flour", "- 2 eggs", "## Chickpea curry (serves 4)", "- 2 onions"]
    assert section_named(recipes, "How many eggs do I need for pancakes?") == (
        "[Saturn listed] under the heading 'Pancakes (makes 8)': 100g plain flour; 2 eggs")
    assert section_named(recipes, "Which recipes use onions?") == (
        "[Saturn listed] the sections holding onions (2 of 3): Lasagne (serves 4): 1 onion;"
        " Chickpea curry (serves 4): 2 onions")
    assert section_named(recipes, "Which recipes are quick?") == ""
    films = ["# Films", "## To watch", "- Dune Part Two (Netflix)", "- Past Lives", "## Watched", "- Barbie (4/5)"]
    assert section_named(films, "What was the best film we watched?") == (  # as written, not "To watch" by its stem
        "[Saturn listed] under the heading 'Watched': Barbie (4/5)")
    assert counted(films, "How many films are left to watch?") == "[Saturn counted] 2 lines besides the heading '## To watch'"
    untitled = ["## Lasagne (serves 4)", "- 500g beef mince", "Bake 45 minutes at 190C.", "## Flapjacks", "- 250g oats"]
    assert section_named(untitled, "What do I need to make lasagne?") == (  # the first heading is a recipe's, no title
        "[Saturn listed] under the heading 'Lasagne (serves 4)': 500g beef mince; Bake 45 minutes at 190C.")


def test_a_list_of_who_owes_whom_is_summed_each_way():
    money = ["# Money", "- Sam owes me £20 for the concert tickets", "- I owe Priya £15 for lunch",
             "- Hana owes me £8 for the taxi", "- Jo owes me £5 (paid)"]
    shown = render_excerpts([Excerpt("money-owed.md", 1, money, len(money))], "How much am I owed in total?")
    assert shown.splitlines()[-1] == (
        "[Saturn worked out] owed to you: Sam 20, Hana 8 (total 28); you owe: Priya 15 (total 15)")


def test_asked_of_the_last_one_a_dated_tables_latest_row_is_named():
    fuel = "date,litres,miles\n2026-11-24,40.1,440\n2026-10-02,38.5,412\n2026-11-05,36.2,398\n"
    assert table_totals("fuel.csv", fuel, "How many miles did I do on the last tank?").endswith(
        "; the latest row: (date 2026-11-24, litres 40.1, miles 440)")
    assert "latest row" not in table_totals("fuel.csv", fuel, "How many miles did I do last month?")


def test_asked_what_is_still_to_go_a_column_part_of_another_gives_each_rows_rest():
    boxes = "room,boxes,packed\nkitchen,12,8\nbedroom,10,10\nliving room,8,3\n"
    assert table_totals("boxes.csv", boxes, "Which room has the most boxes left?") == (
        "[Saturn worked out] totals over 3 rows: boxes = 30, packed = 21; still to go, boxes - packed, the most first:"
        " living room 5, kitchen 4, bedroom 0 = 9 in all")
    assert "still to go" not in table_totals("boxes.csv", boxes, "How many boxes have I packed?")
    stays = "guest,guests,price,paid\nOmar,4,240,no\nPaul,2,610,no\n"
    assert "still to go" not in table_totals("bookings.csv", stays, "Who still owes me money?")  # guests are no part of a price


def test_asked_how_many_times_a_tables_rows_are_counted_by_kind():
    harvest = "date,crop,kg\n2026-08-03,courgettes,2.4\n2026-08-10,beans,1.1\n2026-08-17,courgettes,3.0\n"
    assert "; rows by crop: courgettes 2, beans 1" in table_totals("harvest.csv", harvest, "Which crops did I pick more than once?")
    assert "rows by crop" not in table_totals("harvest.csv", harvest, "How much did I pick?")


def test_a_figure_for_what_is_still_to_go_goes_back_against_the_worked_entry():
    boxes = "--- boxes.csv\n" + table_totals("boxes.csv", "room,boxes,packed\nkitchen,12,8\nstudy,6,1\n", "How many boxes are still to pack?")
    assert against_the_worked_entry("21", "How many boxes are still to pack?", boxes) == (
        "[Saturn worked out] still to go, boxes - packed, the most first: study 5, kitchen 4 = 9 in all")
    assert against_the_worked_entry("9 boxes", "How many boxes are still to pack?", boxes) is None
    removals = "[Saturn worked out] Removals: 850 - 200 paid = 650 still to pay"
    assert against_the_worked_entry("1050", "How much do I still owe the removals?", removals) == removals


def test_a_column_named_by_its_period_is_given_as_the_period_asked():
    subscriptions = "service,monthly\nNetflix,10.99\nSpotify,11.99\n"
    assert table_totals("subscriptions.csv", subscriptions, "What do I pay a year for Spotify?").endswith(
        "; monthly as a year: 143.88")
    assert "as a" not in table_totals("subscriptions.csv", subscriptions, "What do I pay a month for Spotify?")
    assert table_totals("subs.csv", "service,cost_per_month\nA,2\nB,3\n", "And a year?").endswith("cost_per_month as a year: 60")


BILLS = ("month,bill,amount,paid_by\n2026-10,electricity,91.75,Ana\n2026-10,gas,58.30,Ben\n"
         "2026-11,electricity,102.40,Ana\n2026-11,gas,76.90,Chris\n2026-11,internet,32.00,Chris\n")


def test_a_month_column_written_year_month_picks_the_month_asked():
    assert table_totals("bills.csv", BILLS, "How much was the electricity in October?") == (
        "[Saturn worked out] totals over the October 2026 electricity rows (1): amount = 91.75; the row: month"
        " 2026-10, bill electricity, amount 91.75, paid_by Ana")
    assert table_totals("bills.csv", BILLS, "Email Ben the November bills total.").startswith(
        "[Saturn worked out] totals over the November 2026 rows (3): amount = 211.3")  # Ben is who it goes to
    assert table_totals("bills.csv", BILLS, "How many bills has Ana paid?").startswith(
        "[Saturn worked out] 2 bills (a row each); totals over the Ana rows (2)")  # "bill" is a column of kinds


ORDERS = ("order,date,customer,item,qty,price,status\n1038,2026-11-20,Priya Shah,mug,2,14.00,shipped\n"
          "1039,2026-11-22,Lee Grant,candle,1,18.50,shipped\n1040,2026-11-24,Ola Bakare,tote bag,3,12.50,shipped\n"
          "1041,2026-11-27,Priya Shah,candle,2,18.50,shipped\n1042,2026-11-30,Mark Dunn,mug,1,14.00,packed\n"
          "1043,2026-12-01,Ruth Ellis,print,1,25.00,not shipped\n1044,2026-12-02,Lee Grant,mug,4,14.00,not shipped\n")


def test_an_orders_numbers_are_no_amount_and_its_quantities_at_a_price_are_what_it_came_to():
    assert table_totals("orders.csv", ORDERS, "How much did I take in November?").startswith(
        "[Saturn worked out] totals over the November 2026 rows (5): qty = 9, qty × price = 135")  # prices don't add
    assert table_totals("orders.csv", ORDERS, "What was the biggest order?").endswith(
        "; largest qty × price: (order 1044, date 2026-12-02, customer Lee Grant, item mug, qty 4, price 14.00,"
        " status not shipped, qty × price 56)")
    best = table_totals("orders.csv", ORDERS, "Which item sells best?")
    assert "; qty × price by item: mug 98, candle 55.5, tote bag 37.5, print 25; qty by item: mug 7, candle 3," in best


def test_a_person_named_by_first_name_picks_their_rows_and_repeats_are_counted():
    assert table_totals("orders.csv", ORDERS, "What did Priya order?").endswith(
        "; the rows: order 1038, date 2026-11-20, customer Priya Shah, item mug, qty 2, price 14.00, status shipped,"
        " qty × price 28 | order 1041, date 2026-11-27, customer Priya Shah, item candle, qty 2, price 18.50,"
        " status shipped, qty × price 37")
    assert "; more than one row: customer Priya Shah 2, Lee Grant 2; item mug 3, candle 2" in table_totals(
        "orders.csv", ORDERS, "Who has ordered more than once?")
    assert table_totals("orders.csv", ORDERS, "How many orders still need shipping?").startswith(
        "[Saturn worked out] 3 orders (a row each); totals over the status not shipped rows (3): qty = 6")  # packed too
    assert "; rows by status: shipped 4, packed 1, not shipped 2" in table_totals(
        "orders.csv", ORDERS, "How many orders have I had?")


def test_asked_what_is_out_of_stock_the_smallest_row_is_named():
    stock = "item,in_stock\nmug,6\ncandle,0\ntote bag,11\n"
    assert table_totals("stock.csv", stock, "Is anything out of stock?") == (
        "[Saturn worked out] totals over 3 rows: in_stock = 17; smallest in_stock: (item candle, in_stock 0)")
    assert table_totals("stock.csv", stock, "How many mugs have I got left?").startswith(
        "[Saturn worked out] totals over the mug rows (1)")  # not "1 mugs (a row each)"


def test_the_days_the_request_names_pick_a_dated_tables_rows():
    runs = "date,km\n2026-11-22,15.5\n2026-11-25,8.0\n2026-11-29,16.0\n2026-12-01,6.5\n"
    last_week = [date(2026, 11, 23 + n) for n in range(7)]
    assert table_totals("runs.csv", runs, "How far did I run last week?", last_week).startswith(
        "[Saturn worked out] totals over the 2026-11-23 to 2026-11-29 rows (2): km = 24")
    rota = "date,tea,chairs\n2026-12-02,Lucy,Greg\n2026-12-09,Hannah,Tomasz\n2026-12-16,Joan,Greg\n"
    next_week = [date(2026, 12, 7 + n) for n in range(7)]
    assert table_totals("rota.csv", rota, "Who's doing tea next week?", next_week) == (
        "[Saturn worked out] the rows dated 2026-12-07 to 2026-12-13 (1): date 2026-12-09, tea Hannah, chairs Tomasz")
    assert table_totals("rota.csv", rota, "Who's doing tea?") == ""


def test_how_many_of_a_kind_in_a_table_without_numbers_is_counted_by_kind():
    members = "name,part\nHannah,alto\nGreg,bass\nLucy,soprano\nMei,soprano\nJoan,alto\n"
    assert table_totals("members.csv", members, "How many sopranos are there?") == (
        "[Saturn counted] part: alto 2 (Hannah, Joan); bass 1 (Greg); soprano 2 (Lucy, Mei)")
    assert table_totals("members.csv", members, "Who sings soprano?") == (  # not a count: the rows
        "[Saturn listed] the rows with part soprano (2 of 5): name Lucy, part soprano | name Mei, part soprano")
    assert table_totals("runs.csv", "date,km,notes\n2026-11-01,5,parkrun\n2026-11-04,7,\n2026-11-08,5,parkrun\n") == (
        "[Saturn worked out] totals over 3 rows: km = 17; km by notes: parkrun 10, (blank) 7")


def test_who_the_user_is_is_noted_where_a_file_says_and_a_line_shown_names_them():
    flat = Document("flat.md", "Flatmates: Ana, Ben and me (Chris).\nRent: £1,650 a month\n")
    rota = Document("chores.txt", "30 Nov: Ana - kitchen, Chris - hoovering\n")
    shown = [Excerpt("chores.txt", 1, ["30 Nov: Ana - kitchen, Chris - hoovering"], 1)]
    assert the_user_named("What am I cleaning this week?", [flat, rota], shown) == (
        '[Saturn noted] the user is Chris (flat.md: "Flatmates: Ana, Ben and me (Chris).")')
    assert the_user_named("What is Ana cleaning this week?", [flat, rota], shown) == ""  # not in the first person
    assert the_user_named("How much rent do I pay?", [flat], [Excerpt("flat.md", 1, flat.text.splitlines(), 2)]) == ""
    choir = Document("choir.md", "I'm Hannah (alto).\n")
    assert the_user_named("When am I on the rota?", [choir], [Excerpt("rota.csv", 1, ["2026-12-09,Hannah"], 1)]) == (
        '[Saturn noted] the user is Hannah (choir.md: "I\'m Hannah (alto).")')
    rota = Excerpt("rota.csv", 1, ["week_of,cooking,washing_up", "2026-11-16,Tom,Ria", "2026-11-23,Ria,Sam"], 3)
    house = Document("house.md", "Housemates: Sam, Tom and me (Ria).\n")
    assert the_user_named("Which week am I on washing up?", [house], [rota]).endswith(
        "; their rows of rota.csv: week_of 2026-11-16, washing_up Ria | week_of 2026-11-23, cooking Ria")


def test_a_table_of_stays_counts_each_rows_nights():
    bookings = ("guest,arrive,leave,price\nMorgan family,2026-12-18,2026-12-22,560\nEllie Shaw,2026-12-23,2026-12-27,620\n"
                "Dev Patel,2026-12-28,2027-01-02,700\n")
    assert "; nights from arrive to leave: Ellie Shaw 4;" in table_totals(
        "bookings.csv", bookings, "How many nights is Ellie staying?")
    assert table_totals("bookings.csv", bookings, "How many nights have I got booked?").endswith(
        "; nights from arrive to leave: Morgan family 4, Ellie Shaw 4, Dev Patel 5; total 13")
    assert "nights" not in table_totals("bookings.csv", bookings, "How much have I taken?")
    assert table_totals("bookings.csv", bookings, "Is the cottage free on New Year's Eve?", [date(2026, 12, 31)]).startswith(
        "[Saturn worked out] totals over the covering 2026-12-31 rows (1): price = 700")  # Dev Patel's stay holds it


def test_a_table_of_windows_picks_the_rows_open_now_their_last_day_in():
    sowing = ("crop,sow from,sow until,bed\nbroad beans,2026-10-15,2026-11-30,A\ngarlic,2026-10-01,2026-12-15,B\n"
              "onions,2027-02-15,2027-04-15,B\nleeks,2026-12-20,2027-01-31,C\n")
    today = date(2026, 12, 4)
    assert table_totals("sowing.csv", sowing, "What can I still sow this month?", today=today).startswith(
        "[Saturn worked out] the rows dated covering 2026-12-04 to 2026-12-31 (2): crop garlic, sow from 2026-10-01,"
        " sow until 2026-12-15, bed B | crop leeks")
    assert "(1): crop garlic" in table_totals("sowing.csv", sowing, "What can I sow now?", today=today)
    assert "(1): crop garlic" in table_totals("sowing.csv", sowing, "What can I sow?", [date(2026, 12, 15)], today=today)
    assert "covering" not in table_totals("sowing.csv", sowing, "What's in bed B?", today=today)


EXAMS = ("subject,paper,date,time,room\nMaths,Paper 1,2027-01-11,09:00,Hall\nMaths,Paper 2,2027-01-13,09:00,Hall\n"
         "English,Language,2027-01-12,13:30,Room 4\nBiology,Paper 1,2027-01-14,09:00,Hall\n")


def test_how_many_of_a_table_without_amounts_counts_its_rows_not_its_header():
    assert table_totals("exams.csv", EXAMS, "How many exams do I have?") == "[Saturn counted] 4 exams (a row each)"


def test_a_value_a_table_without_amounts_holds_picks_its_rows():
    assert table_totals("exams.csv", EXAMS, "How many Maths papers are there?") == (
        "[Saturn listed] the rows with subject Maths (2 of 4): subject Maths, paper Paper 1, date 2027-01-11, "
        "time 09:00, room Hall | subject Maths, paper Paper 2, date 2027-01-13, time 09:00, room Hall")
    assert table_totals("exams.csv", EXAMS, "Which exams are in the Hall?").startswith(
        "[Saturn listed] the rows with room Hall (3 of 4): subject Maths")


def test_a_month_picks_the_rows_of_a_table_without_amounts():
    sowing = ("crop,sown,bed,harvest from\ngarlic,2026-10-20,bed 1,2027-06\nbroad beans,2026-11-02,bed 2,2027-05\n"
              "sweet peas,2026-11-15,greenhouse,2027-06\n")
    assert table_totals("sowing.csv", sowing, "What did I sow in November?") == (
        "[Saturn listed] the rows with sown in November 2026 (2 of 3): crop broad beans, sown 2026-11-02, bed bed 2, "
        "harvest from 2027-05 | crop sweet peas, sown 2026-11-15, bed greenhouse, harvest from 2027-06")
    assert table_totals("sowing.csv", sowing, "What can I harvest in June?").startswith(
        "[Saturn listed] the rows with harvest from in June 2027 (2 of 3): crop garlic")  # the column the request names


def test_amounts_in_and_out_are_summed_apart_with_the_rows_taken_out():
    pocket = ("date,child,amount,note\n2026-11-01,Maya,3.00,weekly\n2026-11-08,Maya,3.00,weekly\n"
              "2026-11-20,Maya,-8.00,book\n2026-11-22,Maya,3.00,weekly\n")
    assert table_totals("pocket.csv", pocket, "What did Maya spend her money on?").startswith(
        "[Saturn worked out] totals over 4 rows: amount = 1; amount in 9 (3 rows), amount out -8 "
        "(1 row: date 2026-11-20, child Maya, amount -8.00, note book);")


def test_a_price_a_head_is_times_the_guests_coming():
    shown = ("--- guests.csv (whole file, 4 lines)\nname,rsvp\nJo,yes\nTom,yes\nPriya,no\n"
             "[Saturn counted] rsvp: yes 2 (Jo, Tom); no 1 (Priya)\n--- wedding.md (whole file, 1 lines)\n"
             "Caterer: Green Fork, £65 a head")
    assert cost_a_head("How much will the caterer cost for everyone coming?", shown) == (
        "[Saturn worked out] Caterer: £65 a head × 2 (rsvp yes) = 130")
    assert cost_a_head("How much is the caterer?", shown) == ""  # no headcount asked


GIFTS = ("person,gift,price,bought\nMum,scarf,35,yes\nJack,lego set,40,no\nOlivia,book,12,yes\nOlivia,candle,18,no\n"
         "Grandad,photo album,25,no\n")


@pytest.mark.parametrize(("request_text", "over"), [
    ("How much have I spent on presents so far?", "the bought = yes rows (2: Mum, Olivia): price = 47"),
    ("Which presents do I still need to buy?", "the bought = no rows (3: Jack, Olivia, Grandad): price = 83"),
    ("How much more do I need to spend?", "the bought = no rows (3: Jack, Olivia, Grandad): price = 83"),
    ("What am I getting Olivia?", "the Olivia rows (2): price = 30; the rows: person Olivia, gift book, price 12, "
     "bought yes | person Olivia, gift candle, price 18, bought no"),
])
def test_a_yes_no_column_is_asked_of_by_its_verbs_other_forms(request_text, over):
    assert table_totals("gifts.csv", GIFTS, request_text).startswith(f"[Saturn worked out] totals over {over}")


RIDES = ("date,route,km,leader,riders\n2026-11-08,Lakes loop,64,Gav,9\n2026-11-22,Coast road,80,Gav,11\n"
         "2026-11-29,Lakes loop,64,Mo,7\n2026-12-13,Coast road,80,Mo,\n")


def test_a_column_of_numbers_with_blanks_is_summed_and_averaged_over_its_numbers():
    assert table_totals("rides.csv", RIDES, "What was the average number of riders?").startswith(
        "[Saturn worked out] totals over 4 rows: km = 288, riders = 27; average over 4 rows: riders = 9 (over the 3 rows with one)")


def test_how_many_of_a_thing_no_column_nor_the_file_names_counts_no_picked_rows():
    said = table_totals("rides.csv", RIDES, "How many people came on the Coast road ride?")
    assert said.startswith("[Saturn worked out] totals over the Coast road rows (2): km = 160, riders = 11")
    assert "(a row each)" not in said
    assert table_totals("rides.csv", RIDES, "How many rides has Gav led?").startswith(
        "[Saturn worked out] 2 rides (a row each); totals over the Gav rows (2)")
    fuel = "date,litres,mileage\n2026-11-06,36.2,42930\n2026-11-24,40.4,43350\n"
    assert "(a row each)" not in table_totals("fuel.csv", fuel, "How many miles have I done?")  # its mileage's


def test_a_value_of_several_words_is_named_by_one_no_other_value_holds():
    quotes = ("job,company,quote\nboiler service,HeatRight,85\nnew fence,Fencecraft,1200\nnew fence,Garden Guys,950\n"
              "gutter clean,ClearFlow,60\n")
    assert table_totals("quotes.csv", quotes, "What's the cheapest quote for the fence?").startswith(
        "[Saturn worked out] totals over the new fence rows (2): quote = 2150; smallest quote: (job new fence, "
        "company Garden Guys, quote 950)")


def test_a_date_column_with_blanks_is_told_dated_or_not_and_ratings_are_not_summed():
    books = ("title,started,finished,pages,rating\nThe Salt Path,2026-09-02,2026-09-20,288,4\n"
             "Klara and the Sun,2026-11-05,2026-11-19,320,5\nDemon Copperhead,2026-11-21,,560,\n")
    assert table_totals("books.csv", books, "How many books have I finished?") == (
        "[Saturn worked out] 2 books (a row each); totals over the finished rows (2): pages = 608\n"  # the rows finished
        "[Saturn counted] finished: dated 2 (The Salt Path, Klara and the Sun); not finished yet 1 (Demon Copperhead);"
        " pages: dated 608, not finished yet 560")  # each part's amount too
    selling = "item,price,sold,buyer\nkids bike,45,2026-11-14,Tom R\nlamp,12,,\nlego box,60,2026-11-28,J Singh\n"
    assert table_totals("selling.csv", selling, "How much have I made from selling so far?") == (
        "[Saturn worked out] totals over the sold rows (2): price = 105\n"  # no "price by buyer: Tom R 45, (blank) 12 …"
        "[Saturn counted] sold: dated 2 (kids bike, lego box); not sold yet 1 (lamp); price: dated 105, not sold yet 12")
    assert "largest rating: (title Klara and the Sun" in table_totals("books.csv", books, "What was my favourite book?")


def test_asked_what_is_under_way_a_table_with_a_blank_date_column_is_shown():
    files = {"reading.md": "# Reading\nGoal: 20 books this year.\nWant to read: Intermezzo, Orbital\n",
             "books.csv": "title,started,finished\nThe Salt Path,2026-09-02,2026-09-20\nDemon Copperhead,2026-11-21,\n",
             "runs.csv": "date,km\n2026-11-01,5\n2026-11-03,7\n"}
    assert [p.source for p in relevant_excerpts("What am I reading at the moment?", docs(files))] == [
        "reading.md", "books.csv"]
    assert [p.source for p in relevant_excerpts("What am I reading next?", docs(files))] == ["reading.md"]


def test_a_month_asked_of_a_table_with_two_date_columns_is_the_named_columns():
    books = ("title,started,finished,pages\nLessons in Chemistry,2026-10-18,2026-11-02,400\n"
             "Klara and the Sun,2026-11-05,2026-11-19,320\nDemon Copperhead,2026-11-21,,560\n")
    assert table_totals("books.csv", books, "How many books did I finish in November?").startswith(
        "[Saturn worked out] 2 books (a row each); totals over the finished November 2026 rows (2): pages = 720")
    assert "the started November 2026 rows (2): pages = 880" in table_totals("books.csv", books, "Which books did I start in November?")


BOOKS = ("title,started,finished,pages,rating\nThe Salt Path,2026-08-02,2026-08-20,288,4\n"
         "Klara and the Sun,2026-09-05,2026-09-30,320,5\nDemon Copperhead,2026-11-21,,560,\n")


def test_asked_which_took_longest_the_days_between_two_date_columns_not_the_largest_number():
    said = table_totals("books.csv", BOOKS, "Which book took me longest to read?")
    assert said.startswith("[Saturn worked out] totals over 3 rows: pages = 1168; days from started to finished: "
                           "The Salt Path 18, Klara and the Sun 25; total 43; the most: Klara and the Sun 25")
    assert "largest pages" not in said


def test_since_a_month_takes_the_rows_from_it_on():
    assert table_totals("books.csv", BOOKS, "How many pages have I read since September?").startswith(
        "[Saturn worked out] totals over the since September 2026 rows (2): pages = 880")


def test_hours_totalled_are_times_the_rate_an_hour_a_line_gives_their_name():
    shown = ("--- hours.csv (whole file, 4 lines)\ndate,client,hours\n2026-11-04,Oakwell,2\n2026-11-10,Brightside,4\n"
             "2026-11-17,Oakwell,5.5\n[Saturn worked out] totals over the November 2026 Oakwell rows (2): hours = 7.5\n"
             "--- work.md (whole file, 1 lines)\nRates: Brightside £40 an hour, Oakwell £35 an hour.")
    assert hours_at_their_rates("How much should I invoice Oakwell for November?", shown) == (
        "[Saturn worked out] Oakwell: 7.5 hours × £35 an hour = 262.5")
    by_client = shown.replace("the November 2026 Oakwell rows (2): hours = 7.5",
                              "3 rows: hours = 11.5; hours by client: Oakwell 7.5, Brightside 4")
    assert hours_at_their_rates("How much did I earn?", by_client) == (
        "[Saturn worked out] at each one's rate an hour: Oakwell 7.5 × £35 = 262.5, Brightside 4 × £40 = 160; in all 422.5")
    assert hours_at_their_rates("How many hours did I work?", shown) == ""
    assert hours_at_their_rates("How long do clients get to pay?", shown) == ""  # days, not money
    minded = shown.replace("Rates: Brightside £40 an hour, Oakwell £35 an hour.", "Oakwell (childminder): £35 an hour")
    assert hours_at_their_rates("How much do I owe Oakwell for November?", minded).endswith("= 262.5")
    opening = shown.replace("Rates: Brightside £40 an hour, Oakwell £35 an hour.", "Oakwell - Sam Lin, sam@oakwell.example, £35 an hour")
    assert hours_at_their_rates("How much should I invoice Oakwell?", opening).endswith("Oakwell: 7.5 hours × £35 an hour = 262.5")
    slashed = shown.replace("Rates: Brightside £40 an hour, Oakwell £35 an hour.", "- Oakwell: £35/hour\n- Brightside: £40/hour")
    assert hours_at_their_rates("How much should I invoice Oakwell for November?", slashed).endswith("7.5 hours × £35 an hour = 262.5")


def test_since_a_month_takes_a_month_columns_rows_from_it_on():
    books = "month,title,pages\n2026-08,Hush,200\n2026-09,The Lighthouse,312\n2026-10,Small Hours,248\n"
    assert table_totals("books.csv", books, "How many books have we read since September?").startswith(
        "[Saturn worked out] 2 books (a row each); totals over the since September 2026 rows (2): pages = 560")


def test_the_cheapest_of_each_group_and_their_sum():
    quotes = ("job,company,quote\nboiler,Heatwise,2850\nboiler,Warm Homes,3120\nbathroom,Tile & Co,6400\n"
              "bathroom,Splash Ltd,5900\nrewiring,Sparks,4200\n")
    assert table_totals("quotes.csv", quotes, "If we take the cheapest quote for each job, how much is that?").endswith(
        "[Saturn worked out] the cheapest quote for each job: boiler 2850 (Heatwise), bathroom 5900 (Splash Ltd), "
        "rewiring 4200 (Sparks); together 12950")
    assert "for each" not in table_totals("quotes.csv", quotes, "What's the cheapest quote?")
    assert "together 12950" in table_totals("quotes.csv", quotes, "Are we over budget with the cheapest quotes?")


def test_a_rows_amount_is_set_against_the_new_one_a_line_gives_for_it():
    shown = ("--- notes.md\nAlways get two quotes.\nAdmiral renewal quote came in at £642.\n--- policies.csv\n"
             "[Saturn worked out] totals over the car insurance rows (1): yearly = 586; the row: policy car insurance, "
             "provider Admiral, renews 2026-12-20, yearly 586")
    assert gone_up("How much has the car insurance gone up?", shown) == (
        "[Saturn worked out] \"Admiral renewal quote came in at £642.\" against yearly 586: 642 - 586 = 56 up")
    assert gone_up("When does the car insurance renew?", shown) == ""


def test_a_sum_put_together_is_set_against_the_budget_a_line_gives():
    shown = "[Saturn worked out] the cheapest quote for each job: boiler 2850 (Heatwise), bathroom 5900; together 8750"
    assert against_the_budget("Are we over budget with the cheapest quotes?", shown, ["Budget for the work: £8,000"]) == (
        "[Saturn worked out] together 8750 against the budget £8,000: 750 over it")
    assert against_the_budget("Can we afford the cheapest quotes?", shown, ["Budget: £9,000"]).endswith("250 under it")
    assert against_the_budget("What are the cheapest quotes?", shown, ["Budget: £9,000"]) == ""


def test_a_tables_rows_done_every_so_often_are_given_their_next_day_when_asked():
    plants = "plant,water every,last watered\nfern,3 days,2026-12-02\ncactus,3 weeks,2026-11-20\norchid,10 days,2026-11-24\n"
    assert table_totals("plants.csv", plants, "Which plants need watering today?", today=date(2026, 12, 4)) == (
        "[Saturn dated] orchid, last watered 24 November 2026, every 10 days: next 4 December 2026, a Friday, today; "
        "fern, last watered 2 December 2026, every 3 days: next 5 December 2026, a Saturday, tomorrow; "
        "cactus, last watered 20 November 2026, every 3 weeks: next 11 December 2026, a Friday, in 7 days; "
        "due today or gone by: orchid")
    assert table_totals("plants.csv", plants, "When does the cactus need watering next?", today=date(2026, 12, 13)).endswith(
        "[Saturn dated] cactus, last watered 20 November 2026, every 3 weeks: next 11 December 2026, a Friday, "
        "2 days ago (overdue); due today or gone by: cactus")
    assert table_totals("plants.csv", plants, "Which plant goes longest between waterings?") == (
        "[Saturn worked out] water every in days, longest first: cactus 21 (3 weeks), orchid 10 (10 days), fern 3 (3 days)")
    assert "next by" not in table_totals("plants.csv", plants, "When did I last water the fern?", today=date(2026, 12, 4))
    assert "next by" not in table_totals("plants.csv", plants, "Does the fern need feeding?", today=date(2026, 12, 4))


def test_an_interval_in_whole_numbers_under_a_header_giving_its_unit_is_how_often_and_no_amount():
    plants = "plant,water every (days),last watered\nfern,3,2026-12-02\nsnake plant,14,2026-11-15\n"
    assert table_totals("plants.csv", plants, "Which plants need watering today?", today=date(2026, 12, 4)) == (
        "[Saturn dated] snake plant, last watered 15 November 2026, every 14 days: next 29 November 2026, a Sunday, "
        "5 days ago (overdue); fern, last watered 2 December 2026, every 3 days: next 5 December 2026, a Saturday, "
        "tomorrow; due today or gone by: snake plant")
    assert "= 17" not in table_totals("plants.csv", plants, "How many plants have I got?", today=date(2026, 12, 4))


def test_a_pets_medicines_are_named_by_pet_and_medicine_and_their_last_days_are_not_overdue():
    meds = ["pet,medicine,every,last given", "Bramble,flea drops,4 weeks,2026-11-10", "Bramble,wormer,3 months,2026-09-20",
            "Pickle,joint tablets,1 day,2026-12-03"]
    shown = render_excerpts([Excerpt("meds.csv", 1, meds, 4)], "Is Bramble's wormer overdue?", date(2026, 12, 4))
    assert ("[Saturn dated] Bramble wormer, last given 20 September 2026, every 3 months: next 20 December 2026, a Sunday,"
            " in 16 days (2 weeks 2 days); due today or gone by: none") in shown
    assert "(gone: overdue)" not in shown


def test_a_date_asked_in_the_past_picks_that_days_rows_not_next_years():
    pocket = "date,child,amount\n2026-11-13,Leo,5\n2026-11-20,Isla,3\n2026-11-20,Leo,5\n"
    shown = render_excerpts([Excerpt("pocket.csv", 1, pocket.splitlines(), 4)],
                            "How much did I pay out on 20 November?", date(2026, 12, 4))
    assert "rows (2): amount = 8" in shown


def test_the_last_so_many_rows_asked_are_listed_latest_last():
    bp = "date,systolic,diastolic\n2026-11-09,142,88\n2026-11-02,148,92\n2026-11-16,139,86\n2026-11-23,136,85\n"
    assert table_totals("bp.csv", bp, "Email the surgery my last three blood pressure readings.").endswith(
        "[Saturn listed] the last 3 rows by date: 2026-11-09: systolic 142, diastolic 88 | "
        "2026-11-16: systolic 139, diastolic 86 | 2026-11-23: systolic 136, diastolic 85")
    assert "the last" not in table_totals("bp.csv", bp, "What was my blood pressure in the last 3 weeks?")
    assert "the last" not in table_totals("bp.csv", bp, "Send my last ten readings.")  # more than there are


def test_a_months_use_is_priced_at_the_rate_a_unit_and_the_charge_a_day_a_line_gives():
    shown = ("--- meter.csv (whole file, 3 lines)\n[Saturn worked out] used between readings (the readings count up): "
             "October 2026 (2026-10-01 to 2026-11-01): electric 299, gas 144; November 2026 (2026-11-01 to 2026-12-01): "
             "electric 329, gas 183\n--- energy.md (whole file, 2 lines)\nElectric: 24.5p per kWh, standing charge 53p a day\n")
    assert used_at_its_rate("How much did November's electricity cost?", shown) == (
        "[Saturn worked out] November 2026 electric: 329 used × 24.5p per kWh = £80.61; 30 days × 53p a day = £15.90; "
        "in all £96.51")
    assert used_at_its_rate("How much gas did we use in November?", shown) == ""  # no price for gas
    assert used_at_its_rate("How much electricity did we use in November?", shown) == ""  # the use, not its cost


def test_the_rows_shown_are_priced_at_the_price_list_of_their_item():
    shown = ("[Saturn worked out] totals over the Ana Lopez rows (1): qty = 24; the row: customer Ana Lopez, item cupcakes, "
             "qty 24, due 2026-12-05, paid no")
    prices = "# Prices\nBrownies £1.50 each\nCupcakes £2 each\nLemon cake £18\n"
    assert rows_at_their_prices("How much is Ana's order?", shown, [prices]) == (
        "[Saturn worked out] at the prices listed: Ana Lopez: Cupcakes 24 × £2 = £48")
    assert rows_at_their_prices("How many cupcakes do I need to make?", shown, [prices]) == ""
    assert rows_at_their_prices("How much is Ana's order?", shown, ["Scones £1 each"]) == ""  # no price for cupcakes


def test_what_was_earned_is_a_logs_hours_at_the_rate_another_table_gives_each_name():
    students = Document("students.csv", "student,subject,rate\nEmily,maths,£30\nJack,physics,£35\n")
    lessons = Document("lessons.csv", "date,student,hours\n2026-10-30,Jack,1\n2026-11-02,Emily,1\n"
                                      "2026-11-03,Jack,1.5\n2026-11-09,Emily,1\n")
    assert hours_at_table_rates("How much did I earn in November?", [students, lessons], date(2026, 12, 4)) == (
        "[Saturn worked out] hours at each student's rate (students.csv): Emily 2 × £30 = £60.00;"
        " Jack 1.5 × £35 = £52.50; in all £112.50")
    assert hours_at_table_rates("How many hours did Jack do?", [students, lessons], date(2026, 12, 4)) == ""
    clients = Document("clients.csv", "dog,owner,price per walk\nBiscuit,Ann Lee,12\nMaple,Raj Shah,10\n")
    walks = Document("walks.csv", "date,dog,paid\n2026-11-30,Biscuit,no\n2026-11-30,Maple,no\n2026-12-01,Maple,yes\n"
                                  "2026-12-02,Maple,no\n")
    assert hours_at_table_rates("How much does Raj owe me?", [clients, walks], date(2026, 12, 4)) == (
        "[Saturn worked out] rows not paid at each dog's price per walk (clients.csv): Maple 2 × 10 = 20; in all 20")
    assert hours_at_table_rates("How much did I earn this week?", [clients, walks], date(2026, 12, 4)) == ""


def test_what_is_owed_is_a_price_a_period_times_the_periods_not_paid():
    shown = ("Subs £12 a month, paid to Priya (treasurer).\n"
             "[Saturn counted] paid: yes 2 (2026-09, 2026-10); no 2 (2026-11, 2026-12)")
    assert unpaid_at_a_price("How much do I owe in subs?", shown) == (
        "[Saturn worked out] Subs: £12 a month × 2 (paid no: 2026-11, 2026-12) = £24")
    assert unpaid_at_a_price("How much are the subs?", shown) == ""  # not what is owed


def test_a_price_by_the_term_is_worked_out_a_week_over_the_weeks_a_line_says_the_term_is():
    shown = "[Saturn worked out] totals over the ballet rows (1): cost per term = 84; the row: child Ivy, club ballet"
    term = ["# Spring term\nClubs restart week of 5 January\nTerm is 12 weeks\n"]
    assert a_term_by_the_week("How much is ballet a week?", shown, term) == (
        "[Saturn worked out] cost per term over the ballet rows (1): 84 / 12 weeks = 7 a week")
    assert a_term_by_the_week("How much is swimming a week?", "Swimming: £60 a term", ["10 weeks per term"]) == (
        "[Saturn worked out] Swimming: 60 / 10 weeks = 6 a week")
    assert a_term_by_the_week("How much is ballet a lesson?", shown, term) == ""  # the term is counted in weeks
    assert a_term_by_the_week("How much is ballet a week?", shown, []) == ""  # no length of term given
    assert unpaid_at_a_price("How much do I owe Sam?", shown) == ""  # not the subs' line


def test_a_price_a_time_is_times_the_rows_of_the_month_asked():
    shown = ("--- team.md (whole file, 2 lines)\nKit: red shirts\nSubs £5 a match, paid to Mark\n--- fixtures.csv\n"
             "[Saturn listed] the rows with date in November 2026 (4 of 6): date 2026-11-07, opponent Rovers\n")
    assert a_price_a_time("How much do I owe in subs for November?", shown) == (
        "[Saturn worked out] Subs £5 a match: £5 a match × 4 (the November 2026 rows) = £20")
    assert a_price_a_time("How much do I owe in subs for December?", shown) == ""  # no December rows listed
    assert a_price_a_time("How much is the kit for November?", shown) == ""  # the price is not the kit's
    cottage = ("Cleaner: Rosa, 07700 900 414, £40 a clean, after each stay\n"
               "[Saturn worked out] totals over the December 2026 rows (4): guests = 11, price = 1655")
    assert a_price_a_time("How much will I pay Rosa for December's cleans?", cottage) == (
        "[Saturn worked out] Cleaner: Rosa: £40 a clean × 4 (the December 2026 rows) = £160")
    stays = "guest,arrive,price,paid\nLena,2026-12-04,285,yes\nOmar,2026-12-11,240,no\n"
    assert "paid = yes" not in table_totals("bookings.csv", stays, "How much will I pay Rosa for December's cleans?")
    assert "paid = no" in table_totals("bookings.csv", stays, "Who hasn't paid?")


def test_asked_what_still_needs_someone_the_rows_with_a_blank_cell():
    shifts = "date,shift,volunteer,role\n2026-12-05,morning,Alice,till\n2026-12-19,morning,,till\n"
    assert table_totals("shifts.csv", shifts, "Which shifts still need someone?") == (
        "[Saturn counted] no volunteer in 1: date 2026-12-19, shift morning, role till")


def test_who_has_not_replied_is_the_rows_with_a_blank_reply_and_a_guests_table_is_no_amount():
    guests = "name,rsvp,meal,table\nJean,yes,fish,3\nPete,yes,beef,3\nTom,,,\nLiz,yes,veggie,5\n"
    assert "blank (no answer) 1 (Tom)" in table_totals("guests.csv", guests, "Who hasn't replied yet?")
    assert "table =" not in table_totals("guests.csv", guests, "How many veggie meals do we need?")


def test_a_notes_files_markdown_table_is_worked_out_as_a_table():
    suppliers = ("# Suppliers\n| supplier | cost | deposit paid |\n|---|---|---|\n| Rosebank Hall | £4,200 | £1,000 |\n"
                 "| Petal & Stem | £650 | £150 |\n")
    assert table_totals("suppliers.md", suppliers, "How much do we still owe the suppliers?") == (
        "[Saturn worked out] totals over 2 rows: cost = 4850, deposit paid = 1150; still to go, cost - deposit paid,"
        " the most first: Rosebank Hall 3200, Petal & Stem 500 = 3700 in all")
    assert table_totals("notes.md", "# Notes\nDentist Friday 9am\n", "When is the dentist?") == ""


def test_how_much_more_one_row_is_than_another_is_their_difference():
    quotes = "firm,price\nSwift Movers,850\nBox & Go,1120\nCityVan,640\n"
    assert table_totals("quotes.csv", quotes, "How much more is Box & Go than Swift Movers?") == (
        "[Saturn worked out] price: Box & Go 1120 - Swift Movers 850 = 270")
    assert table_totals("quotes.csv", quotes, "What's the difference between CityVan and Box & Go?") == (
        "[Saturn worked out] price: Box & Go 1120 - CityVan 640 = 480")


def test_columns_written_in_pounds_are_money_whatever_their_names():
    builders = "builder,quote,paid so far\nNash & Sons,£6400,£2000\nHale Plastering,£1200,£0\n"
    assert table_totals("builders.csv", builders, "How much is left to pay the builders?").endswith(
        "; still to go, quote - paid so far, the most first: Nash & Sons 4400, Hale Plastering 1200 = 5600 in all")


def test_litres_at_a_price_per_litre_are_what_was_spent():
    fuel = "date,litres,price per litre\n2026-11-12,36.5,1.41\n2026-11-29,39.0,1.38\n2026-10-03,38.2,1.42\n"
    assert table_totals("fuel.csv", fuel, "How much did I spend on fuel in November?").startswith(
        "[Saturn worked out] totals over the November 2026 rows (2): litres = 75.5, litres × price per litre = 105.285")


def test_a_tables_rows_that_say_me_are_noted_as_the_users():
    rows = ["date,shift,volunteer", "2026-12-05,morning,Alice", "2026-12-12,afternoon,Me"]
    assert the_user_named("When's my next shift?", [], [Excerpt("shifts.csv", 1, rows, 3)]) == (
        "[Saturn noted] the rows that say \"Me\" are the user's: shifts.csv: date 2026-12-12, shift afternoon, volunteer Me")
    club = ["Members: me, Hannah, Raj", "Host rota: December Hannah, January Raj, February me"]
    assert the_user_named("When am I hosting?", [], [Excerpt("club.md", 1, club, 2)]) == (
        "[Saturn noted] the rows that say \"Me\" are the user's: Host rota: February me")
    assert the_user_named("Who's in the club?", [], [Excerpt("club.md", 1, club[:1], 1)]) == ""
    noted = the_user_named("When am I hosting?", [], [Excerpt("club.md", 1, club, 2)])
    assert own_part_missed("We meet the second Tuesday, at whoever is hosting.", "When am I hosting?", noted) == (
        "[Saturn noted] Host rota: February me")
    assert own_part_missed("In February.", "When am I hosting?", noted) is None
    school_run = ["# School run", "Mon: me", "Tue: Jo", "Wed: Sam", "Thu: me", "Sam: sam@example.com", "Leave by 8:15"]
    assert the_user_named("How many days a week do I drive?", [], [Excerpt("run.md", 1, school_run, 7)]) == (
        "[Saturn noted] the rows that say \"Me\" are the user's: 2 of 4 lines: Mon: me; Thu: me")
    rota_noted = the_user_named("Am I driving on Thursday?", [], [Excerpt("run.md", 1, school_run, 7)])
    assert own_part_missed("Yes.", "Am I driving on Thursday?", rota_noted) is None
    hosting = ["## Hosting", "- January: Sam", "- February: me", "- March: Priya"]
    hosting_noted = the_user_named("When am I hosting?", [], [Excerpt("club.md", 1, hosting, 4)])
    assert own_part_missed("You are hosting on January 17, 2026 at Jo's.", "When am I hosting?", hosting_noted) == (
        "[Saturn noted] February: me")
    assert own_part_missed("In February.", "When am I hosting?", hosting_noted) is None
    assert own_part_missed("On January 1st, February 1st, and March 1st.", "When am I hosting?", hosting_noted) == (
        "[Saturn noted] February: me")  # others' months too
    weeks = the_user_named("When am I on?", [], [Excerpt("rota.md", 1, ["- Week 1: Sam", "- Week 2: me", "- Week 3: Raj"], 3)])
    assert own_part_missed("Week 2.", "When am I on?", weeks) is None  # labels of no day or month: not checked
    assert own_part_missed("Mon and Thu.", "Which days am I driving?", rota_noted) is None


def test_counts_in_brackets_down_a_list_are_summed_unless_one_is_asked():
    freezer = ["# Freezer", "- Chilli (2 portions) - frozen 12 Oct", "- Bolognese (4 portions)", "- Peas (big bag)"]
    assert bracketed_counts(freezer, "How many portions of food do I have?") == (
        "[Saturn worked out] Chilli 2 + Bolognese 4 = 6 portions")
    assert bracketed_counts(freezer, "How many portions of bolognese are left?") == ""


def test_asked_what_needs_a_columns_thing_the_rows_blank_in_it():
    runs = "date,run,driver,kids\n2026-12-07,morning,Sam,3\n2026-12-07,afternoon,,3\n2026-12-08,morning,Priya,2\n"
    assert table_totals("carshare.csv", runs, "Which school runs still need a driver?").endswith(
        "[Saturn counted] no driver in 1: date 2026-12-07, run afternoon, kids 3")


def test_how_many_in_a_month_counts_no_lines_of_other_months():
    birthdays = ["# Birthdays", "- Mum: 14 January", "- Jack: 2 December", "- Olivia: 21 December"]
    assert counted(birthdays, "How many birthdays are in December?") == ""
    assert counted(birthdays, "How many birthdays are on my list?").startswith("[Saturn counted] 3 lines")


def test_counts_in_brackets_under_headings_are_summed_each_and_taken_from_an_allowance():
    leave = ["# Annual leave 2026", "Allowance: 25 days", "Carried over from 2025: 3 days", "Taken:",
             "- 6-10 April (5 days) Easter", "- 26 May (1 day)", "Booked:", "- 21-24 December (4 days)"]
    assert bracketed_counts(leave, "How much leave have I got left?") == (
        "[Saturn worked out] Taken: 6-10 April 5 + 26 May 1 = 6 days; Booked: 21-24 December 4 = 4 days; "
        "allowance 25 + carried over 3 - taken 6 - booked 4 = 18 days left")


def test_a_sub_heading_of_small_words_is_named_by_those_words_not_by_any_request():
    allotment = ["# Allotment", "Committee contact: Jean Pike, 07700 900312", "## To do", "- [ ] Prune the raspberries"]
    assert section_named(allotment, "What's Jean's number?") == ""
    assert section_named(allotment, "What's on my to do list?") == (
        "[Saturn listed] under the heading 'To do': [ ] Prune the raspberries")


def test_a_day_in_an_add_is_the_new_lines_not_a_word_to_look_for():
    docs = [Document("runs.csv", "date,distance_km,notes\n2026-11-29,16.0,long run\n2026-12-01,6.5,\n"),
            Document("plan.md", "# Plan\n- Thursday: intervals\n- Sunday: long run\n")]
    shown = [part.source for part in relevant_excerpts("Log a run: 7 km today in 40 minutes.", docs, today=date(2026, 12, 3))]
    assert "runs.csv" in shown


def test_a_few_small_documents_none_holding_a_word_of_the_request_are_shown_whole():
    freezer = {"freezer.md": "# Freezer\n- Soup - frozen 28 Sep\n- Peas\n"}
    assert [p.source for p in relevant_excerpts("What needs eating first?", docs(freezer))] == ["freezer.md"]
    assert relevant_excerpts("If the flight takes 2 hours 45 minutes, how long is that in total?", docs(freezer)) == []
    many = {f"note{i}.md": "nothing here\n" for i in range(5)}
    assert relevant_excerpts("What needs eating first?", docs(many)) == []


EXPENSES = ("date,what,amount,category\n2026-11-03,train to Leeds,64.20,travel\n2026-11-03,lunch,9.80,food\n"
            "2026-11-13,dinner with client,56.40,food\n")


def test_rows_over_or_under_an_amount_are_the_ones_picked():
    assert table_totals("expenses.csv", EXPENSES, "Which expenses are over £50?") == (
        "[Saturn worked out] totals over the amount over 50 rows (2): amount = 120.6; amount by category: travel 64.2,"
        " food 56.4")
    assert table_totals("expenses.csv", EXPENSES, "Was anything over 500?") == "[Saturn worked out] no row has amount over 500"
    assert "over 3 days" not in table_totals("expenses.csv", EXPENSES, "Which trips were over 3 days?")


def test_a_limit_named_by_its_words_is_the_amount_a_line_gives_it():
    lines = ["Expenses go to Fiona.", "Food limit £40 a day. Claims by the 5th."]
    assert limit_as_written("Which expenses are over the food limit?", lines) == "Which expenses are food over 40?"
    assert limit_as_written("Am I over budget?", lines) == "Am I over budget?"
    assert "the food amount over 40 rows (1)" in table_totals(
        "expenses.csv", EXPENSES, limit_as_written("Which expenses are over the food limit?", lines))


def test_a_days_written_lines_stay_beside_the_repeats_falling_on_it():
    choir = ["Rehearsals: Wednesdays 7pm, weekly", "Wed 9 Dec: concert at St Mary's, 7:30pm"]
    shown = render_excerpts([Excerpt("choir.md", 1, choir, 2)], "What's on Wednesday the 9th?", date(2026, 12, 4))
    assert "concert at St Mary's" in shown.split("\n", 3)[-1] and "Wednesdays 7pm" in shown.split("\n", 3)[-1]


async def test_found_nothing_after_sent_back_to_another_file_is_answered_with_that_file(harness):
    await harness.start()
    (harness.env.workdir / "travel.md").write_text("# Travel\nRenew the passport before June.\n")
    (harness.env.workdir / "shopping.txt").write_text("milk\nbread\n")
    harness.model.enqueue("shopping.txt", call("kb_search", {"query": "passport"}), "The knowledge base is empty.")
    _, events = await harness.turn("Which of my files mentions my passport?", headless=True)
    assert of_type(events, "answer")[-1].text == "travel.md holds 'Renew the passport before June.'."


def test_a_mileage_that_counts_up_gives_the_miles_between_rows_and_is_not_summed():
    fuel = "date,litres,miles\n2026-10-24,40.1,45720\n2026-11-12,36.5,46105\n2026-11-29,39.0,46490\n"
    shown = table_totals("fuel.csv", fuel, "How many miles did I do between the last two fill-ups?")
    assert shown.endswith("[Saturn worked out] miles from each row to the next, the latest last: 2026-10-24 to 2026-11-12:"
                          " 385; 2026-11-12 to 2026-11-29: 385")
    assert "miles = " not in shown
    assert "miles = 1215" in table_totals("fuel.csv", FUEL, "How far did I drive in total?")  # each row's own miles


def test_a_dated_table_whose_header_the_request_names_is_shown_when_asked_between_its_rows():
    car = Document("car.md", "# The car\nService every 12,000 miles or 12 months.\n")
    fuel = Document("fuel.csv", "date,litres,miles\n2026-11-12,36.5,46105\n2026-11-29,39.0,46490\n")
    found = relevant_excerpts("How many miles did I do between the last two fill-ups?", [car, fuel], today=date(2026, 12, 4))
    assert [e.source for e in found] == ["car.md", "fuel.csv"]


def test_a_total_asked_a_day_is_of_the_column_counted_a_day():
    meds = "medicine,dose,times a day,tablets left\nAmlodipine,5mg,1,24\nMetformin,500mg,2,30\nAtorvastatin,20mg,1,9\n"
    assert table_totals("meds.csv", meds, "How many tablets does Dad take a day in total?") == (
        "[Saturn worked out] totals over 3 rows: times a day = 4")  # not the 63 tablets left
    assert "tablets left = 63" in table_totals("meds.csv", meds, "How many tablets are left in total?")


def test_asked_how_many_are_left_before_a_day_the_rows_from_today_to_it_are_counted_by_kind():
    rota = ["date,event,tea", "2026-12-06,Sunday rehearsal,Helen", "2026-12-13,Carol concert,me",
            "2026-12-20,Sunday rehearsal,Mark", "2027-01-10,Sunday rehearsal,Helen"]
    subs = ["month,paid", "2026-10,yes", "2026-11,no", "2026-12,no"]
    shown = render_excerpts([Excerpt("rota.csv", 1, rota, 5), Excerpt("subs.csv", 1, subs, 4)],
                            "How many rehearsals are left before Christmas?", date(2026, 12, 4))
    assert "[Saturn worked out] the rows dated 2026-12-04 to 2026-12-24 (3): " in shown
    assert "[Saturn counted] event: sunday rehearsal 2 (2026-12-06, 2026-12-20); carol concert 1 (2026-12-13)" in shown
    assert "(a row each)" not in shown  # subs.csv's months are no rehearsals


def test_a_deposit_is_part_of_the_price_and_the_rows_with_none_to_go_are_named_when_asked_which():
    orders = "customer,price,deposit\nAmira Khan,28,10\nBen Ford,42,0\nDev Patel,30,30\n"
    assert table_totals("orders.csv", orders, "How much is still owed on orders?").endswith(
        "; still to go, price - deposit, the most first: Ben Ford 42, Amira Khan 18, Dev Patel 0 = 60 in all")
    assert table_totals("orders.csv", orders, "Which orders have paid in full?").endswith(
        "= 60 in all; the rows with none to go: Dev Patel")
    stays = "guest,nights,total,paid so far\nHendersons,3,420,420\nOkafor,2,280,100\n"
    assert table_totals("bookings.csv", stays, "Which guests have paid in full?").endswith(
        "; the rows with none to go: Hendersons")  # the two money columns of three numeric


def test_asked_how_many_are_still_to_do_the_rows_are_not_each_counted_where_some_are_done():
    selling = "item,price,sold\nkids bike,45,2026-11-14\nlamp,12,\nlego box,60,\n"
    assert table_totals("selling.csv", selling, "How many things are still listed?").startswith(
        "[Saturn worked out] 2 things (a row each); totals over the not sold yet rows (2): price = 72")  # not 3
    assert "largest price: (item lego box" in table_totals("selling.csv", selling, "What's the dearest thing still for sale?")
    assert "3 things (a row each)" in table_totals("selling.csv", selling, "How many things have I listed?")
    shown = relevant_excerpts("What's the dearest thing still for sale?", docs({
        "selling.md": "Fees: 10% of each sale.\n", "selling.csv": selling}))
    assert [p.source for p in shown] == ["selling.md", "selling.csv"]  # the notes' namesake table


def test_asked_which_is_closest_what_is_still_to_go_is_given_the_least_first():
    pots = "pot,saved,target\nholiday,1240,2000\nnew car,3500,8000\nchristmas,410,500\n"
    assert table_totals("pots.csv", pots, "Which pot is closest to its target?").endswith(
        "; still to go, target - saved, the least first: christmas 90, holiday 760, new car 4500 = 5350 in all")


def test_what_is_left_of_a_rows_amount_takes_off_what_a_line_naming_it_says_was_spent():
    shown = ("--- gifts.md\nPriya: candle from the market (bought, £18)\nJamie: football kit (Spurs)\n"
             "[Saturn worked out] totals over the Priya rows (1): gift budget = 25; the row: name Priya, relation friend,"
             " gift budget 25")
    assert left_after_spent("How much have I got left to spend on Priya's present?", shown) == (
        '[Saturn worked out] "Priya: candle from the market (bought, £18)" against gift budget 25: 25 - 18 = 7 left')
    assert left_after_spent("How much is Priya's gift budget?", shown) == ""


def test_asked_how_many_of_a_rotas_lines_are_mine_another_count_goes_back():
    noted = '[Saturn noted] the rows that say "Me" are the user\'s: 2 of 5 lines: Mon: me; Wed: me'
    request = "How many days am I driving this week?"
    assert own_count_missed("I'm driving this week for 5 days.", request, noted) == "2 of 5 lines say you: Mon: me; Wed: me"
    assert own_count_missed("Two days: Monday and Wednesday.", request, noted) is None
    assert own_count_missed("5", "How many days is Hannah driving?", noted) is None  # not the user's


def test_asked_how_much_a_logged_value_has_gone_up_its_change_first_to_last_not_its_sum():
    lifts = "date,exercise,kg,reps\n2026-10-05,squat,70,5\n2026-10-05,bench,50,5\n2026-11-30,squat,82.5,5\n"
    assert table_totals("lifts.csv", lifts, "How much has my squat gone up since October?") == (
        "[Saturn worked out] change over the since October 2026 squat rows (2), first to last by date:"
        " kg 70 (2026-10-05) to 82.5 (2026-11-30): +12.5; reps 5 (2026-10-05) to 5 (2026-11-30): 0")


def test_asked_of_the_last_time_the_latest_of_the_rows_asked_not_their_sum():
    lifts = "date,exercise,kg,reps\n2026-10-05,bench,50,5\n2026-10-05,squat,70,5\n2026-11-02,bench,52.5,5\n"
    assert table_totals("lifts.csv", lifts, "How much did I bench last time?") == (
        "[Saturn worked out] the latest of the bench rows (2): date 2026-11-02, exercise bench, kg 52.5, reps 5")
