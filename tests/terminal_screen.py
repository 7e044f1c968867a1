"""A real terminal for the terminal client's tests: tmux runs `saturn`, send-keys types,
capture-pane reads the screen; every wait polls the screen until a deadline."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

TMUX = shutil.which("tmux")


class Screen:
    """One tmux server (its own socket) with one window running a command."""

    def __init__(self, env: dict[str, str], cwd: Path, width: int = 80, height: int = 30) -> None:
        self.env, self.cwd = env, cwd
        self.width, self.height = width, height
        self.server = f"saturn-test-{uuid.uuid4().hex[:8]}"

    def tmux(self, *args: str) -> str:
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "-L", self.server, *args], capture_output=True, text=True, timeout=10
        )
        return done.stdout

    def start(self, *saturn_args: str) -> Screen:
        command = shlex.join([sys.executable, "-m", "clients.cli.main", *saturn_args])
        forwarded = [
            arg for name in ("SATURN_HOME", "SATURN_DATA_DIR", "SATURN_SOCKET", "PYTHONPATH", "NO_COLOR")
            if name in self.env for arg in ("-e", f"{name}={self.env[name]}")
        ]
        self.tmux(
            "new-session", "-d", "-s", "main", "-x", str(self.width), "-y", str(self.height),
            "-c", str(self.cwd), *forwarded, f"{command}; sleep 30",
        )
        return self

    def keys(self, *keys: str) -> None:
        """tmux key names (Enter, Escape, C-c) or literal text."""
        for key in keys:
            if key in ("Enter", "Escape", "C-c", "C-d", "Tab", "BSpace", "Up", "Down"):
                self.tmux("send-keys", "-t", "main", key)
            else:
                self.tmux("send-keys", "-t", "main", "-l", key)

    def type_line(self, text: str) -> None:
        self.keys(text, "Enter")

    def text(self, ansi: bool = False) -> str:
        return self.tmux("capture-pane", "-p", "-t", "main", *(["-e"] if ansi else []))

    def wait_for(self, wanted: str | Callable[[str], bool], timeout: float = 15) -> str:
        """The screen once `wanted` (text, or a test on the screen) is on it."""
        check = wanted if callable(wanted) else (lambda screen: wanted in screen)
        deadline = time.monotonic() + timeout
        while True:
            screen = self.text()
            if check(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {timeout}s for {wanted!r}; the screen:\n{screen}")
            time.sleep(0.05)

    def resize(self, width: int, height: int) -> None:
        self.tmux("resize-window", "-t", "main", "-x", str(width), "-y", str(height))

    def close(self) -> None:
        self.tmux("kill-server")
