"""A log's readings held against the target a note sets for them.

Asked "Am I under my blood pressure target?" of a note's "Blood pressure target: under 140/90"
beside bp.csv's readings, the 1.5B said yes to 141/89; asked the average, it gave the pulse's.
A target of two numbers ("140/90") is for the log's first two columns of readings, in order. A
limit of money ("Food limit £40 a day") is left to the rows of its kind (retrieval.limit_as_written).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal

from saturnd.tools.table_cells import ISO_DATE, number, plain
from saturnd.tools.table_dates import header_and_rows
from saturnd.tools.word_match import stems
from saturnd.turn.date_checks import NO, YES, YES_NO_ASKED

TARGET_AMOUNT = (r"\s*(?P<way>under|below|over|above|less\s+than|more\s+than|at\s+most|at\s+least)?\s*"
                 r"(?P<first>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s*/\s*(?P<second>\d+(?:\.\d+)?))?\s*(?P<unit>(?!a\b)[a-z]+)?")
TARGET_LINE = re.compile(r"^(?P<label>[^:\d]*?\b(?:target|goal|aim|limit)\b[^:\d]*):?" + TARGET_AMOUNT, re.IGNORECASE)
HEADED_LINE = re.compile(r"^(?P<label>[A-Za-z][^:\d]{0,30}):" + TARGET_AMOUNT, re.IGNORECASE)
"""A line under a heading of goals ("# Goals" over "Steps: 10,000 a day"): a goal by its label."""
GOALS_HEADING = re.compile(r"^#+\s*(?:my\s+)?(?:goals?|targets?|aims?)\b", re.IGNORECASE)
REACHED = re.compile(r"goal|aim", re.IGNORECASE)
"""A goal with no way written is one to reach ("Steps: 10,000 a day"); a target or limit, to keep under."""
MEASURES = re.compile(r"(?:hours?|hrs?|h|minutes?|mins?|seconds?|secs?|km|kms|miles?|metres?|meters?|m|kg|kilos?|"
                      r"stones?|lbs?|pounds?|litres?|liters?|ml|steps?|pages?|words?)", re.IGNORECASE)
"""Units a target may be in that a log's column must then be in: "Target: under 2 hours" is no limit
on a runs log's km."""
TARGET_ASKED = re.compile(r"\b(?:target|goal|aim|limit|on\s+track)\b", re.IGNORECASE)
ABOVE = ("over", "above", "more than", "at least")
MAX_LISTED = 8


def against_the_target(request: str, parts: Iterable[tuple[str, list[str]]]) -> str:
    """The latest reading, the average and the readings past the target, as the ground's line; ""
    where no note sets a target for a log shown, or the request asks of neither."""
    parts = list(parts)
    for source, lines in parts:
        if header_and_rows(source, lines) is not None:
            continue
        goals = next((line for line in lines if GOALS_HEADING.match(line.strip())), "")
        targets = [found for line in lines if (found := TARGET_LINE.match(line.strip(" -*•#"))
                                               or (HEADED_LINE.match(line.strip(" -*•")) if goals else None))
                   and not re.search(r"[£$€]", found["label"])]
        named = [found for found in targets if stems(found["label"]) - {"targ", "goal", "aim", "limi"} & stems(request)]
        for found in named or (targets if TARGET_ASKED.search(request) else []):  # "my sleep goal": Sleep's line first
            if said := _held(found, parts, reached=bool(REACHED.search(found["label"]) or REACHED.search(goals))):
                return said
    return ""


def _held(found: re.Match[str], parts: list[tuple[str, list[str]]], reached: bool = False) -> str:
    limits = [Decimal(found["first"].replace(",", "")), *([Decimal(found["second"])] if found["second"] else [])]
    keeps_under = not reached if not found["way"] else " ".join(found["way"].lower().split()) not in ABOVE
    word = "over" if keeps_under else "under"
    for source, lines in parts:
        table = header_and_rows(source, lines)
        if table is None:
            continue
        header, body = table
        dates = next((i for i in range(len(header)) if body and all(ISO_DATE.match(r[i]) for r in body)), None)
        readings = [i for i in range(len(header)) if i != dates and body and all(number(r[i]) is not None for r in body)]
        if dates is None or len(readings) < len(limits):
            continue
        if found["unit"] and MEASURES.fullmatch(found["unit"]):
            readings = [i for i in readings if (stems(found["unit"]) | stems(found["label"])) & stems(header[i])  # "sleep h"
                        or found["unit"].lower() in re.findall(r"[a-z]+", header[i].lower())]  # "kg", too short a stem
            if len(readings) < len(limits):
                continue
        named = [i for i in readings if stems(header[i]) & stems(found["label"])]  # "Steps: 10,000": the steps column
        columns = named[:len(limits)] if len(named) >= len(limits) else readings[:len(limits)]
        rows = sorted(body, key=lambda r: r[dates])
        values = [[number(r[i]) or Decimal(0) for i in columns] for r in rows]
        if reached and not found["way"] and len(limits) == 1:  # "Goal: 80kg" of weights from 88.4: a goal to get down to
            keeps_under = values[0][0] > limits[0]
            word = "over" if keeps_under else "under"
        average = [sum((v[n] for v in values), Decimal(0)) / len(values) for n in range(len(columns))]
        over = [f"{r[dates].strip()} {_written(v)}{_gap(v, limits, keeps_under)}" for r, v in zip(rows, values, strict=True)
                if _past(v, limits, keeps_under)]
        return (f"[Saturn worked out] {'/'.join(header[i].strip() for i in columns)} against \"{found.group(0).strip()}\": "
                f"latest {_written(values[-1])} ({rows[-1][dates].strip()}) is "
                f"{word if _past(values[-1], limits, keeps_under) else 'within'} it"
                f"{_gap(values[-1], limits, keeps_under) if _past(values[-1], limits, keeps_under) else ''}; "
                f"average {_written(average)} is {word if _past(average, limits, keeps_under) else 'within'} it; "
                f"{word} it: {len(over)} of {len(rows)}" + (f" ({', '.join(over[:MAX_LISTED])})" if over else "")
                + (f"; reached it: {len(rows) - len(over)} of {len(rows)}" if not keeps_under else ""))
    return ""


def _past(values: list[Decimal], limits: list[Decimal], keeps_under: bool) -> bool:
    return any(v > limit if keeps_under else v < limit for v, limit in zip(values, limits, strict=True))


def _gap(values: list[Decimal], limits: list[Decimal], keeps_under: bool) -> str:
    """How far one reading is past its one limit: asked "How many steps short of my goal was I on
    Monday?", the 1.5B gave Monday's 4300."""
    if len(limits) != 1:
        return ""
    gap = values[0] - limits[0] if keeps_under else limits[0] - values[0]
    return f" ({_written([gap])} {'over' if keeps_under else 'short'})"


def _written(values: list[Decimal]) -> str:
    return "/".join(plain(v.quantize(Decimal("0.1")).normalize()) for v in values)


def sets_a_target(text: str) -> bool:
    """Whether a note holds a target line a log's readings can be held against."""
    return any((found := TARGET_LINE.match(line.strip(" -*•#"))) and not re.search(r"[£$€]", found["label"])
               for line in text.splitlines())


HELD_LINE = re.compile(r"^\[Saturn worked out\] .*? against \"(?P<target>[^\"]+)\": (?P<latest>latest [^;]*? is (?P<state>over|under|within) it)",
                       re.MULTILINE)
WITHIN_ASKED = re.compile(r"\b(?:under|within|below|on\s+track|meeting|hitting|reach(?:ed|ing)?|made)\b", re.IGNORECASE)
PAST_ASKED = re.compile(r"\b(?:over|above|exceed(?:ed|ing)?|past|beyond)\b", re.IGNORECASE)


def against_the_target_held(answer: str, request: str, seen: str) -> str | None:
    """The latest reading against its target, when a yes or no answer goes against it: asked "Am I
    under my blood pressure target?" with "latest 141/89 … is over it" shown, the 1.5B said yes."""
    found = HELD_LINE.search(seen)
    if found is None or not (YES.search(answer) or NO.search(answer)) or not YES_NO_ASKED.search(request):
        return None
    past = found["state"] != "within"
    if PAST_ASKED.search(request):
        right_yes = past
    elif WITHIN_ASKED.search(request):
        right_yes = not past
    else:
        return None
    return f'{found["latest"]} ("{found["target"]}")' if bool(YES.search(answer)) != right_yes else None


LATEST_GAP = re.compile(r"^\[Saturn worked out\] .*? against \"(?P<target>[^\"]+)\": (?P<latest>latest [^;]*? is (?:over|under) it "
                        r"\((?P<gap>\d[\d.]*) (?:over|short)\))", re.MULTILINE)
HOW_FAR_ASKED = re.compile(r"\bhow\s+(?:far|much\s+more|many\s+more|close)\b|\bto\s+go\b|\baway\s+from\b|\bshort\s+of\b",
                           re.IGNORECASE)


def gap_missed(answer: str, request: str, seen: str) -> str | None:
    """How far the latest reading is from its target, when asked how far and the answer gives
    another figure: shown "latest 83.6 … is over it (3.6 over)" of "Goal: 80kg", the 1.5B said 6 kg."""
    found = LATEST_GAP.search(seen) if HOW_FAR_ASKED.search(request) else None
    if found is None or re.search(rf"(?<![\d.]){re.escape(found['gap'])}(?![\d])", answer):
        return None
    return f'[Saturn worked out] against "{found["target"]}": {found["latest"]}'
