"""One task through a running daemon: lay the fixtures, run the turn as a scripted person
would (approvals, answers), gather the final state, check it, and make the log record."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.checkers import (
    Call,
    FinalState,
    asks_a_question,
    expected_move,
    move_is_right,
    observed_move,
    run_checks,
)
from protocol.client import Client

NO_REPLY = "I don't know. Please go on without it."
"""What the scripted person says to a question the task did not expect."""
TEXT_FILE_CAP = 200_000


@dataclass
class Places:
    """Where a task's fixtures go in the daemon under test."""

    work: Path
    kb_dir: Path
    outbox: Path
    pages_url: str = ""


@dataclass
class TurnLog:
    """What the client saw of one turn, as it happened."""

    answer: str = ""
    first_answer: str = ""
    note: str = ""
    status: str = ""
    calls: dict[str, Call] = field(default_factory=dict)
    approvals: list[str] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    thinking_s: float = 0.0
    model_calls: int = 0
    """From the receipts: the trace loses a pass's calls when the pass fails unreadable."""
    tokens: list[int] = field(default_factory=lambda: [0, 0, 0])
    """Prompt tokens, completion tokens, and prompt tokens the server reused from its cache."""
    first_token_s: float | None = None
    turn_ids: list[str] = field(default_factory=list)


def lay_fixtures(task: dict[str, Any], places: Places) -> None:
    """A fresh working folder, the task's KB and an empty outbox: no task sees another's."""
    for root, docs in ((places.work, task["files"]), (places.kb_dir, task["kb"])):
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        for name, text in docs.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(str(text), encoding="utf-8")
    shutil.rmtree(places.outbox, ignore_errors=True)


def prompt_of(task: dict[str, Any], places: Places) -> str:
    return task["prompt"].replace("{pages}", places.pages_url)


class Person:
    """Answers approvals and questions from the task's script, in order."""

    def __init__(self, task: dict[str, Any]) -> None:
        self._decide = {k: list(v) if isinstance(v, list) else v for k, v in task["decide"].items()}
        self._replies = list(task["replies"])

    def decision(self, tool: str) -> str:
        # Unscripted approvals are declined: the task did not expect that call to change anything.
        scripted = self._decide.get(tool, "decline")
        if isinstance(scripted, list):
            return scripted.pop(0) if scripted else "decline"
        return scripted

    def reply(self) -> str:
        return self._replies.pop(0) if self._replies else NO_REPLY

    def has_replies(self) -> bool:
        return bool(self._replies)


async def drive_turn(
    client: Client, session_id: str, task: dict[str, Any], text: str, person: Person, log: TurnLog,
    started: float,
) -> None:
    turn = await client.call(
        "turn/start", {"session_id": session_id, "text": text, "headless": task["headless"]}
    )
    log.turn_ids.append(turn.turn_id)
    async for item in client.turn_events(turn.turn_id):
        await _on_event(client, turn.turn_id, item.event, person, log, started)


async def drive_conversation(client: Client, session_id: str, task: dict[str, Any], text: str, log: TurnLog) -> None:
    """The turn, and, when its answer asks the person something and the task has a reply for
    it, the person's next message: asking in plain words is as good as calling ask_user."""
    person, started = Person(task), time.monotonic()
    await drive_turn(client, session_id, task, text, person, log, started)
    while (not task["headless"] and log.status == "completed" and person.has_replies()
           and asks_a_question(log.answer)):
        log.questions.append(log.answer)
        await drive_turn(client, session_id, task, person.reply(), person, log, started)


async def _on_event(
    client: Client, turn_id: str, event: Any, person: Person, log: TurnLog, started: float
) -> None:
    tag = event.__struct_config__.tag
    if tag in ("response_delta", "tool_proposed") and log.first_token_s is None:
        log.first_token_s = time.monotonic() - started
    # A model may reuse call ids across passes and turns: key them by turn and pass order.
    key = f"{turn_id}/{len(log.calls)}/{getattr(event, 'call_id', '')}"
    if tag == "tool_proposed":
        arguments = event.arguments if isinstance(event.arguments, dict) else {"raw": event.arguments}
        log.calls[key] = Call(event.name, arguments, "proposed")
    elif tag == "tool_finished":
        _finish_call(log, event.call_id, event.fate)
    elif tag == "approval_requested":
        decision = person.decision(event.name)
        log.approvals.append(event.name)
        log.decisions.append(decision)
        await client.call("turn/decide", {"turn_id": turn_id, "call_id": event.call_id, "decision": decision})
    elif tag == "question":
        log.questions.append(event.question)
        await client.call("turn/reply", {"turn_id": turn_id, "text": person.reply()})
    elif tag == "answer":
        log.answer, log.note = event.text, event.note
        log.first_answer = log.first_answer or event.text
    elif tag == "receipt":
        log.thinking_s += event.thinking_s
        log.model_calls += event.model_calls
        log.tokens = [log.tokens[0] + event.tokens_in, log.tokens[1] + event.tokens_out,
                      log.tokens[2] + event.tokens_cached]
    elif tag == "turn_ended":
        log.status = event.status


def _finish_call(log: TurnLog, call_id: str, fate: str) -> None:
    """The latest proposed call with this id that has no fate yet."""
    for key in reversed(log.calls):
        if key.endswith("/" + call_id) and log.calls[key].fate == "proposed":
            log.calls[key].fate = fate
            return


def snapshot_files(work: Path) -> dict[str, str]:
    files: dict[str, str] = {}
    for path in sorted(work.rglob("*")):
        if path.is_file() and path.stat().st_size <= TEXT_FILE_CAP:
            with contextlib.suppress(UnicodeDecodeError, OSError):
                files[str(path.relative_to(work))] = path.read_text(encoding="utf-8")
    return files


def read_outbox(outbox: Path) -> list[dict[str, Any]]:
    # File names start with a UTC timestamp: sorted names are sending order.
    if not outbox.is_dir():
        return []
    return [json.loads(p.read_text()) for p in sorted(outbox.glob("*.json"))]


THOUGHT_KEPT_CHARS = 600


def pass_costs(traces: list[Any], receipt_calls: int = 0) -> dict[str, Any]:
    """Model calls split into drafts (thinking off) and thinking calls, from trace/get; the
    receipts' count wins where it is larger (a failed pass keeps no count in the trace)."""
    passes = [p for trace in traces for p in trace.passes]
    thinking = sum(1 for p in passes if p.thinking)
    calls = max(sum(p.model_calls for p in passes), receipt_calls)
    return {
        "passes": len(passes),
        "model_calls": calls,
        "draft_calls": calls - thinking,
        "thinking_calls": thinking,
        "thinking_reruns": sum(1 for p in passes if "pulled back" in p.note),
        "first_pass_calls": [c.name for c in passes[0].calls] if passes else [],
        "pass_notes": [p.note for p in passes],
        "thoughts": [p.thought[:THOUGHT_KEPT_CHARS] for p in passes if p.thinking],
    }


async def run_one(client: Client, task: dict[str, Any], places: Places, timeout_s: float) -> dict[str, Any]:
    """The task's log record (without run, model and policy fields, which the runner adds)."""
    lay_fixtures(task, places)
    session = await client.call("session/create", {"cwd": str(places.work)})
    started = time.monotonic()
    log = TurnLog()
    try:
        async with asyncio.timeout(timeout_s):
            await drive_conversation(client, session.session_id, task, prompt_of(task, places), log)
    except TimeoutError:
        log.status = "timeout"
        await _cancel_running(client, session.session_id)
    wall = time.monotonic() - started
    traces = [await client.call("trace/get", {"turn_id": t}) for t in log.turn_ids]
    costs = pass_costs(traces, log.model_calls)
    state = FinalState(
        answer=log.answer, first_answer=log.first_answer, note=log.note, status=log.status, calls=list(log.calls.values()),
        first_pass_calls=costs.pop("first_pass_calls"), approvals=log.approvals,
        questions=log.questions, files=snapshot_files(places.work), outbox=read_outbox(places.outbox),
    )
    await forget_facts(client)
    first_moves = [t.first_move for t in traces]
    return {**record_of(task, state, log, costs, wall), "turns": len(log.turn_ids), "first_moves": first_moves}


async def _cancel_running(client: Client, session_id: str) -> None:
    got = await client.call("session/get", {"session_id": session_id})
    if got.session.running_turn_id:
        with contextlib.suppress(Exception):
            await client.call("turn/cancel", {"turn_id": got.session.running_turn_id})


async def forget_facts(client: Client) -> None:
    """A fact one task saved must not reach the next task's memory block."""
    facts = await client.call("memory/list")
    for fact in facts.facts:
        await client.call("memory/forget", {"number": fact.number})


def record_of(
    task: dict[str, Any], state: FinalState, log: TurnLog, costs: dict[str, Any], wall: float
) -> dict[str, Any]:
    failures = run_checks(task, state)
    observed = observed_move(task, state)
    fates: dict[str, int] = {}
    for c in state.calls:
        fates[c.fate] = fates.get(c.fate, 0) + 1
    return {
        "task": task["id"], "category": task["category"],
        "expected_move": expected_move(task), "observed_move": observed,
        "move_right": move_is_right(task, observed),
        "passed": not failures, "failure": failures[0] if failures else "", "failures": failures,
        **costs,
        "tool_fates": fates,
        # With its arguments, so a failure can be read back from the record without a re-run.
        "calls": [[c.name, c.fate, c.arguments] for c in state.calls],
        "approvals": [[a, d] for a, d in zip(log.approvals, log.decisions, strict=True)],
        "questions": state.questions,
        "thinking_s": round(log.thinking_s, 3),
        "ttft_s": round(log.first_token_s, 3) if log.first_token_s is not None else None,
        "wall_s": round(wall, 3),
        "tokens_in": log.tokens[0], "tokens_out": log.tokens[1], "tokens_cached": log.tokens[2],
        "status": state.status, "answer": state.answer, "note": state.note,
        "first_answer": state.first_answer if state.first_answer != state.answer else "",
    }
