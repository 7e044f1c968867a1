"""The methods that reach into a running (or finished) turn: controls, approvals, explain,
subscribe, trace; and the egress log's listing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from protocol.jsonrpc import InvalidParams, InvalidState, NotFound
from protocol.methods import (
    EgressEntry,
    EgressListParams,
    EgressListResult,
    ExplainResult,
    Ok,
    TraceGetResult,
    TurnDecideParams,
    TurnExplainParams,
    TurnRefParams,
    TurnSubscribeParams,
    TurnSubscribeResult,
    TurnTextParams,
)
from saturnd.gate.provenance import SessionRecord, argument_origins
from saturnd.rpc import Handler
from saturnd.store import Store
from saturnd.turn.context import TurnContext


class LiveTurn:
    """A turn that is running, and the task that runs it."""

    def __init__(self, context: TurnContext) -> None:
        self.context = context
        self.task: Any = None
        self.cancel_requested = False
        """turn/cancel, as opposed to the daemon stopping."""


class TurnMethods:
    def __init__(
        self, store: Store, live_turns: dict[str, LiveTurn], flush_egress: Callable[[], None]
    ) -> None:
        self.store = store
        self.live_turns = live_turns
        self.flush_egress = flush_egress

    def handlers(self) -> dict[str, Handler]:
        return {
            "turn/subscribe": self.turn_subscribe,
            "turn/reply": self.turn_reply,
            "turn/decide": self.turn_decide,
            "turn/explain": self.turn_explain,
            "turn/steer": self.turn_steer,
            "turn/stop_thought": self.turn_stop_thought,
            "turn/pause": self.turn_pause,
            "turn/resume": self.turn_resume,
            "turn/abort": self.turn_abort,
            "turn/cancel": self.turn_cancel,
            "trace/get": self.trace_get,
            "egress/list": self.egress_list,
        }

    def _live(self, turn_id: str) -> LiveTurn:
        live = self.live_turns.get(turn_id)
        if live is None:
            if self.store.turn(turn_id) is None:
                raise NotFound(f"no turn {turn_id!r}")
            raise InvalidState(f"turn {turn_id} has ended")
        return live

    async def turn_reply(self, params: TurnTextParams, connection: Any) -> Ok:
        self._live(params.turn_id).context.control.reply(params.text)
        return Ok()

    async def turn_stop_thought(self, params: TurnRefParams, connection: Any) -> Ok:
        self._live(params.turn_id).context.control.stop_thought()
        return Ok()

    async def turn_decide(self, params: TurnDecideParams, connection: Any) -> Ok:
        self._live(params.turn_id).context.control.decide(params.call_id, params.decision)
        return Ok()

    async def turn_explain(self, params: TurnExplainParams, connection: Any) -> ExplainResult:
        turn = self._live(params.turn_id).context
        decision = turn.reviewed.get(params.call_id)
        if decision is None:
            raise NotFound(f"no call {params.call_id!r} in turn {params.turn_id}")
        record = SessionRecord.from_messages(self.store.messages(turn.session_id))
        return ExplainResult(
            call_id=params.call_id,
            name=decision.call.name,
            arguments=decision.arguments,
            reason=decision.reason or decision.result,
            origins=argument_origins(decision.arguments, record),
            plan=turn.plan,
        )

    async def egress_list(self, params: EgressListParams, connection: Any) -> EgressListResult:
        self.flush_egress()
        rows = self.store.list_egress(params.session_id, params.turn_id, params.host, params.limit)
        return EgressListResult(entries=[msgspec.convert(row, EgressEntry) for row in rows])

    async def turn_steer(self, params: TurnTextParams, connection: Any) -> Ok:
        if not params.text.strip():
            raise InvalidParams("text must not be empty")
        self._live(params.turn_id).context.control.steer(params.text)
        return Ok()

    async def turn_pause(self, params: TurnRefParams, connection: Any) -> Ok:
        self._live(params.turn_id).context.control.pause()
        return Ok()

    async def turn_resume(self, params: TurnRefParams, connection: Any) -> Ok:
        self._live(params.turn_id).context.control.resume()
        return Ok()

    async def turn_abort(self, params: TurnRefParams, connection: Any) -> Ok:
        self._live(params.turn_id).context.control.abort()
        return Ok()

    async def turn_cancel(self, params: TurnRefParams, connection: Any) -> Ok:
        live = self._live(params.turn_id)
        live.cancel_requested = True
        if live.task is not None:
            live.task.cancel()
        return Ok()

    async def trace_get(self, params: TurnRefParams, connection: Any) -> TraceGetResult:
        if not params.turn_id:  # the most recent turn
            params.turn_id = self.store.latest_turn_id() or ""
        live = self.live_turns.get(params.turn_id)
        if live is not None:
            turn = live.context
            return TraceGetResult(
                turn_id=turn.turn_id, session_id=turn.session_id, text=turn.text, status="running",
                passes=turn.trace, plan=turn.plan, receipt=turn.tally.receipt(turn.plan),
                ground=turn.ground,
                history=turn.history_note, first_move=turn.first_move_note, worked_out=turn.worked,
            )
        stored = self.store.turn(params.turn_id)
        if stored is None:
            raise NotFound(f"no turn {params.turn_id!r}")
        trace = stored["trace"] or {}
        return msgspec.convert(
            {
                "turn_id": stored["turn_id"], "session_id": stored["session_id"],
                "text": stored["text"], "status": stored["status"], "answer": stored["answer"],
                "passes": trace.get("passes", []), "plan": trace.get("plan", []),
                "ground": trace.get("ground"),
                "receipt": stored["receipt"] or None, "history": trace.get("history", ""),
                "first_move": trace.get("first_move", ""), "worked_out": trace.get("worked_out", []),
                "note": trace.get("note", ""),
            },
            TraceGetResult,
        )

    async def turn_subscribe(
        self, params: TurnSubscribeParams, connection: Any
    ) -> TurnSubscribeResult:
        live = self.live_turns.get(params.turn_id)
        if live is not None:
            live.context.events.subscribe(connection, params.after_seq)
            return TurnSubscribeResult(
                turn_id=params.turn_id, status="running", last_seq=live.context.events.last_seq
            )
        stored = self.store.turn(params.turn_id)
        if stored is None:
            raise NotFound(f"no turn {params.turn_id!r}")
        lines = self.store.events_after(params.turn_id, params.after_seq)
        for line in lines:
            connection.send(line)
        last_seq = params.after_seq + len(lines)
        return TurnSubscribeResult(turn_id=params.turn_id, status=stored["status"], last_seq=last_seq)
