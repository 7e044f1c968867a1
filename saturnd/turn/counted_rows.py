"""The rows a figure counts, as the model judges them, row by row: a check that reads what a query ran over.

The 1.5B filters a table by what the question's words name (a year, a month, a name) and sums
rows whose own words rule them out: a swim called off for fog, a round stopped after nine
holes, a pair given back (stop 62's first run: 24.8 km for 14.8, and most sums of stops 59–61's
messages). No list of words could write those filters in every language, but asked of one row
at a time, what it says is something the model can judge. So after a query that works one figure
out of the rows of one table ran, the model is asked under a grammar, for each row the query
read, whether the question counts it. When it says, surely, that some do not, the same SELECT
runs again over the others, and the result shows which rows were left out and the figure over
the rest: the model answers from both.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path

from sqlglot import exp

from saturnd.model.client import ModelClient, ModelError
from saturnd.model.types import ModelReply
from saturnd.tools.query import one_table_select, run_query
from saturnd.tools.registry import ToolFailure
from saturnd.tools.tables import Tables, load_tables
from saturnd.turn import prompts
from saturnd.turn.fencing import fence
from saturnd.turn.first_move import value_probabilities

ROWS_JUDGED = 16
"""More rows than this are not judged: the prompt would grow past what a decision should cost."""
CELL_CHARS = 80
LEFT_OUT = 0.6
"""The share of the likelihood a "no" needs before its row is left out: an unsure one is kept."""
PROMPT = """\
Say for each numbered row of a table whether the person's question counts it. The question may \
be in any language: judge what it means, not its wording.
- "yes": the row is one of the things the question asks about.
- "no": what the row itself says puts it outside them: it did not take place, was called off or \
not finished, was given back or refused, is someone else's, or is of another kind than the \
question asks about.
Reply with one "yes" or "no" per row number."""
EXAMPLES = (
    ("¿Cuánto gasté en gasolina en octubre?",
     [{"fecha": "2026-10-03", "concepto": "gasolina", "importe": "52,10"},
      {"fecha": "2026-10-11", "concepto": "gasolina, devuelto por cargo duplicado", "importe": "52,10"},
      {"fecha": "2026-10-20", "concepto": "lavado del coche", "importe": "12"},
      {"fecha": "2026-10-28", "concepto": "gasolina", "importe": "48,00"}],
     ("yes", "no", "no", "yes")),
    ("How many km did I run in March?",
     [{"date": "2026-03-02", "km": "8", "note": "easy"},
      {"date": "2026-03-09", "km": "12.5", "note": "hills, windy"},
      {"date": "2026-03-21", "km": "21.1", "note": "half marathon"}],
     ("yes", "yes", "yes")),
)
"""Worked readings, as earlier turns: one that leaves rows out, one where every row counts."""


@dataclass(frozen=True)
class Judged:
    sql: str
    """The query's SELECT over the rows it kept."""
    left_out: list[str]
    """The rows left out, as "column: value" pairs."""
    read: int


def rows_read(tables: Tables, sql: str) -> tuple[exp.Select, list[int], list[str]] | None:
    """For a SELECT that works one figure out of one table's rows (no join, group or subquery):
    its tree, and the rows its WHERE keeps, by rowid and as "column: value" pairs. None for any
    other query, or when it keeps fewer than two rows or more than ROWS_JUDGED."""
    if (select := one_table_select(tables, sql)) is None:
        return None
    tree, table = select
    if not tree.find(exp.AggFunc) or any(tree.args.get(k) for k in ("group", "with", "having")):
        return None
    rows = exp.select("rowid", "*").from_(exp.table_(table.name, quoted=True))
    if (where := tree.args.get("where")) is not None:
        rows = rows.where(where.this.copy())
    with tables.lock:
        try:
            found = tables.db.execute(rows.limit(ROWS_JUDGED + 1).sql(dialect="sqlite")).fetchall()
        except Exception:  # a condition SQLite reads otherwise than sqlglot wrote it back
            return None
    if not 2 <= len(found) <= ROWS_JUDGED:
        return None
    names = [c.name for c in table.columns]
    shown = ["; ".join(f"{name}: {str(value)[:CELL_CHARS]}" for name, value in zip(names, row[1:], strict=False)
                       if value not in (None, "")) for row in found]
    return tree, [row[0] for row in found], shown


async def judge_rows(client: ModelClient, question: str, tables: Tables, sql: str) -> Judged | None:
    """The rows the query read that the model, asked row by row, surely says the question does not
    count, with the query over the others; None when it counts them all (or cannot be asked)."""
    read = rows_read(tables, sql)
    if read is None:
        return None
    tree, rowids, shown = read
    keys = [str(i) for i in range(1, len(shown) + 1)]
    schema = {"type": "object", "properties": {k: {"type": "string", "enum": ["yes", "no"]} for k in keys},
              "required": keys, "additionalProperties": False}
    messages = [{"role": "system", "content": PROMPT}]
    for asked, rows, counted in EXAMPLES:
        listed = ["; ".join(f"{k}: {v}" for k, v in row.items()) for row in rows]
        messages += [{"role": "user", "content": _asking(asked, listed)},
                     {"role": "assistant", "content": json.dumps({str(i): c for i, c in enumerate(counted, 1)})}]
    messages.append({"role": "user", "content": _asking(question, shown)})
    try:
        reply = await client.choose(messages, schema, max_tokens=8 * len(keys) + 8)
        said = json.loads(reply.content)
    except (ModelError, ValueError):
        return None
    out = [i for i, k in enumerate(keys) if said.get(k) == "no" and _sure(reply, k)]
    if not out or len(out) == len(keys):
        return None
    kept = [rowids[i] for i in range(len(keys)) if i not in out]
    over_kept = tree.copy().where(exp.column("rowid").isin(*kept))
    return Judged(over_kept.sql(dialect="sqlite"), [shown[i] for i in out], len(keys))


def _asking(question: str, rows: list[str]) -> str:
    return f"Question: {question}\nRows:\n" + "\n".join(f"{i}. {row}" for i, row in enumerate(rows, 1))


def _sure(reply: ModelReply, key: str) -> bool:
    shares = value_probabilities(reply, key, ("yes", "no"))
    return shares is None or shares.get("no", 0.0) >= LEFT_OUT


async def rows_counted(client: ModelClient, question: str, roots: list[Path], sql: str, written: str) -> str:
    """The result of a query that ran (`written`, as shown), or, when the model judges some of the
    rows its figure counts are not what the question asks about: those rows and the figure over the
    rest first, `written` after them (shown after, the 1.5B answered with it, the first figure it read:
    stop 62's rerun, 24.8 km beside the 14.8 over the swims that took place)."""
    tables = await asyncio.to_thread(load_tables, roots)
    judged = await judge_rows(client, question, tables, sql)
    if judged is None:
        return written
    try:
        result = await asyncio.to_thread(run_query, tables, judged.sql)
    except ToolFailure:
        return written
    return prompts.ROWS_LEFT_OUT.format(
        out=len(judged.left_out), read=judged.read, rows=fence("rows left out", "\n".join(judged.left_out)),
        kept=judged.read - len(judged.left_out), result=fence(f"query {judged.sql}", result.strip()), written=written)
