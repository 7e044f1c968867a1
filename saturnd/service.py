"""Saturn's state inside the daemon and the handlers behind each method."""

from __future__ import annotations

import asyncio
import logging
import os
import time
import uuid
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from machine.paths import Paths
from protocol.events import EndStatus, PlanItem, PlanUpdated, Question, TurnEnded
from protocol.jsonrpc import InvalidParams, SaturnError
from protocol.methods import (
    Attachment,
    DaemonStatusResult,
    Empty,
    Message,
    ModelsListResult,
    Ok,
    SessionCreateParams,
    SessionGetParams,
    SessionGetResult,
    SessionInfo,
    SessionListResult,
    SessionQueueParams,
    SessionQueueResult,
    SessionRefParams,
    SessionSetThinkParams,
    SessionSetThinkResult,
    TurnStartParams,
    TurnStartResult,
)
from saturnd import __version__
from saturnd.config import Config
from saturnd.egress import EGRESS
from saturnd.gate.judge import Judge, JudgeConfig
from saturnd.memory.methods import MemoryMethods
from saturnd.model.client import ModelClient
from saturnd.model.endpoint import ModelEndpointManager
from saturnd.rpc import Handler
from saturnd.sessions import Session, Sessions
from saturnd.store import Store
from saturnd.tools import builtin_registry
from saturnd.tools.kb import KB_TOOLS
from saturnd.tools.registry import NO_ANSWER, Registry, ToolEnv
from saturnd.turn.context import TurnContext
from saturnd.turn.control import TurnControl
from saturnd.turn.events import TurnEvents
from saturnd.turn.loop import close_record, run_turn
from saturnd.turn.remembering import save_fact
from saturnd.turn.thinking import policy_name, think_level, unknown_level_message
from saturnd.turn_methods import LiveTurn, TurnMethods

log = logging.getLogger("saturnd")


def record_plan(turn: TurnContext, items: list[PlanItem]) -> None:
    turn.plan = items
    turn.events.emit(PlanUpdated(items=items))


async def ask_person(turn: TurnContext, question: str) -> str:
    """ask_user's reach: a question event, then the answer from turn/reply."""
    if not turn.person_present:
        return NO_ANSWER
    turn.events.emit(Question(call_id="", question=question))
    # Within the turn's time budget: a client that vanished must not leave the turn waiting.
    answer = await turn.control.wait_answer(turn.bounds.remaining_s())
    return NO_ANSWER if answer is None else answer


@dataclass
class Saturn:
    paths: Paths
    config: Config
    store: Store
    endpoint: ModelEndpointManager
    stop_requested: asyncio.Event = field(default_factory=asyncio.Event)
    started_at: float = field(default_factory=time.time)
    live_turns: dict[str, LiveTurn] = field(default_factory=dict)
    registry: Registry = field(default_factory=builtin_registry)
    """Built-in tools, plus config tools.modules (the daemon passes the configured one)."""
    judge: Judge = field(default_factory=lambda: Judge(JudgeConfig()))

    def __post_init__(self) -> None:
        self.sessions = Sessions(self.store)

    def handlers(self) -> dict[str, Handler]:
        return {
            "daemon/status": self.daemon_status,
            "daemon/stop": self.daemon_stop,
            "models/list": self.models_list,
            "session/create": self.session_create,
            "session/list": self.session_list,
            "session/get": self.session_get,
            "turn/start": self.turn_start,
            "session/set_think": self.session_set_think,
            "session/queue": self.session_queue,
            "session/clear": self.session_clear,
            "session/resume": self.session_resume,
            "session/close": self.session_close,
            **MemoryMethods(self.store, self.endpoint).handlers(),
            **TurnMethods(self.store, self.live_turns, self.flush_egress).handlers(),
        }

    # daemon/*

    async def daemon_status(self, params: Empty, connection: Any) -> DaemonStatusResult:
        front_door = self.config.front_door
        return DaemonStatusResult(
            pid=os.getpid(),
            version=__version__,
            started_at=self.started_at,
            uptime_s=round(time.time() - self.started_at, 3),
            session_count=self.store.session_count(),
            model=await self.endpoint.status(),
            socket=str(self.paths.socket),
            data_dir=str(self.paths.data_dir),
            front_door_socket=str(self.paths.front_door_socket) if front_door.enabled else "",
            front_door_url=f"http://127.0.0.1:{front_door.tcp_port}/v1" if front_door.tcp_port else "",
            tasks=len(asyncio.all_tasks()),
        )

    async def daemon_stop(self, params: Empty, connection: Any) -> Ok:
        self.stop_requested.set()
        return Ok()

    async def models_list(self, params: Empty, connection: Any) -> ModelsListResult:
        return self.endpoint.models()

    # session/*

    def _session_info(self, session: Session) -> SessionInfo:
        flags = session.flags
        return SessionInfo(
            session_id=session.id,
            cwd=session.cwd,
            created_at=session.row.created_at,
            title=session.row.title,
            running_turn_id=session.running_turn_id,
            turn_count=self.store.turn_count(session.id),
            incognito=flags.incognito,
            tainted=flags.tainted,
            resumed=flags.resumed,
            think=think_level(self._think_policy(session, "")),
        )

    async def session_create(self, params: SessionCreateParams, connection: Any) -> SessionInfo:
        if not os.path.isabs(params.cwd):
            raise InvalidParams(f"cwd must be an absolute path, got {params.cwd!r}")
        return self._session_info(self.sessions.create(params.cwd, params.title, params.incognito))

    async def session_clear(self, params: SessionRefParams, connection: Any) -> Ok:
        """/clear: a fresh conversation in the same session; outside content no longer taints it."""
        session = self.sessions.get(params.session_id)
        session.ensure_idle()
        self.store.clear_session(session.id)
        return Ok()

    async def session_resume(self, params: SessionRefParams, connection: Any) -> SessionInfo:
        """/resume: continue an earlier conversation. Saturn can't vouch for what it read, so
        from now on every fact asks (seed 001)."""
        session = self.sessions.get(params.session_id)
        self.store.set_session_flags(session.id, resumed=True)
        return self._session_info(session)

    async def session_close(self, params: SessionRefParams, connection: Any) -> Ok:
        self.sessions.close(self.sessions.get(params.session_id))
        return Ok()

    async def session_list(self, params: Empty, connection: Any) -> SessionListResult:
        return SessionListResult(sessions=[self._session_info(s) for s in self.sessions.all()])

    async def session_get(self, params: SessionGetParams, connection: Any) -> SessionGetResult:
        session = self.sessions.get(params.session_id)
        messages = [
            Message(
                role=m.role,
                content=m.content,
                turn_id=m.turn_id,
                created_at=m.created_at,
                tool_calls=m.tool_calls,
                tool_call_id=m.tool_call_id,
                name=m.name,
                kind=m.kind,
            )
            for m in self.store.messages(session.id)
        ]
        return SessionGetResult(session=self._session_info(session), messages=messages)

    # turn/*

    async def turn_start(self, params: TurnStartParams, connection: Any) -> TurnStartResult:
        session = self.sessions.get(params.session_id)
        if not params.text.strip():
            raise InvalidParams("text must not be empty")
        think_policy = self._think_policy(session, params.think)
        subscribers = [connection] if connection is not None else []
        turn_id = await self._launch(
            session, params.text, params.attachments, params.headless, subscribers, params.allow,
            think_policy,
        )
        return TurnStartResult(turn_id=turn_id)

    async def start_front_door_turn(
        self, subscriber: Any, cwd: str, text: str, history: list[dict[str, Any]],
        model: ModelClient,
    ) -> tuple[str, str]:
        """A front-door request's turn: headless, in a session of its own, its passes through
        `model`. Returns (turn_id, session_id)."""
        session = self.sessions.create(cwd, "front door", incognito=False)
        turn_id = await self._launch(
            session, text, [], True, [subscriber], model=model, caller_history=history
        )
        return turn_id, session.id

    async def _launch(
        self,
        session: Session,
        text: str,
        attachments: list[Attachment],
        headless: bool,
        subscribers: list[Any],
        allow: list[str] | None = None,
        think_policy: str | None = None,
        model: ModelClient | None = None,
        caller_history: list[dict[str, Any]] | None = None,
    ) -> str:
        """`model`: the client the loop's passes go through (the front door's self-call); the
        endpoint's by default. `caller_history`: see TurnContext."""
        turn_id = f"t_{uuid.uuid4().hex[:12]}"
        # Claim the session before waiting for a cold model, so a second
        # turn/start meanwhile is refused as busy instead of running beside this one.
        session.claim(turn_id)
        try:
            model = model or await self.endpoint.client()
        except BaseException:
            session.release()
            raise
        self.store.create_turn(turn_id, session.id, text)
        events = TurnEvents(self.store, turn_id, session.id)
        for subscriber in subscribers:
            events.subscribe(subscriber)
        control = TurnControl()
        context = TurnContext(
            turn_id=turn_id,
            session=session,
            text=text,
            home=self.paths.home,
            config=self.config,
            model=model,
            store=self.store,
            events=events,
            registry=self.registry if _holds_files(self.paths.kb_dir) else self.registry.without(KB_TOOL_NAMES)[0],
            env=ToolEnv(
                Path(session.cwd),
                self.paths.kb_dir,
                outbox_dir=self.paths.data_dir / "outbox",
                web_allow_private=self.config.web.allow_private,
                web_allowed_hosts=tuple(self.config.web.allowed_hosts),
                tool_timeout_s=self.config.runtime.tool_timeout_s,
                command_groups=self.store,
            ),
            headless=headless,
            attachments=attachments,
            control=control,
            judge=self.judge,
            allow=list(allow or []),
            think_policy=think_policy or self._think_policy(session, ""),
            tool_mode=self.endpoint.tool_mode,
            caller_history=caller_history,
        )
        # The turn's own tools (ask_user, plan) reach back into the turn through its env.
        context.env = replace(
            context.env,
            ask=partial(ask_person, context),
            on_plan=partial(record_plan, context),
            remember=partial(save_fact, context),
        )
        live = LiveTurn(context)
        self.live_turns[turn_id] = live
        live.task = asyncio.get_running_loop().create_task(self._drive(live))
        return turn_id

    async def _drive(self, live: LiveTurn) -> None:
        turn = live.context
        ended: TurnEnded
        try:
            status = await run_turn(turn)
            ended = TurnEnded(status=status, note=turn.note)
        except asyncio.CancelledError:
            if not live.cancel_requested:
                self._close_failed(turn, "interrupted")
                turn.events.emit(TurnEnded(status="interrupted", error="saturnd stopped during the turn"))
                raise
            self._close_failed(turn, "cancelled")
            ended = TurnEnded(status="cancelled", error="cancelled at your request")
        except SaturnError as exc:
            self._close_failed(turn, "failed")
            ended = TurnEnded(status="failed", error=exc.message, error_code=exc.CODE)
        except Exception:
            log.exception("turn %s crashed", turn.turn_id)
            self._close_failed(turn, "failed")
            ended = TurnEnded(status="failed", error="internal error; see the saturnd log", error_code=-32603)
        turn.session.release()
        self.live_turns.pop(turn.turn_id, None)
        self.flush_egress()
        ended.next_turn_id = await self._start_queued(turn)
        turn.events.emit(ended)

    def _close_failed(self, turn: TurnContext, status: EndStatus) -> None:
        self.store.interrupt_open_calls(turn.turn_id, f"tool error: {status}")
        close_record(turn, status)

    async def _start_queued(self, ended: TurnContext) -> str:
        session = ended.session
        if not session.queue or self.stop_requested.is_set():
            return ""
        text = session.queue.popleft()
        try:
            return await self._launch(session, text, [], ended.headless, ended.events.subscribers)
        except SaturnError as exc:
            log.warning("could not start the queued message: %s", exc.message)
            return ""

    def _think_policy(self, session: Session, level: str) -> str:
        if not level:
            return session.think_level or self.config.runtime.think_policy
        policy = policy_name(level)
        if policy is None:
            raise InvalidParams(unknown_level_message(level))
        return policy

    async def session_set_think(
        self, params: SessionSetThinkParams, connection: Any
    ) -> SessionSetThinkResult:
        session = self.sessions.get(params.session_id)
        policy = self._think_policy(session, params.level)
        session.think_level = policy
        return SessionSetThinkResult(level=params.level, policy=policy)

    def flush_egress(self) -> None:
        rows = EGRESS.drain()
        if rows:
            self.store.add_egress(rows)

    async def session_queue(self, params: SessionQueueParams, connection: Any) -> SessionQueueResult:
        session = self.sessions.get(params.session_id)
        if not params.text.strip():
            raise InvalidParams("text must not be empty")
        if not session.running_turn_id:
            subscribers = [connection] if connection is not None else []
            turn_id = await self._launch(session, params.text, [], False, subscribers)
            return SessionQueueResult(queued=0, turn_id=turn_id)
        session.queue.append(params.text)
        return SessionQueueResult(queued=len(session.queue))

    async def shutdown(self) -> None:
        tasks = [live.task for live in self.live_turns.values() if live.task]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.store.interrupt_running_turns()
        await self.endpoint.close()
        self.flush_egress()
        for session_id in self.store.incognito_sessions():
            self.store.delete_session(session_id)


KB_TOOL_NAMES = [t.name for t in KB_TOOLS]


def _holds_files(folder: Path) -> bool:
    """Whether the knowledge base has a document: with none, its tools are not offered (the
    1.5B spent a forced first step on kb_search in an empty one, and they cost every pass tokens)."""
    for _, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        if any(not f.startswith(".") for f in files):
            return True
    return False
