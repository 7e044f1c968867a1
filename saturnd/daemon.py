"""saturnd: single-instance lock, the unix socket server, signals, shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import fcntl
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from machine.keyring_secrets import resolve_api_key
from machine.paths import Paths, resolve_paths
from machine.private_files import private_dir, tighten
from machine.socket_trust import peer_uid, untrusted_reason
from protocol.jsonrpc import MAX_LINE_BYTES, ConfigError, InvalidRequest, SaturnError
from saturnd.config import load_config
from saturnd.egress import EGRESS
from saturnd.gate.judge import Judge
from saturnd.model.endpoint import ModelEndpointManager
from saturnd.rpc import Dispatcher, error_line
from saturnd.service import Saturn
from saturnd.store import Store
from saturnd.tools import builtin_registry
from saturnd.tools.command_groups import end_leftover_groups

if TYPE_CHECKING:
    from saturnd.front_door.server import FrontDoor

log = logging.getLogger("saturnd")

PR_SET_CHILD_SUBREAPER = 36
WRITE_BUFFER_LIMIT = 64 * 1024 * 1024
"""A client that stops reading is dropped once this much is queued for it."""


class AlreadyRunning(SaturnError):
    def __init__(self, pid: int) -> None:
        super().__init__(f"already running (pid {pid})")
        self.pid = pid


class UnsafeSocketFolder(SaturnError):
    """Another user controls the socket's folder: listening there would serve them."""


class InstanceLock:
    """An flock on a pid file: released by the kernel when the process dies, so never stale."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip()
            os.close(fd)
            raise AlreadyRunning(int(holder) if holder.isdigit() else 0) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
            os.close(self._fd)
            self._fd = None


def peer_allowed(uid: int | None, own_uid: int) -> bool:
    return uid is not None and uid == own_uid


class Connection:
    """One client. Lines are queued without awaiting, so a slow client never stalls a turn."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer
        self.closed = False
        self.answering = True
        """False once the client closed its sending side: it can listen, not answer."""
        self._following: set[str] = set()
        self._no_turn_followed = asyncio.Event()
        self._no_turn_followed.set()

    def follow(self, turn_id: str) -> None:
        self._following.add(turn_id)
        self._no_turn_followed.clear()

    def unfollow(self, turn_id: str) -> None:
        self._following.discard(turn_id)
        if not self._following:
            self._no_turn_followed.set()

    async def followed_turns_ended(self) -> None:
        await self._no_turn_followed.wait()

    def send(self, line: bytes) -> bool:
        if self.closed or self._writer.is_closing():
            self.close()
            return False
        if self._writer.transport.get_write_buffer_size() > WRITE_BUFFER_LIMIT:
            log.warning("dropping a client that stopped reading")
            self.close()
            return False
        self._writer.write(line)
        return True

    def close(self) -> None:
        self.closed = True
        self._no_turn_followed.set()  # nothing more can reach this client
        self._writer.close()


class Server:
    def __init__(self, saturn: Saturn) -> None:
        self.saturn = saturn
        self.dispatcher = Dispatcher(saturn.handlers())
        self._connections: dict[Connection, asyncio.Task[Any]] = {}

    async def handle_connection(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        sock = writer.get_extra_info("socket")
        if not peer_allowed(peer_uid(sock), os.getuid()):
            log.warning("refused a connection from another user")
            writer.close()
            return
        connection = Connection(writer)
        task = asyncio.current_task()
        assert task is not None
        self._connections[connection] = task
        try:
            await self._serve(reader, connection)
        finally:
            connection.close()
            self._connections.pop(connection, None)

    async def close_connections(self, timeout_s: float = 5.0) -> None:
        """Hang up on every client and let each handler return by itself.

        A handler still waiting for its client's next line when the loop shuts down would be
        cancelled by asyncio.run, and Python 3.11's StreamReaderProtocol then logs that
        CancelledError as an "Exception in callback" traceback (fixed in 3.12). Closing the
        transport ends the handler's read with EOF instead.
        """
        tasks = list(self._connections.values())
        for connection in list(self._connections):
            connection.close()
        if tasks:
            await asyncio.wait(tasks, timeout=timeout_s)

    async def _serve(self, reader: asyncio.StreamReader, connection: Connection) -> None:
        while not connection.closed:
            try:
                line = await reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as exc:
                line = exc.partial  # the client closed; a last unterminated line still counts
                if not line.strip():
                    # A script that sent its request and half-closed (`echo ... | socat`) still
                    # gets the events of the turns it follows; the connection closes after them.
                    connection.answering = False
                    await connection.followed_turns_ended()
                    return
            except asyncio.LimitOverrunError:
                connection.send(
                    error_line(InvalidRequest(f"line longer than {MAX_LINE_BYTES} bytes; closing"))
                )
                return
            except (ConnectionError, OSError):
                return
            if not line.strip():
                continue
            response = await self.dispatcher.handle_line(line, connection)
            if response is not None:
                connection.send(response)


def _become_subreaper() -> None:
    """Orphans of run_command's process groups come back to us to be reaped, not to init
    (which in a container may never reap them)."""
    if sys.platform != "linux":
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        log.warning("could not become a child subreaper; killed commands may linger as zombies")


def _check_socket_folder(path: Path) -> None:
    """Before the lock is taken there: a folder others can write is refused, not repaired
    (someone may already be squatting in it)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    problem = untrusted_reason(path, None, path.parent.stat(), os.getuid())
    if problem:
        raise UnsafeSocketFolder(
            f"not starting: {problem}; saturnd listens only in a folder that is yours alone"
            " (SATURN_SOCKET moves the socket)"
        )


def _prepare_socket_path(path: Path) -> None:
    os.chmod(path.parent, 0o700)
    # The lock is ours, so any socket file left here belongs to a daemon that died.
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


async def serve(paths: Paths) -> int:
    config = load_config(paths.config_file)
    registry = builtin_registry(config.tools.modules)
    judge = Judge(config.judge)
    _check_socket_folder(paths.socket)
    lock = InstanceLock(paths.lock_file)
    lock.acquire()
    _become_subreaper()
    private_dir(paths.data_dir)  # made 0755 by an older Saturn or by hand, others could read the store
    tighten(paths.log_file)
    store = Store(paths.db_file)
    for session_id in store.incognito_sessions():  # left by a daemon that was killed
        store.delete_session(session_id)
    ended = end_leftover_groups(store.command_groups())  # before any new command starts
    store.forget_command_groups()
    if ended:
        log.info("ended %d command process groups left by a previous daemon", len(ended))
    interrupted = store.interrupt_running_turns()
    if interrupted:
        log.info("marked %d turns left running by a previous daemon as interrupted", len(interrupted))
    mcp = None
    if config.mcp.servers:
        # The MCP client (with pydantic, httpx, starlette under it) is some 40 MB of an idle
        # daemon's memory: load it only when a server is configured.
        from saturnd.tools.mcp_bridge import McpHub, McpServerConfig

        mcp = McpHub(paths.data_dir / "mcp.log")
        await mcp.start([
            McpServerConfig(name, server.command, server.env, server.cwd or None,
                            description_chars=server.description_chars)
            for name, server in config.mcp.servers.items()
        ])
        for tool in mcp.tools():
            registry.register(tool)
        for name, reason in mcp.failed().items():
            log.warning("MCP server %s did not start: %s", name, reason)
    registry, unused = registry.without(config.tools.disabled)
    for pattern in unused:
        log.warning("tools.disabled: %r matches no tool", pattern)
    saturn = Saturn(
        paths=paths,
        config=config,
        store=store,
        endpoint=ModelEndpointManager(config, paths),
        registry=registry,
        judge=judge,
    )
    EGRESS.install_audit_hook()
    # Before the socket: a client that finds saturnd answering finds its front door open too.
    front_door = await _open_front_door(saturn, paths)
    server_state = Server(saturn)
    _prepare_socket_path(paths.socket)
    old_umask = os.umask(0o177)
    try:
        server = await asyncio.start_unix_server(
            server_state.handle_connection, path=str(paths.socket), limit=MAX_LINE_BYTES
        )
    finally:
        os.umask(old_umask)
    os.chmod(paths.socket, 0o600)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, saturn.stop_requested.set)
    await saturn.endpoint.start()
    log.info("saturnd %d listening on %s", os.getpid(), paths.socket)
    print(f"saturnd listening on {paths.socket}", file=sys.stderr, flush=True)
    flusher = loop.create_task(_flush_egress_every(saturn, 1.0))
    try:
        await saturn.stop_requested.wait()
    finally:
        flusher.cancel()
        server.close()
        with contextlib.suppress(FileNotFoundError):
            paths.socket.unlink()
        await saturn.shutdown()  # clients (and front-door requests) still get each interrupted turn's last event
        await server_state.close_connections()
        if front_door is not None:
            await front_door.close()
        if mcp is not None:
            await mcp.close()
        store.close()
        lock.release()
        log.info("saturnd stopped")
    return 0


async def _open_front_door(saturn: Saturn, paths: Paths) -> FrontDoor | None:
    config = saturn.config.front_door
    if not config.enabled:
        return None
    # aiohttp's server side is a few MB of an idle daemon: loaded only when the door is on.
    from saturnd.front_door.server import FrontDoor

    token = resolve_api_key(config.token_ref) if config.tcp_port else ""
    front_door = FrontDoor(saturn, paths.front_door_socket, config.tcp_port, token)
    try:
        await front_door.start()
    except OSError as exc:
        await front_door.close()
        raise ConfigError(f"front_door: cannot listen: {exc}") from exc
    return front_door


async def _flush_egress_every(saturn: Saturn, seconds: float) -> None:
    while True:
        await asyncio.sleep(seconds)
        saturn.flush_egress()


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(
        level=os.environ.get("SATURN_LOG_LEVEL", "INFO"),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    paths = resolve_paths()
    try:
        return asyncio.run(serve(paths))
    except AlreadyRunning as exc:
        print(f"saturnd: {exc.message}", file=sys.stderr)
        return 3
    except ConfigError as exc:
        print(f"saturnd: not starting: {exc.message}", file=sys.stderr)
        return 2
    except SaturnError as exc:
        print(f"saturnd: {exc.message}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
