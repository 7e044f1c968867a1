"""Saturn's state inside the daemon and the handlers behind each method."""

from __future__ import annotations

import asyncio
import logging
import os
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from protocol.events import TurnEnded
from protocol.jsonrpc import Busy, InvalidParams, NotFound, SaturnError
from protocol.methods import (
    DaemonStatusResult,
    Empty,
    Message,
    Ok,
    SessionCreateParams,
    SessionGetParams,
    SessionGetResult,
    SessionInfo,
    SessionListResult,
    TurnStartParams,
    TurnStartResult,
    TurnSubscribeParams,
    TurnSubscribeResult,
)
from saturnd import __version__
from saturnd.config import Config
from saturnd.model.endpoint import ModelEndpointManager
from saturnd.paths import Paths
from saturnd.rpc import Handler
from saturnd.store import SessionRow, Store
from saturnd.turn.context import TurnContext
from saturnd.turn.loop import run_turn
from saturnd.turn.run import TurnEvents

log = logging.getLogger("saturnd")


@dataclass
class LiveTurn:
    context: TurnContext
    task: asyncio.Task[None] | None = None


@dataclass
class Saturn:
    paths: Paths
    config: Config
    store: Store
    endpoint: ModelEndpointManager
    stop_requested: asyncio.Event = field(default_factory=asyncio.Event)
    started_at: float = field(default_factory=time.time)
    live_turns: dict[str, LiveTurn] = field(default_factory=dict)
    running_by_session: dict[str, str] = field(default_factory=dict)

    def handlers(self) -> dict[str, Handler]:
        return {
            "daemon/status": self.daemon_status,
            "daemon/stop": self.daemon_stop,
            "session/create": self.session_create,
            "session/list": self.session_list,
            "session/get": self.session_get,
            "turn/start": self.turn_start,
            "turn/subscribe": self.turn_subscribe,
        }

    # daemon/*

    async def daemon_status(self, params: Empty, connection: Any) -> DaemonStatusResult:
        return DaemonStatusResult(
            pid=os.getpid(),
            version=__version__,
            started_at=self.started_at,
            uptime_s=round(time.time() - self.started_at, 3),
            session_count=self.store.session_count(),
            model=await self.endpoint.status(),
            socket=str(self.paths.socket),
            data_dir=str(self.paths.data_dir),
        )

    async def daemon_stop(self, params: Empty, connection: Any) -> Ok:
        self.stop_requested.set()
        return Ok()

    # session/*

    def _session_info(self, row: SessionRow) -> SessionInfo:
        return SessionInfo(
            session_id=row.id,
            cwd=row.cwd,
            created_at=row.created_at,
            title=row.title,
            running_turn_id=self.running_by_session.get(row.id, ""),
            turn_count=self.store.turn_count(row.id),
        )

    def _session(self, session_id: str) -> SessionRow:
        row = self.store.get_session(session_id)
        if row is None:
            raise NotFound(f"no session {session_id!r}")
        return row

    async def session_create(self, params: SessionCreateParams, connection: Any) -> SessionInfo:
        if not os.path.isabs(params.cwd):
            raise InvalidParams(f"cwd must be an absolute path, got {params.cwd!r}")
        row = self.store.create_session(f"s_{uuid.uuid4().hex[:12]}", params.cwd, params.title)
        return self._session_info(row)

    async def session_list(self, params: Empty, connection: Any) -> SessionListResult:
        return SessionListResult(sessions=[self._session_info(r) for r in self.store.list_sessions()])

    async def session_get(self, params: SessionGetParams, connection: Any) -> SessionGetResult:
        row = self._session(params.session_id)
        messages = [
            Message(
                role=m.role,
                content=m.content,
                turn_id=m.turn_id,
                created_at=m.created_at,
                tool_calls=m.tool_calls,
                tool_call_id=m.tool_call_id,
                name=m.name,
            )
            for m in self.store.messages(row.id)
        ]
        return SessionGetResult(session=self._session_info(row), messages=messages)

    # turn/*

    async def turn_start(self, params: TurnStartParams, connection: Any) -> TurnStartResult:
        session = self._session(params.session_id)
        if not params.text.strip():
            raise InvalidParams("text must not be empty")
        if session.id in self.running_by_session:
            raise Busy(
                f"session {session.id} is already running turn {self.running_by_session[session.id]}"
            )
        model = await self.endpoint.client()
        turn_id = f"t_{uuid.uuid4().hex[:12]}"
        self.store.create_turn(turn_id, session.id, params.text)
        events = TurnEvents(self.store, turn_id, session.id)
        if connection is not None:
            events.subscribe(connection)
        context = TurnContext(
            turn_id=turn_id,
            session_id=session.id,
            text=params.text,
            cwd=session.cwd,
            config=self.config,
            model=model,
            store=self.store,
            events=events,
            headless=params.headless,
        )
        live = LiveTurn(context)
        self.live_turns[turn_id] = live
        self.running_by_session[session.id] = turn_id
        live.task = asyncio.get_running_loop().create_task(self._drive(live))
        return TurnStartResult(turn_id=turn_id)

    async def _drive(self, live: LiveTurn) -> None:
        turn = live.context
        try:
            await run_turn(turn)
        except asyncio.CancelledError:
            self._end_badly(turn, "interrupted", "the daemon stopped during the turn", 0)
            raise
        except SaturnError as exc:
            self._end_badly(turn, "failed", exc.message, exc.CODE)
        except Exception:
            log.exception("turn %s crashed", turn.turn_id)
            self._end_badly(turn, "failed", "internal error; see the saturnd log", -32603)
        finally:
            self.running_by_session.pop(turn.session_id, None)
            self.live_turns.pop(turn.turn_id, None)

    def _end_badly(self, turn: TurnContext, status: str, error: str, code: int) -> None:
        receipt = turn.tally.receipt()
        turn.events.emit(receipt)
        turn.store.finish_turn(turn.turn_id, status, "", {}, [])
        turn.events.emit(TurnEnded(status=status, error=error, error_code=code))

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

    async def shutdown(self) -> None:
        tasks = [live.task for live in self.live_turns.values() if live.task]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.store.interrupt_running_turns()
        await self.endpoint.close()
