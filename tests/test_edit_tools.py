"""add_items, remove_items, mark_done, set_value: a person's files changed their own way, in
any language; edit_file's second chance (the nearest lines);
the diff every write tool previews for the approval."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clients.terminal.render import TurnView
from protocol.events import ApprovalRequested, TurnEvent
from saturnd.tools import builtin_registry
from saturnd.tools.acting import EDIT_FILE, WRITE_FILE, EditFileParams, WriteFileParams
from saturnd.tools.edits import (
    ADD_ITEMS,
    EDIT_TOOLS,
    MARK_DONE,
    REMOVE_ITEMS,
    SET_VALUE,
    AddItemsParams,
    MarkDoneParams,
    RemoveItemsParams,
    SetValueParams,
)
from saturnd.tools.registry import Tool, ToolEnv, ToolFailure, preview_call


@pytest.fixture
def env(tmp_path: Path) -> ToolEnv:
    (tmp_path / "work").mkdir()
    return ToolEnv(cwd=tmp_path / "work", kb_dir=tmp_path / "kb")


def put(env: ToolEnv, name: str, text: str | None) -> Path:
    path = env.cwd / name
    if text is not None:
        path.write_bytes(text.encode("utf-8"))  # as given: "\r\n" stays
    return path


async def call(env: ToolEnv, tool: Tool, name: str, args: dict[str, Any]) -> str:
    return await tool.run(tool.params(path=name, **args), env)


NOTES = "# Notes\n\n## Travail\n\n- rapport\n"
PREISE = "Artikel;Preis;Gekauft\nMilch;1,19;nein\nBrot;2,49;ja\n"
COURSES = "# Courses\n\n| Article | Prix | Acheté |\n|---------|------|--------|\n| Pain    | 1,20 | non    |\n\nÀ voir.\n"
TAREAS = '[\n  {"tarea": "Llamar al banco", "hecho": false}\n]\n'
LISTE = {"owner": "Marie", "todo": [{"titre": "Appeler maman"}]}
FRIGOS = json.dumps({"frigos": {"rue Pasteur": {"lieu": "boulangerie", "dernier_nettoyage": "2026-11-20"},
                               "place Sathonay": {"lieu": "porche", "dernier_nettoyage": "2026-11-27"}}},
                    ensure_ascii=False, indent=2) + "\n"
CONFIG_JSON = '{\n  "db": {"host": "x", "port": 5432},\n  "debug": false\n}\n'
CONFIG_YAML = "server:\n  port: 8080\ndb:\n  port: 5432  # default\n"
PYSANKY = ('сезон: "Великдень 2027"  # до 25 квітня\nзамовлення:\n  - {замовник: "Ірина Бойко", кількість: 3}\n'
           '  - {замовник: "Андрій Коваль", кількість: 1, статус: "не оплачено"}\n')
HOPP = "hopp:\n  - nr: 1\n    dato: 2025-08-09\n    ferdig: false\n  - nr: 2\n    dato: 2025-08-10\n    ferdig: true\n"

# (file, its text (None: no file yet), tool, arguments, its text after, what the model is told or a part of it)
CHANGES = [
    # -- add_items
    pytest.param(
        "einkauf.md", "# Haushalt\n\n## Einkaufsliste\n\n* Milch\n* Brot\n\n## Erledigt\n\n* Eier\n",
        ADD_ITEMS, {"items": ["Butter", "milch", "Käse"], "under": "einkaufsliste"},
        "# Haushalt\n\n## Einkaufsliste\n\n* Milch\n* Brot\n* Butter\n* Käse\n\n## Erledigt\n\n* Eier\n",
        "added to einkauf.md under 'Einkaufsliste': '* Butter', '* Käse'; already there, not added again: 'milch'",
        id="add-under-a-german-heading-skipping-what-is-there",
    ),
    pytest.param("journal.md", "## 2024-05-01\n- lief 5 km\n\n## 2024-05-02\n- las\n", ADD_ITEMS, {"items": ["schwamm"]},
                 "## 2024-05-01\n- lief 5 km\n\n## 2024-05-02\n- las\n- schwamm\n", "", id="add-to-the-last-dated-section"),
    pytest.param("todo.md", "- [x] Steuer\n- [ ] Oma anrufen\n", ADD_ITEMS, {"items": ["- Arzt anrufen"]},  # not "- - [ ]"
                 "- [x] Steuer\n- [ ] Oma anrufen\n- [ ] Arzt anrufen\n", "", id="add-continues-checkboxes"),
    pytest.param("receta.md", "Pasos:\n1. Comprar harina\n2. Hacer la masa\n", ADD_ITEMS, {"items": ["Hornear\nServir"], "under": "pasos"},
                 "Pasos:\n1. Comprar harina\n2. Hacer la masa\n3. Hornear\n4. Servir\n",
                 "added to receta.md under 'Pasos': '3. Hornear', '4. Servir'", id="add-continues-numbering"),
    pytest.param("notes.md", NOTES, ADD_ITEMS, {"items": ["tondre la pelouse"], "under": "Jardin"},
                 NOTES + "\n## Jardin\n\n- tondre la pelouse\n",
                 "added to notes.md in a new section '## Jardin' (its headings: 'Notes', 'Travail')", id="add-a-new-section"),
    pytest.param("shop.txt", "milk\r\nbread\r\n", ADD_ITEMS, {"items": ["eggs"]}, "milk\r\nbread\r\neggs\r\n", "", id="add-plain-lines-crlf"),
    pytest.param("ideas.md", None, ADD_ITEMS, {"items": ["a", "b"], "under": "Ideas"}, "# Ideas\n- a\n- b\n",
                 "created ideas.md in a new section '# Ideas': '- a', '- b'", id="add-creates-a-file"),
    pytest.param("lists.yaml", "groceries:\n  - milk\ntodo:\n  - call mom\n", ADD_ITEMS, {"items": ["eggs"], "under": "groceries"},
                 "groceries:\n  - milk\n  - eggs\ntodo:\n  - call mom\n", "", id="add-to-a-yaml-list"),
    pytest.param("preise.csv", PREISE, ADD_ITEMS, {"items": ['{"artikel": "Butter", "Preis": 2.29}', "Käse;3,99;nein", "Milch"]},
                 PREISE + "Butter;2,29;nein\nKäse;3,99;nein\n", "already there, not added again: 'Milch'", id="add-to-a-german-csv"),
    pytest.param("gastos.csv", "Fecha,Concepto,Importe\n2024-05-01,Pan,1.20\n", ADD_ITEMS,
                 {"items": [{"Concepto": "Leche, entera", "Importe": 0.99, "Fecha": "2024-05-02"}]},
                 'Fecha,Concepto,Importe\n2024-05-01,Pan,1.20\n2024-05-02,"Leche, entera",0.99\n', "", id="add-an-object-to-a-csv"),
    pytest.param("stock.tsv", "item\tqty\napples\t3\n", ADD_ITEMS, {"items": ["pears, 2"]}, "item\tqty\napples\t3\npears\t2\n", "",
                 id="add-to-a-tsv"),
    pytest.param("courses.md", COURSES, ADD_ITEMS, {"items": ["Lait | 0,99", {"Article": "Fromage", "Prix": "4.50"}]},
                 COURSES.replace("\n\nÀ", "\n| Lait    | 0,99 | non    |\n| Fromage | 4,50 | non    |\n\nÀ"), "",
                 id="add-to-a-markdown-table"),
    pytest.param("tareas.json", TAREAS, ADD_ITEMS, {"items": ["Comprar pan", '{"tarea": "Pagar alquiler", "hecho": true}', "llamar al banco"]},
                 '[\n  {"tarea": "Llamar al banco", "hecho": false},\n  {"tarea": "Comprar pan", "hecho": false},\n'
                 '  {"tarea": "Pagar alquiler", "hecho": true}\n]\n', "", id="add-to-json-records-one-a-line"),
    pytest.param("liste.json", json.dumps(LISTE, indent=4) + "\n", ADD_ITEMS, {"items": [{"Titre": "Réserver le train"}]},
                 json.dumps({**LISTE, "todo": [*LISTE["todo"], {"titre": "Réserver le train"}]}, indent=4, ensure_ascii=False) + "\n",
                 "", id="add-to-a-nested-json-list-in-its-indent"),
    # -- remove_items
    pytest.param("einkauf.md", "## Einkaufsliste\n- [ ] Milch\n- [x] Vollkornbrot\n- Käse (Gouda)\n", REMOVE_ITEMS,
                 {"items": ["milch", "Gouda", "Brot"]}, "## Einkaufsliste\n- [x] Vollkornbrot\n",
                 "removed from einkauf.md: line 2: '- [ ] Milch'; line 4: '- Käse (Gouda)';"
                 " not found: 'Brot' (nearest: line 3: '- [x] Vollkornbrot')", id="remove-says-what-went-and-what-did-not"),
    pytest.param("plan.md", "1. Travail\n   - rapport\n2. Maison\n3. Jardin\n", REMOVE_ITEMS, {"items": ["travail"]},
                 "1. Maison\n2. Jardin\n", "", id="remove-renumbers-and-takes-sub-items"),
    pytest.param("preise.csv", "Artikel;Preis\nMilch;1,19\nBrot;2,49\n", REMOVE_ITEMS, {"items": ["Brot"]},
                 "Artikel;Preis\nMilch;1,19\n", "", id="remove-a-csv-row"),
    pytest.param("gastos.json", '[{"concepto": "Pan", "importe": 1.2},\n {"concepto": "Leche", "importe": 0.99}]\n', REMOVE_ITEMS,
                 {"items": [{"Concepto": "pan"}]}, '[\n {"concepto": "Leche", "importe": 0.99}\n]\n', "", id="remove-a-json-record"),
    # -- mark_done
    pytest.param("todo.md", "- [ ] Steuer machen\n- [ ] Oma anrufen\n", MARK_DONE, {"item": "oma anrufen"},
                 "- [ ] Steuer machen\n- [x] Oma anrufen\n", "marked done in todo.md: line 2: '- [x] Oma anrufen'", id="mark-a-checkbox"),
    pytest.param("objednavky.md", "- [ ] p. Mária Horváthová, Ružinov – 75 €\n- [ ] p. Eva Horváthová, Dúbravka – 95 €\n", MARK_DONE,
                 {"item": "p. Eva Horváthovej, Dúbravka"},
                 "- [ ] p. Mária Horváthová, Ružinov – 75 €\n- [x] p. Eva Horváthová, Dúbravka – 95 €\n", "",
                 id="mark-the-entry-holding-most-of-the-items-words-inflected"),
    pytest.param("todo.md", "- [x] Oma anrufen\n", MARK_DONE, {"item": "Oma anrufen"}, "- [x] Oma anrufen\n",
                 "nothing changed: already done in todo.md: line 1: '- [x] Oma anrufen'", id="mark-what-is-done"),
    pytest.param("todo.md", "- [x] Oma anrufen\n", MARK_DONE, {"item": "Oma anrufen", "done": False}, "- [ ] Oma anrufen\n",
                 "marked open", id="mark-open-again"),
    pytest.param("liste.md", "- Pain\n- Lait\n", MARK_DONE, {"item": "lait"}, "- Pain\n- ~~Lait~~\n", "", id="mark-by-striking"),
    pytest.param("chores.txt", "dishes ✓\nlaundry\n", MARK_DONE, {"item": "laundry"}, "dishes ✓\nlaundry ✓\n", "",
                 id="mark-with-the-files-tick"),
    pytest.param("preise.csv", "Artikel;Preis;Gekauft\nMilch;1,19;nein\nBrot;2,49;nein\n", MARK_DONE, {"item": "Brot"},
                 "Artikel;Preis;Gekauft\nMilch;1,19;nein\nBrot;2,49;ja\n", "", id="mark-a-flag-column-with-the-other-word"),
    pytest.param("compras.md", "| Artículo | Comprado |\n|---|---|\n| Pan | Sí |\n| Leche | No |\n", MARK_DONE, {"item": "leche"},
                 "| Artículo | Comprado |\n|---|---|\n| Pan | Sí |\n| Leche | Sí |\n", "", id="mark-with-the-word-beside-no"),
    pytest.param("compras.md", "| Artículo | Comprado |\n|---|---|\n| Pan | No |\n| Leche | No |\n", MARK_DONE, {"item": "leche"},
                 "| Artículo | Comprado |\n|---|---|\n| Pan | No |\n| Leche | Yes |\n", "", id="mark-with-the-counterpart-of-no"),
    pytest.param("shirts.csv", "naam;terug\nSanne;nee\nLotte;ja\nDaan;nee\n", MARK_DONE, {"item": "Daan"},
                 "naam;terug\nSanne;nee\nLotte;ja\nDaan;ja\n", "", id="mark-with-the-word-beside-yes"),
    pytest.param("courses.csv", "article,acheté\npain,non\nlait,oui\n", MARK_DONE, {"item": "lait", "done": False},
                 "article,acheté\npain,non\nlait,non\n", "", id="mark-open-in-a-flag-column"),
    pytest.param("tareas.json", TAREAS, MARK_DONE, {"item": "llamar al banco"}, TAREAS.replace("false", "true"), "",
                 id="mark-a-json-record"),
    # -- set_value
    pytest.param("preise.csv", "Artikel;Preis\nMilch;1,19\nBrot;2,49\n", SET_VALUE, {"match": "brot", "field": "preis", "value": 2.79},
                 "Artikel;Preis\nMilch;1,19\nBrot;2,79\n", "set Preis of 'Brot' in preise.csv: '2,49' → '2,79'", id="set-in-a-csv"),
    pytest.param("prix.md", "| Article | Prix |\n|---------|------|\n| Pain    | 1,20 |\n", SET_VALUE,
                 {"match": "Pain", "field": "Prix", "value": "1.35"}, "| Article | Prix |\n|---------|------|\n| Pain    | 1,35 |\n", "",
                 id="set-in-a-markdown-table"),
    pytest.param("gastos.json", '[{"concepto": "Pan", "importe": 1.2}]', SET_VALUE, {"match": "pan", "field": "Importe", "value": "1,5"},
                 '[{"concepto": "Pan", "importe": 1.5}]', "", id="set-in-a-json-record"),
    pytest.param("config.yaml", CONFIG_YAML, SET_VALUE, {"match": "db", "field": "port", "value": 5433},
                 CONFIG_YAML.replace("5432", "5433"), "", id="set-in-a-yaml-block"),
    pytest.param("config.json", CONFIG_JSON, SET_VALUE, {"match": "db", "field": "port", "value": "5433"},
                 CONFIG_JSON.replace("5432", "5433"), "set port in config.json: '5432' → '5433'", id="set-in-a-json-settings-object"),
    pytest.param("frigos.json", FRIGOS, SET_VALUE, {"match": "rue Pasteur", "field": "dernier_nettoyage", "value": "2026-12-03"},
                 FRIGOS.replace("2026-11-20", "2026-12-03"),
                 "set dernier_nettoyage of 'rue Pasteur' in frigos.json: '\"2026-11-20\"' → '\"2026-12-03\"'",
                 id="set-in-a-record-keyed-by-its-name"),
    pytest.param("config.json", CONFIG_JSON, SET_VALUE, {"match": "", "field": "debug", "value": "true"},
                 CONFIG_JSON.replace("false", "true"), "", id="set-a-top-level-json-flag"),
    # -- a YAML list of records is data, written back in its own style (flow or block, its indent, its quotes)
    pytest.param("zamovlennia.yaml", PYSANKY, ADD_ITEMS, {"items": [{"замовник": "Оксана Мельник", "кількість": "2"}]},
                 PYSANKY + "  - {замовник: Оксана Мельник, кількість: 2}\n", "added to zamovlennia.yaml in 'замовлення'",
                 id="add-to-a-yaml-list-of-flow-records"),
    pytest.param("hopp.yml", HOPP, ADD_ITEMS, {"items": ['{"nr": 3, "dato": "2026-01-02"}']},
                 HOPP + "  - nr: 3\n    dato: 2026-01-02\n    ferdig: false\n", "", id="add-a-yaml-block-record"),
    pytest.param("hopp.yml", HOPP, MARK_DONE, {"item": "1"}, HOPP.replace("ferdig: false", "ferdig: true"), "",
                 id="mark-a-yaml-record"),
    pytest.param("zamovlennia.yaml", PYSANKY, SET_VALUE, {"match": "Андрій Коваль", "field": "статус", "value": "оплачено"},
                 PYSANKY.replace('"не оплачено"', '"оплачено"'), "", id="set-in-a-yaml-record"),
    pytest.param("hopp.yml", HOPP, REMOVE_ITEMS, {"items": ["2"]}, HOPP.split("  - nr: 2")[0], "", id="remove-a-yaml-record"),
    # -- edit_file writes the new text as the model wrote it
    pytest.param("shop.md", "* Milch\n* Brot\n", EDIT_FILE, {"old": "Brot", "new": "Brot\n* Butter"}, "* Milch\n* Brot\n* Butter\n", "",
                 id="edit-as-written"),
    pytest.param("list.md", "- Milch\r\n- Brot\r\n", EDIT_FILE, {"old": "Brot", "new": "Brot\n- Butter"}, "- Milch\r\n- Brot\r\n- Butter\r\n",
                 "", id="edit-as-written-in-crlf"),
]


@pytest.mark.parametrize(("name", "before", "tool", "args", "after", "said"), CHANGES)
async def test_a_file_changed_its_own_way(env: ToolEnv, name: str, before: str | None, tool: Tool, args: dict[str, Any],
                                          after: str, said: str) -> None:
    path = put(env, name, before)
    out = await call(env, tool, name, args)
    assert path.read_bytes().decode("utf-8") == after
    assert said in out


# (file, its text, tool, arguments, the failure (a regex)); the file stays as it was
FAILURES = [
    pytest.param("einkauf.md", "## Einkaufsliste\n- Milch\n## Erledigt\n- Eier\n", ADD_ITEMS, {"items": ["Butter"]},
                 "lists under 'Einkaufsliste', 'Erledigt'; say which with under", id="add-to-one-of-several-lists"),
    pytest.param("gastos.csv", "Fecha,Concepto,Importe\n2024-05-01,Pan,1.20\n", ADD_ITEMS, {"items": ["2024-05-03,Café,con leche,2.10"]},
                 r"has 4 values but gastos.csv has 3 columns \(Fecha, Concepto, Importe\)", id="add-too-many-values"),
    pytest.param("todo.txt", "call mom about lunch\ncall mom about dinner\n", REMOVE_ITEMS, {"items": ["mom"]},
                 "^nothing removed from todo.txt; not found: 'mom' matches more than one in todo.txt:"
                 " line 1: 'call mom about lunch'; line 2: 'call mom about dinner'; ask the user which one", id="remove-an-ambiguous-item"),
    pytest.param("rezidba.md", "- [ ] Malvazija, Buje (stari nasad)\n- [ ] Malvazija, Momjan (mladi nasad)\n", MARK_DONE,
                 {"item": "Malvazija, Momjan (stari nasad)"}, "matches more than one in rezidba.md: line 1: .*; line 2: .*; ask the user",
                 id="mark-an-item-whose-words-fit-two-entries-alike"),
    pytest.param("todo.md", "- [ ] Steuererklärung\n- [ ] Oma anrufen\n", MARK_DONE, {"item": "Steuererklaerung"},
                 r"^'Steuererklaerung' not found in todo.md \(nearest: line 1: '- \[ \] Steuererklärung'\)$", id="mark-a-missing-item"),
    pytest.param("preise.csv", "Artikel;Preis\nMilch;1,19\n", MARK_DONE, {"item": "Milch"},
                 r"has no done/status column \(Artikel, Preis\)", id="mark-without-a-flag-column"),
    pytest.param("config.yaml", CONFIG_YAML, SET_VALUE, {"match": "", "field": "port", "value": 1},
                 r"'port' is set on more than one line of config.yaml .*; give match", id="set-an-ambiguous-key"),
    pytest.param("preise.csv", "Artikel;Preis\nMilch;1,19\n", SET_VALUE, {"match": "Milch", "field": "Menge", "value": 2},
                 "no column 'Menge' in preise.csv; its columns: Artikel, Preis", id="set-a-missing-column"),
    pytest.param("liga.md", "- [x] Álvaro y Rubén – ganado\n- [ ] Javi Ortega y Luis Prieto – pista 4\n", SET_VALUE,
                 {"match": "Javi Ortega y Luis Prieto", "field": "done", "value": "true"},
                 r"^line 2 of liga.md is a checklist item, with no 'done' of its own: tick it or untick it with mark_done"
                 r" \(item: 'Javi Ortega y Luis Prieto – pista 4'\)$", id="set-done-on-a-checklist-line"),
    pytest.param("einkauf.md", "# Einkauf\n\n- Milch (1 L)\n- Brot\n", EDIT_FILE, {"old": "- Milch 1 L", "new": "- Milch 2 L"},
                 r"^old text not found in einkauf.md; its nearest lines \(copy old from them exactly\):\n3: - Milch \(1 L\)$",
                 id="edit-gives-the-nearest-lines"),
    pytest.param("todo.md", "## Aufgaben\n    - [ ] Steuer  machen\n", EDIT_FILE, {"old": "- [ ] Steuer machen", "new": "- [ ] Steuer heute machen"},
                 r"^old text not found in todo.md; its nearest lines \(copy old from them exactly\):\n2:     - \[ \] Steuer  machen$",
                 id="edit-with-other-spacing-gives-the-line-as-written"),
]


@pytest.mark.parametrize(("name", "before", "tool", "args", "failure"), FAILURES)
async def test_what_cannot_be_done_fails_and_changes_nothing(env: ToolEnv, name: str, before: str, tool: Tool,
                                                             args: dict[str, Any], failure: str) -> None:
    path = put(env, name, before)
    with pytest.raises(ToolFailure, match=failure):
        await call(env, tool, name, args)
    assert path.read_bytes().decode("utf-8") == before


# -- previews ------------------------------------------------------------------------------


async def test_every_write_tool_previews_a_diff_without_writing(env: ToolEnv) -> None:
    path = put(env, "einkauf.md", "## Einkaufsliste\n- [ ] Milch\n")
    before = path.read_text()
    previews = [
        await preview_call(ADD_ITEMS, AddItemsParams(path="einkauf.md", items=["Brot"]), env),
        await preview_call(REMOVE_ITEMS, RemoveItemsParams(path="einkauf.md", items=["Milch"]), env),
        await preview_call(MARK_DONE, MarkDoneParams(path="einkauf.md", item="Milch"), env),
        await preview_call(EDIT_FILE, EditFileParams(path="einkauf.md", old="Milch", new="Hafermilch"), env),
        await preview_call(WRITE_FILE, WriteFileParams(path="einkauf.md", content="- Brot"), env),
    ]
    assert path.read_text() == before
    assert previews[0] == "--- a/einkauf.md\n+++ b/einkauf.md\n@@ -1,2 +1,3 @@\n ## Einkaufsliste\n - [ ] Milch\n+- [ ] Brot"
    assert previews[1].endswith(" ## Einkaufsliste\n-- [ ] Milch")
    assert previews[2].endswith("-- [ ] Milch\n+- [x] Milch")
    assert previews[3].endswith("-- [ ] Milch\n+- [ ] Hafermilch")
    assert previews[4].endswith("+- Brot")  # write_file keeps the final newline, so no marker
    new = await preview_call(SET_VALUE, SetValueParams(path="n.yaml", match="", field="a", value=1), env)
    assert new == "would fail: no such file: n.yaml"
    created = await preview_call(ADD_ITEMS, AddItemsParams(path="neu.txt", items=["x"]), env)
    assert created == "--- /dev/null\n+++ b/neu.txt\n@@ -0,0 +1 @@\n+x"
    assert not (env.cwd / "neu.txt").exists()


async def test_a_preview_is_capped_and_a_tool_without_one_previews_nothing(env: ToolEnv) -> None:
    registry = builtin_registry()
    read = registry.get("read_file")
    assert read is not None and await preview_call(read, None, env) == ""
    big = await preview_call(WRITE_FILE, WriteFileParams(path="big.txt", content="x\n" * 1000), env)
    assert big.split("\n")[-1] == "… 803 more lines"


def test_the_edit_tools_are_registered_write_tools_with_short_descriptions() -> None:
    registry = builtin_registry()
    for tool in EDIT_TOOLS:
        assert registry.get(tool.name) is tool
        assert tool.risk == "write" and tool.target == "path" and tool.preview is not None
        assert len(tool.description) <= 90


def test_the_approval_carries_the_preview_and_the_terminal_shows_it() -> None:
    event = ApprovalRequested(call_id="c1", name="add_items", arguments={"path": "einkauf.md"},
                              preview="--- a/einkauf.md\n+++ b/einkauf.md\n@@ -1 +1,2 @@\n - Milch\n+- Brot")
    view = TurnView("t_1")
    view.apply(TurnEvent(turn_id="t_1", seq=1, event=event, at=1.0))
    assert ("diff_add", "  +- Brot") in view.lines and ("diff", "   - Milch") in view.lines
    assert view.lines[-1][0] == "keys"


async def test_a_folder_given_for_the_file_is_the_one_file_under_it_holding_the_entry(env: ToolEnv) -> None:
    (env.cwd / "werkstatt" / "geige-7").mkdir(parents=True)
    steps = env.cwd / "werkstatt" / "geige-7" / "schritte.md"
    steps.write_text("# Geige Nr. 7\n- [x] Decke ausgearbeitet\n- [ ] Bassbalken einpassen\n")
    (env.cwd / "werkstatt" / "holz.md").write_text("# Holz\n- Fichte, Alpen\n")
    said = await call(env, MARK_DONE, str(env.cwd), {"item": "Bassbalken einpassen"})
    assert "werkstatt/geige-7/schritte.md" in said
    assert steps.read_text() == "# Geige Nr. 7\n- [x] Decke ausgearbeitet\n- [x] Bassbalken einpassen\n"
    (env.cwd / "werkstatt" / "geige-8.md").write_text("- [ ] Bassbalken einpassen\n")  # two files hold it now
    with pytest.raises(ToolFailure, match="is a directory"):
        await call(env, MARK_DONE, "werkstatt", {"item": "Bassbalken einpassen", "done": False})


@pytest.mark.parametrize("given", ["terveys_silmat_2026.yaml", "terveys_silmat_2026"])
async def test_a_query_tables_name_given_as_the_path_is_its_file(env: ToolEnv, given: str) -> None:
    (env.cwd / "terveys" / "silmat").mkdir(parents=True)
    log = env.cwd / "terveys" / "silmat" / "2026.yaml"
    log.write_text("vaihdot:\n  - {paiva: 2026-11-06, silmat: molemmat}\n")
    said = await call(env, ADD_ITEMS, given, {"items": [{"paiva": "2026-12-06", "silmat": "molemmat"}],
                                              "under": "terveys_silmat_2026"})  # the table's name: its one list
    assert "terveys/silmat/2026.yaml" in said
    assert log.read_text().endswith("  - {paiva: 2026-12-06, silmat: molemmat}\n")
