"""query: one read-only SQL SELECT over the tables of the working folder and the knowledge base.

The tables are copies of the files (tables.py), read-only three times over: the database is in
memory, `PRAGMA query_only` is on, and an authorizer lets only reads and functions through (no
ATTACH, which could write a file, no PRAGMA, no writes). A progress handler ends a query past
its time. Errors say what would work, for a small model's second try: the table names, the
columns of the tables asked about, SQLite's own date functions.
"""

from __future__ import annotations

import difflib
import re
import sqlite3
import time
from pathlib import Path
from typing import Annotated

import msgspec
import sqlglot
from sqlglot import exp

from saturnd.tools.registry import Tool, ToolEnv, ToolFailure, in_thread
from saturnd.tools.tables import TableInfo, Tables, ident, load_tables, show_cell

ROWS_SHOWN = 50
ROWS_COUNTED = 100_000
TIME_LIMIT_S = 2.0
SQL_CAP = 4_000
NAMES_LISTED = 30

FIRST_WORD = re.compile(r"^\W*(\w+)")
FILE_IN_FROM = re.compile(r"""(?i)\b(from|join)(\s+)(["'`\[]?)([^\s"'`\[\],;()]+)(["'`\]]?)""")
DATE_FUNCTIONS = (
    "SQLite's dates: strftime('%m', col) is the month, strftime('%Y-%m', col) the month of a year,"
    " date(col, '+7 days') adds, julianday(b) - julianday(a) counts days, date('now') is today"
    " (MONTH(), YEAR(), DAY(), DATEDIFF() work too)"
)
NOT_IN_SQLITE = {
    "DATE_ADD": "date(col, '+7 days')", "ADDDATE": "date(col, '+7 days')",
    "DATE_SUB": "date(col, '-7 days')", "SUBDATE": "date(col, '-7 days')",
    "DATE_FORMAT": "strftime('%Y-%m', col)", "TO_CHAR": "strftime('%Y-%m', col)",
    "FORMAT": "printf('%.2f', x)", "NOW": "datetime('now')", "GETDATE": "datetime('now')",
    "TODAY": "date('now')", "TO_DATE": "date(col)", "STR_TO_DATE": "date(col)",
    "WEEKDAY": "strftime('%w', col) (0 is Sunday)", "DAYOFWEEK": "strftime('%w', col) (0 is Sunday)",
    "WEEK": "strftime('%W', col)", "QUARTER": "(strftime('%m', col) + 2) / 3",
    "LEN": "length(x)", "CHAR_LENGTH": "length(x)", "ISNULL": "ifnull(x, 0)", "NVL": "ifnull(x, 0)",
    "LEFT": "substr(x, 1, n)", "RIGHT": "substr(x, -n)", "TRUNCATE": "round(x, 2)",
}


class QueryParams(msgspec.Struct, forbid_unknown_fields=True):
    sql: Annotated[str, msgspec.Meta(min_length=1, description="one SQLite SELECT")]


def run_query(tables: Tables, sql: str, max_rows: int = ROWS_SHOWN, time_limit_s: float = TIME_LIMIT_S) -> str:
    """The result of one read-only SELECT as a small text table, or a ToolFailure that says
    what would work."""
    text = sql.strip().rstrip(";").strip()
    if not text:
        raise ToolFailure("the sql is empty: write one SELECT")
    if len(text) > SQL_CAP:
        raise ToolFailure(f"the sql is longer than {SQL_CAP} characters")
    if not tables:
        raise ToolFailure(
            "there are no tables in the working folder or the knowledge base"
            " (CSV, TSV, markdown tables, JSON/YAML lists of records)"
        )
    text, quoted = _mended(tables, text)
    first = FIRST_WORD.match(text)
    if not first or first.group(1).upper() not in ("SELECT", "WITH", "VALUES"):
        raise ToolFailure(_READ_ONLY)
    with tables.lock:
        deadline = time.monotonic() + time_limit_s
        tables.db.set_progress_handler(lambda: int(time.monotonic() > deadline), 1_000)
        try:
            for _ in range(COLUMNS_MENDED):
                try:
                    header, rows, more = _fetch(tables.db, text, max_rows)
                    break
                except sqlite3.OperationalError as exc:
                    if (closest := _with_closest_column(tables, text, exc)) is None:
                        raise
                    text, quoted = closest, True
            else:
                header, rows, more = _fetch(tables.db, text, max_rows)
        except (sqlite3.Error, sqlite3.Warning) as exc:
            raise ToolFailure(explain(tables, text, exc)) from None
        else:
            loosened = _loosened(tables, text, max_rows) if matched_nothing(rows) else None
            if loosened is not None:
                text, rows, quoted = loosened[0], loosened[1], True
            whole = _whole_rows(tables, text, header) if 0 < len(rows) <= WHOLE_ROWS else None
            held = what_the_filter_saw(tables, text) if matched_nothing(rows) else ""
        finally:
            tables.db.set_progress_handler(None, 0)
    shown = _shown(header, rows, more) + held
    if loosened is not None:
        shown = f"{NO_EXACT_ROW}\n{shown}"
    if quoted:
        shown = f"ran as: {text}\n{shown}"
    return shown if whole is None else f"{shown}\nthe whole rows:\n{_shown(*whole, 0)}"


def _mended(tables: Tables, sql: str) -> tuple[str, bool]:
    """`sql` with a file's name taken for its table's and names with spaces quoted; whether it changed."""
    return _quote_spaced_names(tables, _files_as_tables(tables, sql))


def one_table_select(tables: Tables, sql: str) -> tuple[exp.Select, TableInfo] | None:
    """A SELECT over one of `tables` alone (no join, no subquery), as this tool runs it: its tree
    and the table; None for any other query."""
    try:
        tree = sqlglot.parse_one(_mended(tables, sql.strip().rstrip(";").strip())[0], read="sqlite")
    except sqlglot.errors.SqlglotError:
        return None
    source = tree.args.get("from_") if isinstance(tree, exp.Select) else None
    if not isinstance(tree, exp.Select) or source is None or not isinstance(source.this, exp.Table) \
            or tree.find(exp.Join) or len(list(tree.find_all(exp.Select))) > 1:
        return None
    table = tables.table(source.this.name)
    return None if table is None else (tree, table)


def matched_nothing(rows: list[tuple[object, ...]]) -> bool:
    """No row, or the one row an aggregate gives over none (SUM, MAX: NULL): stop 58's first run
    summed a TSV's amounts over "ay = '2026'" for months written "2026-01", and the empty sum
    was answered with a made-up total."""
    return not rows or len(rows) == 1 and all(value is None for value in rows[0])


def _fetch(db: sqlite3.Connection, sql: str, max_rows: int) -> tuple[list[str], list[tuple[object, ...]], int]:
    """The header, the first `max_rows` rows, and how many more there are (counted to ROWS_COUNTED)."""
    cursor = db.execute(sql)
    header = [d[0] for d in cursor.description or ()]
    rows = cursor.fetchmany(max_rows + 1)
    more = 0
    if len(rows) > max_rows:
        rows.pop()
        more = 1
        while more < ROWS_COUNTED and (batch := cursor.fetchmany(1_000)):
            more += len(batch)
    return header, rows, more


COLUMNS_MENDED = 3
"""A SELECT naming columns that are not there is run with the one close name each has, this many
times at most: the 1.5B sent the same failing SELECT again after the error named the column
("date" for "datum", stop 56, three times in a turn)."""


def _with_closest_column(tables: Tables, sql: str, exc: BaseException) -> str | None:
    """The SQL with the column SQLite did not find written as the one column of the tables it
    reads whose name is close to it (difflib, 0.6) or starts with it as a word ("Vardas" for
    "Vardas, pavardė", stop 59's first run: the same SELECT four times after the error named the
    column); None when none is, or several are."""
    if (m := re.match(r"no such column: (.+)", str(exc))) is None:
        return None
    wrong = m.group(1).split(".")[-1].strip('"`[]')
    names = {c.name.lower(): c.name for t in _tables_read(tables, sql) for c in t.columns}
    close = difflib.get_close_matches(wrong.lower(), list(names), n=2, cutoff=0.6) \
        or [name for name in names if re.split(r"\W+", name)[0] == wrong.lower()]
    if len(close) != 1:
        return None
    written = rf"""(?<![\w'`\[.]){re.escape(wrong)}(?!\s*\()(?![\w'`\]])""" + '|"' + re.escape(wrong) + '"'
    bare = re.compile(written, re.IGNORECASE)
    mended = bare.sub(ident(names[close[0]]).replace("\\", "\\\\"), sql)
    return mended if mended != sql else None


def _quote_spaced_names(tables: Tables, sql: str) -> tuple[str, bool]:
    """A column name with spaces or signs written bare (`Largo (mm) = 760`), or with them written
    as underscores (`nar_tal_art` for "nar_tal-art"), is quoted: bare, it can never be valid SQL,
    and the 1.5B wrote it so again, unchanged, after the error named the column (stops 55, 56)."""
    columns = {c.name for t in tables.tables for c in t.columns}
    names = sorted({n for n in columns if not re.fullmatch(r"\w+", n)}, key=len, reverse=True)
    changed = sql
    for name in names:
        underscored = re.sub(r"\W+", "_", name).strip("_")
        for written in (name, *([underscored] if underscored and underscored not in columns else [])):
            bare = re.compile(rf"""(?<!["'`\[\w]){re.escape(written)}(?![\w"'`\]])""", re.IGNORECASE)
            changed = bare.sub(ident(name).replace("\\", "\\\\"), changed)
    return changed, changed != sql


WHOLE_ROWS = 3
"""A result this short is shown with its rows' other columns: asked for the latest flight's date,
the 1.5B selected the date alone and made up the place (stop 52's first run)."""


def whole_rows_sql(sql: str) -> str | None:
    """The rows a short result came from, as SQL: the same SELECT with every column, or for a
    lone MAX()/MIN() of a column, the rows holding that value. None when the query is no such
    plain read of one table (a join, a group, a union, an aggregate of anything else)."""
    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except sqlglot.errors.SqlglotError:
        return None
    if not isinstance(tree, exp.Select) or any(tree.args.get(k) for k in ("group", "joins", "distinct", "with", "having")):
        return None
    table = tree.args.get("from_")
    if table is None or not isinstance(table.this, exp.Table) or any(isinstance(e, exp.Star) for e in tree.expressions):
        return None
    if not tree.find(exp.AggFunc):
        whole = tree.copy()
        whole.set("expressions", [exp.Star()])
        return whole.sql(dialect="sqlite")
    if len(tree.expressions) != 1 or not isinstance(extreme := tree.expressions[0].unalias(), exp.Max | exp.Min):
        return None
    if not isinstance(extreme.this, exp.Column):
        return None
    holding = exp.select("*").from_(table.this.copy()).where(exp.EQ(this=extreme.this.copy(), expression=exp.Subquery(this=tree.copy())))
    if (where := tree.args.get("where")) is not None:
        holding = holding.where(where.this.copy())
    return holding.limit(WHOLE_ROWS).sql(dialect="sqlite")


NO_EXACT_ROW = "no row held the text the WHERE compared exactly; these hold it as part of the value (compared ignoring case):"


def _loosened(tables: Tables, sql: str, max_rows: int) -> tuple[str, list[tuple[object, ...]]] | None:
    """A SELECT whose WHERE matched no row, with each `column = 'text'` made `column holds 'text'`
    (case ignored): the rows it finds, and the SQL that found them; None when it finds none. The
    1.5B compares a cell with part of it (stop 56: "Paso = 'Paso de palio'" for the row "Paso de
    palio (María Santísima de las Tristezas)"; it then sent to a name it made up)."""
    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except sqlglot.errors.SqlglotError:
        return None
    where = tree.args.get("where") if isinstance(tree, exp.Select) else None
    if where is None:
        return None
    loosened = False
    for equal in list(where.find_all(exp.EQ)):
        column, text = equal.this, equal.expression
        if isinstance(column, exp.Literal):
            column, text = text, column
        if isinstance(column, exp.Column) and isinstance(text, exp.Literal) and text.is_string and text.this.strip():
            needle = exp.Literal.string(text.this.strip().casefold())
            equal.replace(exp.GT(this=exp.func("instr", exp.func("casefold", column.copy()), needle),
                                 expression=exp.Literal.number(0)))
            loosened = True
    if not loosened:
        return None
    wider = tree.sql(dialect="sqlite")
    try:
        rows = tables.db.execute(wider).fetchmany(max_rows)
    except (sqlite3.Error, sqlite3.Warning):  # past the time limit, or a rewrite SQLite will not run
        return None
    return None if matched_nothing(rows) else (wider, rows)


FILTER_VALUES = 8
NO_ROW_MATCHED = "no row matched the WHERE; the values its columns hold: "


def what_the_filter_saw(tables: Tables, sql: str) -> str:
    """For a SELECT of one table whose WHERE matched no row: the values each column it tests
    holds, so the next try tests one that is there (stop 54: a race's date was filtered by
    today's, and the recipient it should have found was never returned)."""
    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except sqlglot.errors.SqlglotError:
        return ""
    table = tree.args.get("from_") if isinstance(tree, exp.Select) else None
    where = tree.args.get("where") if isinstance(tree, exp.Select) else None
    if where is None or table is None or not isinstance(table.this, exp.Table) or tree.args.get("joins"):
        return ""
    seen = []
    for column in dict.fromkeys(c.name for c in where.find_all(exp.Column)):
        try:
            values = tables.db.execute(
                f"SELECT DISTINCT {ident(column)} FROM {ident(table.this.name)} LIMIT {FILTER_VALUES + 1}").fetchall()
        except (sqlite3.Error, sqlite3.Warning):
            continue
        more = ", …" if len(values) > FILTER_VALUES else ""
        seen.append(f"{column}: {', '.join(show_cell(v[0]) for v in values[:FILTER_VALUES])}{more}")
    return "\n" + NO_ROW_MATCHED + "; ".join(seen) if seen else ""


def _whole_rows(tables: Tables, sql: str, header: list[str]) -> tuple[list[str], list[tuple[object, ...]]] | None:
    whole = whole_rows_sql(sql)
    if whole is None:
        return None
    try:
        cursor = tables.db.execute(whole)
    except (sqlite3.Error, sqlite3.Warning):  # an alias the ORDER BY named, say: the result alone stands
        return None
    names = [d[0] for d in cursor.description or ()]
    rows = cursor.fetchmany(WHOLE_ROWS)
    return (names, rows) if rows and len(names) > len(header) else None


_READ_ONLY = (
    "only one SELECT can run: the tables are read-only copies of the files (to change a file, edit the file itself)"
)


def _shown(header: list[str], rows: list[tuple[object, ...]], more: int) -> str:
    if not rows:
        return " | ".join(header) + "\n(no rows)"
    lines = [" | ".join(header), *(" | ".join(show_cell(v) for v in row) for row in rows)]
    if more:
        lines.append(f"… and {more}{'+' if more >= ROWS_COUNTED else ''} more rows (narrow it with WHERE, GROUP BY or LIMIT)")
    return "\n".join(lines)


def _files_as_tables(tables: Tables, sql: str) -> str:
    """`FROM ernte.csv`, `FROM "garten/ernte.csv"` or `FROM ernte`: the file named is its table
    (when it holds one, and no table has that name)."""
    by_file: dict[str, list[str]] = {}
    for t in tables.tables:
        path = Path(t.source)
        for name in {t.source, path.name, path.stem, path.with_suffix("").as_posix()}:
            by_file.setdefault(name.lower(), []).append(t.name)

    def swap(m: re.Match[str]) -> str:
        name = m.group(4).lower()
        if tables.table(name) is not None or len(set(by_file.get(name, ()))) != 1:
            return m.group(0)
        return f"{m.group(1)}{m.group(2)}{ident(by_file[name][0])}"

    return FILE_IN_FROM.sub(swap, sql)


def explain(tables: Tables, sql: str, exc: BaseException) -> str:
    """What went wrong, and what would work."""
    message = str(exc)
    low = message.lower()
    if m := re.match(r"no such table: (.+)", message):
        return f"no table {m.group(1)}. {_table_list(tables, m.group(1))}"
    if m := re.match(r"no such column: (.+)", message):
        return f"no column {m.group(1)}. {_columns_of(tables, sql, m.group(1))}"
    if m := re.match(r"no such function: (\w+)", message):
        name = m.group(1).upper()
        if name in NOT_IN_SQLITE:
            return f"SQLite has no {name}(): use {NOT_IN_SQLITE[name]}. {DATE_FUNCTIONS}"
        return f"SQLite has no {name}(). {DATE_FUNCTIONS}"
    if "wrong number of arguments" in low:
        return f"{message}. {DATE_FUNCTIONS}"
    if "not authorized" in low or "readonly" in low or "query_only" in low:
        return _READ_ONLY
    if "interrupted" in low:
        return "the query took too long and was stopped: narrow it (WHERE, fewer joins)"
    if "one statement at a time" in low:
        return "one statement only: write a single SELECT"
    if "ambiguous column name" in low:
        return f"{message}: write the table before it, table.column"
    if "syntax error" in low or "incomplete input" in low:
        return (
            f"SQL error: {message}. Write one SQLite SELECT; put a name with spaces or signs in"
            ' double quotes ("Menge (kg)") and text in single quotes (\'Tomaten\')'
        )
    return f"SQL error: {message}"


def _table_list(tables: Tables, wrong: str) -> str:
    names = tables.names()
    close = difflib.get_close_matches(wrong.split(".")[-1].lower(), [n.lower() for n in names], n=1)
    hint = f"Did you mean {next(n for n in names if n.lower() == close[0])}? " if close else ""
    shown = ", ".join(names[:NAMES_LISTED]) + (f" and {len(names) - NAMES_LISTED} more" if len(names) > NAMES_LISTED else "")
    return f"{hint}The tables are: {shown}"


def _tables_read(tables: Tables, sql: str) -> list[TableInfo]:
    """The tables a query names (every table when it names none)."""
    words = {w.lower() for w in re.findall(r"\w+", sql)}
    return [t for t in tables.tables if t.name.lower() in words] or tables.tables


def _columns_of(tables: Tables, sql: str, wrong: str) -> str:
    named = _tables_read(tables, sql)
    column = wrong.split(".")[-1].strip('"`[]').lower()
    parts: list[str] = []
    for table in named[:5]:
        names = [c.name for c in table.columns]
        close = difflib.get_close_matches(column, [n.lower() for n in names], n=1, cutoff=0.5)
        hint = f" (did you mean {ident(next(n for n in names if n.lower() == close[0]))}?)" if close else ""
        parts.append(f"{table.name} has {', '.join(ident(n) for n in names)}{hint}")
    # a list of records inside each record is a table of its own (tables.py): the 1.5B asked the
    # parent table for the inner records' column (stop 59's first run, a month's blood sugar)
    elsewhere = [t.name for t in tables.tables if t not in named and any(c.name.lower() == column for c in t.columns)]
    if elsewhere:
        parts.append(f"{ident(column)} is a column of {', '.join(elsewhere[:3])}")
    return "; ".join(parts) + ". Quote a name with spaces or signs in double quotes"


def aggregates(sql: str) -> bool:
    """Whether a SELECT works a figure out of its rows (SUM, COUNT, AVG, MIN, MAX...)."""
    try:
        return sqlglot.parse_one(sql, read="sqlite").find(exp.AggFunc) is not None
    except sqlglot.errors.ParseError:
        return False


def _query(params: QueryParams, env: ToolEnv) -> str:
    roots = [env.cwd] + ([env.kb_dir] if env.kb_dir != env.cwd else [])
    return run_query(load_tables(roots), params.sql)


QUERY = Tool(name="query", description=(
    "One read-only SQLite SELECT over the folder's tables (CSV, TSV, markdown tables, JSON/YAML"
    " records; the context lists them). This year, month or season: keep its rows with WHERE."
), params=QueryParams, run=in_thread(_query), outside=True, timeout_s=10.0)
