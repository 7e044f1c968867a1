"""Everything the menu-bar client does, without a UI: it talks to saturnd through `protocol`'s
client and to the screen through a `MenubarUI`, which the rumps layer (app.py) implements on
macOS and the tests implement with a fake.

A quick ask runs in one session kept for quick asks (titled "quick ask", in the home folder),
so "Open in terminal" can resume it with the terminal client. It is not headless: an approval
or an `ask_user` question comes up as a dialog and the answer goes back to the turn.
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from protocol.client import Client
from protocol.events import Answer, ApprovalRequested, Question, ResponseDelta, TurnEnded
from protocol.jsonrpc import RpcError
from protocol.methods import (
    SessionCreateParams,
    TurnDecideParams,
    TurnStartParams,
    TurnTextParams,
)

QUICK_ASK_TITLE = "quick ask"
RECENT_LIMIT = 5
NOT_RUNNING = "saturnd is not running: start it with `saturn daemon start` or `saturn service install`"
Decision = Literal["once", "always", "decline"]


class MenubarUI(Protocol):
    """What the controller needs from the screen. The awaited ones wait for the person."""

    def show_state(self, state: str) -> None:
        """The status item's text: ready, working, not running."""

    async def ask_line(self) -> str | None:
        """The one-line Quick Ask prompt; None when cancelled."""

    def show_answer(self, question: str, text: str) -> None:
        """The small answer window, with the answer so far (called again as it streams)."""

    def notify(self, title: str, message: str) -> None: ...

    async def ask_approval(self, name: str, arguments: Any, reason: str) -> Decision: ...

    async def ask_question(self, question: str) -> str | None:
        """An ask_user question; None when the person would not answer."""

    def show_recent(self, items: list[str]) -> None:
        """The menu's recent answers, newest first."""

    def open_terminal(self, argv: list[str]) -> None:
        """Run a command in a new terminal window."""


@dataclass(frozen=True)
class Exchange:
    question: str
    answer: str

    def menu_title(self, width: int = 48) -> str:
        line = f"{self.question} → {self.answer}".replace("\n", " ")
        return line if len(line) <= width else line[: width - 1] + "…"


class QuickAskController:
    def __init__(self, socket: Path, ui: MenubarUI, terminal_client: tuple[str, ...] = ("saturn",)) -> None:
        self.socket = socket
        self.ui = ui
        self.terminal_client = terminal_client
        self.session_id = ""
        self.recent: deque[Exchange] = deque(maxlen=RECENT_LIMIT)

    async def refresh_state(self) -> bool:
        """Shows whether saturnd runs and its model answers; True when it runs."""
        try:
            async with await Client.connect(str(self.socket)) as saturn:
                status = await saturn.call("daemon/status")
        except (OSError, RpcError):
            self.ui.show_state("Saturn: not running")
            return False
        self.ui.show_state("Saturn: ready" if status.model.answers else "Saturn: model not answering")
        return True

    async def quick_ask(self) -> None:
        """The "Quick Ask…" item (and the hotkey): a prompt, then the turn."""
        text = await self.ui.ask_line()
        if text and text.strip():
            await self.ask(text.strip())

    async def ask(self, text: str) -> str:
        """Runs one turn in the quick-ask session; returns the answer."""
        try:
            saturn = await Client.connect(str(self.socket))
        except OSError:
            self.ui.show_state("Saturn: not running")
            self.ui.notify("Saturn", NOT_RUNNING)
            return ""
        async with saturn:
            self.ui.show_state("Saturn: working…")
            try:
                answer = await self._turn(saturn, text)
            except RpcError as exc:
                answer = ""
                self.ui.notify("Saturn", exc.message)
            self.ui.show_state("Saturn: ready")
        return answer

    async def _turn(self, saturn: Client, text: str) -> str:
        session_id = await self._quick_ask_session(saturn)
        started = await saturn.call("turn/start", TurnStartParams(session_id=session_id, text=text))
        turn_id, streamed, answer = started.turn_id, "", ""
        async for turn_event in saturn.turn_events(turn_id):
            match turn_event.event:
                case ResponseDelta(text=delta):
                    streamed += delta
                    self.ui.show_answer(text, streamed)
                case ApprovalRequested(call_id=call_id, name=name, arguments=arguments, reason=reason):
                    decision = await self.ui.ask_approval(name, arguments, reason)
                    await saturn.call("turn/decide", TurnDecideParams(
                        turn_id=turn_id, call_id=call_id, decision=decision))
                case Question(question=question):
                    reply = await self.ui.ask_question(question)
                    await saturn.call("turn/reply", TurnTextParams(turn_id=turn_id, text=reply or ""))
                case Answer(text=final, note=note):
                    answer = final
                    self.ui.show_answer(text, final + (f"\n\n({note})" if note else ""))
                case TurnEnded(status="failed", error=error):
                    self.ui.notify("Saturn could not answer", error)
                    return ""
        self.recent.appendleft(Exchange(text, answer))
        self.ui.show_recent([exchange.menu_title() for exchange in self.recent])
        self.ui.notify("Saturn", answer)
        return answer

    async def _quick_ask_session(self, saturn: Client) -> str:
        """The session kept for quick asks: this run's, else the newest from an earlier run."""
        if not self.session_id:
            listed = await saturn.call("session/list")
            kept = [s for s in listed.sessions if s.title == QUICK_ASK_TITLE]
            if kept:
                self.session_id = max(kept, key=lambda s: s.created_at).session_id
            else:
                created = await saturn.call("session/create", SessionCreateParams(
                    cwd=str(Path.home()), title=QUICK_ASK_TITLE))
                self.session_id = created.session_id
        return self.session_id

    def show_recent_answer(self, index: int) -> None:
        """A recent answer picked from the menu, in the answer window again."""
        exchange = self.recent[index]
        self.ui.show_answer(exchange.question, exchange.answer)

    def open_in_terminal(self) -> None:
        """The terminal client on the quick-ask session (a new one if nothing was asked yet)."""
        argv = [*self.terminal_client]
        if self.session_id:
            argv += ["--resume", self.session_id]
        self.ui.open_terminal(argv)


def socket_path() -> Path:
    if os.environ.get("SATURN_SOCKET"):
        return Path(os.environ["SATURN_SOCKET"])
    from machine.paths import resolve_paths

    return resolve_paths().socket
