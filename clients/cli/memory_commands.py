"""`saturn memory …`: what Saturn remembers, and why; the same methods any client calls."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from clients.cli.daemon_control import StartFailed, connect_or_start
from protocol.jsonrpc import RpcError
from protocol.methods import (
    CandidateRefParams,
    MemoryAddParams,
    MemoryImportParams,
    MemoryNumberParams,
    SessionRefParams,
)
from protocol.sync_client import SyncClient

INTERVIEW = [
    ("What should I call you?", "My name is {}"),
    ("Where do you live (city)?", "I live in {}"),
    ("Anything about food I should know (e.g. vegetarian)?", "Food: {}"),
    ("A rule I should always follow (e.g. never book anything before 10am)?", "{}"),
]


def run(action: str, argument: str) -> int:
    commands: dict[str, Callable[[SyncClient, str], int]] = {
        "list": _list, "forget": _forget, "add": _add, "why": _why, "review": _review,
        "queue": _queue, "accept": _accept, "reject": _reject, "import": _import,
        "interview": _interview,
    }
    try:
        with connect_or_start() as client:
            return commands[action](client, argument)
    except (RpcError, StartFailed) as exc:
        print(f"saturn: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 1


def _number(argument: str) -> int:
    try:
        return int(argument.lstrip("#"))
    except ValueError:
        raise SystemExit(f"saturn: not a fact number: {argument!r}") from None


def _list(client: SyncClient, argument: str) -> int:
    facts = client.call("memory/list").facts
    for f in facts:
        when = time.strftime("%Y-%m-%d", time.localtime(f.created_at))
        rule = " [rule]" if f.kind == "rule" else ""
        print(f"#{f.number:<4} {when}  {f.text}{rule}  ({f.provenance})")
    if not facts:
        print("nothing remembered yet")
    return 0


def _forget(client: SyncClient, argument: str) -> int:
    client.call("memory/forget", MemoryNumberParams(number=_number(argument)))
    print(f"forgot #{_number(argument)}")
    return 0


def _print_saved(saved: Any) -> None:
    print(saved.line)
    if saved.similar:
        print(saved.similar)


def _add(client: SyncClient, argument: str) -> int:
    _print_saved(client.call("memory/add", MemoryAddParams(text=argument)))
    return 0


def _why(client: SyncClient, argument: str) -> int:
    print(client.call("memory/why", MemoryNumberParams(number=_number(argument))).explanation)
    return 0


def _show_candidates(candidates: list[Any]) -> None:
    for c in candidates:
        label = f"[{c.id}]" if c.id else "[--]"
        print(f"{label} {c.text}  ({c.check})")
    if not candidates:
        print("no candidates")


def _review(client: SyncClient, argument: str) -> int:
    session_id = argument or _latest_session(client)
    _show_candidates(client.call("memory/review", SessionRefParams(session_id=session_id)).candidates)
    print("accept with `saturn memory accept ID`, reject with `saturn memory reject ID`")
    return 0


def _latest_session(client: SyncClient) -> str:
    sessions = client.call("session/list").sessions
    if not sessions:
        raise SystemExit("saturn: there is no session to review")
    return str(sessions[0].session_id)


def _queue(client: SyncClient, argument: str) -> int:
    _show_candidates(client.call("memory/queue").candidates)
    return 0


def _accept(client: SyncClient, argument: str) -> int:
    _print_saved(client.call("memory/accept", CandidateRefParams(id=_number(argument))))
    return 0


def _reject(client: SyncClient, argument: str) -> int:
    client.call("memory/reject", CandidateRefParams(id=_number(argument)))
    print(f"rejected [{_number(argument)}]")
    return 0


def _import(client: SyncClient, argument: str) -> int:
    try:
        with open(argument, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise SystemExit(f"saturn: cannot read {argument}: {exc.strerror}") from None
    _show_candidates(client.call("memory/import", MemoryImportParams(lines=lines)).candidates)
    return 0


def _interview(client: SyncClient, argument: str) -> int:
    """A short first-run interview; every question can be skipped with Enter. Never headless."""
    if not sys.stdin.isatty():
        print("saturn: the interview needs a terminal", file=sys.stderr)
        return 1
    print("A few basics I could remember (Enter skips):")
    for question, shape in INTERVIEW:
        answer = input(f"{question} ").strip()
        if answer:
            _print_saved(client.call("memory/add", MemoryAddParams(text=shape.format(answer))))
    return 0
