"""Child-process entry point: run llama.cpp's OpenAI-compatible server (xllamacpp).

    python -m saturnd.model.embedded_server --model PATH --port N \
        --template PATH --ctx N --threads N --ready-fd N

``xllamacpp.Server(params)`` starts the HTTP listener on a background thread,
answers ``/health`` with 503 while the model loads, and returns once the model
is loaded; the server keeps running on its own threads. This process then
writes ``R`` to the ready pipe (``--ready-fd``, a pipe from the parent), waits
for SIGTERM/SIGINT (or for its parent to disappear) and shuts down.

Exit codes: 0 clean stop, 2 bad arguments, 3 the server failed to start.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

EXIT_START_FAILED = 3
READY = b"R"
"""Written on the ready pipe once the server answers and a SIGTERM stops it cleanly."""
DRAFT_SLOT, THINKING_SLOT = 0, 1
"""The server's slots, each holding its own cached prompt; Saturn's client names one per request.
A thinking call's prompt has the thinking lines ahead of the turn's ground, so in a single slot
the thinking call and the pass after it each evaluated the ground and the conversation again
(about 300 tokens apiece on the 1.5B). On 41 requests of 8 bench tasks replayed in order, the
two slots evaluate 7,281 prompt tokens against 9,232 (bench/results/README.md, stop 26)."""


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python -m saturnd.model.embedded_server")
    ap.add_argument("--model", required=True, type=Path, help="GGUF file")
    ap.add_argument("--port", required=True, type=int)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--template", type=Path, default=None, help="Jinja chat template file")
    ap.add_argument("--ctx", type=int, default=8192)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--alias", default="", help="model name reported by /v1/models")
    ap.add_argument("--ready-fd", type=int, default=None, help="pipe to write R to once ready")
    return ap.parse_args(argv)


def build_params(args: argparse.Namespace) -> Any:
    import xllamacpp

    p = xllamacpp.CommonParams()
    p.model.path = str(args.model)
    p.hostnames = [args.host]
    p.port = args.port
    p.n_ctx = args.ctx
    p.n_parallel = THINKING_SLOT + 1
    # One KV cache shared by the slots: the memory stays what one slot of n_ctx took, and
    # llama.cpp clears the idle slot when the busy one needs the room.
    p.kv_unified = True
    # With it on, each request began by moving the idle slot out to host memory and clearing
    # it: every thinking call started cold, the eviction the second slot is there to avoid.
    p.cache_idle_slots = False
    p.use_jinja = True
    if args.template is not None:
        # llama.cpp's --chat-template-file reads the file into this field.
        p.chat_template = args.template.read_text(encoding="utf-8")
    # llama.cpp turns thinking on by default when the template supports it;
    # Saturn asks for it per request (chat_template_kwargs.enable_thinking=true).
    # Values are JSON texts, as with llama-server's --chat-template-kwargs.
    p.default_template_kwargs = {"enable_thinking": "false"}
    p.cpuparams.n_threads = args.threads
    p.cpuparams_batch.n_threads = args.threads
    p.n_gpu_layers = 0
    p.ui = False
    if args.alias:
        p.model_alias = {args.alias}
    return p


def _watch_parent(stop: threading.Event) -> None:
    """Stop when the parent dies (we get re-parented), so no orphan keeps the port."""
    parent = os.getppid()
    while not stop.wait(2.0):
        if os.getppid() != parent:
            print("embedded_server: parent process gone, exiting", file=sys.stderr, flush=True)
            stop.set()


def main(argv: list[str] | None = None) -> int:
    args = _parse_args(argv)
    if not args.model.is_file():
        print(f"embedded_server: no model file at {args.model}", file=sys.stderr, flush=True)
        return 2

    import xllamacpp

    stop = threading.Event()

    def _on_signal(signum: int, _frame: object) -> None:
        print(f"embedded_server: signal {signum}, stopping", file=sys.stderr, flush=True)
        stop.set()

    # Until the model is loaded the default SIGTERM action (terminate) applies,
    # which is what a stop during loading should do.
    t0 = time.monotonic()
    try:
        server = xllamacpp.Server(build_params(args))
    except Exception as exc:  # xllamacpp raises RuntimeError("Failed to init server ...")
        print(f"embedded_server: failed to start: {exc}", file=sys.stderr, flush=True)
        return EXIT_START_FAILED
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    if args.ready_fd is not None:
        # Only now does a SIGTERM stop the server cleanly: the parent counts it ready from here.
        os.write(args.ready_fd, READY)
        os.close(args.ready_fd)
    print(
        f"embedded_server: ready on {server.listening_address} "
        f"after {time.monotonic() - t0:.1f}s (pid {os.getpid()})",
        file=sys.stderr,
        flush=True,
    )
    threading.Thread(target=_watch_parent, args=(stop,), daemon=True).start()
    while not stop.wait(1.0):
        pass
    # Exit without running the server's C++ destructor: it joins the server's
    # threads, and once in CI that outlasted the daemon's stop timeout (SIGKILL).
    # The server keeps nothing on disk, so the OS reclaiming its memory and
    # sockets is the whole of a clean stop.
    print("embedded_server: stopped", file=sys.stderr, flush=True)
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
