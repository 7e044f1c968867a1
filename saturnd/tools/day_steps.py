"""A day moved on by so many days, weeks, months or years, and how far a day is from today, as the
ground writes it ("in 16 days", "yesterday"): one arithmetic for the notes' repeats (turn/repeats.py)
and a table's intervals (table_repeats.py)."""

from __future__ import annotations

import calendar
from datetime import date, timedelta


def moved(day: date, count: int, unit: str) -> date:
    """`day` moved on by `count` days, weeks, months or years; 31 January and a month is the last of February."""
    if unit in ("day", "week"):
        return day + timedelta(days=count * (7 if unit == "week" else 1))
    months = day.month - 1 + count * (12 if unit == "year" else 1)
    year, month = day.year + months // 12, months % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def from_today(when: date, today: date) -> str:
    days = (when - today).days
    if days == 0:
        return "today"
    if days == 1:
        return "tomorrow"
    if days == -1:
        return "yesterday"
    weeks = f" ({abs(days) // 7} weeks{_and_days(abs(days) % 7)})" if abs(days) >= 14 else ""
    return f"in {days} days{weeks}" if days > 0 else f"{-days} days ago{weeks}"


def _and_days(days: int) -> str:
    return "" if not days else " 1 day" if days == 1 else f" {days} days"
