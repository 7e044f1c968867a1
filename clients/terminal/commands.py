"""Slash commands: parsing, completion, and the ones that only read or change the daemon.

The commands that change what the client shows (/clear, /resume, /quit) live in the app;
everything here turns a daemon method's result into transcript lines.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from clients.cli.egress_view import entry_line
from clients.cli.trace_view import render_why
from clients.terminal.render import Line
from protocol.client import Client
from protocol.methods import (
    CandidateRefParams,
    EgressListParams,
    FactInfo,
    MemoryAddParams,
    MemoryNumberParams,
    SessionInfo,
    SessionRefParams,
    SessionSetThinkParams,
    TurnRefParams,
)

COMMANDS = {
    "/think": "[off|auto|on]  how much the model thinks in this session",
    "/memory": "[list|forget N|add TEXT|why N|review|queue|accept ID|reject ID]  what Saturn remembers",
    "/trace": "why [TURN]  what each pass of a turn did, and why",
    "/clear": "a fresh conversation in this session",
    "/resume": "[SESSION]  re-attach to a session (default: this folder's latest other one)",
    "/sessions": "the sessions the daemon keeps",
    "/egress": "every outbound connection this session made",
    "/help": "this list",
    "/quit": "leave (a running turn goes on in the daemon)",
}
ARGUMENTS = {
    "/think": ["off", "auto", "on"],
    "/memory": ["list", "forget", "add", "why", "review", "queue", "accept", "reject"],
    "/trace": ["why"],
}
HELP_KEYS = (
    "keys: Enter sends (queues during a turn) · Esc pauses (with text: steers now) · "
    "Esc while thinking stops the thought · q at a pause aborts · Ctrl+C cancels the turn"
)


def parse(line: str) -> tuple[str, str]:
    """`/memory forget 3` -> ("/memory", "forget 3")."""
    name, _, argument = line.strip().partition(" ")
    return name.lower(), argument.strip()


def unknown_command_line(name: str) -> Line:
    return ("error", f"unknown command {name} — /help lists the commands; nothing was sent to the model")


def help_lines() -> list[Line]:
    lines: list[Line] = [("note", f"{name} {text}") for name, text in COMMANDS.items()]
    return [*lines, ("note", HELP_KEYS)]


class SlashCompleter(Completer):
    """Command names after `/`, then each command's words; /resume completes session ids."""

    def __init__(self, session_ids: Callable[[], list[str]]) -> None:
        self.session_ids = session_ids

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        if not text.startswith("/"):
            return
        if " " not in text:
            for name, meta in COMMANDS.items():
                if name.startswith(text.lower()):
                    yield Completion(name, -len(text), display_meta=meta.split("  ")[0])
            return
        name, _, rest = text.partition(" ")
        if " " in rest:
            return
        choices = self.session_ids() if name == "/resume" else ARGUMENTS.get(name, [])
        for choice in choices:
            if choice.startswith(rest):
                yield Completion(choice, -len(rest))


def session_line(info: SessionInfo, current: str) -> Line:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.created_at))
    turns = f"{info.turn_count} turn" + ("" if info.turn_count == 1 else "s")
    running = f" · running {info.running_turn_id}" if info.running_turn_id else ""
    mark = "*" if info.session_id == current else " "
    return ("note", f"{mark} {info.session_id}  {when}  {turns}{running}  {info.cwd}")


async def think(client: Client, session_id: str, argument: str) -> tuple[str, list[Line]]:
    """Returns the session's level now, and what to show."""
    if not argument:
        info = (await client.call("session/get", SessionRefParams(session_id=session_id))).session
        return info.think, [("note", f"thinking: {info.think} · /think off|auto|on changes it")]
    result = await client.call("session/set_think", SessionSetThinkParams(session_id, argument))
    return result.level, [("note", f"thinking: {result.level} for this session")]


def _fact_line(fact: FactInfo) -> Line:
    when = time.strftime("%Y-%m-%d", time.localtime(fact.created_at))
    rule = " [rule]" if fact.kind == "rule" else ""
    return ("note", f"#{fact.number:<4} {when}  {fact.text}{rule}  ({fact.provenance})")


async def memory(client: Client, session_id: str, argument: str) -> list[Line]:
    action, _, rest = argument.partition(" ")
    action, rest = action or "list", rest.strip()
    if action == "list":
        facts = (await client.call("memory/list")).facts
        return [_fact_line(f) for f in facts] or [("note", "nothing remembered yet")]
    if action in ("review", "queue"):
        if action == "review":
            queued = await client.call("memory/review", SessionRefParams(session_id=session_id))
        else:
            queued = await client.call("memory/queue")
        lines: list[Line] = [
            ("note", f"[{c.id}] {c.text}  ({c.source}{': ' + c.check if c.check else ''})")
            for c in queued.candidates
        ]
        return lines + [("note", "/memory accept ID · /memory reject ID")] if lines \
            else [("note", "nothing waiting for review")]
    if action == "add" and rest:
        added = await client.call("memory/add", MemoryAddParams(text=rest))
        return [("memory", added.line)] + ([("memory", added.similar)] if added.similar else [])
    number = _number(rest)
    if number is None or action not in ("forget", "why", "accept", "reject"):
        return [("error", f"usage: /memory {COMMANDS['/memory'].split('  ')[0]}")]
    if action == "forget":
        await client.call("memory/forget", MemoryNumberParams(number=number))
        return [("note", f"forgot #{number}")]
    if action == "why":
        why = await client.call("memory/why", MemoryNumberParams(number=number))
        return [_fact_line(why.fact), ("note", why.explanation)]
    if action == "accept":
        accepted = await client.call("memory/accept", CandidateRefParams(id=number))
        return [("memory", accepted.line)]
    await client.call("memory/reject", CandidateRefParams(id=number))
    return [("note", f"rejected [{number}]")]


def _number(text: str) -> int | None:
    try:
        return int(text.lstrip("#"))
    except ValueError:
        return None


async def trace(client: Client, argument: str, last_turn_id: str) -> list[Line]:
    action, _, turn_id = argument.partition(" ")
    if action != "why":
        return [("error", "usage: /trace why [TURN]")]
    got = await client.call("trace/get", TurnRefParams(turn_id=turn_id.strip() or last_turn_id))
    return [("note", line) for line in render_why(got).splitlines()]


async def egress(client: Client, session_id: str) -> list[Line]:
    listed = await client.call("egress/list", EgressListParams(session_id=session_id, limit=50))
    lines: list[Line] = [("note", entry_line(e)) for e in listed.entries]
    return lines or [("note", "no outbound connections recorded in this session")]

