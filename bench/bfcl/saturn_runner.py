"""One BFCL case through Saturn's loop: a real saturnd with the case's functions as MCP tools.

Per case: a fresh daemon (temp home) pointed at a shared model server (`model.base_url`),
the case's functions served by `bench.bfcl.mcp_server` as `bfcl.<name>`, the gate allowing
those tools (approvals for them, e.g. escalated by outside content, are answered "once";
any other approval is declined). Each user turn of the case is one `turn/start` in one
session; `ask_user` is answered "I don't know" and is never a BFCL call. The calls the MCP
server received during a turn are the model's output for that turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.bfcl.cases import Case, tool_schemas
from bench.daemon import REPO, BenchDaemon, DaemonSpec
from protocol.client import Client
from saturnd.tools import builtin_registry

NO_ANSWER = "I don't know. Please go on without it."
MCP_SERVER = "bfcl"


@dataclass(frozen=True)
class SaturnSetup:
    """What of Saturn the case's functions sit beside."""

    builtins: str = "ask_user"
    """all: every built-in tool is offered too; ask_user: only ask_user (BFCL's miss_param
    turns want a question), the rest disabled through tools.disabled."""
    description_chars: int = 1000
    """mcp.servers.bfcl.description_chars: BFCL's tools often differ only late in their text."""


def config_yaml(case_path: Path, log_path: Path, setup: SaturnSetup) -> str:
    command = [sys.executable, "-m", "bench.bfcl.mcp_server", str(case_path), str(log_path)]
    text = (
        "mcp:\n  servers:\n"
        f"    {MCP_SERVER}:\n      command: {json.dumps(command)}\n"
        f"      env: {json.dumps({'PYTHONPATH': str(REPO)})}\n"
        f"      description_chars: {setup.description_chars}\n"
        f"gate:\n  rules:\n    - tool: '{MCP_SERVER}.*'\n      decision: allow\n"
    )
    if setup.builtins == "ask_user":
        hidden = [name for name in builtin_registry().names() if name != "ask_user"]
        text += f"tools:\n  disabled: {json.dumps(hidden)}\n"
    return text


def write_case(case: Case, path: Path) -> None:
    path.write_text(json.dumps({
        "id": case.id, "tools": tool_schemas(case.functions), "multi_turn": case.multi_turn,
        "initial_config": case.initial_config, "involved_classes": case.involved_classes,
    }), encoding="utf-8")


def read_calls(log_path: Path) -> list[dict[str, Any]]:
    if not log_path.exists():
        return []
    return [json.loads(line) for line in log_path.read_text(encoding="utf-8").splitlines() if line.strip()]


@dataclass
class TurnRecord:
    status: str = ""
    answer: str = ""
    questions: int = 0
    proposed: int = 0
    declined: int = 0
    wall_s: float = 0.0
    notes: list[str] = field(default_factory=list)
    """What the harness noted on each pass (a send-back, a forced call, a bound): which rules fired."""


async def drive(client: Client, session_id: str, text: str, record: TurnRecord) -> None:
    turn = await client.call("turn/start", {"session_id": session_id, "text": text})
    async for item in client.turn_events(turn.turn_id):
        event: Any = item.event
        tag = event.__struct_config__.tag
        if tag == "approval_requested":
            ours = event.name.startswith(MCP_SERVER + ".")
            record.declined += 0 if ours else 1
            await client.call("turn/decide", {"turn_id": turn.turn_id, "call_id": event.call_id,
                                              "decision": "once" if ours else "decline"})
        elif tag == "question":
            record.questions += 1
            await client.call("turn/reply", {"turn_id": turn.turn_id, "text": NO_ANSWER})
        elif tag == "tool_proposed":
            record.proposed += 1
        elif tag == "answer":
            record.answer = event.text
        elif tag == "turn_ended":
            record.status = event.status
            trace = await client.call("trace/get", {"turn_id": turn.turn_id})
            record.notes = [f"{p.index}: {p.note}" for p in trace.passes if p.note]


async def _cancel_running(client: Client, session_id: str) -> None:
    with contextlib.suppress(Exception):
        got = await client.call("session/get", {"session_id": session_id})
        if got.session.running_turn_id:
            await client.call("turn/cancel", {"turn_id": got.session.running_turn_id})


async def run_case(
    case: Case, spec: DaemonSpec, turn_timeout_s: float, setup: SaturnSetup | None = None
) -> dict[str, Any]:
    """{"observed": calls (single-turn) or per-turn [[calls]] (multi-turn), "turns": [...]}."""
    with tempfile.TemporaryDirectory(prefix="sbf-", dir="/tmp") as tmp:
        case_path, log_path = Path(tmp) / "case.json", Path(tmp) / "calls.jsonl"
        write_case(case, case_path)
        extra = config_yaml(case_path, log_path, setup or SaturnSetup())
        bspec = DaemonSpec(**{**spec.__dict__, "extra_yaml": spec.extra_yaml + extra})
        daemon = BenchDaemon(bspec)
        turns: list[TurnRecord] = []
        per_turn: list[list[dict[str, Any]]] = []
        started = time.monotonic()
        try:
            client = await daemon.start()
            try:
                # An empty working folder: a BFCL case has no files, and the daemon's own home,
                # store and log must not show up in the ground's folder map.
                daemon.scratch.workdir.mkdir(exist_ok=True)
                session = await client.call("session/create", {"cwd": str(daemon.scratch.workdir)})
                for text in case.turns:
                    record, seen = TurnRecord(), len(read_calls(log_path))
                    t0 = time.monotonic()
                    try:
                        async with asyncio.timeout(turn_timeout_s):
                            await drive(client, session.session_id, text, record)
                    except TimeoutError:
                        record.status = "timeout"
                        await _cancel_running(client, session.session_id)
                    record.wall_s = round(time.monotonic() - t0, 2)
                    turns.append(record)
                    per_turn.append(read_calls(log_path)[seen:])
            finally:
                await client.close()
        except Exception as exc:  # a daemon that does not start fails the case, not the run
            return {"observed": [[c] for c in per_turn] if case.multi_turn else [],
                    "error": f"{type(exc).__name__}: {exc}", "daemon_log": daemon.log_tail(),
                    "turns": [t.__dict__ for t in turns]}
        finally:
            await asyncio.to_thread(daemon.stop)
        while case.multi_turn and len(per_turn) < len(case.turns):
            per_turn.append([])
        observed: Any = [[calls] if calls else [] for calls in per_turn] if case.multi_turn else per_turn[0]
        return {"observed": observed, "turns": [t.__dict__ for t in turns],
                "daemon_ready_s": round(daemon.ready_s, 2),
                "wall_s": round(time.monotonic() - started, 2)}
