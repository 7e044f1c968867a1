"""A real saturnd in a temp home for the benchmark, the local page server, and the set-up record."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import importlib.util
import subprocess
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from protocol.client import Client
from saturnd.testing.scratch import ScratchDaemon, ScratchHome

REPO = Path(__file__).resolve().parent.parent
READY_TIMEOUT_S = 600.0
"""Assembling a GGUF on first use plus a cold model load on 2 cores can take minutes."""


@dataclass
class DaemonSpec:
    model: str
    """An embedded model id, or the model's name on --base-url."""
    policy: str
    base_url: str = ""
    tool_mode: str = "default"
    """model.tool_mode. The embedded models default to constrained, where a thought is the
    grammar's opening "thought" field; native and auto let the server think instead."""
    max_iterations: int | None = None
    turn_budget_s: float = 300.0
    threads: int = 0
    """model.threads for the embedded server (0: one per core)."""
    model_cache: Path | None = None
    """Shared GGUF cache, linked into each temp data dir so no run re-assembles the weights."""
    extra_env: dict[str, str] = field(default_factory=dict)
    daemon_argv: tuple[str, ...] = ("-m", "saturnd")
    """How the daemon is started after the interpreter (tests may wrap it)."""
    extra_yaml: str = ""
    """More top-level config sections (an ablation: `ground: {retrieval: false}`)."""

    def config_yaml(self) -> str:
        if self.base_url:
            model = f"  base_url: {self.base_url}\n  name: {self.model}\n"
        else:
            model = f"  embedded: {self.model}\n  threads: {self.threads}\n"
        runtime = f"  think: '{self.policy}'\n  turn_budget_s: {self.turn_budget_s:g}\n"
        if self.max_iterations is not None:
            runtime += f"  max_iterations: {self.max_iterations}\n"
        # Pages are served on 127.0.0.1; a user would have to allow that the same way.
        model += f"  tool_mode: {self.tool_mode}\n"
        base = f"model:\n{model}  temperature: 0\nruntime:\n{runtime}web:\n  allow_private: true\n"
        return base + (self.extra_yaml.rstrip("\n") + "\n" if self.extra_yaml else "")


class BenchDaemon:
    """One saturnd in a scratch home of its own; stopped and removed on exit."""

    def __init__(self, spec: DaemonSpec) -> None:
        self.spec = spec
        self.scratch = ScratchHome(prefix="sb-", extra_env=spec.extra_env)
        self.root = self.scratch.root
        self._daemon = ScratchDaemon(self.scratch, spec.daemon_argv)
        self.ready_s = 0.0

    @property
    def kb_dir(self) -> Path:
        return self.scratch.home / "kb"

    @property
    def outbox(self) -> Path:
        return self.scratch.data_dir / "outbox"

    async def start(self) -> Client:
        self.scratch.write_config(self.spec.config_yaml())
        self.scratch.data_dir.mkdir()
        if self.spec.model_cache is not None and not self.spec.base_url:
            self.spec.model_cache.mkdir(parents=True, exist_ok=True)
            (self.scratch.data_dir / "models").symlink_to(self.spec.model_cache, target_is_directory=True)
        started = time.monotonic()
        # A Popen handle, not an asyncio one: stop() must also work from sync cleanup code.
        await asyncio.to_thread(self._daemon.start)
        client = await Client.connect(str(self.scratch.socket))
        await wait_model_ready(client, self._daemon.process)
        self.ready_s = time.monotonic() - started
        return client

    def log_tail(self, limit: int = 2000) -> str:
        return self._daemon.output()[-limit:]

    def stop(self) -> None:
        if self._daemon.process is not None:
            self._daemon.stop(timeout_s=30)
        self.scratch.cleanup()


async def wait_model_ready(client: Client, process: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        status = await client.call("daemon/status")
        if status.model.answers:
            return
        if status.model.state == "failed" or (process is not None and process.poll() is not None):
            raise RuntimeError(f"the model did not start: {status.model.detail}")
        await asyncio.sleep(0.5)
    raise RuntimeError("the model never answered")


class PageServer:
    """Serves the current task's pages on 127.0.0.1 (swap `pages` between tasks)."""

    def __init__(self) -> None:
        self.pages: dict[str, str] = {}
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
                body = server.pages.get(self.path.split("?")[0])
                kind = "text/html" if self.path.endswith((".html", "/")) else "text/plain"
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Type", f"{kind}; charset=utf-8")
                self.end_headers()
                self.wfile.write((body if body is not None else "not found").encode())

            def log_message(self, *args: Any) -> None:
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._http.server_address[1]}"

    def __enter__(self) -> PageServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()


def default_model_cache() -> Path:
    """The cache a normal saturnd uses, so the benchmark reuses the GGUF it already assembled."""
    from machine.paths import resolve_paths

    return resolve_paths().data_dir / "models"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def template_path() -> Path | None:
    spec = importlib.util.find_spec("saturnd")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent / "model" / "templates" / "qwen2.5.jinja"


def model_sha256(spec: DaemonSpec) -> str:
    """From the cache stamp written when the GGUF was verified (hashing 1 GB again costs ~5 s)."""
    if spec.base_url or spec.model_cache is None:
        return ""
    with contextlib.suppress(OSError, IndexError):
        return (spec.model_cache / f"{spec.model}.gguf.sha256").read_text().split()[0]
    return ""


def git_commit(repo: Path = REPO) -> str:
    """HEAD's commit, read from .git directly (as `git rev-parse HEAD` would print it)."""
    git = repo / ".git"
    with contextlib.suppress(OSError):
        head = (git / "HEAD").read_text().strip()
        if not head.startswith("ref: "):
            return head
        ref = head[5:]
        loose = git / ref
        if loose.exists():
            return loose.read_text().strip()
        for line in (git / "packed-refs").read_text().splitlines():
            if line.endswith(" " + ref):
                return line.split()[0]
    return ""


def setup_record(spec: DaemonSpec, template: Path | None = None) -> dict[str, Any]:
    """`template`: the chat template the embedded server runs with (default: Saturn's own)."""
    template = template or template_path()
    return {
        "model": spec.model,
        "base_url": spec.base_url,
        "model_sha256": model_sha256(spec),
        "template_sha256": _sha256(template) if template and template.exists() and not spec.base_url else "",
        "temperature": 0.0,
        "tool_mode": spec.tool_mode,
        "commit": git_commit(),
        "max_iterations": spec.max_iterations,
        "turn_budget_s": spec.turn_budget_s,
        "threads": spec.threads,
    }
