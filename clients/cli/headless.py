"""`saturn -p "text"`: one turn from the current folder, streamed to stdout.

Kept lean on purpose: no prompt_toolkit, no daemon code, just the protocol client.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import msgspec

from clients.cli.daemon_control import StartFailed, connect_or_start
from protocol.events import (
    Answer,
    PassStarted,
    PlanUpdated,
    Receipt,
    ResponseDelta,
    TurnEnded,
    TurnEvent,
)
from protocol.jsonrpc import ConnectionClosed, RpcError
from protocol.methods import SessionCreateParams, TurnStartParams
from protocol.sync_client import SyncClient

_encode = msgspec.json.Encoder().encode


def run_headless(
    text: str,
    output: str,
    session_id: str | None = None,
    allow: list[str] | None = None,
    think: str = "",
) -> int:
    try:
        client = connect_or_start()
    except StartFailed as exc:
        print(f"saturn: could not start saturnd: {exc}", file=sys.stderr)
        return 1
    with client:
        try:
            if session_id is None:
                session = client.call("session/create", SessionCreateParams(cwd=os.getcwd()))
                session_id = session.session_id
            started = client.call(
                "turn/start",
                TurnStartParams(
                    session_id=session_id, text=text, headless=True, allow=allow or [], think=think
                ),
            )
        except RpcError as exc:
            print(f"saturn: {exc.message}", file=sys.stderr)
            return 1
        return _follow(client, started.turn_id, session_id, output)


def _follow(client: SyncClient, turn_id: str, session_id: str, output: str) -> int:
    out = sys.stdout
    answer = ""
    plan: list[Any] = []
    receipt = Receipt()
    pass_text = ""
    ended: TurnEnded | None = None
    try:
        for turn_event in client.turn_events(turn_id):
            event = turn_event.event
            if output == "stream-json":
                out.write(_stream_line(turn_event) + "\n")
                out.flush()
            match event:
                case PassStarted() if output == "text" and pass_text:
                    out.write("\n")  # a pass that spoke, then called a tool
                    pass_text = ""
                case ResponseDelta(text=delta) if output == "text":
                    out.write(delta)
                    out.flush()
                    pass_text += delta
                case Answer():
                    answer = event.text
                    if output == "text":
                        _finish_text(out, answer, event.note, pass_text)
                case PlanUpdated(items=items):
                    plan = items
                case Receipt():
                    receipt = event
                case TurnEnded():
                    ended = event
    except ConnectionClosed:
        pass
    if ended is None:
        print("saturn: lost the connection to saturnd before the turn ended", file=sys.stderr)
        return 1
    if output == "json":
        result = {
            "answer": answer,
            "session_id": session_id,
            "turn_id": turn_id,
            "status": ended.status,
            "note": ended.note,
            "plan": msgspec.to_builtins(plan),
            "receipt": _receipt_json(receipt),
        }
        if ended.error:
            result["error"] = ended.error
        out.write(_encode(result).decode() + "\n")
    if ended.status == "failed":
        print(f"saturn: {ended.error}", file=sys.stderr)
        return 1
    return 0


def _stream_line(turn_event: TurnEvent) -> str:
    if not isinstance(turn_event.event, TurnEnded):
        return _encode(turn_event).decode()
    # A script may read only the last line: its note is there even when empty.
    line = msgspec.to_builtins(turn_event)
    line["event"].setdefault("note", "")
    return _encode(line).decode()


def _finish_text(out: Any, answer: str, note: str, pass_text: str) -> None:
    # A bound or failure answers with earlier text than what just streamed: show the answer.
    if answer != pass_text:
        out.write(("\n" if pass_text else "") + answer)
    out.write("\n")
    if note:
        out.write(f"({note})\n")
    out.flush()


def _receipt_json(receipt: Receipt) -> dict[str, Any]:
    return {
        "passes": receipt.passes,
        "model_calls": receipt.model_calls,
        "tool_calls": receipt.tool_calls,
        "tool_fates": receipt.tool_fates,
        "thinking_s": receipt.thinking_s,
        "wall_s": receipt.wall_s,
        "tokens_in": receipt.tokens_in,
        "tokens_out": receipt.tokens_out,
        "plan": msgspec.to_builtins(receipt.plan),
        "note": receipt.note,
    }
