"""Amounts as the user's lines write them, and as the harness's worked-out lines write them back.

"£1,450", "$12.50" and "50p" are money, "three" a count, and "How much …", "total" and "in all"
ask for a sum; a sum is written whole where it is whole ("2150") and to two places where it is not
("86 × 0.45 = 38.70"). Asked a mileage claim at "45p a mile", the 1.5B answered "89 miles", no
money at all. The list sums (worked_lines.py), the rates (line_rates.py), the pots (pots.py) and the
shares read and write an amount the one way, here, so the figure the model is shown is the figure
its answer is held to.
"""

from __future__ import annotations

import re
from fractions import Fraction

from saturnd.turn.made_up import NUMBER_WORDS

MONEY = re.compile(r"[£$€]\s?(\d[\d,]*(?:\.\d+)?)")
PENCE = re.compile(r"(?<![\w.£$€])(\d{1,2})p\b")
ALL_ASKED = re.compile(r"\bhow\s+much\b|\btotal\b|\baltogether\b|\bin\s+all\b", re.IGNORECASE)


def money_written(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def count_written(written: str) -> int:
    return NUMBER_WORDS.get(written.lower()) or int(written)
