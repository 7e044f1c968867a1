"""The prompt cache on a second turn: two turns in one session on the embedded 1.5B, each turn's
prompt tokens and how many of them the model server reused from its cache (the issue's "the fixed
part of the prompt is never re-evaluated across turns").

Usage: python bench/second_turn.py
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.daemon import BenchDaemon, DaemonSpec, default_model_cache  # noqa: E402
from bench.drive import TurnLog, drive_turn  # noqa: E402
from bench.probe_errands import Yes  # noqa: E402

FILES = {"shopping.txt": "milk\neggs\nflour\n", "notes.txt": "Dentist Friday 9am\nCall the plumber\nBin day Tuesday\n",
         "budget.csv": "item,amount\nrent,950\nfood,400\nbills,220\ntransport,175\n"}
QUESTIONS = ("What's on my shopping list?", "When is my dentist appointment?")


async def main() -> None:
    daemon = BenchDaemon(DaemonSpec(model="qwen2.5-coder-1.5b", policy="act", turn_budget_s=300,
                                    model_cache=default_model_cache()))
    try:
        client = await daemon.start()
        work = daemon.root / "work" / "second-turn"
        work.mkdir(parents=True, exist_ok=True)
        for name, text in FILES.items():
            (work / name).write_text(text, encoding="utf-8")
        session = await client.call("session/create", {"cwd": str(work)})
        for question in QUESTIONS:
            log, started = TurnLog(), time.monotonic()
            await drive_turn(client, session.session_id, {"headless": False}, question, Yes(), log, started)
            prompt, _, cached = log.tokens
            print(f"{question!r}: {time.monotonic() - started:.1f} s, {prompt} prompt tokens, {cached} cached,"
                  f" {prompt - cached} evaluated; answer {log.answer[:80]!r}")
    finally:
        daemon.stop()


if __name__ == "__main__":
    asyncio.run(main())
