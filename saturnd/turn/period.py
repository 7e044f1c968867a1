"""The time a question is about, as the model reads it, and the rows a query read against it.

A question about "this year", "November" or "last month" asked of a table is answered from that
time's rows. The 1.5B summed every year's purchases for "idén" (this year), one month's milk for
"φέτος" (this year), and every year's best time in a message to a coach (stops 58 and 59's first
runs). So before the first pass of a look-up or a message over the person's tables, the model says
under a grammar which time the question names, if any (this or last year or month, or a month
named; in any language, nothing here reads one); the harness turns that into dates and tells the
model. After a query runs, the
rows it read are counted against that time, by the table's date column: when it read rows from
outside it or left out rows of it that its other conditions keep, the result says so, once.
"""

from __future__ import annotations

import calendar
import json
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from sqlglot import exp

from saturnd.model.client import ModelClient, ModelError
from saturnd.tools.query import one_table_select
from saturnd.tools.tables import TableInfo, Tables, ident, load_tables
from saturnd.turn import prompts
from saturnd.turn.first_move import value_probabilities

MONTH_TEXT = re.compile(r"^\d{4}-\d{2}$")


@dataclass(frozen=True)
class Period:
    start: date
    end: date

    def __str__(self) -> str:
        return f"{self.start.isoformat()} to {self.end.isoformat()}"

    def holds(self, when: str) -> bool:
        """Whether a date column's value ("2026-11-05", or a month, "2026-11") falls in it."""
        if MONTH_TEXT.match(when):
            return self.start.isoformat()[:7] <= when <= self.end.isoformat()[:7]
        return self.start.isoformat() <= when[:10] <= self.end.isoformat()


PROMPT = """\
Say which time the person's question is about, if it names one. The question may be in any \
language: judge what it means, not its wording.
- span: "year" or "month" when it names one; "none" when it names no time, or asks about all the \
time there is.
- which: "this" (this year, this month), "last" (last year, last month), or "named" (a month named).
- month: for a month named, which one in English; else "none".
Reply {"span": "<span>", "which": "<which>", "month": "<month or none>"}."""
SPANS = ("none", "year", "month")
WHICH = ("this", "last", "named")
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
EXAMPLES = (
    ("How much did I spend on the boat this year?", "year", "this", "none"),
    ("Wie viele Stunden habe ich im Oktober gearbeitet?", "month", "named", "october"),
    ("¿Cuántos libros he leído en total?", "none", "this", "none"),
    ("Hoeveel kostte het gas vorige maand?", "month", "last", "none"),
    ("Quanto ho pagato l'anno scorso per la palestra?", "year", "last", "none"),
    ("Écris à Marc que la réunion de samedi est annulée.", "none", "this", "none"),
)
"""Worked readings, as earlier turns. With the month as a number and "Oktober" the example, the
1.5B read the Romanian "noiembrie" as month 10 (stop 59's rerun 1); a month is named in English."""
SURE = 0.5
"""The share of the likelihood the span read needs: below it the question is taken to name none
(stop 59's rerun 1: a text to a hunter about Saturday's drive was read as about last year)."""


async def read_period(client: ModelClient, question: str, today: date) -> Period | None:
    """The time `question` is about, as the model reads it under a grammar; None when it names
    none, the model is unsure of it, or the reply can't be read."""
    schema = {"type": "object",
              "properties": {"span": {"type": "string", "enum": list(SPANS)},
                             "which": {"type": "string", "enum": list(WHICH)},
                             "month": {"type": "string", "enum": ["none", *MONTHS]}},
              "required": ["span", "which", "month"], "additionalProperties": False}
    messages = [{"role": "system", "content": PROMPT}]
    for said, span, which, month in EXAMPLES:
        messages += [{"role": "user", "content": said},
                     {"role": "assistant", "content": json.dumps({"span": span, "which": which, "month": month})}]
    messages.append({"role": "user", "content": question})
    try:
        reply = await client.choose(messages, schema, max_tokens=32)
        chosen = json.loads(reply.content)
        span, which, month = chosen["span"], chosen["which"], chosen["month"]
    except (ModelError, ValueError, KeyError, TypeError):
        return None
    shares = value_probabilities(reply, "span", SPANS)
    if shares is not None and shares.get(span, 0.0) < SURE:
        return None
    return period_of(span, which, month, today)


def period_of(span: str, which: str, month: str, today: date) -> Period | None:
    """The dates of a time as read: a month named alone is the latest one not after today."""
    if span == "year" and which in ("this", "last"):
        year = today.year - (which == "last")
        return Period(date(year, 1, 1), date(year, 12, 31))
    if span == "month" and which == "named" and month in MONTHS:
        m = MONTHS.index(month) + 1
        y = today.year if m <= today.month else today.year - 1
    elif span == "month" and which in ("this", "last"):
        y, m = (today.year, today.month) if which == "this" else (today.year - (today.month == 1), (today.month - 2) % 12 + 1)
    else:
        return None
    return Period(date(y, m, 1), date(y, m, calendar.monthrange(y, m)[1]))


@dataclass(frozen=True)
class RowsRead:
    column: str
    months: bool
    """Its values are months ("2026-11"), not dates."""
    read_in: int
    """Rows the query read from inside the period."""
    read_out: int
    """Rows it read from outside it."""
    kept_in: int
    """Rows of the period its conditions on other columns keep."""

    @property
    def off(self) -> bool:
        return self.read_out > 0 or self.read_in < self.kept_in


def rows_read(tables: Tables, sql: str, period: Period) -> RowsRead | None:
    """The rows a one-table SELECT read, counted against `period` by the table's date column;
    None when the query reads several tables, a subquery, or a table with no date column."""
    if (select := one_table_select(tables, sql)) is None:
        return None
    tree, table = select
    if (column := _date_column(tables, table, tree)) is None:
        return None
    where = tree.args.get("where")
    conditions = list(where.this.flatten()) if where is not None and isinstance(where.this, exp.And) else \
        [where.this] if where is not None else []
    other = [c for c in conditions if column.lower() not in {n.name.lower() for n in c.find_all(exp.Column)}]
    read = _dates(tables, table, column, conditions)
    kept = _dates(tables, table, column, other)
    if read is None or kept is None:
        return None
    inside = sum(map(period.holds, read))
    return RowsRead(column, months=all(MONTH_TEXT.match(w) for w in kept), read_in=inside,
                    read_out=len(read) - inside, kept_in=sum(map(period.holds, kept)))


def _date_column(tables: Tables, table: TableInfo, tree: exp.Select) -> str | None:
    """The table's column of dates (or of months, "2026-11"), the one the query filters on first."""
    dated = [c.name for c in table.columns if c.kind == "date"]
    for c in table.columns:
        if c.kind == "text" and c.name not in dated:
            with tables.lock:
                values = [v for (v,) in tables.db.execute(
                    f"SELECT DISTINCT {ident(c.name)} FROM {ident(table.name)} WHERE {ident(c.name)} IS NOT NULL LIMIT 50")]
            if values and all(isinstance(v, str) and MONTH_TEXT.match(v) for v in values):
                dated.append(c.name)
    used = {n.name.lower() for n in tree.find_all(exp.Column)}
    return next((c for c in dated if c.lower() in used), dated[0] if dated else None)


def _dates(tables: Tables, table: TableInfo, column: str, conditions: list[exp.Expr]) -> list[str] | None:
    query = exp.select(exp.column(column, quoted=True)).from_(exp.table_(table.name, quoted=True))
    for condition in conditions:
        query = query.where(condition.copy())
    with tables.lock:
        try:
            return [str(v) for (v,) in tables.db.execute(query.sql(dialect="sqlite")) if v is not None]
        except Exception:  # a condition SQLite reads otherwise than sqlglot wrote it back
            return None


def off_period_note(cwd: Path, kb: Path, sql: str, period: Period) -> str:
    """What the result of a query that ran says besides, when it read off the period; "" else."""
    read = rows_read(load_tables([cwd, kb]), sql, period)
    if read is None or not read.off:
        return ""
    start, end = (period.start.isoformat()[:7], period.end.isoformat()[:7]) if read.months else \
        (period.start.isoformat(), period.end.isoformat())
    return prompts.PERIOD_ROWS.format(period=period, column=ident(read.column), read_in=read.read_in,
                                      read_out=read.read_out, kept_in=read.kept_in, start=start, end=end)
