"""Loaded into the daemon by the egress-log proof (config `tools.modules:
[bench.reliability.egress_seams]`, `SATURN_EGRESS_PROOF` naming the proof's folder). It adds no
tool but one; it gives the daemon what the proof needs and a real network would give:

- **DNS for the proof's names.** `socket.getaddrinfo` answers the names in the folder's
  `zone.json` (`name -> list of answers`; each lookup takes the next answer, the last one
  repeats, so a name can rebind) and says "no such name" for any other `*.test` name; every
  other name (`localhost` ...) goes to the system's resolver as before. web_fetch's SSRF guard
  judges these answers as it judges any.
- **The stand-in public address** (`zone.json`'s `public`: a loopback address the proof's page
  server listens on) is judged public, as tests/test_web_fetch.py's `server_is_public` does:
  the pages "on the internet" are served on this machine. That one address is all the guard
  is told; every other address it judges unchanged.
- **A witness of every connect.** An audit hook (beside the daemon's own, which only records
  connects made outside a logged client) appends every AF_INET/AF_INET6 `socket.connect` the
  process makes to `connects.jsonl`: the address, and whom the egress log's context names at
  that moment (turn, call, tool; inside a logged client or not). The proof reconciles the egress
  log against it.
- **A plugin tool that connects on its own** (`raw_connect`): a plain socket, no egress row of
  its own, as a careless tool module or library would. The daemon's audit hook must log it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import os
import socket
import sys
import threading
from pathlib import Path
from typing import Any

import msgspec

from saturnd import egress
from saturnd.tools import web
from saturnd.tools.registry import Tool, ToolEnv

ENV = "SATURN_EGRESS_PROOF"
"""As bench.reliability.egress_log.ENV (not imported from there: it would load the proof's
client side into the daemon)."""
PROOF_TLD = ".test"
"""Names under the reserved `.test` top-level domain are the proof's: never the system's DNS."""

_folder = Path(os.environ.get(ENV, ""))
_real_getaddrinfo = socket.getaddrinfo
_real_blocked_kind = web._blocked_kind
_lock = threading.Lock()
_zone: dict[str, list[list[str]]] = {}
_public: set[str] = set()
_lookups: dict[str, int] = {}


def _answer(name: str) -> list[str] | None:
    answers = _zone.get(name)
    if answers is None:
        return None
    with _lock:
        seen = _lookups.get(name, 0)
        _lookups[name] = seen + 1
    return answers[min(seen, len(answers) - 1)]


def _getaddrinfo(host: Any, port: Any, family: int = 0, type: int = 0, proto: int = 0,
                 flags: int = 0) -> list[Any]:
    name = host.decode() if isinstance(host, bytes) else host
    name = name.lower().rstrip(".") if isinstance(name, str) else ""
    if name not in _zone and not name.endswith(PROOF_TLD):
        return _real_getaddrinfo(host, port, family, type, proto, flags)
    addresses = _answer(name)
    if not addresses:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    number = int(port or 0)
    infos = []
    for address in addresses:
        v6 = ":" in address
        kind = socket.AF_INET6 if v6 else socket.AF_INET
        if family not in (0, socket.AF_UNSPEC, kind):
            continue
        sockaddr = (address, number, 0, 0) if v6 else (address, number)
        infos.append((kind, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", sockaddr))
    if not infos:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    return infos


def _blocked_kind(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    return None if str(ip) in _public else _real_blocked_kind(ip)


def _witness(out: Any) -> Any:
    def hook(event: str, args: tuple[object, ...]) -> None:
        if event != "socket.connect":
            return
        sock, address = args[0], args[1]
        if getattr(sock, "family", None) not in (socket.AF_INET, socket.AF_INET6):
            return
        if not isinstance(address, tuple) or len(address) < 2:
            return
        origin = egress._origin.get()
        line = json.dumps({
            "host": str(address[0]), "port": int(address[1]),
            "logged": egress._inside_logged_client.get(), "session_id": origin.session_id,
            "turn_id": origin.turn_id, "call_id": origin.call_id, "tool": origin.tool,
        })
        with _lock:
            out.write(line + "\n")
            out.flush()

    return hook


class RawConnectParams(msgspec.Struct, forbid_unknown_fields=True):
    host: str
    port: int


def _connect_and_get(host: str, port: int) -> str:
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(b"GET /page/raw HTTP/1.0\r\nHost: raw\r\n\r\n")
        return sock.recv(200).decode(errors="replace").split("\r\n", 1)[0]


async def _raw_connect(params: RawConnectParams, env: ToolEnv) -> str:
    return await asyncio.to_thread(_connect_and_get, params.host, params.port)


TOOLS = [Tool(name="raw_connect", description="Open a TCP connection and send a GET.",
              params=RawConnectParams, run=_raw_connect, risk="egress")]


def _install() -> None:
    if not str(_folder) or not (_folder / "zone.json").exists():
        raise RuntimeError(f"{ENV} must name a folder with a zone.json (the egress-log proof's)")
    zone = json.loads((_folder / "zone.json").read_text())
    _zone.update(zone["names"])
    _public.update(zone["public"])
    socket.getaddrinfo = _getaddrinfo  # type: ignore[assignment]
    web._blocked_kind = _blocked_kind
    sys.addaudithook(_witness((_folder / "connects.jsonl").open("a", buffering=1)))


_install()
