"""The entry a change is about: candidate lines by shared name words, the model's constrained choice,
and the person asked which when their words fit several entries of the file (target.py)."""

from __future__ import annotations

import json

import pytest

from saturnd.testing.fake_model import call
from saturnd.turn import prompts
from saturnd.turn.target import Line, candidate_lines, choose_target, open_entry, target_schema
from saturnd.turn.which_one import most_named
from tests.conftest import of_type
from tests.test_turn_loop import CHANGE, turn_answering

OFFEN = ("# Offene Reparaturen\n\n- [ ] Toaster Severin, Herr Lindqvist\n- [ ] Toaster Philips, Frau Schäfer\n"
         "- [ ] Nachttischlampe, Familie Yilmaz\n")
ABLAUF = "# Ablauf\n- Jeden ersten Samstag im Monat\n"


def lines_of(files: dict[str, str]) -> list[tuple[str, int, str]]:
    return [(path, n, line) for path, text in files.items() for n, line in enumerate(text.splitlines(), 1)]


@pytest.mark.parametrize(("request_text", "files", "expected"), [
    ("Der Toaster ist repariert, hak ihn ab.", {"offen.md": OFFEN, "ablauf.md": ABLAUF},
     ["offen.md:3", "offen.md:4"]),
    ("Matteo ha pagato la quota.", {"quote.md": "# Quote\n- [ ] Matteo Ferri – 120 €\n- [x] Giulia Rinaldi\n"
                                                "- [ ] Matteo Conti – 120 €\n"},
     ["quote.md:2", "quote.md:4"]),  # a heading is no entry
    ("Marca la kombucha de jengibre como hecha.", {"lotes.md": "- [ ] Lote 14: jengibre\n- [ ] Lote 16: hibisco\n"},
     ["lotes.md:1"]),
    ("Ajoute 37 grands rhinolophes au tunnel de la Vèze.",
     {"2026/comptages.csv": "date;site;grand rhinolophe\n", "2025/comptages.csv": "2025-12-13;tunnel de la Vèze;41\n"},
     ["2026/comptages.csv:1", "2025/comptages.csv:1"]),
])
def test_the_lines_offered_share_a_name_word_with_the_request(request_text, files, expected):
    assert [f"{line.path}:{line.number}" for line in candidate_lines(lines_of(files), request_text)] == expected


def test_the_rarest_shared_words_rank_first_when_there_are_too_many():
    files = {"list.md": "".join(f"- Ordner {n}\n" for n in range(20)) + "- Ordner Steuer 2026\n"}
    kept = candidate_lines(lines_of(files), "Der Ordner Steuer ist fertig.", most=3)
    assert "Steuer" in kept[0].text and len(kept) == 3


def grouped(files: dict[str, str]) -> tuple[list[Line], dict[str, list[Line]]]:
    every = lines_of(files)
    same_file: dict[str, list[Line]] = {}
    for path, number, text in every:
        same_file.setdefault(path, []).append(Line(path, number, text))
    return every, same_file


async def test_an_entry_the_persons_words_fit_twice_comes_with_the_other(model, fake_model):
    every, same_file = grouped({"offen.md": OFFEN})
    lines = candidate_lines(every, "Der Toaster ist repariert.")
    fake_model.enqueue_choice(json.dumps({"does": "tick_off", "line": "1"}))
    target = await choose_target(model, "Der Toaster ist repariert.", lines, same_file)
    assert target is not None and target.does == "tick_off"
    assert str(target.line) == "offen.md:3: - [ ] Toaster Severin, Herr Lindqvist"
    assert [str(line) for line in target.also] == ["offen.md:4: - [ ] Toaster Philips, Frau Schäfer"]
    body = fake_model.choice_requests[0]
    assert body["response_format"]["json_schema"]["schema"] == target_schema(2)
    assert "Lines:\n1. offen.md:3: - [ ] Toaster Severin" in body["messages"][-1]["content"]


async def test_an_entry_the_words_settle_asks_nothing(model, fake_model):
    every, same_file = grouped({"offen.md": OFFEN})
    said = "Der Toaster Philips ist repariert."
    fake_model.enqueue_choice(json.dumps({"does": "tick_off", "line": "1"}))
    target = await choose_target(model, said, candidate_lines(every, said), same_file)
    assert target is not None and target.also == () and target.does == "tick_off"


@pytest.mark.parametrize(("done", "asks"), [("yes", True), ("no", False)])
async def test_an_addition_asks_nothing_but_one_read_as_a_tick_off_asks_which(harness, done, asks):
    await harness.start()
    (harness.env.workdir / "leveringer.md").write_text(
        "# Leveringer\n- [ ] Familien Jensen, Ry – 600 kr.\n- [ ] Familien Jensen, Them – 500 kr.\n")
    harness.model.enqueue_choice(CHANGE, json.dumps({"does": "add", "line": "2"}), json.dumps({"done": done}))
    harness.model.enqueue("Hvilken?")
    turn_id, _ = await harness.turn("Jeg har leveret juletræet til familien Jensen, sæt flueben ved det.", headless=True)
    told = harness.sent(0)[-1]["content"]
    assert told.startswith("[Saturn] The user's words fit more than one entry") is asks
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert ("fits 2 entries: ask" in trace.first_move) is asks


@pytest.mark.parametrize("reply", ['{"route": "answer"}', '{"does": "tick_off", "line": "9"}', "not json"])
async def test_an_unreadable_choice_is_none(model, fake_model, reply):
    every, same_file = grouped({"offen.md": OFFEN})
    fake_model.enqueue_choice(reply)
    assert await choose_target(model, "Toaster", candidate_lines(every, "Toaster"), same_file) is None


async def test_the_person_is_asked_which_entry_before_the_first_pass(harness):
    await harness.start("gate:\n  rules:\n    - {tool: mark_done, decision: allow}\n")
    offen = harness.env.workdir / "offen.md"
    offen.write_text(OFFEN)
    harness.model.enqueue_choice(CHANGE, json.dumps({"does": "tick_off", "line": "1"}))
    harness.model.enqueue(call("mark_done", {"path": "offen.md", "item": "Toaster Philips"}), "Erledigt.")
    seen = await turn_answering(harness, "Der Toaster ist repariert, hak ihn ab.", "Der von Frau Schäfer")
    choices = "offen.md:3: - [ ] Toaster Severin, Herr Lindqvist; offen.md:4: - [ ] Toaster Philips, Frau Schäfer"
    assert [q.question for q in of_type(seen, "question")] == [prompts.WHICH_ENTRY.format(choices=choices, tool="I")]
    assert harness.sent(0)[-1]["content"] == prompts.ENTRY_PICKED.format(
        choices=choices, answer="Der von Frau Schäfer", tool="mark_done", path="offen.md")
    # answered once, the edit is not asked about again
    assert [f.fate for f in of_type(seen, "tool_finished")] == ["ran"]
    assert "[x] Toaster Philips" in offen.read_text() and "[ ] Toaster Severin" in offen.read_text()


async def test_headless_the_model_is_told_to_ask_which_entry(harness):
    await harness.start()
    (harness.env.workdir / "offen.md").write_text(OFFEN)
    harness.model.enqueue_choice(CHANGE, json.dumps({"does": "tick_off", "line": "2"}))
    harness.model.enqueue(call("read_file", {"path": "offen.md"}), "Welcher Toaster?")
    turn_id, _ = await harness.turn("Der Toaster ist repariert, hak ihn ab.", headless=True)
    assert harness.sent(0)[-1]["content"].startswith("[Saturn] The user's words fit more than one entry (offen.md:4:")
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert "entry: ticks off offen.md:4; fits 2 entries: ask" in trace.first_move


@pytest.mark.parametrize(("read_as", "done", "tool"), [("remove", "yes", "mark_done"), ("remove", "no", "remove_items"),
                                                    ("add", "yes", "mark_done"), ("add", "no", "add_items")])
async def test_an_open_checklist_entry_read_as_removed_or_added_is_a_tick_off_when_the_request_reports_it_done(
        harness, read_as, done, tool):
    await harness.start()
    (harness.env.workdir / "objednavky.md").write_text("# December\n- [ ] p. Eva Horváthová, Dúbravka – 95 €\n")
    harness.model.enqueue_choice(CHANGE, json.dumps({"does": read_as, "line": "1"}), json.dumps({"done": done}))
    harness.model.enqueue("Hotovo.")
    turn_id, _ = await harness.turn("Naladil som klavír pani Eve z Dúbravky, odškrtni to.", headless=True)
    read = {"remove": "removes", "add": "adds"}[read_as]
    does = "ticks off" if done == "yes" else read
    assert harness.sent(0)[-1]["content"] == prompts.ENTRY_DOES.format(does=does, tool=tool)
    asked = harness.model.choice_requests[-1]["messages"][-1]["content"]
    assert asked == "Entry: - [ ] p. Eva Horváthová, Dúbravka – 95 €\nRequest: Naladil som klavír pani Eve z Dúbravky, odškrtni to."
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert f"{read} an open entry, reported done: {done}; entry: {does} objednavky.md:2" in trace.first_move


LEIHEN = "titel;geliehen von;zurück\nMomo;Lea;nein\nKrabat;Jonas;ja\n"


@pytest.mark.parametrize(("path", "text", "number", "expected"), [
    ("leihen.csv", LEIHEN, 2, "titel: Momo; geliehen von: Lea; zurück: nein"),
    ("leihen.csv", LEIHEN, 3, None),  # returned already
    ("leihen.csv", LEIHEN, 1, None),  # the header
    ("shirts.csv", "naam;terug\nSanne;nee\nLotte;ja\n", 2, "naam: Sanne; terug: nee"),  # "nee" beside "ja"
    ("boeken.md", "| Titel | Terug |\n|---|---|\n| Momo | nee |\n| Krabat | ja |\n", 3, "Titel: Momo; Terug: nee"),
    ("todo.md", "- [ ] Momo\n- [x] Krabat\n", 1, "- [ ] Momo"),
    ("todo.md", "- [ ] Momo\n- [x] Krabat\n", 2, None),
    ("notes.md", "Momo is lent to Lea\n", 1, None),
])
def test_an_open_entry_is_an_unticked_line_or_a_row_whose_done_column_says_open(tmp_path, path, text, number, expected):
    (tmp_path / path).write_text(text)
    line = Line(path, number, text.splitlines()[number - 1])
    assert open_entry(tmp_path, line) == expected


async def test_an_open_table_row_read_as_an_addition_is_a_tick_off_when_the_request_reports_it_done(harness):
    await harness.start("gate:\n  rules:\n    - {tool: mark_done, decision: allow}\n")
    leihen = harness.env.workdir / "leihen.csv"
    leihen.write_text(LEIHEN)
    harness.model.enqueue_choice(CHANGE, json.dumps({"does": "add", "line": "2"}), json.dumps({"done": "yes"}))
    harness.model.enqueue(call("mark_done", {"path": "leihen.csv", "item": "Momo"}), "Erledigt.")
    turn_id, _ = await harness.turn("Lea hat Momo zurückgebracht, trag das in die Liste ein.", headless=True)
    assert harness.sent(0)[-1]["content"] == prompts.ENTRY_DOES.format(does="ticks off", tool="mark_done")
    asked = harness.model.choice_requests[-1]["messages"][-1]["content"]
    assert asked.startswith("Entry: titel: Momo; geliehen von: Lea; zurück: nein\n")
    assert leihen.read_text() == "titel;geliehen von;zurück\nMomo;Lea;ja\nKrabat;Jonas;ja\n"
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert "adds an open entry, reported done: yes; entry: ticks off leihen.csv:2" in trace.first_move


BILLETES = ("billete\testado\taño\tpersonaje\n1000 pesetas\tbuscando\t1979\tPérez Galdós\n"
            "500 pesetas\tconseguido\t1979\tRosalía de Castro\n1000 pesetas\tbuscando\t1992\tCortés y Pizarro\n")


@pytest.mark.parametrize("tool", ["set_value", "mark_done", "remove_items"])
async def test_an_edit_whose_words_fit_several_entries_names_the_one_the_persons_answer_names(harness, tool):
    await harness.start(f"gate:\n  rules:\n    - {{tool: {tool}, decision: allow}}\n")
    notes = harness.env.workdir / "buscados.tsv"
    notes.write_text(BILLETES)
    harness.model.enqueue_choice(CHANGE, json.dumps({"does": "change", "line": "3"}))
    args = {"set_value": {"match": "1000 pesetas", "field": "estado", "value": "conseguido"},
            "mark_done": {"item": "1000 pesetas"}, "remove_items": {"items": ["1000 pesetas"]}}[tool]
    harness.model.enqueue(call(tool, {"path": "buscados.tsv", **args}), "Hecho.")
    seen = await turn_answering(harness, "Ya tengo el billete de 1000 pesetas, márcalo como conseguido.",
                                "El de Cortés y Pizarro, el de 1992.")
    assert len(of_type(seen, "question")) == 1  # which entry, before the first pass
    ran = of_type(seen, "tool_finished")
    assert [f.fate for f in ran] == ["ran" if tool != "mark_done" else "error"]
    after = notes.read_text()
    if tool == "set_value":
        assert after == BILLETES.replace("buscando\t1992", "conseguido\t1992")
    elif tool == "remove_items":
        assert after == BILLETES.replace("1000 pesetas\tbuscando\t1992\tCortés y Pizarro\n", "")
    else:  # no done column: the tool says so, of the one entry the answer named
        assert after == BILLETES and "no done/status column" in ran[0].result


def test_the_entry_named_most_by_the_persons_words_is_the_one_meant():
    rows = ["Daan de Graaf;7;L;nee", "Daan Visser;14;XL;nee"]
    assert most_named(rows, "Daan Visser, nummer 14.") == 1
    assert most_named(rows, "Daan") is None  # both as much
    assert most_named(rows, "de andere") is None  # neither
