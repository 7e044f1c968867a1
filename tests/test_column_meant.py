"""The column a failed query meant, chosen by the model from its table's columns (column_meant.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from saturnd.testing.fake_model import Reply, call
from saturnd.tools.tables import load_tables
from saturnd.turn.column_meant import columns_meant, names_lacking
from tests.conftest import of_type
from tests.test_first_move import lp

# Indonesian belt gradings
GRADINGS = ("| Tanggal | Ujian ke tingkat | Hasil |\n|---|---|---|\n| 2025-06-22 | sabuk hijau | lulus |\n"
            "| 2026-06-14 | sabuk merah | lulus |\n| 2026-11-29 | sabuk cokelat | tidak lulus |\n")


@pytest.fixture
def gradings(tmp_path: Path):
    (tmp_path / "ujian.md").write_text(GRADINGS)
    (tmp_path / "biaya.csv").write_text("Tanggal,Biaya\n2026-06-14,250000\n")
    return load_tables([tmp_path])


@pytest.mark.parametrize(("sql", "lacking"), [
    ("SELECT date, \"Ujian ke tingkat\" FROM ujian WHERE Hasil = 'lulus' ORDER BY date DESC", ["date"]),
    ("SELECT MAX(Tanggal) AS latest FROM ujian WHERE result = 'lulus' ORDER BY latest", ["result"]),
    ("SELECT Tanggal FROM ujian", None),
    ("SELECT u.date FROM ujian u JOIN biaya b ON b.Tanggal = u.Tanggal", None),  # several tables: not asked
    ("SELECT nothing FROM no_such_table", None),
])
def test_the_names_a_one_table_query_uses_that_its_table_lacks(gradings, sql, lacking):
    found = names_lacking(gradings, sql)
    assert (found[2] if found else None) == lacking


async def test_the_column_the_model_surely_meant_is_put_in_the_query(model, fake_model, gradings):
    fake_model.enqueue_choice(json.dumps({"column": "Tanggal"}))
    mended = await columns_meant(model, gradings, "SELECT date FROM ujian WHERE Hasil = 'lulus' ORDER BY date DESC LIMIT 1")
    assert mended == ('SELECT "Tanggal" FROM ujian WHERE Hasil = \'lulus\' ORDER BY "Tanggal" DESC LIMIT 1', {"date": "Tanggal"})
    body = fake_model.choice_requests[-1]
    assert body["response_format"]["json_schema"]["schema"]["properties"]["column"]["enum"] == [
        "Tanggal", "Ujian ke tingkat", "Hasil", "none"]
    assert body["messages"][-1]["content"] == (
        "Table: Tanggal (date; e.g. 2025-06-22), Ujian ke tingkat (text; e.g. sabuk hijau), Hasil (text; e.g. lulus)\n"
        "The query: SELECT date FROM ujian WHERE Hasil = 'lulus' ORDER BY date DESC LIMIT 1\nThe column it named: date")


async def test_none_an_unsure_choice_or_an_unreadable_reply_leaves_the_query_failed(model, fake_model, gradings):
    unsure = [lp('{"', 1.0), lp("column", 1.0), lp('":', 1.0), lp(' "', 1.0), lp("H", 0.4, ("T", 0.35), ("none", 0.25)),
              lp('asil"}', 1.0)]
    fake_model.enqueue_choice(json.dumps({"column": "none"}), Reply(text='{"column": "Hasil"}', logprobs=unsure),
                              json.dumps({"route": "answer"}))
    for _ in range(3):
        assert await columns_meant(model, gradings, "SELECT telefon FROM ujian") is None


async def test_a_query_that_failed_on_a_column_named_otherwise_runs_with_the_one_meant(harness):
    await harness.start()
    (harness.env.workdir / "ujian.md").write_text(GRADINGS)
    harness.model.enqueue_choice(json.dumps({"route": "look_up"}), json.dumps({"span": "none", "which": "this", "month": "none"}),
                                 json.dumps({"column": "Tanggal"}))
    harness.model.enqueue(call("query", {"sql": "SELECT date FROM ujian WHERE Hasil = 'lulus' ORDER BY date DESC LIMIT 1"}),
                          "2026-06-14.")
    _, events = await harness.turn("Kapan saya terakhir lulus ujian pencak silat?")
    finished = of_type(events, "tool_finished")[0]
    assert finished.fate == "ran"
    assert ("ran as: SELECT \"Tanggal\" FROM ujian WHERE Hasil = 'lulus' ORDER BY \"Tanggal\" DESC LIMIT 1 (date read as"
            " Tanggal, as you chose)\nTanggal\n2026-06-14") in finished.result
