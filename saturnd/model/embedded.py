"""The embedded model: llama.cpp's OpenAI-compatible server in a supervised child process.

The server runs out of process (``python -m saturnd.model.embedded_server``)
so that a crash in native code takes down only the child: ``supervise()``
notices and restarts it, with backoff, on the same port when it can. It serves
a packaged model (by id) or the user's own GGUF file (by path).

    model = EmbeddedModel("qwen2.5-coder-0.5b", cache_dir, log_path)
    model = EmbeddedModel(Path("~/models/Qwen3-4B-Q4_K_M.gguf").expanduser(), ...)
    base_url = await model.start()        # "http://127.0.0.1:PORT/v1"
    task = asyncio.create_task(model.supervise())
    ...
    await model.stop()                    # also ends supervise()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from saturnd import egress
from saturnd.egress import EGRESS
from saturnd.model import gguf, weights
from saturnd.model.embedded_server import READY

log = logging.getLogger(__name__)

TEMPLATE_PATH = Path(__file__).resolve().parent / "templates" / "qwen2.5.jinja"
_PKG_ROOT = Path(__file__).resolve().parent.parent.parent
"""The folder holding the ``saturnd`` package, put on the child's PYTHONPATH."""
_LOG_ROTATE_BYTES = 20 * 1024 * 1024


class EmbeddedModelError(Exception):
    """The embedded model server could not be started (or was given up on)."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _signal(proc: asyncio.subprocess.Process, sig: int) -> None:
    """Signal the child without ever reaping it: asyncio's child watcher must be the one.

    ``Process.send_signal()`` and ``kill()`` go through ``Popen.send_signal()``, which
    first polls with ``waitpid(pid, WNOHANG)``. When the child has just exited, that poll
    reaps it before the watcher's own ``waitpid`` and the watcher reports exit code 255
    ("Unknown child process pid"). ``os.kill`` never reaps. (The watcher may have reaped
    the pid a moment before ``returncode`` is set; no pid is reused that fast.)
    """
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, sig)


def _tail(path: Path, limit: int = 1500) -> str:
    try:
        with path.open("rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - limit))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


class EmbeddedModel:
    """One model served by a supervised ``embedded_server`` child process.

    ``model`` is a packaged model's id (a str) or the path of the user's own GGUF.
    """

    def __init__(
        self,
        model: str | Path = weights.DEFAULT_MODEL,
        cache_dir: Path | str = ".",
        log_path: Path | str = "embedded-model.log",
        n_ctx: int = 8192,
        threads: int | None = None,
        *,
        start_timeout: float = 180.0,
        stop_timeout: float = 10.0,
        backoff_initial: float = 1.0,
        backoff_max: float = 30.0,
        max_failed_starts: int = 5,
        healthy_after: float = 60.0,
    ) -> None:
        if isinstance(model, Path):
            self._gguf: Path | None = model
            self._model_id = model.name
        else:
            weights.get_spec(model)  # unknown ids fail here, not in the child
            self._gguf = None
            self._model_id = model
        self.cache_dir = Path(cache_dir)
        self.log_path = Path(log_path)
        self.n_ctx = n_ctx
        self.threads = threads or os.cpu_count() or 1
        self.template_path: Path | None = TEMPLATE_PATH
        """Saturn's chat template, or None: the GGUF's own (decided in start())."""
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self.backoff_initial = backoff_initial
        self.backoff_max = backoff_max
        self.max_failed_starts = max_failed_starts
        self.healthy_after = healthy_after
        """A child that ran this long before dying resets the backoff."""

        self._proc: asyncio.subprocess.Process | None = None
        self._port: int | None = None
        self._model_path: Path | None = None
        self._state = "stopped"
        self._restarts = 0
        self._stopping = False
        self._lock = asyncio.Lock()
        self._started_at: float | None = None
        self._last_exit: int | None = None
        self._last_crash: int | None = None
        self._last_error = ""
        self._cold_start_s: float | None = None

    # -- properties ---------------------------------------------------------

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def base_url(self) -> str | None:
        """``http://127.0.0.1:PORT/v1`` once started, else None."""
        if self._port is None or self._state == "stopped":
            return None
        return f"http://127.0.0.1:{self._port}/v1"

    @property
    def pid(self) -> int | None:
        proc = self._proc
        return proc.pid if proc is not None and proc.returncode is None else None

    @property
    def restarts(self) -> int:
        return self._restarts

    @property
    def state(self) -> str:
        """stopped | starting | ready | restarting | failed"""
        return self._state

    def status(self) -> dict[str, Any]:
        return {
            "model_id": self._model_id,
            "state": self._state,
            "pid": self.pid,
            "base_url": self.base_url,
            "port": self._port,
            "restarts": self._restarts,
            "model_path": str(self._model_path) if self._model_path else None,
            "template_path": str(self.template_path) if self.template_path else None,
            "log_path": str(self.log_path),
            "n_ctx": self.n_ctx,
            "threads": self.threads,
            "uptime_s": round(time.monotonic() - self._started_at, 1)
            if self._started_at is not None and self._state == "ready"
            else None,
            "cold_start_s": self._cold_start_s,
            "last_exit_code": self._last_exit,
            "last_crash_exit_code": self._last_crash,
            "last_error": self._last_error,
        }

    # -- lifecycle ----------------------------------------------------------

    async def start(self) -> str:
        """Assemble the weights if needed, spawn the server, wait for /health; returns base_url."""
        async with self._lock:
            if self._proc is not None and self._proc.returncode is None and self._state == "ready":
                assert self.base_url is not None
                return self.base_url
            self._stopping = False
            self._state = "starting"
            try:
                if self._model_path is None:
                    self._model_path = await asyncio.to_thread(self._locate_weights)
                await self._spawn_until_ready(prefer_port=self._port)
            except BaseException as exc:
                self._state = "failed" if not self._stopping else "stopped"
                self._last_error = str(exc) or type(exc).__name__
                raise
            assert self.base_url is not None
            return self.base_url

    async def stop(self) -> None:
        """Stop the child (SIGTERM, then SIGKILL after ``stop_timeout``); ends supervise()."""
        self._stopping = True
        if self._proc is not None:
            # Signal before taking the lock, so a start() waiting for /health ends now.
            _signal(self._proc, signal.SIGTERM)
        async with self._lock:
            await self._terminate()
            self._state = "stopped"
            self._started_at = None

    async def supervise(self) -> None:
        """Run until stop(): whenever the child dies, restart it with exponential backoff.

        Gives up (state "failed") after ``max_failed_starts`` restarts in a row
        that never became healthy for ``healthy_after`` seconds.
        """
        failures = 0
        while not self._stopping:
            proc = self._proc
            if proc is None:
                if self._state == "failed":
                    return
                await asyncio.sleep(0.2)
                continue
            code = await proc.wait()
            if self._stopping:
                return
            if self._proc is not proc:
                continue  # replaced meanwhile (start() again); watch the new one
            ran = time.monotonic() - self._started_at if self._started_at is not None else 0.0
            self._last_exit = self._last_crash = code
            failures = 0 if ran >= self.healthy_after else failures + 1
            log.warning(
                "embedded model %s (pid %s) exited with %s after %.0fs; restarting",
                self._model_id,
                proc.pid,
                code,
                ran,
            )
            while not self._stopping:
                if failures > self.max_failed_starts:
                    self._state = "failed"
                    self._last_error = f"gave up after {failures - 1} failed restarts"
                    log.error("embedded model %s: %s", self._model_id, self._last_error)
                    return
                self._state = "restarting"
                delay = min(self.backoff_max, self.backoff_initial * 2 ** max(0, failures - 1))
                await asyncio.sleep(delay)
                if self._stopping:
                    return
                try:
                    async with self._lock:
                        if self._stopping:
                            return
                        self._restarts += 1
                        await self._spawn_until_ready(prefer_port=self._port)
                    break
                except EmbeddedModelError as exc:
                    failures += 1
                    self._last_error = str(exc)
                    log.warning("embedded model %s restart failed: %s", self._model_id, exc)

    # -- internals ----------------------------------------------------------

    def _locate_weights(self) -> Path:
        """The GGUF to serve: the packaged one assembled and verified, or the user's. Blocking."""
        if self._gguf is None:
            return weights.assemble(self._model_id, self.cache_dir)
        info = gguf.read_gguf(self._gguf)
        # Saturn's template is written for Qwen2.5's tool calls; any other family keeps the
        # template it was trained with (llama.cpp applies the one inside the GGUF).
        self.template_path = TEMPLATE_PATH if info.is_qwen25_chat else None
        log.info(
            "embedded model %s: %s (%s), %s chat template",
            self._model_id,
            info.name,
            info.architecture or "unknown architecture",
            "Saturn's" if self.template_path else "the file's own",
        )
        return self._gguf

    def _command(self, port: int, ready_fd: int) -> list[str]:
        assert self._model_path is not None
        template = ["--template", str(self.template_path)] if self.template_path else []
        return [
            sys.executable,
            "-m",
            "saturnd.model.embedded_server",
            "--model",
            str(self._model_path),
            "--port",
            str(port),
            *template,
            "--ctx",
            str(self.n_ctx),
            "--threads",
            str(self.threads),
            "--alias",
            self._model_id,
            "--ready-fd",
            str(ready_fd),
        ]

    def _open_log(self) -> int:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):
            if self.log_path.stat().st_size > _LOG_ROTATE_BYTES:
                os.replace(self.log_path, self.log_path.with_name(self.log_path.name + ".1"))
        fd = os.open(self.log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        os.write(fd, f"\n==== {stamp} saturnd: starting {self._model_id} ====\n".encode())
        return fd

    async def _spawn_until_ready(self, prefer_port: int | None) -> None:
        """Spawn the child and wait for health; a lost port race retries on a new port."""
        last: EmbeddedModelError | None = None
        for attempt in range(3):
            if attempt == 0 and prefer_port is not None and _port_is_free(prefer_port):
                port = prefer_port
            else:
                port = _free_port()
            try:
                await self._spawn(port)
                return
            except EmbeddedModelError as exc:
                last = exc
                # Exit code 3 is a failed server start; retry elsewhere only when
                # someone else holds the port now (a lost race), not on e.g. a bad model.
                if self._stopping or self._last_exit != 3 or _port_is_free(port):
                    raise
        assert last is not None
        raise last

    async def _spawn(self, port: int) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(_PKG_ROOT), env.get("PYTHONPATH", "")) if p
        )
        log_fd = self._open_log()
        ready_read, ready_write = os.pipe()
        os.set_blocking(ready_read, False)
        t0 = time.monotonic()
        try:
            try:
                proc = await asyncio.create_subprocess_exec(
                    *self._command(port, ready_write),
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=log_fd,
                    stderr=asyncio.subprocess.STDOUT,
                    env=env,
                    pass_fds=(ready_write,),
                    start_new_session=True,  # a Ctrl-C meant for the daemon doesn't reach it
                )
            finally:
                os.close(log_fd)
                os.close(ready_write)
            self._proc = proc
            self._port = port
            self._last_exit = None
            try:
                await self._wait_healthy(proc, port, ready_read)
            except BaseException:
                await self._terminate()
                raise
        finally:
            os.close(ready_read)
        self._cold_start_s = round(time.monotonic() - t0, 2)
        self._started_at = time.monotonic()
        self._state = "ready"
        log.info(
            "embedded model %s ready on port %d (pid %d) in %.1fs",
            self._model_id,
            port,
            proc.pid,
            self._cold_start_s,
        )

    async def _wait_healthy(self, proc: asyncio.subprocess.Process, port: int, ready_fd: int) -> None:
        """Poll the child's /health: one egress row per wait, attributed to `health`, so the
        log's "unattributed" keeps meaning something unexpected."""
        status = "not healthy"
        with egress.origin(egress.EgressOrigin(tool="health")), egress.attributed():
            try:
                status = await self._poll_health(proc, port, ready_fd)
            finally:
                EGRESS.record("127.0.0.1", port, "GET", status=status)

    async def _poll_health(self, proc: asyncio.subprocess.Process, port: int, ready_fd: int) -> str:
        """Until /health answers 200 and the child has said on ``ready_fd`` that it is ready;
        returns the healthy answer's status, raises when the child exits or never gets there.

        /health turns 200 a moment before the child has its SIGTERM handler in place; a
        stop in that moment killed it with the signal's default action (exit -15), not
        the clean stop (exit 0) that follows once the child has announced itself.
        """
        url = f"http://127.0.0.1:{port}/health"
        deadline = time.monotonic() + self.start_timeout
        timeout = aiohttp.ClientTimeout(total=2.0)
        announced = False
        async with aiohttp.ClientSession(timeout=timeout) as session:
            while True:
                if proc.returncode is not None:
                    self._last_exit = proc.returncode
                    raise EmbeddedModelError(
                        f"embedded model {self._model_id} exited with code {proc.returncode} "
                        f"while starting; log {self.log_path}:\n{_tail(self.log_path)}"
                    )
                with contextlib.suppress(BlockingIOError):
                    announced = announced or os.read(ready_fd, 1) == READY
                with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                    async with session.get(url) as resp:
                        if resp.status == 200 and announced:
                            return "200"
                if time.monotonic() > deadline:
                    raise EmbeddedModelError(
                        f"embedded model {self._model_id} not healthy after "
                        f"{self.start_timeout:.0f}s; log {self.log_path}"
                    )
                await asyncio.sleep(0.1)

    async def _terminate(self) -> None:
        proc = self._proc
        if proc is None:
            return
        if proc.returncode is None:
            _signal(proc, signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), self.stop_timeout)
            except TimeoutError:
                _signal(proc, signal.SIGKILL)
                await proc.wait()
        self._last_exit = proc.returncode
