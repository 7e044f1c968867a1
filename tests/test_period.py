"""The time a question is about, read by the model under a grammar, and the rows a query read
checked against it (period.py)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from saturnd.testing.fake_model import Reply, call
from saturnd.tools.tables import load_tables
from saturnd.turn import prompts
from saturnd.turn.period import Period, period_of, read_period, rows_read
from tests.conftest import of_type
from tests.test_first_move import lp

TODAY = date(2026, 12, 7)
# Hungarian purchases (dates), Greek milk by month ("2026-07"), French hours
PURCHASES = "dátum;modell;ár (Ft)\n2025-11-09;London Bus;12 500\n2026-01-18;Jaguar XK140;9 500\n2026-11-22;Traktor;5 500\n"
MILK = "μήνας\tκατσίκα\tλίτρα\n2025-11\tΜαργαρίτα\t44\n2026-03\tΜαργαρίτα\t48\n2026-07\tΜαργαρίτα\t70\n2026-07\tΑσπρούλα\t57\n"


@pytest.mark.parametrize(("span", "which", "month", "expected"), [
    ("year", "this", "none", "2026-01-01 to 2026-12-31"),
    ("year", "last", "none", "2025-01-01 to 2025-12-31"),
    ("month", "this", "none", "2026-12-01 to 2026-12-31"),
    ("month", "last", "none", "2026-11-01 to 2026-11-30"),
    ("month", "named", "november", "2026-11-01 to 2026-11-30"),
    ("month", "named", "february", "2026-02-01 to 2026-02-28"),
])
def test_a_time_read_is_dates_a_month_alone_the_latest_not_after_today(span, which, month, expected):
    assert str(period_of(span, which, month, TODAY)) == expected


@pytest.mark.parametrize(("span", "which", "month"), [("none", "this", "none"), ("month", "named", "none"),
                                                       ("year", "named", "none")])
def test_naming_no_time_is_no_period(span, which, month):
    assert period_of(span, which, month, TODAY) is None


def test_a_month_after_todays_is_last_years_and_last_month_in_january_is_december():
    assert str(period_of("month", "named", "december", date(2026, 11, 20))) == "2025-12-01 to 2025-12-31"
    assert str(period_of("month", "last", "none", date(2027, 1, 5))) == "2026-12-01 to 2026-12-31"


@pytest.fixture
def tables(tmp_path: Path):
    (tmp_path / "kisautok.csv").write_text(PURCHASES)
    (tmp_path / "gala.tsv").write_text(MILK)
    return load_tables([tmp_path])


YEAR = Period(date(2026, 1, 1), date(2026, 12, 31))


@pytest.mark.parametrize(("sql", "read_in", "read_out", "kept_in", "off"), [
    ('SELECT SUM("ár (Ft)") FROM kisautok', 2, 1, 2, True),  # every year summed
    ("SELECT SUM(\"ár (Ft)\") FROM kisautok WHERE dátum LIKE '2026%'", 2, 0, 2, False),
    ("SELECT λίτρα FROM gala WHERE κατσίκα = 'Μαργαρίτα' AND μήνας = '2026-07'", 1, 0, 2, True),  # one month of the year
    ("SELECT SUM(λίτρα) FROM gala WHERE κατσίκα = 'Μαργαρίτα' AND μήνας >= '2026-01'", 2, 0, 2, False),
])
def test_the_rows_a_query_read_are_counted_against_the_period(tables, sql, read_in, read_out, kept_in, off):
    read = rows_read(tables, sql, YEAR)
    assert read is not None
    assert (read.read_in, read.read_out, read.kept_in, read.off) == (read_in, read_out, kept_in, off)


@pytest.mark.parametrize("sql", [
    "SELECT a.modell FROM kisautok a JOIN gala b ON a.modell = b.κατσίκα",
    "SELECT * FROM (SELECT * FROM kisautok)",
])
def test_a_query_over_several_tables_is_not_counted(tables, sql):
    assert rows_read(tables, sql, YEAR) is None


async def test_the_model_reads_the_period_under_a_grammar(model, fake_model):
    fake_model.enqueue_choice(json.dumps({"span": "month", "which": "named", "month": "november"}))
    period = await read_period(model, "Care a fost media glicemiei mele în noiembrie?", TODAY)
    assert str(period) == "2026-11-01 to 2026-11-30"
    body = fake_model.choice_requests[0]
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["span"]["enum"] == ["none", "year", "month"] and "november" in schema["properties"]["month"]["enum"]
    assert body["messages"][-1]["content"] == "Care a fost media glicemiei mele în noiembrie?"


async def test_a_time_read_with_less_than_half_the_likelihood_is_no_period(model, fake_model):
    written = '{"span": "year", "which": "last", "month": "none"}'
    tokens = [lp('{"', 1.0), lp("span", 1.0), lp('":', 1.0), lp(' "', 1.0), lp("year", 0.4, ("none", 0.5)),
              lp('", "which": "last", "month": "none"}', 1.0)]
    fake_model.enqueue_choice(Reply(text=written, logprobs=tokens))
    assert await read_period(model, "Parašyk Antanui, kad šeštadienio medžioklė atšaukta.", TODAY) is None


async def test_an_unreadable_reply_is_no_period(model, fake_model):
    fake_model.enqueue_choice(json.dumps({"route": "answer"}))
    assert await read_period(model, "Mennyit költöttem idén?", TODAY) is None


LOOK_UP = json.dumps({"route": "look_up"})


async def test_a_query_off_the_period_says_so_once_in_its_result(harness):
    await harness.start()
    (harness.env.workdir / "kisautok.csv").write_text(PURCHASES)
    year = str(date.today().year)
    harness.model.enqueue_choice(LOOK_UP, json.dumps({"span": "year", "which": "this", "month": "none"}))
    every_year = call("query", {"sql": 'SELECT SUM("ár (Ft)") FROM kisautok'})
    harness.model.enqueue(every_year, every_year, "27 500 Ft.")
    turn_id, events = await harness.turn("Mennyit költöttem idén a kisautókra?")
    told = prompts.PERIOD_TOLD.format(period=f"{year}-01-01 to {year}-12-31")
    assert harness.sent(0)[-1] == {"role": "user", "content": told}
    results = [f.result for f in of_type(events, "tool_finished")]
    assert results[0].endswith("(by dátum). Keep that time's rows: WHERE dátum BETWEEN"
                               f" '{year}-01-01' AND '{year}-12-31'.")
    assert "[Saturn] Checked against" not in results[1]  # said once a turn
    trace = await harness.client.call("trace/get", {"turn_id": turn_id})
    assert trace.first_move.endswith(f"about {year}-01-01 to {year}-12-31")
