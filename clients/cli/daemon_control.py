"""Find and start the background saturnd. Blocking on purpose: short-lived commands stay lean."""

from __future__ import annotations

import os
from pathlib import Path

from machine.daemon_process import DaemonDidNotStart, spawn_daemon, wait_until_answering
from machine.private_files import open_private_append
from machine.socket_trust import connect_trusted
from protocol.sync_client import SyncClient

STARTUP_TIMEOUT_S = 30.0


def socket_path() -> Path:
    if os.environ.get("SATURN_SOCKET"):
        return Path(os.environ["SATURN_SOCKET"])
    # platformdirs costs an import: only when the environment does not say.
    from machine.paths import resolve_paths

    return resolve_paths().socket


def log_path() -> Path:
    from machine.paths import resolve_paths

    return resolve_paths().log_file


def try_connect(path: Path) -> SyncClient | None:
    """The daemon's client, or None when nothing answers. Raises UntrustedSocket (nothing sent)
    when the socket or its folder is not the user's alone."""
    sock = connect_trusted(path)
    return SyncClient(sock) if sock is not None else None


class StartFailed(Exception):
    pass


def start_and_connect(path: Path) -> SyncClient:
    """Start saturnd in the background and wait until its socket answers."""
    log = log_path()
    log.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    offset = log.stat().st_size if log.exists() else 0
    with open_private_append(log) as out:
        process = spawn_daemon(out, detach=True)
    try:
        wait_until_answering(process, path, STARTUP_TIMEOUT_S, poll_s=0.01)
    except DaemonDidNotStart as exc:
        if process.poll() is None:  # still starting when the time ran out
            raise StartFailed(f"{exc}; see {log}") from None
        raise StartFailed(_new_log_text(log, offset) or str(exc)) from None
    client = try_connect(path)
    if client is None:
        raise StartFailed(f"saturnd answered on {path}, then stopped; see {log}")
    return client


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
