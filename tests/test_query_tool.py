"""Tables are data: load_tables reads every table under a folder into SQLite, in any language and
locale; the query tool runs one read-only SELECT over them and says what would work when it fails."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from saturnd.tools import builtin_registry
from saturnd.tools import tables as tables_module
from saturnd.tools.cells import read_column, read_date
from saturnd.tools.query import NO_EXACT_ROW, QUERY, QueryParams, run_query
from saturnd.tools.registry import ToolEnv, ToolFailure
from saturnd.tools.tables import ident, load_tables, table_name


def lay(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def rows(tables, sql):
    with tables.lock:
        return tables.db.execute(sql).fetchall()


def kinds(tables, name):
    return {c.name: c.kind for c in tables.table(name).columns}


GERMAN = (
    "Datum;Sorte;Menge;Preis\n"
    "05.12.2026;Tomaten;1,5 kg;€12,50\n"
    "06.12.2026;Gurken;2 kg;3,20 €\n"
    "24.12.2026;Kürbis;10 kg;1.299,00 €\n"
)
ENGLISH = (
    "date,item,amount,weight,qty\n"
    "2026-01-05,Laptop,\"$1,299.00\",2.1 kg,1\n"
    "2026-01-09,Refund,-$3.50,300 g,-3\n"
    "2026-02-11,Cable,$12.99,,2\n"
)
SPANISH = (
    "fecha,categoría,importe,código postal,teléfono\n"
    "2026-01-05,Alquiler,\"1.200,00 €\",28001,+34 612 345 678\n"
    "2026-02-05,Luz,\"85,40 €\",08001,+34 699 000 111\n"
)
FRENCH = """# Budget

## Dépenses
| Date | Libellé | Montant |
|------|---------|--------:|
| 5 déc. 2026 | Courses | 45,90 € |
| 12 janv. 2027 | Essence | 1\u202f299,50 € |

Du texte entre les tableaux.

## Recettes
| Date | Source | Montant |
|---|---|---|
| 01/12/2026 | Salaire | 2 400,00 € |
"""


def test_a_german_csv_reads_decimal_commas_euros_and_dates(tmp_path):
    tables = load_tables([lay(tmp_path, {"haus/garten/ernte.csv": GERMAN})])
    assert tables.names() == ["haus_garten_ernte"]
    assert kinds(tables, "haus_garten_ernte") == {"Datum": "date", "Sorte": "text", "Menge": "real", "Preis": "real"}
    assert rows(tables, "SELECT Datum, Menge, Preis FROM haus_garten_ernte") == [
        ("2026-12-05", 1.5, 12.5), ("2026-12-06", 2.0, 3.2), ("2026-12-24", 10.0, 1299.0),
    ]
    assert rows(tables, "SELECT sum(Preis), strftime('%m', min(Datum)) FROM haus_garten_ernte") == [(1314.7, "12")]
    columns = {c.name: c for c in tables.table("haus_garten_ernte").columns}
    assert (columns["Preis"].unit, columns["Menge"].unit, columns["Datum"].written) == ("€", "kg", "05.12.2026")


def test_an_english_csv_reads_dollars_signs_and_keeps_mixed_units_as_text(tmp_path):
    tables = load_tables([lay(tmp_path, {"spending.csv": ENGLISH})])
    assert kinds(tables, "spending") == {"date": "date", "item": "text", "amount": "real", "weight": "text", "qty": "integer"}
    assert rows(tables, "SELECT amount, weight, qty FROM spending") == [
        (1299.0, "2.1 kg", 1), (-3.5, "300 g", -3), (12.99, None, 2),
    ]


def test_a_spanish_csv_keeps_codes_and_phone_numbers_as_text(tmp_path):
    tables = load_tables([lay(tmp_path, {"gastos.csv": SPANISH})])
    assert kinds(tables, "gastos") == {
        "fecha": "date", "categoría": "text", "importe": "real", "código postal": "text", "teléfono": "text",
    }
    assert rows(tables, 'SELECT "código postal", importe FROM gastos') == [("28001", 1200.0), ("08001", 85.4)]
    assert run_query(tables, 'SELECT sum(importe) AS total FROM gastos WHERE "categoría" = \'Alquiler\'') == "total\n1200"


def test_a_markdown_file_with_two_tables_names_them_after_their_headings(tmp_path):
    tables = load_tables([lay(tmp_path, {"budget.md": FRENCH})])
    assert tables.names() == ["budget_dépenses", "budget_recettes"]
    assert rows(tables, "SELECT Date, Montant FROM budget_dépenses") == [("2026-12-05", 45.9), ("2027-01-12", 1299.5)]
    assert rows(tables, "SELECT Date, Montant FROM budget_recettes") == [("2026-12-01", 2400.0)]  # day first


def test_markdown_tables_without_headings_are_numbered_and_text_files_count(tmp_path):
    text = "| a | b |\n|---|---|\n| 1 | x |\n\nand\n\n| c |\n| --- |\n| 2,5 |\n"
    tables = load_tables([lay(tmp_path, {"notes.txt": text, "plain.md": "# Nothing\n\nNo table | here.\n"})])
    assert tables.names() == ["notes_1", "notes_2"]
    assert rows(tables, "SELECT c FROM notes_2") == [(2.5,)]


def test_json_and_yaml_records_become_tables_with_nested_fields_flattened(tmp_path):
    lay(tmp_path, {
        "contacts.json": json.dumps([
            {"name": "Ana", "address": {"city": "Madrid", "zip": "28001"}, "tags": ["family"], "vip": True},
            {"name": "Bob", "address": {"city": "Boston"}, "age": 41},
        ]),
        "shop.json": json.dumps({"updated": "2026-01-01", "items": [{"sku": "A1", "price": "$3.50"}, {"sku": "B2", "price": "$1,200"}]}),
        "plan.yaml": "meals:\n  - day: 2026-12-01\n    dish: Paella\n    cost: 12.5\n  - day: 2026-12-02\n    dish: Soupe\n    cost: 4\n"
                     "people:\n  - name: Ana\n  - name: Bob\n",
        "config.yaml": "port: 8080\nnames: [a, b]\n",  # no records: no table
        "package.json": json.dumps({"name": "x", "version": "1.0"}),
    })
    tables = load_tables([tmp_path])
    assert sorted(tables.names()) == ["contacts", "plan_meals", "plan_people", "shop"]
    assert kinds(tables, "contacts") == {
        "name": "text", "address.city": "text", "address.zip": "text", "tags": "text", "vip": "integer", "age": "integer",
    }
    assert rows(tables, 'SELECT "address.city", tags, vip, age FROM contacts') == [
        ("Madrid", '["family"]', 1, None), ("Boston", None, None, 41),
    ]
    assert rows(tables, "SELECT price FROM shop") == [(3.5,), (1200.0,)]
    assert kinds(tables, "plan_meals") == {"day": "date", "dish": "text", "cost": "real"}
    assert rows(tables, "SELECT sum(cost) FROM plan_meals") == [(16.5,)]


def test_nested_folders_name_tables_by_path_and_hidden_folders_are_skipped(tmp_path):
    lay(tmp_path, {
        "haus/garten/ernte.csv": "a\n1\n",
        "haus/Küche/Vorräte.tsv": "Artikel\tAnzahl\nMehl\t2\n",
        ".git/x.csv": "a\n1\n",
        "2026/report.csv": "a\n1\n",
        "a.csv": "x\n1\n",
        "a.json": '[{"x": 2}]',
    })
    tables = load_tables([tmp_path])
    assert sorted(tables.names()) == ["a", "a_2", "haus_garten_ernte", "haus_küche_vorräte", "t_2026_report"]
    assert {t.name: t.source for t in tables.tables}["haus_küche_vorräte"] == "haus/Küche/Vorräte.tsv"


def test_a_second_root_is_read_too_and_its_sources_start_with_its_name(tmp_path):
    work, kb = tmp_path / "work", tmp_path / "kb"
    lay(work, {"list.csv": "a\n1\n"})
    lay(kb, {"recipes/pancakes.md": "| Zutat | Menge |\n|---|---|\n| Eier | 2 |\n"})
    tables = load_tables([work, kb])
    assert {t.name: t.source for t in tables.tables} == {"list": "list.csv", "recipes_pancakes": "kb/recipes/pancakes.md"}


def test_big_files_and_files_past_the_cap_are_skipped_and_said(tmp_path, monkeypatch):
    monkeypatch.setattr(tables_module, "MAX_FILE_BYTES", 100)
    monkeypatch.setattr(tables_module, "MAX_FILES", 2)
    lay(tmp_path, {"big.csv": "a\n" + "1\n" * 100, "b.csv": "a\n1\n", "c.csv": "a\n1\n", "d.csv": "a\n1\n"})
    tables = load_tables([tmp_path])
    assert tables.names() == ["b", "c"]
    assert tables.skipped == ["big.csv (over 0 MB)", "d.csv (past 2 files)"]


def test_a_windows_export_and_an_excel_separator_line_read(tmp_path):
    lay(tmp_path, {"konto.csv": "sep=;\nBuchung;Betrag\nMiete;-850,00\nGehalt;2.400,00\n".encode("cp1252") + "Café;-3,20\n".encode("cp1252")})
    tables = load_tables([tmp_path])
    assert rows(tables, "SELECT Buchung, Betrag FROM konto") == [("Miete", -850.0), ("Gehalt", 2400.0), ("Café", -3.2)]


def test_a_title_line_above_the_header_is_left_out(tmp_path):
    lay(tmp_path, {"konto.csv": "Kontoauszug Januar 2026\n\nBuchung,Betrag\nMiete,-850\nGehalt,2400\nKaffee,-3\n"})
    tables = load_tables([tmp_path])
    assert kinds(tables, "konto") == {"Buchung": "text", "Betrag": "integer"}
    assert rows(tables, "SELECT sum(Betrag) FROM konto") == [(1547,)]


def test_thousands_marks_follow_the_tables_decimal_separator(tmp_path):
    lay(tmp_path, {"preise.csv": "Artikel;Preis;Gewicht\nSofa;1.299;12,5\nTisch;850;3,25\n"})
    tables = load_tables([tmp_path])
    assert rows(tables, "SELECT Preis, Gewicht FROM preise") == [(1299, 12.5), (850, 3.25)]


@pytest.mark.parametrize(("values", "kind", "stored"), [
    (["€12,50", "12,50 €", "-€3,20", "(4,00 €)"], "real", [12.5, 12.5, -3.2, -4.0]),
    (["$1,299.00", "$45.50", "−3"], "real", [1299.0, 45.5, -3.0]),
    (["1 299,50", "1\u00a0000", "3"], "real", [1299.5, 1000.0, 3.0]),
    (["CHF 1'299.50", "CHF 12"], "real", [1299.5, 12.0]),
    (["12 %", "7 %"], "integer", [12, 7]),
    (["3", "", "–", "5"], "integer", [3, None, None, 5]),
    (["1.5", "12,50"], "text", ["1.5", "12,50"]),  # which separator is meant cannot be told
    (["1.200 lei", "1.450 lei", "600 lei"], "integer", [1200, 1450, 600]),  # a dot only before groups of three
    (["0.125 kg", "0.250 kg"], "real", [0.125, 0.25]),
    (["0123", "0456"], "text", ["0123", "0456"]),
    (["12 apples", "3 pears"], "text", ["12 apples", "3 pears"]),
    (["2026-01-05", "2026-01-05 14:30"], "datetime", ["2026-01-05", "2026-01-05 14:30"]),
    (["05.12.2026 9:30", "06.12.2026 14:00"], "datetime", ["2026-12-05 09:30", "2026-12-06 14:00"]),
    (["12/25/2026", "1/5/2027"], "date", ["2026-12-25", "2027-01-05"]),
    (["5/12/2026", "6/12/2026"], "date", ["2026-12-05", "2026-12-06"]),
    (["5. Dezember 2026", "6. Januar 2027"], "date", ["2026-12-05", "2027-01-06"]),
    (["5 de diciembre de 2026"], "date", ["2026-12-05"]),
    (["Dec 5, 2026", "Jan 6, 2027"], "date", ["2026-12-05", "2027-01-06"]),
    (["Project Alpha 2026", "Tomaten"], "text", ["Project Alpha 2026", "Tomaten"]),
    (["10:30", "11:00"], "text", ["10:30", "11:00"]),
])
def test_a_column_is_read_whole(values, kind, stored):
    column = read_column(values)
    assert (column.kind, column.values) == (kind, stored)


def test_read_date_reads_what_people_write():
    assert [str(read_date(t)) for t in ("2026-12-05", "05.12.2026", "5 déc. 2026", "12/25/2026", "nope")] == [
        "2026-12-05", "2026-12-05", "2026-12-05", "2026-12-25", "None",
    ]


def test_heads_are_short_and_say_what_a_query_needs(tmp_path):
    lay(tmp_path, {
        "haus/garten/ernte.csv": GERMAN,
        "gewicht.csv": "Tag,Menge (kg),order\n2026-01-01,1,2\n",
    })
    heads = load_tables([tmp_path]).heads(max_rows=2)
    assert heads == (
        'gewicht.csv (table gewicht, 1 row): Tag date, "Menge (kg)" integer, "order" integer\n'
        "  2026-01-01 | 1 | 2\n"
        "haus/garten/ernte.csv (table haus_garten_ernte, 3 rows): Datum date (written 05.12.2026,"
        " 2026-12-05 to 2026-12-24), Sorte text,"
        " Menge real (kg), Preis real (€)\n"
        "  2026-12-05 | Tomaten | 1.5 | 12.5\n"
        "  2026-12-06 | Gurken | 2 | 3.2"
    )


def test_heads_say_what_the_rows_not_shown_hold_to_filter_on(tmp_path):
    lay(tmp_path, {"darts.tsv": "datum\tseizoen\t180's\n2026-03-12\t2025-26\t2\n2026-05-14\t2025-26\t3\n"
                                "2026-09-10\t2026-27\t1\n2026-12-03\t2026-27\t1\n"})
    tables = load_tables([tmp_path])
    assert tables.heads(max_rows=2).splitlines()[0] == (
        "darts.tsv (table darts, 4 rows): datum date (2026-03-12 to 2026-12-03),"
        " seizoen text (one of: 2025-26, 2026-27), \"180's\" integer")
    assert "one of" not in tables.heads(max_rows=4)  # every row is shown


def test_heads_past_their_budget_only_name_the_rest(tmp_path):
    lay(tmp_path, {f"t{i:02d}.csv": "a,b\n1,2\n" for i in range(40)})
    heads = load_tables([tmp_path]).heads(max_chars=300)
    assert len(heads) < 900 and heads.splitlines()[-1].startswith("more tables: ")
    assert heads.endswith(", t39.csv")


def test_ident_quotes_only_when_needed():
    assert [ident(n) for n in ("Preis", "größe", "Menge (kg)", "order", '"x"', "2026")] == [
        "Preis", "größe", '"Menge (kg)"', '"order"', '"""x"""', '"2026"',
    ]
    assert table_name(["Haus/Gar ten/Ernte-2026"], set()) == "haus_gar_ten_ernte_2026"


# -- the query tool --------------------------------------------------------------------------


@pytest.fixture
def home(tmp_path):
    return load_tables([lay(tmp_path, {"haus/garten/ernte.csv": GERMAN, "gastos.csv": SPANISH, "budget.md": FRENCH})])


def test_a_select_comes_back_as_a_small_table(home):
    shown = run_query(home, "SELECT Sorte, Menge * 2 AS doppelt FROM haus_garten_ernte ORDER BY Menge DESC;")
    assert shown.split("\nthe whole rows:")[0] == "Sorte | doppelt\nKürbis | 20\nGurken | 4\nTomaten | 3"
    assert run_query(home, "SELECT Sorte FROM haus_garten_ernte WHERE Menge > 100") == (
        "Sorte\n(no rows)\nno row matched the WHERE; the values its columns hold: Menge: 1.5, 2, 10")


@pytest.mark.parametrize(("files", "sql", "found"), [
    ({"cofradia/hermandad.md": "| Paso | Capataz | Teléfono |\n|---|---|---|\n"
      "| Paso de Cristo (Vera-Cruz) | Manuel Jiménez | 654-218 903 |\n"
      "| Paso de palio (María Santísima) | Antonio Reyes | 677-450 186 |\n"},
     "SELECT Capataz FROM cofradia_hermandad WHERE Paso = 'Paso de palio'", "Antonio Reyes"),
    ({"verein/vorstand.csv": "Amt,Name,E-Mail\nKassenwartin,Petra Lang,kasse@x.example\nVorsitz,Wolf Seidl,v@x.example\n"},
     "SELECT \"E-Mail\" FROM verein_vorstand WHERE 'kassenwart' = Amt", "kasse@x.example"),
    ({"équipe.md": "| Rôle | Nom |\n|---|---|\n| Capitaine (équipe 2) | Élodie Roux |\n| Trésorier | Marc Petit |\n"},
     "SELECT Nom FROM équipe WHERE Rôle = 'CAPITAINE'", "Élodie Roux"),
])
def test_a_where_comparing_part_of_a_cell_finds_the_rows_holding_it(tmp_path, files, sql, found):
    tables = load_tables([lay(tmp_path, files)])
    shown = run_query(tables, sql)
    assert shown.startswith("ran as: ") and "INSTR(CASEFOLD(" in shown.splitlines()[0]
    assert shown.splitlines()[1] == NO_EXACT_ROW
    assert found in shown


def test_a_where_that_matches_nothing_is_told_what_its_columns_hold(home):
    shown = run_query(home, "SELECT Sorte FROM haus_garten_ernte WHERE Sorte = 'Kürbisse' AND Menge > 5")
    assert shown.startswith("Sorte\n(no rows)\nno row matched the WHERE; the values its columns hold: Sorte: ")
    assert "Kürbis" in shown and "Menge: " in shown


def test_mysql_date_habits_work(home):
    def result(sql: str) -> str:
        return run_query(home, sql).split("\nthe whole rows:")[0]

    assert result("SELECT MONTH(Datum) AS m, YEAR(Datum) AS y, DAY(Datum) AS d FROM haus_garten_ernte LIMIT 1") == "m | y | d\n12 | 2026 | 5"
    assert result("SELECT DATEDIFF('2026-12-24', Datum) AS n FROM haus_garten_ernte LIMIT 1") == "n\n19"
    assert result("SELECT CONCAT(Sorte, ': ', Preis) AS s FROM haus_garten_ernte LIMIT 1") == "s\nTomaten: 12.5"


def test_a_file_named_in_from_is_its_table(home):
    expected = "n\n3"
    assert run_query(home, "SELECT count(*) AS n FROM ernte.csv") == expected
    assert run_query(home, 'SELECT count(*) AS n FROM "haus/garten/ernte.csv"') == expected
    assert run_query(home, "SELECT count(*) AS n FROM ernte") == expected


def test_many_rows_are_capped_with_a_count_of_the_rest(tmp_path):
    tables = load_tables([lay(tmp_path, {"n.csv": "n\n" + "".join(f"{i}\n" for i in range(120))})])
    shown = run_query(tables, "SELECT n FROM n").splitlines()
    assert len(shown) == 52 and shown[-1] == "… and 70 more rows (narrow it with WHERE, GROUP BY or LIMIT)"


@pytest.mark.parametrize("sql", [
    "INSERT INTO gastos VALUES (1, 2, 3, 4, 5)",
    "UPDATE gastos SET importe = 0",
    "DELETE FROM gastos",
    "DROP TABLE gastos",
    "CREATE TABLE x (a)",
    "ATTACH DATABASE '/tmp/saturn-query-test.db' AS x",
    "PRAGMA writable_schema = ON",
    "VACUUM INTO '/tmp/saturn-query-test.db'",
    "WITH x AS (SELECT 1) INSERT INTO gastos (fecha) SELECT * FROM x",
    "SELECT load_extension('x')",
])
def test_only_reads_run(home, sql):
    with pytest.raises(ToolFailure, match="only one SELECT can run: the tables are read-only"):
        run_query(home, sql)
    assert rows(home, "SELECT count(*) FROM gastos") == [(2,)]
    assert not Path("/tmp/saturn-query-test.db").exists()


@pytest.mark.parametrize("sql", [
    "INSERT INTO gastos (fecha) VALUES ('x')",
    "ATTACH DATABASE '/tmp/saturn-query-test.db' AS x",
    "PRAGMA query_only = OFF",
    "CREATE TEMP TABLE t (a)",
])
def test_the_database_itself_refuses_writes(home, sql):
    with pytest.raises(sqlite3.DatabaseError, match="not authorized"):
        rows(home, sql)


def test_a_runaway_query_is_stopped(home):
    with pytest.raises(ToolFailure, match="took too long"):
        run_query(home, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c", time_limit_s=0.2)
    assert run_query(home, "SELECT 1 AS one") == "one\n1"  # the limit is the query's own


def test_one_statement_only(home):
    with pytest.raises(ToolFailure, match="one statement only"):
        run_query(home, "SELECT 1; SELECT 2")


@pytest.mark.parametrize(("sql", "problem"), [
    ("SELECT * FROM harvest", "no table harvest. The tables are: budget_dépenses, budget_recettes, gastos, haus_garten_ernte"),
    ("SELECT * FROM budget_depenses", "Did you mean budget_dépenses?"),
    ("SELECT Gewicht FROM haus_garten_ernte", "no column Gewicht. haus_garten_ernte has Datum, Sorte, Menge, Preis. Quote"),
    ("SELECT codigo FROM gastos", 'gastos has fecha, categoría, importe, "código postal", teléfono'),
    ("SELECT DATE_FORMAT(Datum, '%m') FROM haus_garten_ernte", "SQLite has no DATE_FORMAT\\(\\): use strftime\\('%Y-%m', col\\)"),
    ("SELECT DATE_ADD(Datum, 7) FROM haus_garten_ernte", "use date\\(col, '\\+7 days'\\)"),
    ("SELECT FOO(Datum) FROM haus_garten_ernte", "SQLite has no FOO\\(\\). SQLite's dates: strftime\\('%m', col\\) is the month"),
    ("SELECT Sorte FROM haus_garten_ernte WHERE", "SQL error: incomplete input. Write one SQLite SELECT; put a name with spaces"),
    ("SELECT Datum FROM haus_garten_ernte a, haus_garten_ernte b", "ambiguous column name: Datum: write the table before it"),
    ("", "the sql is empty"),
])
def test_errors_say_what_would_work(home, sql, problem):
    with pytest.raises(ToolFailure, match=problem):
        run_query(home, sql)


def test_no_tables_is_said(tmp_path):
    with pytest.raises(ToolFailure, match="no tables in the working folder or the knowledge base"):
        run_query(load_tables([tmp_path]), "SELECT 1")


def test_loading_again_reuses_the_tables_until_a_file_changes(tmp_path):
    lay(tmp_path, {"a.csv": "x\n1\n"})
    first = load_tables([tmp_path])
    assert load_tables([tmp_path]) is first
    lay(tmp_path, {"a.csv": "x\n1\n2\n"})
    assert rows(load_tables([tmp_path]), "SELECT count(*) FROM a") == [(2,)]


async def test_the_tool_reads_the_working_folder_and_the_knowledge_base(tmp_path):
    work, kb = tmp_path / "work", tmp_path / "kb"
    lay(work, {"haus/garten/ernte.csv": GERMAN})
    lay(kb, {"recipes.md": "| Rezept | Eier |\n|---|---|\n| Pfannkuchen | 2 |\n"})
    env = ToolEnv(cwd=work, kb_dir=kb)
    shown = await QUERY.run(QueryParams(sql="SELECT sum(Preis) AS summe FROM haus_garten_ernte"), env)
    assert shown == "summe\n1314.7"
    assert await QUERY.run(QueryParams(sql="SELECT Eier FROM recipes"), env) == (
        "Eier\n2\nthe whole rows:\nRezept | Eier\nPfannkuchen | 2")


def test_the_tool_is_registered_read_only_and_fenced():
    tool = builtin_registry().get("query")
    assert tool is QUERY and tool.risk == "read_only" and tool.outside
    assert len(tool.description) < 200
    assert tool.openai_schema()["function"]["parameters"]["required"] == ["sql"]


DRONE_LOG = "datum;dron;místo\n12.10.2026;Mini 3;Pálava\n29.11.2026;Mini 3;Lysá hora\n03.11.2026;Avata;Děvín\n"


@pytest.mark.parametrize("sql", [
    "SELECT datum, dron FROM lety ORDER BY datum DESC LIMIT 1",
    "SELECT MAX(datum) AS naposledy FROM lety",
])
def test_a_short_result_shows_the_whole_rows_it_came_from(tmp_path, sql):
    tables = load_tables([lay(tmp_path, {"lety.csv": DRONE_LOG})])
    shown = run_query(tables, sql)
    assert shown.splitlines()[1].startswith("2026-11-29")
    assert shown.split("the whole rows:\n")[1] == "datum | dron | místo\n2026-11-29 | Mini 3 | Lysá hora"


@pytest.mark.parametrize("sql", [
    "SELECT SUM(1) AS lety FROM lety",  # an aggregate of no column: no row it came from
    "SELECT * FROM lety WHERE místo = 'Děvín'",  # every column already
    "SELECT dron, COUNT(*) FROM lety GROUP BY dron",
])
def test_a_result_with_nothing_more_to_show_is_shown_alone(tmp_path, sql):
    tables = load_tables([lay(tmp_path, {"lety.csv": DRONE_LOG})])
    assert "the whole rows" not in run_query(tables, sql)


def test_a_column_name_with_spaces_written_bare_is_quoted_and_the_sql_shown(tmp_path):
    tables = load_tables([lay(tmp_path, {"despiece.csv": "Pieza,Largo (mm),Ancho (mm),Cantidad\nBalda,760,280,4\nCostado,1800,300,2\n"})])
    shown = run_query(tables, "SELECT Cantidad FROM despiece WHERE Largo (mm) = 760 AND \"Ancho (mm)\" = 280")
    assert shown.splitlines()[:3] == [
        'ran as: SELECT Cantidad FROM despiece WHERE "Largo (mm)" = 760 AND "Ancho (mm)" = 280', "Cantidad", "4"]


def test_a_column_name_whose_signs_are_written_as_underscores_is_that_column(tmp_path):
    budget = [{"voċi": "nar", "nar_tal-ajru": 4200, "nar_tal-art": 1600}, {"voċi": "banda", "nar_tal-ajru": 0, "nar_tal-art": 0}]
    tables = load_tables([lay(tmp_path, {"festa/bagit.json": json.dumps(budget)})])
    name = tables.tables[0].name
    shown = run_query(tables, f"SELECT nar_tal_art FROM {name} WHERE nar_tal_art > 1000")
    assert shown.splitlines()[:3] == [f'ran as: SELECT "nar_tal-art" FROM {name} WHERE "nar_tal-art" > 1000',
                                      "nar_tal-art", "1600"]


@pytest.mark.parametrize(("sql", "ran"), [
    ("SELECT SUM(gäste) FROM fuehrungen WHERE MONTH(date) = 11", "SELECT SUM(gäste) FROM fuehrungen WHERE MONTH(datum) = 11"),
    ("SELECT Gaeste FROM fuehrungen WHERE datum = '2026-11-08'", "SELECT gäste FROM fuehrungen WHERE datum = '2026-11-08'"),
])
def test_a_column_that_is_not_there_is_its_one_close_name(tmp_path, sql, ran):
    tours = "datum\tgäste\tStatus der Führung\n2026-11-07\t15\tgehalten\n2026-11-08\t20\tgehalten\n2026-11-14\t0\tausgefallen\n"
    tables = load_tables([lay(tmp_path, {"fuehrungen.tsv": tours})])
    assert run_query(tables, sql).splitlines()[0] == f"ran as: {ran}"


def test_a_column_written_as_the_first_word_of_one_columns_name_is_that_column(tmp_path):
    members = "| Vardas, pavardė | Pareigos | Telefonas |\n|---|---|---|\n| Antanas Jankauskas | varovas | +370 655 90 172 |\n"
    tables = load_tables([lay(tmp_path, {"nariai.md": members})])
    shown = run_query(tables, "SELECT Telefonas FROM nariai WHERE Vardas LIKE '%Jankausk%'")
    assert shown.splitlines()[:3] == [
        "ran as: SELECT Telefonas FROM nariai WHERE \"Vardas, pavardė\" LIKE '%Jankausk%'", "Telefonas", "+370 655 90 172"]


def test_a_column_of_another_table_is_named_with_its_table(tmp_path):
    log = {"luni": [{"luna": "2026-11", "masuratori": [{"data": "2026-11-02", "a_jeun": 118}]}]}
    tables = load_tables([lay(tmp_path, {"glicemii.json": json.dumps(log)})])
    with pytest.raises(ToolFailure, match="a_jeun is a column of glicemii_masuratori"):
        run_query(tables, "SELECT AVG(a_jeun) FROM glicemii")


def test_a_column_with_no_one_close_name_is_still_an_error(tmp_path):
    tables = load_tables([lay(tmp_path, {"t.csv": "menge_a,menge_b\n1,2\n"})])
    with pytest.raises(ToolFailure, match="no column menge"):
        run_query(tables, "SELECT menge FROM t")


def test_records_grouped_under_keys_are_one_table_with_the_group_as_a_column(tmp_path):
    log = {"klub": "Łucznik", "miesiace": {
        "październik": [{"data": "04.10.2026", "strzaly": 60}],
        "listopad": [{"data": "07.11.2026", "strzaly": 60}, {"data": "14.11.2026", "strzaly": 72}]}}
    tables = load_tables([lay(tmp_path, {"luk/treningi.json": json.dumps(log)})])
    assert tables.names() == ["luk_treningi_miesiace"]
    assert run_query(tables, "SELECT SUM(strzaly) AS n FROM luk_treningi_miesiace WHERE miesiace = 'listopad'") == "n\n132"


def test_records_keyed_by_their_names_are_one_table_with_the_name_as_a_column(tmp_path):
    fridges = {"association": "Frigos Solidaires", "frigos": {
        "rue Pasteur": {"lieu": "boulangerie", "dernier_nettoyage": "2026-11-20"},
        "place Sathonay": {"lieu": "porche", "dernier_nettoyage": "2026-11-27"}}}
    tables = load_tables([lay(tmp_path, {"benevolat/frigos.json": json.dumps(fridges)})])
    assert tables.names() == ["benevolat_frigos_frigos"]
    shown = run_query(tables, "SELECT dernier_nettoyage FROM benevolat_frigos_frigos WHERE frigos = 'rue Pasteur'")
    assert shown.splitlines()[:2] == ["dernier_nettoyage", "2026-11-20"]


def test_a_list_of_records_inside_each_record_is_a_table_with_its_parents_fields(tmp_path):
    geckos = {"terrarium": {"lampa": "UVB 5%"}, "zwierzeta": [
        {"imie": "Mango", "wazenia": [{"data": "2026-10-30", "masa_g": 63}, {"data": "2026-11-27", "masa_g": 61}]},
        {"imie": "Kiwi", "wazenia": [{"data": "2026-12-04", "masa_g": 74}]}]}
    tables = load_tables([lay(tmp_path, {"gekony/gekony.json": json.dumps(geckos)})])
    assert tables.names() == ["gekony_gekony", "gekony_gekony_wazenia"]
    shown = run_query(tables, "SELECT masa_g FROM gekony_gekony_wazenia WHERE imie = 'Mango' ORDER BY data DESC LIMIT 1")
    assert shown.splitlines()[:2] == ["masa_g", "61"]


def test_lists_of_records_further_down_are_tables_with_the_fields_of_all_above(tmp_path):
    log = {"regions": [
        {"region": "Bretagne", "phares": [
            {"nom": "Eckmühl", "marches": 307, "visites": [{"date": "2025-08-14", "monte": True},
                                                           {"date": "2026-07-22", "monte": True}]},
            {"nom": "Créac'h", "marches": 247, "visites": [{"date": "2026-07-28", "monte": False}]}]},
        {"region": "Normandie", "phares": [
            {"nom": "Gatteville", "marches": 365, "visites": [{"date": "2026-05-03", "monte": True}]}]}]}
    tables = load_tables([lay(tmp_path, {"phares/carnet.json": json.dumps(log)})])
    assert tables.names() == ["phares_carnet", "phares_carnet_phares", "phares_carnet_phares_visites"]
    shown = run_query(tables, "SELECT SUM(marches) FROM phares_carnet_phares_visites WHERE monte AND date >= '2026-01-01'")
    assert shown.splitlines()[:2] == ["SUM(marches)", "672"]
    with pytest.raises(ToolFailure, match="date is a column of phares_carnet_phares_visites"):
        run_query(tables, "SELECT SUM(marches) FROM phares_carnet_phares WHERE date >= '2026-01-01'")


def test_an_aggregate_over_no_row_is_run_again_with_the_where_loosened(tmp_path):
    dues = "ay\ttutar (₺)\n2025-12\t1.000\n2026-01\t1.250\n2026-02\t1.600\n"
    tables = load_tables([lay(tmp_path, {"aidat.tsv": dues})])
    shown = run_query(tables, "SELECT SUM(tutar) FROM aidat WHERE ay = '2026'")
    assert shown.splitlines()[1:] == [NO_EXACT_ROW, 'SUM("tutar (₺)")', "2850"]
    nothing = run_query(tables, "SELECT SUM(tutar) FROM aidat WHERE ay = '2027'")
    assert "no row matched the WHERE; the values its columns hold: ay: 2025-12, 2026-01, 2026-02" in nothing
