"""Everyday errands in folders the suite has not seen: each probe is a folder of files and ten
questions, put one at a time, each in a fresh session, to the real daemon on the embedded model,
with every approval given and "I don't know, do what you can." to any question. Files carry over
from one question to the next, as they would for a person. Judged by hand from the transcript
(the answer, the calls and their fates, what was sent, the files at the end); the probe home's
saturn.db is kept for tracing what the harness did.

With --ground-only, no model runs: each question's ground (what the model would be shown of the
turn, worked out from the files as they stand at the start, 2026-12-04 15:00) is printed, to find
the harness's own faults before a model run.

Usage: python bench/probe_errands.py [--ground-only] OUT.txt bench/errand_probes/n99.json [more.json …]
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.daemon import BenchDaemon, DaemonSpec, default_model_cache  # noqa: E402
from bench.drive import TurnLog, drive_turn, read_outbox  # noqa: E402
from saturnd.turn.ground import TURN_HEADING, Ground, ground_messages  # noqa: E402

QUESTION_TIMEOUT_S = 420.0
GROUND_ONLY_NOW = datetime(2026, 12, 4, 15, 0)
"""The probes' files were written for this afternoon."""
HOMES = REPO / "bench" / "results" / "probe-homes"
"""Each probe's saturn.db, for tracing (not committed)."""


class Yes:
    """Approves every call once and does not know the answer to any question."""

    def decision(self, tool: str) -> str:
        return "once"

    def reply(self) -> str:
        return "I don't know, do what you can."

    def has_replies(self) -> bool:
        return False


async def run_probe(spec: dict[str, Any], out: Any) -> None:
    daemon = BenchDaemon(DaemonSpec(model="qwen2.5-coder-1.5b", policy="act", turn_budget_s=300,
                                    model_cache=default_model_cache()))
    try:
        client = await daemon.start()
        work = daemon.root / "work" / spec["name"]
        for name, text in spec["files"].items():
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            (work / name).write_text(text, encoding="utf-8")
        for question in spec["questions"]:
            log, started = TurnLog(), time.monotonic()
            session = await client.call("session/create", {"cwd": str(work)})
            task = {"headless": False}
            try:
                async with asyncio.timeout(QUESTION_TIMEOUT_S):
                    await drive_turn(client, session.session_id, task, question, Yes(), log, started)
            except TimeoutError:
                log.status = "timeout"
            out.write(f"### [{spec['name']}] {question}  ({time.monotonic() - started:.1f}s {log.status})\n")
            for call in log.calls.values():
                out.write(f"   call: {call.name} {call.fate} {json.dumps(call.arguments)[:300]}\n")
            for sent in read_outbox(daemon.outbox):
                out.write(f"   SENT: {json.dumps(sent)[:300]}\n")
            shutil.rmtree(daemon.outbox, ignore_errors=True)
            out.write("   A: " + log.answer.replace("\n", "\n      ") + "\n" + (f"   note: {log.note[:300]}\n" if log.note else ""))
            out.flush()
        out.write(f"=== files at the end of {spec['name']}\n")
        for path in sorted(p for p in work.rglob("*") if p.is_file()):
            out.write(f"-- {path.relative_to(work)}\n{path.read_text(encoding='utf-8')}\n")
    finally:
        home = HOMES / spec["name"]
        shutil.rmtree(home, ignore_errors=True)
        if daemon.scratch.data_dir.exists():
            shutil.copytree(daemon.scratch.data_dir, home, ignore=shutil.ignore_patterns("models", "*.gguf"))
        daemon.stop()


def ground_only(spec: dict[str, Any], out: Any) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        work, home = Path(scratch, "work"), Path(scratch, "home")
        home.mkdir()
        for name, text in spec["files"].items():
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            (work / name).write_text(text, encoding="utf-8")
        for question in spec["questions"]:
            _, built = ground_messages(Ground(cwd=work, home=home, now=GROUND_ONLY_NOW, request=question))
            turn_part = built.text[built.text.index(TURN_HEADING):].replace(str(work), "WORK")  # the same each run
            out.write(f"### [{spec['name']}] {question}\n{turn_part}\n")


async def run_all(specs: list[dict[str, Any]], out: Any) -> None:
    for spec in specs:
        await run_probe(spec, out)


def main(args: list[str]) -> None:
    only_ground = args[0] == "--ground-only"
    out_path, *spec_paths = args[1:] if only_ground else args
    specs = [json.loads(Path(path).read_text(encoding="utf-8")) for path in spec_paths]
    with open(out_path, "a", encoding="utf-8") as out:
        if only_ground:
            for spec in specs:
                ground_only(spec, out)
        else:
            asyncio.run(run_all(specs, out))


if __name__ == "__main__":
    main(sys.argv[1:])
