"""The rumps layer of the menu-bar client: menus, dialogs, the answer window, notifications,
the global hotkey. It only turns clicks into controller calls and controller calls into
AppKit; all behaviour is in controller.py. macOS only: elsewhere importing it says so in one
line and exits."""

from __future__ import annotations

import sys

if sys.platform != "darwin":
    raise SystemExit("saturn menubar: macOS only")

import asyncio
import shlex
import subprocess
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

import AppKit  # PyObjC, installed with rumps
import rumps
from PyObjCTools import AppHelper

from clients.menubar.controller import Decision, QuickAskController, socket_path

T = TypeVar("T")
HOTKEY = (AppKit.NSEventModifierFlagControl | AppKit.NSEventModifierFlagOption, " ")
"""⌃⌥Space opens Quick Ask from anywhere (macOS asks once for the Accessibility permission)."""
STATE_EVERY_S = 10


def on_main(function: Callable[[], T]) -> Future[T]:
    """Runs `function` on the AppKit thread; the future has its result."""
    done: Future[T] = Future()

    def run() -> None:
        try:
            done.set_result(function())
        except Exception as exc:  # handed to the waiting coroutine
            done.set_exception(exc)

    AppHelper.callAfter(run)
    return done


class RumpsUI:
    """MenubarUI on AppKit: called from the controller's thread, drawn on the main one."""

    def __init__(self, app: SaturnMenubar) -> None:
        self.app = app
        self._panel: Any = None
        self._text: Any = None

    def show_state(self, state: str) -> None:
        on_main(lambda: setattr(self.app, "title", "♄" if state.endswith("ready") else "♄…"))
        on_main(lambda: setattr(self.app.state_item, "title", state))

    async def ask_line(self) -> str | None:
        def prompt() -> str | None:
            window = rumps.Window("", "Quick Ask", ok="Ask", cancel="Cancel", dimensions=(360, 24))
            response = window.run()
            return response.text if response.clicked else None

        return await asyncio.wrap_future(on_main(prompt))

    def show_answer(self, question: str, text: str) -> None:
        on_main(lambda: self._draw_answer(question, text))

    def _draw_answer(self, question: str, text: str) -> None:
        if self._panel is None:
            frame = AppKit.NSMakeRect(0, 0, 420, 260)
            style = (AppKit.NSWindowStyleMaskTitled | AppKit.NSWindowStyleMaskClosable
                     | AppKit.NSWindowStyleMaskResizable | AppKit.NSWindowStyleMaskUtilityWindow)
            self._panel = AppKit.NSPanel.alloc().initWithContentRect_styleMask_backing_defer_(
                frame, style, AppKit.NSBackingStoreBuffered, False)
            scroll = AppKit.NSScrollView.alloc().initWithFrame_(frame)
            scroll.setHasVerticalScroller_(True)
            self._text = AppKit.NSTextView.alloc().initWithFrame_(frame)
            self._text.setEditable_(False)
            scroll.setDocumentView_(self._text)
            self._panel.setContentView_(scroll)
            self._panel.center()
        self._panel.setTitle_(question[:60])
        self._text.setString_(text)
        self._panel.orderFrontRegardless()

    def notify(self, title: str, message: str) -> None:
        on_main(lambda: rumps.notification(title, "", message[:240]))

    async def ask_approval(self, name: str, arguments: Any, reason: str) -> Decision:
        def dialog() -> Decision:
            clicked = rumps.alert(
                title=f"Saturn wants to run {name}", message=f"{arguments}\n\n{reason}".strip(),
                ok="Allow once", cancel="Decline", other="Always allow",
            )
            return "once" if clicked == 1 else "decline" if clicked == 0 else "always"

        return await asyncio.wrap_future(on_main(dialog))

    async def ask_question(self, question: str) -> str | None:
        def dialog() -> str | None:
            response = rumps.Window(question, "Saturn asks", ok="Reply", cancel="Skip",
                                    dimensions=(360, 24)).run()
            return response.text if response.clicked else None

        return await asyncio.wrap_future(on_main(dialog))

    def show_recent(self, items: list[str]) -> None:
        on_main(lambda: self.app.set_recent(items))

    def open_terminal(self, argv: list[str]) -> None:
        command = shlex.join(argv).replace("\\", "\\\\").replace('"', '\\"')
        script = f'tell application "Terminal" to do script "{command}"\nactivate application "Terminal"'
        subprocess.Popen(["osascript", "-e", script])


class SaturnMenubar(rumps.App):
    def __init__(self) -> None:
        super().__init__("Saturn", title="♄", quit_button="Quit")
        self.state_item = rumps.MenuItem("Saturn: …")
        self.recent_menu = rumps.MenuItem("Recent answers")
        self.menu = [
            self.state_item, None,
            rumps.MenuItem("Quick Ask…", callback=lambda _: self.spawn(self.controller.quick_ask())),
            self.recent_menu,
            rumps.MenuItem("Open in terminal", callback=lambda _: self.controller.open_in_terminal()),
            None,
        ]
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.controller = QuickAskController(socket_path(), RumpsUI(self))
        self.timer = rumps.Timer(lambda _: self.spawn(self.controller.refresh_state()), STATE_EVERY_S)
        self.timer.start()
        self._watch_hotkey()

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Runs the controller's work on its own thread, away from the AppKit one."""
        asyncio.run_coroutine_threadsafe(work, self.loop)

    def set_recent(self, items: list[str]) -> None:
        self.recent_menu.clear()
        for index, title in enumerate(items):
            self.recent_menu.add(rumps.MenuItem(
                title, callback=lambda _, i=index: self.controller.show_recent_answer(i)))

    def _watch_hotkey(self) -> None:
        modifiers, key = HOTKEY

        def pressed(event: Any) -> None:
            mask = AppKit.NSEventModifierFlagDeviceIndependentFlagsMask
            if event.modifierFlags() & mask == modifiers and event.charactersIgnoringModifiers() == key:
                self.spawn(self.controller.quick_ask())

        AppKit.NSEvent.addGlobalMonitorForEventsMatchingMask_handler_(AppKit.NSEventMaskKeyDown, pressed)


def main() -> None:
    SaturnMenubar().run()
