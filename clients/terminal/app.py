"""`saturn`: the interactive terminal client (prompt_toolkit, full screen).

A thin client: the transcript, the rail and the status line are read off the turn events
the daemon sends (clients.terminal.render); every key that acts on a turn calls a daemon
method. Leaving never stops a turn: the daemon runs it whether or not anyone watches.
"""

from __future__ import annotations

import asyncio
import os
import textwrap
import time
from collections.abc import Awaitable, Callable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    Window,
)
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import TextArea

from clients.terminal import commands
from clients.terminal.render import Line, TurnView, plan_lines, status_line
from protocol.client import Client
from protocol.events import TurnEvent
from protocol.jsonrpc import ConnectionClosed, RpcError
from protocol.methods import (
    SessionCreateParams,
    SessionInfo,
    SessionQueueParams,
    SessionRefParams,
    TurnDecideParams,
    TurnExplainParams,
    TurnRefParams,
    TurnStartParams,
    TurnSubscribeParams,
    TurnTextParams,
)

STYLE = Style.from_dict({
    "user": "bold",
    "rule": "ansicyan",
    "tool": "ansiblue",
    "thought": "italic ansibrightblack",
    "approval": "bold ansiyellow",
    "diff": "ansibrightblack",
    "diff_add": "ansigreen",
    "diff_del": "ansired",
    "question": "bold ansiyellow",
    "keys": "ansiyellow",
    "paused": "bold ansimagenta",
    "steer": "ansimagenta",
    "memory": "ansigreen",
    "receipt": "ansibrightblack",
    "error": "ansired",
    "note": "ansibrightblack",
    "plan": "",
    "rail": "ansicyan",
    "status": "reverse",
})
DECISION_KEYS = {"y": "once", "a": "always", "n": "decline"}


class TerminalClient:
    def __init__(self, client: Client, session: SessionInfo, model: str) -> None:
        self.client = client
        self.session = session
        self.think = session.think
        self.model = model
        self.blocks: list[TurnView | list[Line]] = []
        """The transcript: turns (as their events draw them) and the client's own lines."""
        self.views: dict[str, TurnView] = {}
        self.sessions: list[SessionInfo] = []
        self.exit_armed = False
        self.input = TextArea(
            prompt="› ", multiline=False, wrap_lines=True,
            completer=commands.SlashCompleter(lambda: [s.session_id for s in self.sessions]),
            complete_while_typing=True, accept_handler=self._accept,
        )
        self.app: Application[None] = Application(
            layout=Layout(self._container(), focused_element=self.input),
            key_bindings=self._key_bindings(),
            style=STYLE, full_screen=True, refresh_interval=0.5, mouse_support=False,
        )
        self.app.ttimeoutlen = 0.05  # Esc acts at once, not after the Alt-key wait

    # what is on screen

    @property
    def turn(self) -> TurnView | None:
        """The turn running in this session, if this client is watching one."""
        running = [v for v in self.views.values() if v.ended is None]
        return running[-1] if running else None

    def _container(self) -> FloatContainer:
        transcript = Window(FormattedTextControl(self._transcript, focusable=False), wrap_lines=True)
        rail = ConditionalContainer(
            Window(FormattedTextControl(self._rail), wrap_lines=True, dont_extend_height=True),
            filter=Condition(lambda: bool(self.turn and self.turn.plan)),
        )
        status = Window(FormattedTextControl(self._status), height=1, style="class:status")
        body = HSplit([transcript, rail, status, self.input])
        menu = Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8))
        return FloatContainer(body, floats=[menu])

    def _transcript(self) -> StyleAndTextTuples:
        fragments: StyleAndTextTuples = []
        width = self.app.output.get_size().columns
        for block in self.blocks:
            for style, text in block.lines if isinstance(block, TurnView) else block:
                fragments.append((f"class:{style}", wrap(text, width) + "\n"))
        # The window scrolls to keep the cursor in view: keep it on the newest line.
        fragments.append(("[SetCursorPosition]", ""))
        return fragments

    def _rail(self) -> StyleAndTextTuples:
        view = self.turn
        items = plan_lines(view.plan) if view else []
        return [("class:rail", "── plan\n"), *(("class:plan", f"{line}\n") for line in items)]

    def _status(self) -> StyleAndTextTuples:
        width = self.app.output.get_size().columns
        view = self.turn or TurnView()
        return [("", status_line(view, time.time(), model=self.model, think=self.think,
                                 session_id=self.session.session_id, width=width))]

    def show(self, *lines: Line) -> None:
        """Adds the client's own lines in time order: inside the running turn, if one is."""
        if self.turn is not None:
            self.turn.lines.extend(lines)
        elif self.blocks and isinstance(self.blocks[-1], list):
            self.blocks[-1].extend(lines)
        else:
            self.blocks.append(list(lines))
        self.app.invalidate()

    # events from the daemon

    async def follow_events(self) -> None:
        async for method, params in self.client.notifications():
            if method == "turn/event":
                self.apply(params)
        self.show(("error", "lost the connection to saturnd; /quit and run saturn again"))

    def apply(self, turn_event: TurnEvent) -> None:
        view = self.views.get(turn_event.turn_id)
        if view is None:
            view = self.views[turn_event.turn_id] = TurnView()
            self.blocks.append(view)
        if turn_event.seq <= view.last_seq:
            return  # already shown (a re-attach replays from the start)
        view.apply(turn_event)
        self.app.invalidate()

    # keys

    def _key_bindings(self) -> KeyBindings:
        keys = KeyBindings()
        empty_line = Condition(lambda: not self.input.text)
        asking = Condition(lambda: bool(self.turn and self.turn.approvals))
        paused = Condition(lambda: bool(self.turn and self.turn.paused))

        for key in ("y", "a", "n"):
            @keys.add(key, filter=asking & empty_line)
            def _decide(event: KeyPressEvent) -> None:
                self._spawn(self._decide(DECISION_KEYS[event.key_sequence[0].key]))

        @keys.add("e", filter=asking & empty_line)
        def _explain(event: KeyPressEvent) -> None:
            self._spawn(self._explain())

        @keys.add("q", filter=paused & empty_line & ~asking)
        def _abort(event: KeyPressEvent) -> None:
            self._spawn(self._control("turn/abort"))

        @keys.add("escape", eager=True)
        def _escape(event: KeyPressEvent) -> None:
            self._spawn(self._escape())

        @keys.add("c-c")
        def _interrupt(event: KeyPressEvent) -> None:
            self._interrupt()

        @keys.add("c-d", filter=empty_line)
        def _leave(event: KeyPressEvent) -> None:
            self.app.exit()

        return keys

    def _spawn(self, work: Awaitable[None]) -> None:
        async def reporting() -> None:
            try:
                await work
            except RpcError as exc:
                self.show(("error", exc.message))
            except ConnectionClosed:
                self.show(("error", "saturnd closed the connection"))

        self.app.create_background_task(reporting())

    def _accept(self, buffer: Any) -> bool:
        text = buffer.text.strip()
        self.exit_armed = False
        if text.startswith("/"):
            self._spawn(self._command(text))
        else:
            self._spawn(self._submit(text))
        return False

    async def _submit(self, text: str) -> None:
        view = self.turn
        if view is None:
            if text:
                await self._start(text)
            return
        if view.question:
            if text:
                await self.client.call("turn/reply", TurnTextParams(view.turn_id, text))
        elif view.paused:
            if text:
                await self.client.call("turn/steer", TurnTextParams(view.turn_id, text))
            await self.client.call("turn/resume", TurnRefParams(view.turn_id))
        elif text:
            queued = await self.client.call(
                "session/queue", SessionQueueParams(self.session.session_id, text)
            )
            self.show(("note", f"queued as the next message ({queued.queued} waiting): {text}"))

    async def _start(self, text: str) -> None:
        await self.client.call("turn/start", TurnStartParams(self.session.session_id, text))

    async def _decide(self, decision: str) -> None:
        view = self.turn
        if view is None or not view.approvals:
            return
        approval = view.approvals[0]
        view.decided(approval.call_id)
        self.show(("note", f"{approval.name}: {decision}"))
        await self.client.call("turn/decide", TurnDecideParams(view.turn_id, approval.call_id, decision))  # type: ignore[arg-type]

    async def _explain(self) -> None:
        view = self.turn
        if view is None or not view.approvals:
            return
        explained = await self.client.call(
            "turn/explain", TurnExplainParams(view.turn_id, view.approvals[0].call_id)
        )
        lines: list[Line] = [("note", f"why asked: {explained.reason or 'the gate asks for this tool'}")]
        for name, value in explained.arguments.items():
            origin = explained.origins.get(name, "")
            lines.append(("note", f"  {name} = {value!r}" + (f" — {origin}" if origin else "")))
        if explained.plan:
            lines.append(("note", "checklist:"))
            lines += [("plan", f"  {line}") for line in plan_lines(explained.plan)]
        self.show(*lines, ("keys", "[y] once · [a] always this session · [n] decline"))

    async def _escape(self) -> None:
        view = self.turn
        if view is None:
            return
        text = self.input.text.strip()
        if text:
            self.input.text = ""
            await self.client.call("turn/steer", TurnTextParams(view.turn_id, text))
            self.show(("steer", f"steering now: {text}"))
        elif view.thinking:
            await self.client.call("turn/stop_thought", TurnRefParams(view.turn_id))
            self.show(("note", "stopping the thought"))
        elif not view.paused:
            await self.client.call("turn/pause", TurnRefParams(view.turn_id))
            self.show(("note", "pausing at the agent's next pass…"))

    def _interrupt(self) -> None:
        view = self.turn
        if view is not None:
            self._spawn(self._control("turn/cancel"))
        elif self.input.text:
            self.input.text = ""
        elif self.exit_armed:
            self.app.exit()
        else:
            self.exit_armed = True
            self.show(("note", "Ctrl+C again to leave"))

    async def _control(self, method: str) -> None:
        view = self.turn
        if view is not None:
            await self.client.call(method, TurnRefParams(view.turn_id))

    # slash commands

    async def _command(self, line: str) -> None:
        name, argument = commands.parse(line)
        self.show(("user", f"› {line}"))
        handlers: dict[str, Callable[[], Awaitable[list[Line]]]] = {
            "/think": lambda: self._think(argument),
            "/memory": lambda: commands.memory(self.client, self.session.session_id, argument),
            "/trace": lambda: commands.trace(self.client, argument, self._last_turn_id()),
            "/egress": lambda: commands.egress(self.client, self.session.session_id),
            "/sessions": self._list_sessions,
            "/clear": self._clear,
            "/resume": lambda: self._resume(argument),
        }
        if name == "/quit":
            self.app.exit()
        elif name == "/help":
            self.show(*commands.help_lines())
        elif name in handlers:
            try:
                self.show(*await handlers[name]())
            except RpcError as exc:
                self.show(("error", exc.message))
        else:
            self.show(commands.unknown_command_line(name))

    def _last_turn_id(self) -> str:
        return next(reversed(self.views), "")

    async def _think(self, argument: str) -> list[Line]:
        self.think, lines = await commands.think(self.client, self.session.session_id, argument)
        return lines

    async def _list_sessions(self) -> list[Line]:
        self.sessions = (await self.client.call("session/list")).sessions
        return [commands.session_line(s, self.session.session_id) for s in self.sessions]

    async def _clear(self) -> list[Line]:
        await self.client.call("session/clear", SessionRefParams(self.session.session_id))
        self.blocks, self.views = [], {}
        return [("note", "a fresh conversation: earlier turns are no longer sent to the model")]

    async def _resume(self, argument: str) -> list[Line]:
        self.sessions = (await self.client.call("session/list")).sessions
        target = pick_session(self.sessions, argument, os.getcwd(), self.session.session_id)
        if target is None:
            wanted = f"matching {argument!r}" if argument else "of this folder to resume"
            return [("error", f"no session {wanted} · /sessions lists them")]
        self.blocks, self.views = [], {}
        await self.attach(target)
        return []

    async def attach(self, session_id: str) -> None:
        """Re-attach: the conversation so far, then the latest turn from its first event."""
        self.session = await self.client.call("session/resume", SessionRefParams(session_id))
        self.think = self.session.think
        got = await self.client.call("session/get", SessionRefParams(session_id))
        turn_ids = list(dict.fromkeys(m.turn_id for m in got.messages if m.turn_id))
        last_turn = self.session.running_turn_id or (turn_ids[-1] if turn_ids else "")
        earlier = [
            ("user", f"› {m.content}") if m.role == "user" else ("response", m.content)
            for m in got.messages
            if m.turn_id != last_turn and m.content and (
                m.role == "user" or (m.role == "assistant" and not m.tool_calls))
        ]
        self.show(("note", f"session {session_id} ({self.session.cwd})"), *earlier)
        if last_turn:
            await self.client.call("turn/subscribe", TurnSubscribeParams(last_turn, after_seq=0))


def wrap(text: str, width: int) -> str:
    """Breaks at words, not mid-word, for the terminal's width now (a resize re-wraps)."""
    return "\n".join(
        textwrap.fill(line, width, replace_whitespace=False, drop_whitespace=False) or line
        for line in text.split("\n")
    )


def pick_session(sessions: list[SessionInfo], argument: str, cwd: str, current: str) -> str | None:
    """A session id: the one named (a unique prefix will do), or this folder's newest other."""
    if argument:
        named = [s.session_id for s in sessions if s.session_id.startswith(argument)]
        return named[0] if len(named) == 1 else None
    here = [s for s in sessions if s.cwd == cwd and s.session_id != current]
    return max(here, key=lambda s: s.created_at).session_id if here else None


async def run_client(socket_path: str, resume: str | None) -> int:
    """`resume`: None opens a new session; "" the folder's newest one; else that session."""
    client = await Client.connect(socket_path)
    try:
        status = await client.call("daemon/status")
        model = status.model.name or ("embedded" if status.model.embedded else status.model.base_url)
        if resume is None:
            session = await client.call("session/create", SessionCreateParams(cwd=os.getcwd()))
        else:
            sessions = (await client.call("session/list")).sessions
            session_id = pick_session(sessions, resume, os.getcwd(), "")
            if session_id is None:
                print(f"saturn: no session {'matching ' + repr(resume) if resume else 'in this folder'} to resume")
                return 1
            session = SessionInfo(session_id=session_id, cwd=os.getcwd(), created_at=0.0)
        terminal = TerminalClient(client, session, model)
        if resume is not None:
            await terminal.attach(session.session_id)
        else:
            terminal.show(("note", f"session {session.session_id} in {session.cwd} · /help lists the commands"))
        follower = asyncio.ensure_future(terminal.follow_events())
        try:
            await terminal.app.run_async()
        finally:
            follower.cancel()
    finally:
        await client.close()
    return 0
