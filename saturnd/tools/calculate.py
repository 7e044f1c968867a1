"""calculate: exact arithmetic, dates and unit conversions for a model that cannot add.

A 1.5B model read budget.csv and answered 2795 for amounts that sum to 1745,
and turned three and a half hours into "45 minutes". The expression is
evaluated by asteval (a well-kept evaluator over Python's AST, not `eval`),
restricted to one expression, numbers, a whitelist of math functions and a small
vocabulary of dates (python-dateutil's relativedelta does the calendar) and units (pint):

    2*180 + 4*90                       arithmetic
    13:30 - 09:00, 2h 45min + 40 min   clock times and lengths of time, in hours
    2026-11-20 + 6 weeks               a date moved (days, weeks, months, years)
    2027-01-01 - 2026-11-20            days between, as does days_between(a, b)
    next_due(2026-03-01, 6 weeks)      the first repeat on or after today
    weekday(2026-12-24), today()
    12 miles to km, convert(350, "g", "oz")

Dates may be written as the person wrote them, quoted: date("05.12.2026"),
date("5. Dezember 2026"). The result shows what was computed ("2026-11-20 + 6 weeks =
2027-01-01 (Friday)"): the harness shows that line to the person.
"""

from __future__ import annotations

import ast
import datetime as dt
import re
import threading
from collections.abc import Callable
from typing import Annotated, Any

import msgspec

from saturnd.tools.registry import Tool, ToolEnv, ToolFailure, in_thread
from saturnd.tools.tables import load_tables

EXPRESSION_CAP = 2_000
ALLOWED_NAMES = frozenset({
    "abs", "round", "min", "max", "sum", "int", "float", "pow", "divmod",
    "sqrt", "floor", "ceil", "trunc", "log", "log10", "exp", "pi", "e", "fsum",
})
FORMS = (
    "forms that work: 2*180 + 4*90; 13:30 - 09:00; 2026-11-20 + 6 weeks; 2027-01-01 - 2026-11-20;"
    " days_between(2026-11-20, 2027-01-01); next_due(2026-03-01, 6 weeks); weekday(2026-12-24);"
    ' date("05.12.2026"); today() + 10 days; 12 miles to km; convert(350, "g", "oz")'
)


class CalculateParams(msgspec.Struct, forbid_unknown_fields=True):
    expression: Annotated[str, msgspec.Meta(
        min_length=1,
        description=(
            "arithmetic on the numbers you read (+ - * / and parentheses); clock times and lengths of"
            " time (2h 45min) count in hours: the later time minus the earlier; dates: 2026-11-20 + 6 weeks,"
            " 2027-01-01 - 2026-11-20, next_due(2026-03-01, 6 weeks), weekday(2026-12-24); units: 12 miles to km"
        ),
    )]


CLOCK_TIME = re.compile(r"\b([01]?\d|2[0-3]):([0-5]\d)\b")
NUMBER = r"\d+(?:\.\d+)?"
HOURS = r"(?:h|hrs?|hours?)(?![a-z])"
MINUTES = r"(?:mins?|minutes?)(?![a-z])"
LENGTH_OF_TIME = re.compile(
    rf"(?P<hours>{NUMBER})\s*{HOURS}(?:\s*(?:and\s+)?(?P<and_minutes>{NUMBER})\s*(?:m(?![a-z])|{MINUTES}))?"
    rf"|(?P<minutes>{NUMBER})\s*{MINUTES}",
    re.IGNORECASE,
)

# -- dates ---------------------------------------------------------------------------------

QUOTED = re.compile(r"""("[^"]*"|'[^']*')""")
DATE_LITERAL = re.compile(r"(?<![\w.:/-])(\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{4})(?![\w.:/-])")
TODAY_WORD = re.compile(r"\b(?:today|heute|hoy|aujourd'hui|oggi|hoje|vandaag)\b(?!\s*\()", re.IGNORECASE)
INTERVAL_UNITS: dict[str, str] = {}
for _length, _words in {
    "days": "day days d tag tage tagen jour jours día días dia dias giorno giorni dag dagen",
    "weeks": "week weeks wk wks w woche wochen semaine semaines semana semanas settimana settimane",
    "months": "month months mo monat monate monaten mois mes meses mese mesi maand maanden",
    "years": "year years yr yrs y jahr jahre jahren an ans année années año años anno anni jaar jaren",
}.items():
    for _word in _words.split():
        INTERVAL_UNITS[_word] = _length
EVERY = {
    "daily": "1 day", "weekly": "1 week", "fortnightly": "2 weeks", "biweekly": "2 weeks",
    "monthly": "1 month", "quarterly": "3 months", "yearly": "1 year", "annually": "1 year",
    "täglich": "1 day", "wöchentlich": "1 week", "monatlich": "1 month", "jährlich": "1 year",
    "mensual": "1 month", "semanal": "1 week", "anual": "1 year", "mensuel": "1 month",
    "hebdomadaire": "1 week", "annuel": "1 year",
}
_UNIT_WORDS = "|".join(sorted((re.escape(w) for w in INTERVAL_UNITS if len(w) > 2), key=len, reverse=True))
INTERVAL_WORDS = re.compile(rf"(?<![\w.])(\d+(?:\.\d+)?)\s*({_UNIT_WORDS})\b", re.IGNORECASE)
INTERVAL_TEXT = re.compile(r"^\s*(?:every|alle|cada|tous les|toutes les|each)?\s*(\d+)?\s*([^\W\d_]+)\s*$", re.IGNORECASE)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
DATE_NAMES = frozenset({
    "date", "today", "days", "weeks", "months", "years", "add", "days_between", "next_due",
    "weekday", "convert",
})


def as_date(value: Any) -> dt.date:
    """A date from a date or a person's writing of one (ISO, 05.12.2026, "5. Dezember 2026")."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        from saturnd.tools.cells import read_date

        found = read_date(value)
        if found is not None:
            return found
    raise ToolFailure(f"not a date: {value!r} (write 2026-11-20, or date(\"05.12.2026\"))")


def as_interval(value: Any) -> Any:
    """A relativedelta from one, a number of days, or text ("6 weeks", "every 3 months", "monthly")."""
    from dateutil.relativedelta import relativedelta

    if isinstance(value, relativedelta):
        return value
    if isinstance(value, dt.timedelta):
        return relativedelta(days=value.days)
    if isinstance(value, int) and not isinstance(value, bool):
        return relativedelta(days=value)
    if isinstance(value, str):
        text = EVERY.get(value.strip().lower(), value)
        m = INTERVAL_TEXT.match(text)
        unit = INTERVAL_UNITS.get(m.group(2).lower()) if m else None
        if m and unit:
            return relativedelta(**{unit: int(m.group(1) or 1)})
    raise ToolFailure(f"not a length of time: {value!r} (write 6 weeks, 3 months, 10 days or 1 year)")


def _interval(unit: str) -> Callable[[Any], Any]:
    def make(n: Any) -> Any:
        from dateutil.relativedelta import relativedelta

        if isinstance(n, float) and not n.is_integer():
            if unit in ("days", "weeks"):
                return relativedelta(days=round(n * (7 if unit == "weeks" else 1)))
            raise ToolFailure(f"{n} {unit}: use whole {unit}")
        return relativedelta(**{unit: int(n)})
    return make


def _vocabulary(today: dt.date) -> dict[str, Any]:
    def add(day: Any, interval: Any) -> dt.date:
        return as_date(day) + as_interval(interval)

    def days_between(a: Any, b: Any) -> int:
        return (as_date(b) - as_date(a)).days

    def next_due(last: Any, interval: Any, after: Any = None) -> dt.date:
        start, step = as_date(last), as_interval(interval)
        floor = as_date(after) if after is not None else today
        if not (start + step > start):
            raise ToolFailure("next_due needs a length of time forward, like 6 weeks")
        k = 1
        while (due := start + step * k) < floor:
            k += 1
            if k > 100_000:
                raise ToolFailure("next_due: too many repeats")
        return due

    def weekday(day: Any) -> str:
        return WEEKDAYS[as_date(day).weekday()]

    return {
        "date": as_date, "today": lambda: today, "add": add, "days_between": days_between,
        "next_due": next_due, "weekday": weekday, "convert": convert,
        **{unit: _interval(unit) for unit in ("days", "weeks", "months", "years")},
    }


def _date_words(text: str) -> str:
    """Bare dates, `today` and "6 weeks" as calls, outside quotes."""
    def unquoted(part: str) -> str:
        part = DATE_LITERAL.sub(lambda m: f'date("{m.group(1)}")', part)
        part = TODAY_WORD.sub("today()", part)
        return INTERVAL_WORDS.sub(lambda m: f"{INTERVAL_UNITS[m.group(2).lower()]}({m.group(1)})", part)

    return "".join(p if i % 2 else unquoted(p) for i, p in enumerate(QUOTED.split(text)))


# -- units -----------------------------------------------------------------------------------

_units: Any = None
_units_lock = threading.Lock()
UNIT_ALIASES = {
    "c": "degC", "°c": "degC", "ºc": "degC", "℃": "degC", "° c": "degC", "celsius": "degC", "grad": "degC",
    "f": "degF", "°f": "degF", "ºf": "degF", "℉": "degF", "° f": "degF", "fahrenheit": "degF",
    "k": "kelvin", "fl oz": "fluid_ounce", "fl. oz": "fluid_ounce", "fl.oz": "fluid_ounce",
    "sq ft": "foot**2", "sq m": "meter**2", "sq km": "kilometer**2", "sq mi": "mile**2",
    "meile": "mile", "meilen": "mile", "milla": "mile", "millas": "mile",
    "gramm": "gram", "gramo": "gram", "gramos": "gram", "gramme": "gram", "grammes": "gram",
    "pfund": "pound", "libra": "pound", "libras": "pound", "livre": "pound", "livres": "pound",
    "unze": "ounce", "unzen": "ounce", "onza": "ounce", "onzas": "ounce", "once": "ounce", "onces": "ounce",
    "tasse": "cup", "tassen": "cup", "taza": "cup", "tazas": "cup",
    "zoll": "inch", "pulgada": "inch", "pulgadas": "inch", "pouce": "inch", "pouces": "inch",
    "fuß": "foot", "fuss": "foot", "pie": "foot", "pies": "foot", "pied": "foot", "pieds": "foot",
    "litro": "liter", "litros": "liter", "esslöffel": "tablespoon", "teelöffel": "teaspoon",
    "cucharada": "tablespoon", "cucharadas": "tablespoon", "cucharadita": "teaspoon",
    "cucharaditas": "teaspoon", "metro": "meter", "metros": "meter", "mètre": "meter", "mètres": "meter",
    "kilómetros": "kilometer", "kilomètres": "kilometer",
}
CONVERSION = re.compile(r"(?<=\s)(?:to|in|into|as|en|a|nach|zu|naar|em)(?=\s)|->|→|=>", re.IGNORECASE)
AMOUNT = re.compile(r"^(?P<num>[-+]?[\d.,*/()+\- ]*\d[\d.,)]*)\s*(?P<unit>[^\d\s*/+\-()=].*)$")


def _registry() -> Any:
    global _units
    with _units_lock:
        if _units is None:
            import pint

            _units = pint.UnitRegistry()
        return _units


def _unit(text: str) -> Any:
    name = " ".join(text.strip().rstrip(".").split())
    name = UNIT_ALIASES.get(name.lower(), name)
    registry = _registry()
    for candidate in (name, name.lower()):
        try:
            return registry.parse_units(candidate)
        except Exception:  # pint fails on a name it cannot read in many ways (SyntaxError, AssertionError…)
            continue
    raise ToolFailure(
        f"unknown unit {text.strip()!r}: write units such as km, mile, m, ft, kg, lb, g, oz, l, ml,"
        " cup, tbsp, degC, degF"
    )


def _converted(value: float, source: str, target: str) -> float:
    import pint

    try:
        return float(_registry().Quantity(value, _unit(source)).to(_unit(target)).magnitude)
    except pint.errors.DimensionalityError:
        raise ToolFailure(f"{source.strip()} cannot be converted to {target.strip()}: they measure different things") from None


def convert(value: Any, source: Any, target: Any) -> float:
    """convert(12, "mile", "km"): the value in the target unit."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise ToolFailure('convert needs a number first: convert(12, "mile", "km")')
    return _converted(float(value), str(source), str(target))


def _conversion(text: str) -> str | None:
    """ "12 miles to km" = "19.31 km", or None when the expression is no conversion."""
    failure: ToolFailure | None = None
    for sep in CONVERSION.finditer(text):
        left, target = text[: sep.start()].strip(), text[sep.end():].strip()
        amount = AMOUNT.match(left)
        if not amount or not target or target[0].isdigit() or target.startswith(("(", "-", "+")):
            continue
        num = amount.group("num").strip()
        if re.fullmatch(r"[-+]?\d+,\d+", num):
            num = num.replace(",", ".")  # 1,5 kg
        try:
            result = _converted(float(_checked_eval(num)), amount.group("unit"), target)
        except ToolFailure as exc:
            failure = failure or exc  # "12 in to cm": the first " in " splits nothing convertible
            continue
        return f"{text} = {_short(result)} {target}"
    if failure is not None:
        raise failure
    return None


def _short(value: float) -> str:
    shown = round(value, 2) if abs(value) >= 1 else float(f"{value:.3g}")
    return str(int(shown)) if float(shown).is_integer() else str(shown)


# -- evaluation ------------------------------------------------------------------------------


def evaluate(expression: str, today: dt.date | None = None) -> str:
    """`expression = result`, or a ToolFailure that says what is wrong with it. Clock times and
    lengths of time count in hours ("13:30 - 09:00" = 4.5 hours, "2h 45min + 40 min" = 3 h 25 min),
    which is how a journey's length is asked; one clock time moved by lengths of time is a time of
    day ("17:45 - 25 min" = 17:20: when to leave for a train). Dates move by days, weeks, months
    and years ("2026-11-20 + 6 weeks = 2027-01-01 (Friday)"); "12 miles to km" converts."""
    text = expression.strip().replace("×", "*").replace("÷", "/")
    if len(text) > EXPRESSION_CAP:
        raise ToolFailure(f"the expression is longer than {EXPRESSION_CAP} characters")
    day = today or dt.date.today()
    dated = _date_words(text)
    if dated != text or _calls(dated) & DATE_NAMES:
        result = _checked_eval(dated, _vocabulary(day))
        return f"{text} = {_shown(result, dated, day)}"
    if (converted := _conversion(text)) is not None:
        return converted
    hours = LENGTH_OF_TIME.sub(_in_hours, CLOCK_TIME.sub(lambda m: f"({int(m.group(1))} + {int(m.group(2))}/60)", text))
    result = _checked_eval(hours)
    if hours == text:
        return f"{text} = {_number(result)}"  # "1450 / 3 = 483.3333333333": a share of rent, answered so
    whole, minutes = divmod(round(float(result) * 60), 60)
    if len(CLOCK_TIME.findall(text)) == 1 and "*" not in text and "/" not in text and 0 <= whole < 24:
        return f"{text} = {whole:02d}:{minutes:02d} (a time of day)"
    return f"{text} = {result} hours ({whole} h {minutes} min)"


def _number(result: Any) -> str:
    rounded = f" ({round(float(result), 2)} to 2 places)" if len(str(result).partition(".")[2]) > 4 else ""
    return f"{result}{rounded}"


def _calls(text: str) -> set[str]:
    return set(re.findall(r"\b([a-z_]+)\s*\(", text))


def _shown(result: Any, dated: str, today: dt.date) -> str:
    from dateutil.relativedelta import relativedelta

    uses_today = "today()" in dated or ("next_due(" in dated and dated.count(",") < 2)
    after = f"; today is {today.isoformat()}" if uses_today else ""
    if isinstance(result, dt.date):
        return f"{result.isoformat()} ({WEEKDAYS[result.weekday()]}{after})"
    if isinstance(result, dt.timedelta):
        weeks, days = divmod(result.days, 7)
        split = f" ({weeks} weeks {days} days)" if weeks and days else f" ({weeks} weeks)" if weeks else ""
        return f"{result.days} days{split}" + (f" (today is {today.isoformat()})" if uses_today else "")
    if isinstance(result, relativedelta):
        parts = [f"{n} {unit}" for unit in ("years", "months", "days") if (n := getattr(result, unit))]
        return " ".join(parts) or "0 days"
    if isinstance(result, str):
        return result
    tree = ast.parse(dated, mode="eval").body
    if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id == "days_between":
        return f"{result} days"
    return _number(result)


def _in_hours(length: re.Match[str]) -> str:
    if length.group("minutes"):
        return f"({length.group('minutes')}/60)"
    return f"({length.group('hours')} + {length.group('and_minutes') or 0}/60)"


def _checked_eval(text: str, vocabulary: dict[str, Any] | None = None) -> Any:
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ToolFailure(f"not an arithmetic expression: {exc.msg}; {FORMS}") from exc
    allowed = ALLOWED_NAMES | set(vocabulary or ())
    unknown = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - allowed)
    if unknown:
        raise ToolFailure(f"unknown names {', '.join(unknown)}: {FORMS}")
    if any(isinstance(n, ast.Attribute | ast.Lambda | ast.comprehension) for n in ast.walk(tree)):
        raise ToolFailure("use numbers and + - * / ** ( ) only")
    if vocabulary is None and any(isinstance(n, ast.Constant) and isinstance(n.value, str) for n in ast.walk(tree)):
        raise ToolFailure(f"text is no number: {FORMS}")
    result = _interpreter_eval(text, vocabulary or {})
    if isinstance(result, float):
        result = round(result, 10)  # 68.00000000000006 °F is 68
        if result.is_integer() and abs(result) < 1e15:
            return int(result)
    return result


def _interpreter_eval(text: str, vocabulary: dict[str, Any]) -> Any:
    from asteval import Interpreter  # on first use: an idle daemon never needs it
    from dateutil.relativedelta import relativedelta

    interpreter = Interpreter(minimal=True, use_numpy=False)
    for name in set(interpreter.symtable) - ALLOWED_NAMES:
        del interpreter.symtable[name]
    interpreter.symtable.update(vocabulary)
    result = interpreter.eval(text, show_errors=False, raise_errors=False)
    if interpreter.error:
        error = interpreter.error[0]
        raised = error.exc_info[1] if error.exc_info else None
        if isinstance(raised, ToolFailure):
            raise ToolFailure(str(raised)) from None
        kind = getattr(error.exc, "__name__", "Error")
        message = error.get_error()[1].splitlines()[-1]
        message = re.sub(r"^(\w+: )?Error running function .*? kwargs \{.*?\}: ", "", message)
        message = re.sub(r"\w+\.<locals>\.", "", message.removeprefix(f"{kind}: "))
        raise ToolFailure(f"{kind}: {message}" + (f"; {FORMS}" if vocabulary and kind == "TypeError" else ""))
    if isinstance(result, bool) and vocabulary:
        return str(result).lower()  # 2026-12-24 > 2026-11-01 = true
    if isinstance(result, bool) or not isinstance(result, int | float | dt.date | dt.timedelta | relativedelta | str):
        raise ToolFailure(f"the expression did not give a number or a date; {FORMS}")
    return result


SQL = re.compile(r"^\s*(?:SELECT|WITH)\b", re.IGNORECASE)


def _calculate(params: CalculateParams, env: ToolEnv) -> str:
    expression = params.expression
    if SQL.match(expression):  # a small model reaches for the tool it last used
        raise ToolFailure("this is an SQL query, not arithmetic: call query with it as sql, then calculate"
                          " with the numbers it returns")
    try:
        return evaluate(expression)
    except ToolFailure as failure:
        # the 1.5B writes sum(table.column) here: a table is the query tool's
        roots = [env.cwd] + ([env.kb_dir] if env.kb_dir != env.cwd else [])
        named = [n for n in load_tables(roots).names() if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", expression, re.I)]
        if not named:
            raise
        raise ToolFailure(f"{failure}; {named[0]} is a table: call query with SQL over it (SELECT SUM(column)"
                          f" FROM {named[0]} WHERE ...), then calculate with the numbers it returns") from None


CALCULATE = Tool(name="calculate", params=CalculateParams, run=in_thread(_calculate), description=(
    "Exact arithmetic, dates and unit conversions on numbers read from the user's files or"
    " messages (totals, differences, due dates, 12 miles to km)."
))
