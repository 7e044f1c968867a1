"""The column a failed query meant, chosen by the model under a grammar from its table's columns.

A query that names a column its table does not have fails, and the error lists the columns
there are; the 1.5B then wrote the same query again, unchanged, twice (stop 62's first run: an
Indonesian "date" for "Tanggal", a Czech "vyhry" for the results column, three of eight
look-ups). The query tool mends a name written nearly right by itself; one named in another
language or by its meaning it cannot. So when a query over one table fails on names it lacks,
the model is asked, one name at a time and under a grammar, which of the table's columns it
meant, or none; with a sure choice for each, the query runs again with those columns, and the
result says what ran.
"""

from __future__ import annotations

import json

from sqlglot import exp

from saturnd.model.client import ModelClient, ModelError
from saturnd.tools.query import one_table_select
from saturnd.tools.tables import TableInfo, Tables
from saturnd.turn.first_move import value_probabilities

NONE = "none"
SURE = 0.5
"""The share of the likelihood a column chosen needs; below it the query is left failed."""
PROMPT = """\
A query named a column that its table does not have. Say which of the table's columns it \
meant, judging by meaning: the names may be in any language. Say "none" when no column holds \
what it named. Reply {"column": "<one of the table's columns, or none>"}."""
EXAMPLES = (
    ("Table: Datum (date; e.g. 2026-03-02), Betrag (€) (number; e.g. 24.5), Zweck (text; e.g. Tanken)",
     "SELECT SUM(amount) FROM kasse WHERE Datum >= '2026-03-01'", "amount", "Betrag (€)"),
    ("Table: fecha (date; e.g. 2026-05-11), ruta (text; e.g. Peñalara), km (number; e.g. 12.4)",
     "SELECT telefono FROM rutas WHERE ruta = 'Peñalara'", "telefono", NONE),
)


def names_lacking(tables: Tables, sql: str) -> tuple[exp.Select, TableInfo, list[str]] | None:
    """For a SELECT over one table: its tree, the table, and the column names it uses that the
    table lacks (aliases of its own aside); None for any other query, or one that lacks none."""
    if (select := one_table_select(tables, sql)) is None:
        return None
    tree, table = select
    have = {c.name.lower() for c in table.columns} | {a.alias.lower() for a in tree.expressions if isinstance(a, exp.Alias)}
    lacking = list(dict.fromkeys(c.name for c in tree.find_all(exp.Column) if c.name.lower() not in have))
    return (tree, table, lacking) if lacking else None


async def columns_meant(client: ModelClient, tables: Tables, sql: str) -> tuple[str, dict[str, str]] | None:
    """The query with each name its table lacks read as the column the model surely meant, and
    those readings; None when it lacks none, or one is none, unsure or cannot be asked."""
    found = names_lacking(tables, sql)
    if found is None:
        return None
    tree, table, lacking = found
    described = "Table: " + ", ".join(_described(table, i) for i in range(len(table.columns)))
    names = tuple(c.name for c in table.columns)
    meant: dict[str, str] = {}
    for name in lacking:
        chosen = await _choose(client, described, sql, name, names)
        if chosen is None:
            return None
        meant[name] = chosen
    for column in list(tree.find_all(exp.Column)):
        if column.name in meant:
            column.replace(exp.column(meant[column.name], quoted=True))
    return tree.sql(dialect="sqlite"), meant


def _described(table: TableInfo, i: int) -> str:
    column = table.columns[i]
    example = next((str(row[i]) for row in table.head if i < len(row) and row[i] not in (None, "")), "")
    return f"{column.name} ({column.kind}" + (f"; e.g. {example[:40]})" if example else ")")


async def _choose(client: ModelClient, described: str, sql: str, name: str, names: tuple[str, ...]) -> str | None:
    choices = (*names, NONE)
    schema = {"type": "object", "properties": {"column": {"type": "string", "enum": list(choices)}},
              "required": ["column"], "additionalProperties": False}
    messages = [{"role": "system", "content": PROMPT}]
    for table, query, named, column in EXAMPLES:
        messages += [{"role": "user", "content": _asking(table, query, named)},
                     {"role": "assistant", "content": json.dumps({"column": column}, ensure_ascii=False)}]
    messages.append({"role": "user", "content": _asking(described, sql, name)})
    try:
        reply = await client.choose(messages, schema, max_tokens=24)
        chosen = json.loads(reply.content)["column"]
    except (ModelError, ValueError, KeyError, TypeError):
        return None
    shares = value_probabilities(reply, "column", choices)
    if chosen not in names or shares is not None and shares.get(chosen, 0.0) < SURE:
        return None
    return str(chosen)


def _asking(table: str, sql: str, name: str) -> str:
    return f"{table}\nThe query: {sql}\nThe column it named: {name}"
