"""Find and start the background saturnd. Blocking on purpose: short-lived commands stay lean."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from protocol.sync_client import SyncClient

STARTUP_TIMEOUT_S = 30.0


def socket_path() -> Path:
    if os.environ.get("SATURN_SOCKET"):
        return Path(os.environ["SATURN_SOCKET"])
    # Same rule as saturnd.paths, without importing the daemon into the client.
    from machine.paths import resolve_paths

    return resolve_paths().socket


def log_path() -> Path:
    from machine.paths import resolve_paths

    return resolve_paths().log_file


def try_connect(path: Path) -> SyncClient | None:
    try:
        return SyncClient.connect(str(path))
    except (FileNotFoundError, ConnectionRefusedError, OSError):
        return None


class StartFailed(Exception):
    pass


def spawn_daemon() -> subprocess.Popen[bytes]:
    log = log_path()
    log.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    with open(log, "ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "saturnd"],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,
            close_fds=True,
        )


def start_and_connect(path: Path) -> SyncClient:
    """Start saturnd in the background and wait until its socket answers."""
    log = log_path()
    offset = log.stat().st_size if log.exists() else 0
    process = spawn_daemon()
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        client = try_connect(path)
        if client is not None:
            return client
        if process.poll() is not None:
            client = try_connect(path)  # lost a race with another starter: fine
            if client is not None:
                return client
            raise StartFailed(_new_log_text(log, offset) or f"saturnd exited with code {process.returncode}")
        time.sleep(0.01)
    raise StartFailed(f"saturnd did not open {path} within {STARTUP_TIMEOUT_S:g}s; see {log}")


def _new_log_text(log: Path, offset: int) -> str:
    try:
        with open(log, "rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
    except OSError:
        return ""
    lines = [line for line in text.splitlines() if line.startswith("saturnd:")]
    return "\n".join(lines) or text.strip()


def connect_or_start() -> SyncClient:
    path = socket_path()
    client = try_connect(path)
    return client if client is not None else start_and_connect(path)
