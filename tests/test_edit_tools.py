"""add_items, remove_items, mark_done, set_value: a person's files changed their own way, in
any language; edit_file's second chance (nearest lines, a match ignoring spacing or bullets);
the diff every write tool previews for the approval."""

from __future__ import annotations

import json
from pathlib import Path

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
from saturnd.tools.registry import ToolEnv, ToolFailure, preview_call


@pytest.fixture
def env(tmp_path: Path) -> ToolEnv:
    (tmp_path / "work").mkdir()
    return ToolEnv(cwd=tmp_path / "work", kb_dir=tmp_path / "kb")


def put(env: ToolEnv, name: str, text: str) -> Path:
    path = env.cwd / name
    path.write_text(text, encoding="utf-8")
    return path


async def add(env: ToolEnv, path: str, items: list, under: str = "") -> str:
    return await ADD_ITEMS.run(AddItemsParams(path=path, items=items, under=under), env)


async def remove(env: ToolEnv, path: str, items: list) -> str:
    return await REMOVE_ITEMS.run(RemoveItemsParams(path=path, items=items), env)


async def mark(env: ToolEnv, path: str, item: str, done: bool = True) -> str:
    return await MARK_DONE.run(MarkDoneParams(path=path, item=item, done=done), env)


async def set_value(env: ToolEnv, path: str, match: str, field: str, value: object) -> str:
    return await SET_VALUE.run(SetValueParams(path=path, match=match, field=field, value=value), env)


# -- add_items -----------------------------------------------------------------------------


async def test_add_items_under_a_german_heading_keeps_the_bullets_and_skips_what_is_there(env: ToolEnv) -> None:
    path = put(env, "einkauf.md", "# Haushalt\n\n## Einkaufsliste\n\n* Milch\n* Brot\n\n## Erledigt\n\n* Eier\n")
    out = await add(env, "einkauf.md", ["Butter", "milch", "Käse"], under="einkaufsliste")
    assert path.read_text() == (
        "# Haushalt\n\n## Einkaufsliste\n\n* Milch\n* Brot\n* Butter\n* Käse\n\n## Erledigt\n\n* Eier\n"
    )
    assert out == ("added to einkauf.md under 'Einkaufsliste': '* Butter', '* Käse';"
                   " already there, not added again: 'milch'")


async def test_add_items_to_a_file_with_several_lists_asks_which(env: ToolEnv) -> None:
    put(env, "einkauf.md", "## Einkaufsliste\n- Milch\n## Erledigt\n- Eier\n")
    with pytest.raises(ToolFailure, match="lists under 'Einkaufsliste', 'Erledigt'; say which with under"):
        await add(env, "einkauf.md", ["Butter"])


async def test_add_items_to_the_last_of_dated_sections(env: ToolEnv) -> None:
    path = put(env, "journal.md", "## 2024-05-01\n- lief 5 km\n\n## 2024-05-02\n- las\n")
    await add(env, "journal.md", ["schwamm"])
    assert path.read_text() == "## 2024-05-01\n- lief 5 km\n\n## 2024-05-02\n- las\n- schwamm\n"


async def test_add_items_continues_checkboxes_and_numbering(env: ToolEnv) -> None:
    todo = put(env, "todo.md", "- [x] Steuer\n- [ ] Oma anrufen\n")
    await add(env, "todo.md", ["- Arzt anrufen"])  # a bullet the model wrote is not doubled
    assert todo.read_text() == "- [x] Steuer\n- [ ] Oma anrufen\n- [ ] Arzt anrufen\n"
    steps = put(env, "receta.md", "Pasos:\n1. Comprar harina\n2. Hacer la masa\n")
    out = await add(env, "receta.md", ["Hornear\nServir"], under="pasos")
    assert steps.read_text() == "Pasos:\n1. Comprar harina\n2. Hacer la masa\n3. Hornear\n4. Servir\n"
    assert out == "added to receta.md under 'Pasos': '3. Hornear', '4. Servir'"


async def test_add_items_makes_a_missing_section_in_the_files_style(env: ToolEnv) -> None:
    path = put(env, "notes.md", "# Notes\n\n## Travail\n\n- rapport\n")
    out = await add(env, "notes.md", ["tondre la pelouse"], under="Jardin")
    assert path.read_text() == "# Notes\n\n## Travail\n\n- rapport\n\n## Jardin\n\n- tondre la pelouse\n"
    assert out.startswith("added to notes.md in a new section '## Jardin' (its headings: 'Notes', 'Travail')")


async def test_add_items_to_plain_lines_keeps_crlf(env: ToolEnv) -> None:
    path = env.cwd / "shop.txt"
    path.write_bytes(b"milk\r\nbread\r\n")
    await add(env, "shop.txt", ["eggs"])
    assert path.read_bytes() == b"milk\r\nbread\r\neggs\r\n"


async def test_add_items_creates_a_missing_file(env: ToolEnv) -> None:
    out = await add(env, "ideas.md", ["a", "b"], under="Ideas")
    assert (env.cwd / "ideas.md").read_text() == "# Ideas\n- a\n- b\n"
    assert out == "created ideas.md in a new section '# Ideas': '- a', '- b'"


async def test_add_items_to_a_yaml_list(env: ToolEnv) -> None:
    path = put(env, "lists.yaml", "groceries:\n  - milk\ntodo:\n  - call mom\n")
    await add(env, "lists.yaml", ["eggs"], under="groceries")
    assert path.read_text() == "groceries:\n  - milk\n  - eggs\ntodo:\n  - call mom\n"


async def test_add_items_to_a_german_csv_with_decimal_commas(env: ToolEnv) -> None:
    path = put(env, "preise.csv", "Artikel;Preis;Gekauft\nMilch;1,19;nein\nBrot;2,49;ja\n")
    out = await add(env, "preise.csv", ['{"artikel": "Butter", "Preis": 2.29}', "Käse;3,99;nein", "Milch"])
    assert path.read_text() == (
        "Artikel;Preis;Gekauft\nMilch;1,19;nein\nBrot;2,49;ja\nButter;2,29;nein\nKäse;3,99;nein\n"
    )
    assert out.endswith("already there, not added again: 'Milch'")


async def test_add_items_to_a_csv_accepts_objects_and_commas_and_refuses_too_many_values(env: ToolEnv) -> None:
    path = put(env, "gastos.csv", "Fecha,Concepto,Importe\n2024-05-01,Pan,1.20\n")
    await add(env, "gastos.csv", [{"Concepto": "Leche, entera", "Importe": 0.99, "Fecha": "2024-05-02"}])
    assert path.read_text().endswith('2024-05-02,"Leche, entera",0.99\n')
    with pytest.raises(ToolFailure, match=r"has 4 values but gastos.csv has 3 columns \(Fecha, Concepto, Importe\)"):
        await add(env, "gastos.csv", ["2024-05-03,Café,con leche,2.10"])


async def test_add_items_to_a_tsv_and_a_markdown_table(env: ToolEnv) -> None:
    tsv = put(env, "stock.tsv", "item\tqty\napples\t3\n")
    await add(env, "stock.tsv", ["pears, 2"])
    assert tsv.read_text() == "item\tqty\napples\t3\npears\t2\n"
    table = put(env, "courses.md", "# Courses\n\n| Article | Prix | Acheté |\n|---------|------|--------|\n"
                                   "| Pain    | 1,20 | non    |\n\nÀ voir.\n")
    await add(env, "courses.md", ["Lait | 0,99", {"Article": "Fromage", "Prix": "4.50"}])
    assert table.read_text() == (
        "# Courses\n\n| Article | Prix | Acheté |\n|---------|------|--------|\n| Pain    | 1,20 | non    |\n"
        "| Lait    | 0,99 | non    |\n| Fromage | 4,50 | non    |\n\nÀ voir.\n"
    )


async def test_add_items_to_a_json_list_of_records_in_its_layout(env: ToolEnv) -> None:
    path = put(env, "tareas.json", '[\n  {"tarea": "Llamar al banco", "hecho": false}\n]\n')
    await add(env, "tareas.json", ["Comprar pan", '{"tarea": "Pagar alquiler", "hecho": true}', "llamar al banco"])
    assert path.read_text() == (
        '[\n  {"tarea": "Llamar al banco", "hecho": false},\n  {"tarea": "Comprar pan", "hecho": false},\n'
        '  {"tarea": "Pagar alquiler", "hecho": true}\n]\n'
    )
    nested = put(env, "liste.json", json.dumps({"owner": "Marie", "todo": [{"titre": "Appeler maman"}]}, indent=4) + "\n")
    await add(env, "liste.json", [{"Titre": "Réserver le train"}])
    assert json.loads(nested.read_text())["todo"][-1] == {"titre": "Réserver le train"}
    assert '        {\n            "titre": "Réserver le train"\n        }\n' in nested.read_text()


# -- remove_items --------------------------------------------------------------------------


async def test_remove_items_says_what_went_and_the_nearest_lines_of_what_did_not(env: ToolEnv) -> None:
    path = put(env, "einkauf.md", "## Einkaufsliste\n- [ ] Milch\n- [x] Vollkornbrot\n- Käse (Gouda)\n")
    out = await remove(env, "einkauf.md", ["milch", "Gouda", "Brot"])
    assert path.read_text() == "## Einkaufsliste\n- [x] Vollkornbrot\n"
    assert out == (
        "removed from einkauf.md: line 2: '- [ ] Milch'; line 4: '- Käse (Gouda)';"
        " not found: 'Brot' (nearest: line 3: '- [x] Vollkornbrot')"
    )


async def test_remove_items_renumbers_and_takes_a_lines_sub_items(env: ToolEnv) -> None:
    path = put(env, "plan.md", "1. Travail\n   - rapport\n2. Maison\n3. Jardin\n")
    await remove(env, "plan.md", ["travail"])
    assert path.read_text() == "1. Maison\n2. Jardin\n"


async def test_remove_items_names_an_ambiguous_item_and_removes_nothing(env: ToolEnv) -> None:
    path = put(env, "todo.txt", "call mom about lunch\ncall mom about dinner\n")
    with pytest.raises(ToolFailure) as failed:
        await remove(env, "todo.txt", ["mom"])
    assert str(failed.value) == (
        "nothing removed from todo.txt; not found: 'mom' matches more than one in todo.txt:"
        " line 1: 'call mom about lunch'; line 2: 'call mom about dinner'; give the whole line"
    )
    assert path.read_text() == "call mom about lunch\ncall mom about dinner\n"


async def test_remove_items_from_csv_and_json(env: ToolEnv) -> None:
    csv_path = put(env, "preise.csv", "Artikel;Preis\nMilch;1,19\nBrot;2,49\n")
    await remove(env, "preise.csv", ["Brot"])
    assert csv_path.read_text() == "Artikel;Preis\nMilch;1,19\n"
    json_path = put(env, "gastos.json", '[{"concepto": "Pan", "importe": 1.2},\n {"concepto": "Leche", "importe": 0.99}]\n')
    await remove(env, "gastos.json", [{"Concepto": "pan"}])
    assert json_path.read_text() == '[{"concepto": "Leche", "importe": 0.99}]\n'


# -- mark_done -----------------------------------------------------------------------------


async def test_mark_done_ticks_a_checkbox_and_opens_it_again(env: ToolEnv) -> None:
    path = put(env, "todo.md", "- [ ] Steuer machen\n- [ ] Oma anrufen\n")
    assert await mark(env, "todo.md", "oma anrufen") == "marked done in todo.md: line 2: '- [x] Oma anrufen'"
    assert path.read_text() == "- [ ] Steuer machen\n- [x] Oma anrufen\n"
    out = await mark(env, "todo.md", "Oma anrufen")
    assert out == "nothing changed: already done in todo.md: line 2: '- [x] Oma anrufen'"
    await mark(env, "todo.md", "Oma anrufen", done=False)
    assert path.read_text() == "- [ ] Steuer machen\n- [ ] Oma anrufen\n"


async def test_mark_done_strikes_a_plain_line_or_uses_the_files_mark(env: ToolEnv) -> None:
    path = put(env, "liste.md", "- Pain\n- Lait\n")
    await mark(env, "liste.md", "lait")
    assert path.read_text() == "- Pain\n- ~~Lait~~\n"
    ticked = put(env, "chores.txt", "dishes ✓\nlaundry\n")
    await mark(env, "chores.txt", "laundry")
    assert ticked.read_text() == "dishes ✓\nlaundry ✓\n"


async def test_mark_done_sets_the_status_column_in_its_own_words(env: ToolEnv) -> None:
    path = put(env, "preise.csv", "Artikel;Preis;Gekauft\nMilch;1,19;nein\nBrot;2,49;nein\n")
    await mark(env, "preise.csv", "Brot")
    assert path.read_text() == "Artikel;Preis;Gekauft\nMilch;1,19;nein\nBrot;2,49;ja\n"
    table = put(env, "compras.md", "| Artículo | Comprado |\n|---|---|\n| Pan | No |\n| Leche | No |\n")
    await mark(env, "compras.md", "leche")
    assert table.read_text() == "| Artículo | Comprado |\n|---|---|\n| Pan | No |\n| Leche | Sí |\n"
    french = put(env, "courses.csv", "article,acheté\npain,non\nlait,oui\n")
    await mark(env, "courses.csv", "lait", done=False)
    assert french.read_text() == "article,acheté\npain,non\nlait,non\n"


async def test_mark_done_in_json_records(env: ToolEnv) -> None:
    path = put(env, "tareas.json", '[\n  {"tarea": "Llamar al banco", "hecho": false}\n]\n')
    await mark(env, "tareas.json", "llamar al banco")
    assert path.read_text() == '[\n  {"tarea": "Llamar al banco", "hecho": true}\n]\n'


async def test_mark_done_of_a_missing_item_gives_the_nearest_lines(env: ToolEnv) -> None:
    put(env, "todo.md", "- [ ] Steuererklärung\n- [ ] Oma anrufen\n")
    with pytest.raises(ToolFailure, match=r"^'Steuererklaerung' not found in todo.md \(nearest: line 1: '- \[ \] Steuererklärung'\)$"):
        await mark(env, "todo.md", "Steuererklaerung")


async def test_mark_done_in_a_csv_without_a_status_column_says_so(env: ToolEnv) -> None:
    put(env, "preise.csv", "Artikel;Preis\nMilch;1,19\n")
    with pytest.raises(ToolFailure, match=r"has no done/status column \(Artikel, Preis\)"):
        await mark(env, "preise.csv", "Milch")


# -- set_value -----------------------------------------------------------------------------


async def test_set_value_in_csv_table_json_and_yaml(env: ToolEnv) -> None:
    csv_path = put(env, "preise.csv", "Artikel;Preis\nMilch;1,19\nBrot;2,49\n")
    out = await set_value(env, "preise.csv", "brot", "preis", 2.79)
    assert csv_path.read_text() == "Artikel;Preis\nMilch;1,19\nBrot;2,79\n"
    assert out == "set Preis of 'Brot' in preise.csv: '2,49' → '2,79'"
    table = put(env, "prix.md", "| Article | Prix |\n|---------|------|\n| Pain    | 1,20 |\n")
    await set_value(env, "prix.md", "Pain", "Prix", "1.35")
    assert table.read_text() == "| Article | Prix |\n|---------|------|\n| Pain    | 1,35 |\n"
    records = put(env, "gastos.json", '[{"concepto": "Pan", "importe": 1.2}]')
    await set_value(env, "gastos.json", "pan", "Importe", "1,5")
    assert records.read_text() == '[{"concepto": "Pan", "importe": 1.5}]'
    yaml = put(env, "config.yaml", "server:\n  port: 8080\ndb:\n  port: 5432  # default\n")
    await set_value(env, "config.yaml", "db", "port", 5433)
    assert yaml.read_text() == "server:\n  port: 8080\ndb:\n  port: 5433  # default\n"
    with pytest.raises(ToolFailure, match=r"'port' is set on more than one line of config.yaml .*; give match"):
        await set_value(env, "config.yaml", "", "port", 1)
    with pytest.raises(ToolFailure, match=r"no column 'Menge' in preise.csv; its columns: Artikel, Preis"):
        await set_value(env, "preise.csv", "Brot", "Menge", 2)


# -- edit_file's second chance -------------------------------------------------------------


async def test_edit_file_not_found_gives_the_nearest_lines(env: ToolEnv) -> None:
    put(env, "einkauf.md", "# Einkauf\n\n- Milch (1 L)\n- Brot\n")
    with pytest.raises(ToolFailure) as failed:
        await EDIT_FILE.run(EditFileParams(path="einkauf.md", old="- Milch 1 L", new="- Milch 2 L"), env)
    assert str(failed.value) == (
        "old text not found in einkauf.md; its nearest lines (copy old from them exactly):\n3: - Milch (1 L)"
    )


async def test_edit_file_matches_ignoring_spacing_or_a_bullet_and_keeps_the_files_own(env: ToolEnv) -> None:
    path = put(env, "todo.md", "## Aufgaben\n    - [ ] Steuer  machen\n")
    out = await EDIT_FILE.run(EditFileParams(path="todo.md", old="- [ ] Steuer machen", new="- [ ] Steuer heute machen"), env)
    assert path.read_text() == "## Aufgaben\n    - [ ] Steuer heute machen\n"
    assert out == "edited todo.md: replaced 1 occurrence (matched line 2 ignoring spacing)"
    shop = put(env, "shop.md", "* Milch\n* Brot\n")
    await EDIT_FILE.run(EditFileParams(path="shop.md", old="Brot", new="Brot\nButter"), env)
    assert shop.read_text() == "* Milch\n* Brot\n* Butter\n"
    await EDIT_FILE.run(EditFileParams(path="shop.md", old="- Butter", new="- Käse"), env)
    assert shop.read_text() == "* Milch\n* Brot\n* Käse\n"


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


async def test_set_value_in_a_json_settings_object_keeps_its_layout(env: ToolEnv) -> None:
    path = put(env, "config.json", '{\n  "db": {"host": "x", "port": 5432},\n  "debug": false\n}\n')
    out = await set_value(env, "config.json", "db", "port", "5433")
    assert path.read_text() == '{\n  "db": {"host": "x", "port": 5433},\n  "debug": false\n}\n'
    assert out == "set port in config.json: '5432' → '5433'"
    await set_value(env, "config.json", "", "debug", "true")
    assert path.read_text() == '{\n  "db": {"host": "x", "port": 5433},\n  "debug": true\n}\n'


async def test_edit_file_lines_added_under_a_bullet_get_its_bullet_and_crlf(env: ToolEnv) -> None:
    path = env.cwd / "list.md"
    path.write_bytes(b"- Milch\r\n- Brot\r\n")
    await EDIT_FILE.run(EditFileParams(path="list.md", old="Brot", new="Brot\nButter"), env)
    assert path.read_bytes() == b"- Milch\r\n- Brot\r\n- Butter\r\n"
