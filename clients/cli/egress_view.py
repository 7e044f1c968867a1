"""`saturn egress`: the egress log, newest first."""

from __future__ import annotations

import sys
import time

from clients.cli.daemon_control import StartFailed, connect_or_start
from protocol.jsonrpc import RpcError
from protocol.methods import EgressEntry, EgressListParams


def list_egress(session_id: str, turn_id: str, host: str, limit: int) -> int:
    params = EgressListParams(session_id=session_id, turn_id=turn_id, host=host, limit=limit)
    try:
        with connect_or_start() as client:
            listed = client.call("egress/list", params)
    except (RpcError, StartFailed) as exc:
        print(f"saturn: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 1
    for e in listed.entries:
        print(entry_line(e))
    if not listed.entries:
        print("no outbound connections recorded")
    return 0


def entry_line(e: EgressEntry) -> str:
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(e.at))
    who = f"{e.tool or '-'} {e.turn_id or '-'} {e.call_id or ''}".rstrip()
    flag = "" if e.attributed else "  UNATTRIBUTED"
    return (f"{when}  {e.method or '-':6} {e.host}:{e.port}  {e.status or '-':>5}"
            f"  out {e.bytes_out} B, in {e.bytes_in} B  {who}{flag}")
