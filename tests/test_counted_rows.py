"""The rows a figure counts, judged by the model row by row against the question (counted_rows.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from saturnd.testing.fake_model import Reply, call
from saturnd.tools.tables import load_tables
from saturnd.turn.counted_rows import judge_rows, rows_read
from saturnd.turn.fencing import NOT_INSTRUCTIONS
from tests.conftest import of_type
from tests.test_first_move import lp

# Spanish open-water swims: one called off for fog, one not started
SWIMS = ("fecha;travesía;distancia_km;estado\n2026-06-14;Bahía de Cádiz;2,5;terminada\n"
         "2026-07-05;Lago de Sanabria;3,8;terminada\n2026-07-26;Islas Cíes;4,0;suspendida por niebla\n"
         "2026-08-16;Cap de Creus;5,5;terminada\n")
OWNERS = "travesía;club\nBahía de Cádiz;CN Cádiz\n"


@pytest.fixture
def swims(tmp_path: Path):
    (tmp_path / "travesias.csv").write_text(SWIMS)
    (tmp_path / "clubes.csv").write_text(OWNERS)
    return load_tables([tmp_path])


def test_the_rows_a_one_table_figure_read_are_listed_as_column_value_pairs(swims):
    read = rows_read(swims, "SELECT SUM(distancia_km) FROM travesias WHERE fecha >= '2026-07-01'")
    assert read is not None
    _, rowids, shown = read
    assert len(rowids) == 3
    assert shown[1] == "fecha: 2026-07-26; travesía: Islas Cíes; distancia_km: 4.0; estado: suspendida por niebla"


@pytest.mark.parametrize("sql", [
    "SELECT fecha FROM travesias",  # no figure worked out
    "SELECT SUM(distancia_km) FROM travesias WHERE fecha = '2026-06-14'",  # one row: nothing to judge
    "SELECT SUM(t.distancia_km) FROM travesias t JOIN clubes c ON c.travesía = t.travesía",
    "SELECT estado, SUM(distancia_km) FROM travesias GROUP BY estado",
    "SELECT SUM(distancia_km) FROM travesias WHERE fecha IN (SELECT fecha FROM travesias)",
])
def test_other_queries_are_not_judged(swims, sql):
    assert rows_read(swims, sql) is None


async def test_the_rows_the_model_surely_says_do_not_count_are_left_out(model, fake_model, swims):
    fake_model.enqueue_choice(json.dumps({"1": "yes", "2": "yes", "3": "no", "4": "yes"}))
    judged = await judge_rows(model, "¿Cuántos km de travesías he nadado este año?", swims,
                              "SELECT SUM(distancia_km) FROM travesias")
    assert judged is not None and judged.read == 4
    assert judged.left_out == ["fecha: 2026-07-26; travesía: Islas Cíes; distancia_km: 4.0; estado: suspendida por niebla"]
    assert swims.db.execute(judged.sql).fetchall() == [(11.8,)]
    body = fake_model.choice_requests[-1]
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["required"] == ["1", "2", "3", "4"] and schema["properties"]["3"]["enum"] == ["yes", "no"]
    assert body["messages"][-1]["content"].startswith("Question: ¿Cuántos km de travesías he nadado este año?\nRows:\n1. ")


async def test_an_unsure_no_keeps_its_row(model, fake_model, swims):
    written = '{"1": "yes", "2": "yes", "3": "no", "4": "yes"}'
    tokens = [lp('{"1": "yes", "2": "yes", "', 1.0), lp("3", 1.0), lp('":', 1.0), lp(' "', 1.0),
              lp("no", 0.5, ("yes", 0.45)), lp('", "4": "yes"}', 1.0)]
    fake_model.enqueue_choice(Reply(text=written, logprobs=tokens))
    assert await judge_rows(model, "¿Cuántos km he nadado?", swims, "SELECT SUM(distancia_km) FROM travesias") is None


@pytest.mark.parametrize("said", [{"1": "yes", "2": "yes", "3": "yes", "4": "yes"}, {"1": "no", "2": "no", "3": "no", "4": "no"},
                                  {"route": "answer"}])
async def test_rows_all_counted_all_left_out_or_unread_change_nothing(model, fake_model, swims, said):
    fake_model.enqueue_choice(json.dumps(said))
    assert await judge_rows(model, "¿Cuántos km he nadado?", swims, "SELECT SUM(distancia_km) FROM travesias") is None


async def test_a_figure_over_rows_the_question_does_not_count_is_shown_beside_the_one_over_the_rest(harness):
    await harness.start()
    (harness.env.workdir / "travesias.csv").write_text(SWIMS)
    harness.model.enqueue_choice(json.dumps({"route": "look_up"}), json.dumps({"span": "none", "which": "this", "month": "none"}),
                                 json.dumps({"1": "yes", "2": "yes", "3": "no", "4": "yes"}))
    harness.model.enqueue(call("query", {"sql": "SELECT SUM(distancia_km) FROM travesias"}), "11,8 km.")
    _, events = await harness.turn("¿Cuántos km de travesías he terminado?")
    result = of_type(events, "tool_finished")[0].result
    # the figure over the rows the question counts comes first: the 1.5B answers with the first it reads
    assert result == (
        "[Saturn] Read row by row against the question, as you judged each row, 1 of the 4 rows this query read are"
        " not what the question asks about:\n<outside source=\"rows left out\">\n"
        f"{NOT_INSTRUCTIONS}\nfecha: 2026-07-26; travesía: Islas Cíes; distancia_km: 4.0; estado: suspendida por niebla\n"
        "</outside>\nOver the other 3 rows, the rows the question counts, the query gives:\n<outside source=\"query SELECT"
        f" SUM(distancia_km) FROM travesias WHERE rowid IN (1, 2, 4)\">\n{NOT_INSTRUCTIONS}\nSUM(distancia_km)\n11.8\n"
        "</outside>\nOver all 4 rows, as the query was written, it gave:\n<outside source=\"query SELECT SUM(distancia_km)"
        f" FROM travesias\">\n{NOT_INSTRUCTIONS}\nSUM(distancia_km)\n15.8\n</outside>")
