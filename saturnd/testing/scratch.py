"""A throwaway saturnd for the tests and the benchmark: its own temp home, data dir, socket and
working folder, redirected by environment (SATURN_HOME, SATURN_DATA_DIR, SATURN_SOCKET), so
nothing touches the user's real ones."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

from machine.daemon_process import (
    DAEMON_ARGV,
    DaemonDidNotStart,
    spawn_daemon,
    wait_until_answering,
)

CHECKOUT = Path(__file__).resolve().parents[2]
"""The folder that holds the saturnd package. It goes on the daemon's PYTHONPATH so the child
runs this very code, and finds tool modules kept beside it (tests.scripted_tools)."""
START_TIMEOUT_S = 30.0


class ScratchHome:
    """A temp root: `home/` (config.yaml, kb/), `data/`, `run/saturnd.sock`, `work/`, and the
    daemon's output in `saturnd.out`. Removed by `cleanup` (or on leaving a `with`)."""

    def __init__(self, prefix: str = "st-", extra_env: dict[str, str] | None = None) -> None:
        # Unix socket paths are limited to ~104 bytes: keep the temp root short.
        self._tmp = tempfile.TemporaryDirectory(prefix=prefix, dir="/tmp")
        self.root = Path(self._tmp.name)
        self.extra_env = dict(extra_env or {})
        self.home, self.data_dir = self.root / "home", self.root / "data"
        self.socket, self.workdir = self.root / "run" / "saturnd.sock", self.root / "work"
        self.output_file = self.root / "saturnd.out"
        self.workdir.mkdir()

    @property
    def env(self) -> dict[str, str]:
        return {
            **os.environ, "SATURN_HOME": str(self.home), "SATURN_DATA_DIR": str(self.data_dir),
            "SATURN_SOCKET": str(self.socket), "PYTHONPATH": str(CHECKOUT), **self.extra_env,
        }

    def write_config(self, text: str) -> None:
        self.home.mkdir(parents=True, exist_ok=True)
        (self.home / "config.yaml").write_text(text)

    def cleanup(self) -> None:
        self._tmp.cleanup()

    def __enter__(self) -> ScratchHome:
        return self

    def __exit__(self, *exc: object) -> None:
        self.cleanup()


class ScratchDaemon:
    """saturnd started in a ScratchHome; `start` returns once its socket answers."""

    def __init__(self, scratch: ScratchHome, argv: tuple[str, ...] = DAEMON_ARGV) -> None:
        self.scratch = scratch
        self.argv = argv
        self.process: subprocess.Popen[bytes] | None = None
        self._output_from = 0

    def start(self, timeout_s: float = START_TIMEOUT_S) -> ScratchDaemon:
        out = self.scratch.output_file
        self._output_from = out.stat().st_size if out.exists() else 0
        with out.open("ab") as output:
            self.process = spawn_daemon(output, self.scratch.env, self.argv)
        try:
            wait_until_answering(self.process, self.scratch.socket, timeout_s)
        except DaemonDidNotStart as exc:
            raise DaemonDidNotStart(f"{exc}: {self.output()}") from None
        return self

    def stop(self, sig: int = signal.SIGTERM, timeout_s: float = 15) -> str:
        """Signals the daemon (SIGKILL kills it mid-whatever), waits, and returns its output."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.output()

    def output(self) -> str:
        """What the daemon printed since this start."""
        with contextlib.suppress(OSError), self.scratch.output_file.open("rb") as f:
            f.seek(self._output_from)
            return f.read().decode(errors="replace")
        return ""

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def __enter__(self) -> ScratchDaemon:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def scratch_daemon(config: str, prefix: str = "st-") -> Iterator[ScratchHome]:
    """A ScratchHome with `config` as its config.yaml and a daemon running in it; both are
    gone on exit."""
    with ScratchHome(prefix) as scratch:
        scratch.write_config(config)
        with ScratchDaemon(scratch).start():
            yield scratch
