"""calculate: exact arithmetic for a model that cannot add.

A 1.5B model read budget.csv and answered 2795 for amounts that sum to 1745,
and turned three and a half hours into "45 minutes". The expression is
evaluated by asteval (a well-kept evaluator over Python's AST, not `eval`),
restricted to one expression, numbers and a whitelist of math functions.
"""

from __future__ import annotations

import ast
import asyncio
import re
from typing import Annotated, Any

import msgspec

from saturnd.tools.registry import Tool, ToolEnv, ToolFailure

EXPRESSION_CAP = 2_000
ALLOWED_NAMES = frozenset({
    "abs", "round", "min", "max", "sum", "int", "float", "pow", "divmod",
    "sqrt", "floor", "ceil", "trunc", "log", "log10", "exp", "pi", "e", "fsum",
})


class CalculateParams(msgspec.Struct, forbid_unknown_fields=True):
    expression: Annotated[str, msgspec.Meta(
        min_length=1, description="arithmetic on the numbers you read (+ - * / and parentheses); clock times and lengths of time (2h 45min) count in hours: the later time minus the earlier"
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


def evaluate(expression: str) -> str:
    """`expression = result`, or a ToolFailure that says what is wrong with it. Clock times and
    lengths of time count in hours ("13:30 - 09:00" = 4.5 hours, "2h 45min + 40 min" = 3 h 25 min),
    which is how a journey's length is asked; one clock time moved by lengths of time is a time of
    day ("17:45 - 25 min" = 17:20: when to leave for a train)."""
    text = expression.strip().replace("×", "*").replace("÷", "/")
    if len(text) > EXPRESSION_CAP:
        raise ToolFailure(f"the expression is longer than {EXPRESSION_CAP} characters")
    hours = LENGTH_OF_TIME.sub(_in_hours, CLOCK_TIME.sub(lambda m: f"({int(m.group(1))} + {int(m.group(2))}/60)", text))
    result = _checked_eval(hours)
    if hours == text:
        rounded = f" ({round(float(result), 2)} to 2 places)" if len(str(result).partition(".")[2]) > 4 else ""
        return f"{text} = {result}{rounded}"  # "1450 / 3 = 483.3333333333": a share of rent, answered so
    whole, minutes = divmod(round(float(result) * 60), 60)
    if len(CLOCK_TIME.findall(text)) == 1 and "*" not in text and "/" not in text and 0 <= whole < 24:
        return f"{text} = {whole:02d}:{minutes:02d} (a time of day)"
    return f"{text} = {result} hours ({whole} h {minutes} min)"


def _in_hours(length: re.Match[str]) -> str:
    if length.group("minutes"):
        return f"({length.group('minutes')}/60)"
    return f"({length.group('hours')} + {length.group('and_minutes') or 0}/60)"


def _checked_eval(text: str) -> int | float:
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ToolFailure(f"not an arithmetic expression: {exc.msg}") from exc
    unknown = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - ALLOWED_NAMES)
    if unknown:
        raise ToolFailure(f"unknown names {', '.join(unknown)}: use numbers and + - * / ** ( ) only")
    if any(isinstance(n, ast.Attribute | ast.Lambda | ast.comprehension) for n in ast.walk(tree)):
        raise ToolFailure("use numbers and + - * / ** ( ) only")
    result = _interpreter_eval(text)
    if isinstance(result, float) and result.is_integer() and abs(result) < 1e15:
        return int(result)
    return round(result, 10) if isinstance(result, float) else result


def _interpreter_eval(text: str) -> Any:
    from asteval import Interpreter  # on first use: an idle daemon never needs it

    interpreter = Interpreter(minimal=True, use_numpy=False)
    for name in set(interpreter.symtable) - ALLOWED_NAMES:
        del interpreter.symtable[name]
    result = interpreter.eval(text, show_errors=False, raise_errors=False)
    if interpreter.error:
        kind, message = interpreter.error[0].get_error()
        raise ToolFailure(f"{kind}: {message.splitlines()[-1]}")
    if not isinstance(result, int | float):
        raise ToolFailure("the expression did not give a number")
    return result


async def _calculate(params: CalculateParams, env: ToolEnv) -> str:
    return await asyncio.to_thread(evaluate, params.expression)


CALCULATE = Tool(
    name="calculate",
    description="Exact arithmetic on numbers read from the user's files or messages (totals, differences).",
    params=CalculateParams,
    run=_calculate,
)
