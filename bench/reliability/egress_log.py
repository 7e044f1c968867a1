"""Proof 8, the egress log: generated web_fetch targets (public stand-ins; private, loopback,
link-local and metadata addresses written every way an address can be written; names whose DNS
answers lead there; redirects into them; URLs that cannot be parsed) and a plugin tool that
opens its own socket, called in real turns on the scripted model -> every attempt a row naming
its turn and call, every private address refused before any connection, and the log reconciled
against every connect the daemon's process made (an audit hook).

An attempt is one URL the daemon was asked to reach: the model's, or a redirect's. The public
pages are served on this machine at a stand-in address (STANDIN) that a module loaded into the
daemon (`bench/reliability/egress_seams.py`) declares public; the same module answers DNS for
the proof's names, witnesses every connect and brings the plugin tool. Everything else is the
shipped daemon with `web.allowed_hosts` set.

    python -m bench.reliability.egress_log [--short]
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import random
import socket
import sys
import tempfile
import threading
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from yarl import URL

from bench.reliability.common import TRACEBACK, Proof, daemon_on, proof_main
from clients.cli.egress_view import entry_line
from protocol.client import Client
from protocol.events import ToolProposed, TurnEnded
from protocol.methods import EgressEntry
from saturnd.testing.fake_model import FakeModel, calls

FULL_TARGETS, SHORT_TARGETS = 10_000, 240
CALLS_PER_TURN = 8
STANDIN = "127.77.0.1"
"""Where the public stand-in pages are served; the one address the daemon is told is public."""
PROOF_DOMAIN = "proof.test"
OUTSIDE_DOMAIN = "elsewhere.test"
"""Resolves to the stand-in too, but is not in web.allowed_hosts: refused as not allowed."""
METADATA_NAMES = ("metadata.google.internal", f"metadata.{PROOF_DOMAIN}", f"instance-data.{PROOF_DOMAIN}")
CONNECT, REFUSE, REFUSE_HOST, UNRESOLVED = "connected", "refused", "refused: host not allowed", "unresolved"
NOT_CONNECTED = f"{REFUSE}|{REFUSE_HOST}|{UNRESOLVED}"
"""A spelling whose refusal may come from the allow-list, the guard or the resolver: any, so
long as it is a row and no connection."""
INVALID = "refused: invalid URL"
RAW = "a plugin tool's own connection (raw_connect)"
ENV = "SATURN_EGRESS_PROOF"
"""The folder egress_seams reads its zone from and writes the connects it saw to."""
FIXED_CONFIG = "gate:\n  defaults:\n    egress: allow\ntools:\n  modules: [bench.reliability.egress_seams]\n"


# -- the targets ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Hop:
    url: str
    expect: str
    """CONNECT | REFUSE | REFUSE_HOST | UNRESOLVED | INVALID, or several joined by |"""

    @property
    def where(self) -> tuple[str, int] | None:
        """(host, port) as web_fetch reads them (yarl, as it does); None when the URL cannot be
        parsed at all (its row's host is then whatever the authority says)."""
        if INVALID in self.expect:
            return None
        url = URL(self.url)
        return url.raw_host or "", url.port or 0


@dataclass
class Target:
    """One call the scripted model makes: web_fetch of the first hop's URL, or raw_connect."""

    kind: str
    hops: list[Hop]
    tool: str = "web_fetch"
    call_id: str = ""
    turn_id: str = ""
    session_id: str = ""

    @property
    def arguments(self) -> dict[str, Any]:
        if self.tool == "raw_connect":
            url = URL(self.hops[0].url)
            return {"host": url.raw_host, "port": url.port}
        return {"url": self.hops[0].url}


@dataclass
class World:
    """Where the targets point, and what the generator wrote down for the daemon: the zone its
    DNS answers from, and every host named by a number (listed in web.allowed_hosts, so that
    what refuses them is the private-address guard, not the list)."""

    page_port: int
    witness_port: int
    closed_port: int
    rng: random.Random
    zone: dict[str, list[list[str]]] = field(default_factory=dict)
    numeric_hosts: set[str] = field(default_factory=set)
    names: int = 0
    private_kinds: Counter[str] = field(default_factory=Counter)
    """The private addresses generated (in URLs or in DNS answers), by kind."""

    def name(self, label: str, answers: list[list[str]] | None, domain: str = PROOF_DOMAIN) -> str:
        self.names += 1
        host = f"{label}-{self.names}.{domain}"
        if answers is not None:
            self.zone[host] = answers
        return host

    # -- addresses: every kind the guard must refuse

    def private_ip(self) -> tuple[str, str]:
        """(address, what it is): an address web_fetch must never connect to."""
        r = self.rng
        v4 = {
            "loopback": lambda: "127.0.0.1" if r.random() < 0.4 else self._loopback(),
            "private 10/8": lambda: f"10.{r.randrange(256)}.{r.randrange(256)}.{r.randrange(1, 255)}",
            "private 172.16/12": lambda: f"172.{r.randrange(16, 32)}.{r.randrange(256)}.{r.randrange(1, 255)}",
            "private 192.168/16": lambda: f"192.168.{r.randrange(256)}.{r.randrange(1, 255)}",
            "link-local": lambda: f"169.254.{r.randrange(256)}.{r.randrange(1, 255)}",
            "metadata": lambda: r.choice(["169.254.169.254", "169.254.170.2", "100.100.100.200"]),
            "shared 100.64/10": lambda: f"100.{r.randrange(64, 128)}.{r.randrange(256)}.{r.randrange(1, 255)}",
            "unspecified": lambda: "0.0.0.0",
            "multicast": lambda: f"{r.randrange(224, 240)}.{r.randrange(256)}.{r.randrange(256)}.{r.randrange(1, 255)}",
            "reserved": lambda: r.choice(["255.255.255.255", f"{r.randrange(240, 255)}.1.2.3"]),
        }
        v6 = {
            "loopback v6": lambda: "::1",
            "unique-local v6": lambda: str(ipaddress.IPv6Address((0xFD << 120) | r.getrandbits(120))),
            "link-local v6": lambda: str(ipaddress.IPv6Address((0xFE80 << 112) | r.getrandbits(64))),
            "metadata v6": lambda: "fd00:ec2::254",
            "unspecified v6": lambda: "::",
        }
        if r.random() < 0.7:
            kind = r.choice(list(v4))
            address = v4[kind]()
            if r.random() < 0.25 and kind not in ("multicast", "reserved", "unspecified"):
                address, how = self._wrapped(address)
                kind = f"{kind} in {how}"
        else:
            kind = r.choice(list(v6))
            address = v6[kind]()
        self.private_kinds["IPv4 inside IPv6" if " in " in kind else kind] += 1
        return address, kind

    def _loopback(self) -> str:
        while (address := f"127.{self.rng.randrange(256)}.{self.rng.randrange(256)}.{self.rng.randrange(1, 255)}") == STANDIN:
            pass
        return address

    def _wrapped(self, v4: str) -> tuple[str, str]:
        """An IPv4 address inside an IPv6 one: mapped, 6to4 or NAT64."""
        n = int(ipaddress.IPv4Address(v4))
        how = self.rng.choice(["v4-mapped", "6to4", "NAT64"])
        if how == "v4-mapped":
            return f"::ffff:{v4}", how
        if how == "6to4":
            return str(ipaddress.IPv6Address((0x2002 << 112) | (n << 80))), how
        return str(ipaddress.IPv6Address((0x64FF9B << 96) | n)), how

    def written(self, address: str) -> str:
        """The address as a URL's host, in one of the ways it can be written."""
        ip = ipaddress.ip_address(address)
        if isinstance(ip, ipaddress.IPv6Address):
            text = ip.exploded if self.rng.random() < 0.2 else address
            return f"[{text.upper() if self.rng.random() < 0.2 else text}]"
        n, (a, b, c, d) = int(ip), ip.packed
        forms = [address, address, str(n), hex(n), "0" + oct(n)[2:],
                 f"{a}.{(b << 16) | (c << 8) | d}", f"{a}.{b}.{(c << 8) | d}",
                 ".".join("0" + oct(x)[2:] if x else "0" for x in (a, b, c, d))]
        return self.rng.choice(forms)

    # -- URLs

    def page(self, host: str | None = None) -> str:
        host = host or self.name("site", [[STANDIN]])
        return f"http://{host}:{self.page_port}/page/{self.rng.randrange(10**6)}"

    def redirect(self, to: str, host: str | None = None) -> str:
        code = self.rng.choice([301, 302, 303, 307, 308])
        host = host or self.name("hop", [[STANDIN]])
        return f"http://{host}:{self.page_port}/r/{code}?to={quote(to, safe='')}"

    def private_port(self) -> str:
        """Mostly the loopback witness's port: if anything did reach 127.0.0.1 it would be seen."""
        return self.rng.choice([f":{self.witness_port}", f":{self.witness_port}", "", ":8080", ":22"])

    # -- one attempt's final hop, by kind

    def final(self, kind: str) -> Hop:
        r = self.rng
        match kind:
            case "public page":
                return Hop(self.page(), CONNECT)
            case "public, DNS rebinds to loopback after the check":
                host = self.name("rebind", [[STANDIN], ["127.0.0.1"]])
                return Hop(self.page(host), CONNECT)
            case "public, nobody listening":
                return Hop(f"http://{self.name('closed', [[STANDIN]])}:{self.closed_port}/", CONNECT)
            case "private address":
                address, _ = self.private_ip()
                host = self.written(address)
                self.numeric_hosts.add(URL(f"http://{host}/").raw_host or "")
                return Hop(f"http://{host}{self.private_port()}/latest/meta-data", REFUSE)
            case "name resolving to a private address":
                answers = [self.private_ip()[0] for _ in range(r.choice([1, 1, 2]))]
                return Hop(f"http://{self.name('inside', [answers])}{self.private_port()}/", REFUSE)
            case "name resolving to public and private":
                answers = [STANDIN, self.private_ip()[0]]
                r.shuffle(answers)
                return Hop(f"http://{self.name('mixed', [answers])}:{self.page_port}/", REFUSE)
            case "metadata name":
                name = r.choice(METADATA_NAMES)
                self.zone[name] = [["169.254.169.254"]]
                return Hop(f"http://{name}/computeMetadata/v1/", REFUSE)
            case "localhost":
                return Hop(f"http://localhost{self.private_port()}/", REFUSE)
            case "name with no address":
                return Hop(f"http://{self.name('gone', None)}:{self.page_port}/", UNRESOLVED)
            case "host not in the allow-list":
                if r.random() < 0.5:
                    return Hop(self.page(self.name("site", [[STANDIN]], OUTSIDE_DOMAIN)), REFUSE_HOST)
                return Hop(f"http://{r.choice(['93.184.215.14', '8.8.8.8', '1.1.1.1'])}/", REFUSE_HOST)
            case "odd spelling":
                address = self.private_ip()[0] if r.random() < 0.5 else "127.0.0.1"
                host, site = self.written(address), self.name("site", [[STANDIN]])
                url = r.choice([
                    f"http://user:pw@{host}{self.private_port()}/", f"http://{host}#@{site}/",
                    f"http://{site}@{host}/", f"HTTP://{host}/", f"http://{host}./", f"http://{host} /x",
                    "http://localhost./", "http://LOCALHOST/", "http://\u24db\u24de\u24d2\u24d0\u24db\u24d7\u24de\u24e2\u24e3/",
                    "http://\u2460\u2461\u2466.0.0.1/", "http://127\u30020\u30020\u30021/", "http://[fe80::1%25eth0]/",
                    "http://127.000.000.001/", "http://0x7f.0x0.0x0.0x1/",
                ])
                try:
                    self.numeric_hosts.add(URL(url).raw_host or "")
                except ValueError:
                    return Hop(url, INVALID)
                return Hop(url, NOT_CONNECTED)
            case "unparsable URL":
                site = self.name("site", [[STANDIN]])
                return Hop(r.choice([
                    f"http://10.0.0.1\\@{site}/", f"http://{site}\\@169.254.169.254/", "http://[::ffff:10.0.0.1/",
                    "http://169.254.169.254:99999/", "http://[::1]x/", "http://10.0.0.1:abc/", "http://[v1.fe80::a+en1]/",
                ]), f"{INVALID}|{REFUSE}")  # yarl reads the last one, and web_fetch refuses its host
            case "not http":
                return Hop(r.choice(["file:///etc/passwd", f"gopher://127.0.0.1:{self.witness_port}/_x",
                                     "ftp://10.0.0.1/", "dict://169.254.169.254:11211/stat"]), REFUSE)
        raise ValueError(kind)


FINALS = ["public page", "public, DNS rebinds to loopback after the check", "public, nobody listening",
          "private address", "name resolving to a private address", "name resolving to public and private",
          "metadata name", "localhost", "name with no address", "host not in the allow-list", "not http",
          "odd spelling", "unparsable URL"]
WEIGHTS = [3, 1, 1, 6, 3, 2, 1, 1, 1, 1, 1, 2, 1]


def generate(count: int, world: World) -> list[Target]:
    """`count` targets: about 40 % reached directly, the rest behind 1-3 redirects; one in 50
    is a plugin tool's own connection instead of a fetch."""
    targets = []
    for _ in range(count):
        if world.rng.random() < 0.02:
            hop = Hop(f"tcp://{STANDIN}:{world.page_port}", CONNECT)
            targets.append(Target(RAW, [hop], tool="raw_connect"))
            continue
        kind = world.rng.choices(FINALS, WEIGHTS)[0]
        hops = [world.final(kind)]
        redirects = world.rng.choice([0, 0, 1, 1, 2, 3]) if kind != "public, nobody listening" else 0
        for _ in range(redirects):
            hops.insert(0, Hop(world.redirect(hops[0].url), CONNECT))
        targets.append(Target(kind, hops))
    return targets


# -- the servers ---------------------------------------------------------------------------


class _Quiet(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


class Servers:
    """The stand-in web (pages and redirects) on STANDIN, and a witness on 127.0.0.1 that counts
    every request that reaches it (none should)."""

    def __init__(self) -> None:
        self.witness_hits = 0
        servers = self

        class Pages(_Quiet):
            def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
                path, _, query = self.path.partition("?")
                if path.startswith("/r/"):
                    self.send_response(int(path[3:]))
                    # as UTF-8 bytes: send_header would refuse a name outside Latin-1
                    location = unquote(query.removeprefix("to="))
                    self._headers_buffer.append(f"Location: {location}\r\n".encode())  # type: ignore[attr-defined]
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = f"<html><title>Stand-in {path}</title><p>A public page.</p></html>".encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        class Witness(_Quiet):
            def do_GET(self) -> None:  # noqa: N802
                servers.witness_hits += 1
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"reached loopback")

        self.pages = ThreadingHTTPServer((STANDIN, 0), Pages)
        self.witness = ThreadingHTTPServer(("127.0.0.1", 0), Witness)
        with socket.socket() as s:  # a stand-in port nobody listens on
            s.bind((STANDIN, 0))
            self.closed_port = s.getsockname()[1]
        self._threads = [threading.Thread(target=s.serve_forever, daemon=True)
                         for s in (self.pages, self.witness)]

    def __enter__(self) -> Servers:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        for server in (self.pages, self.witness):
            server.shutdown()
            server.server_close()


# -- the run -------------------------------------------------------------------------------


def config(world: World) -> str:
    allowed = [PROOF_DOMAIN, "localhost", *METADATA_NAMES, *sorted(world.numeric_hosts)]
    return f"web:\n  allowed_hosts: {json.dumps(allowed)}\n" + FIXED_CONFIG


async def _fetch_all(socket_path: str, workdir: str, model: FakeModel, targets: list[Target],
                     endings: Counter[str]) -> list[EgressEntry]:
    async with await Client.connect(socket_path) as client:
        for start in range(0, len(targets), CALLS_PER_TURN):
            batch = targets[start : start + CALLS_PER_TURN]
            session = await client.call("session/create", {"cwd": workdir})
            model.enqueue(calls(*[(t.tool, t.arguments) for t in batch]), "Fetched.")
            turn = await client.call("turn/start", {"session_id": session.session_id,
                                                    "text": "Fetch the pages I was sent."})
            waiting = list(batch)
            async for notice in client.turn_events(turn.turn_id):
                event = notice.event
                if isinstance(event, ToolProposed):
                    target = next((t for t in waiting
                                   if (t.tool, t.arguments) == (event.name, event.arguments)), None)
                    if target is not None:
                        waiting.remove(target)
                        target.call_id, target.turn_id = event.call_id, turn.turn_id
                        target.session_id = session.session_id
                elif isinstance(event, TurnEnded):
                    endings[event.status] += 1
            model.drop_pending()
        listed = await client.call("egress/list", {"limit": 10 * len(targets) + 1_000})
    return list(reversed(listed.entries))  # oldest first


def outcome(status: str) -> str:
    if status in (REFUSE_HOST, INVALID):
        return status
    if status.startswith("refused: "):
        return REFUSE
    return UNRESOLVED if status == "cannot resolve" else CONNECT


def reconcile(world: World, targets: list[Target], rows: list[EgressEntry], connects: list[dict[str, Any]],
              model_endpoint: tuple[str, int], witness_hits: int, proof: Proof) -> None:
    _rows_against_attempts(world, targets, rows, proof)
    _rows_against_connects(rows, connects, model_endpoint, witness_hits, proof)
    model_rows = [r for r in rows if r.tool == "model"]
    samples = [next((r for r in rows if r.tool == "web_fetch" and r.status == status), None)
               for status in ("200", "302", "refused: link-local", "refused: invalid URL", "cannot resolve")]
    samples += [next((r for r in rows if not r.attributed), None), model_rows[-1] if model_rows else None]
    for n, row in enumerate((r for r in samples if r is not None), start=1):
        proof.figure(f"  saturn egress {n}", entry_line(row))


def _rows_against_attempts(world: World, targets: list[Target], rows: list[EgressEntry], proof: Proof) -> None:
    """Each attempt (hop) of each call must have its row, in order, naming the call's session,
    turn and call, with the outcome the attempt must have and bytes only when it connected."""
    by_call: dict[tuple[str, str], list[EgressEntry]] = {}  # a call's id is unique in its turn
    for entry in rows:
        if entry.tool != "model":
            by_call.setdefault((entry.turn_id, entry.call_id), []).append(entry)
    attempts = sum(len(t.hops) for t in targets)
    without_row, unexpected, misattributed, bad_bytes = [], [], [], []
    rowless = extra = 0
    outcomes: Counter[str] = Counter()
    refusals: Counter[str] = Counter()
    for target in targets:
        mine = by_call.pop((target.turn_id, target.call_id), []) if target.call_id else []
        for index, hop in enumerate(target.hops):
            row = mine[index] if index < len(mine) else None
            if row is None or hop.where not in (None, (row.host, row.port)):
                without_row.append(f"{target.kind}, hop {index + 1} of {len(target.hops)}: {hop.url}"
                                   f" (row: {row and (row.host, row.port, row.status)})")
                rowless += len(target.hops) - index  # a hop that went elsewhere shifts every row after it
                break
            got = outcome(row.status)
            outcomes[got] += 1
            if got != CONNECT:
                refusals[row.status] += 1
            if got not in hop.expect.split("|"):
                unexpected.append(f"{target.kind}: {hop.url} expected {hop.expect}, row says {row.status}")
            named = (row.session_id, row.turn_id, row.call_id, row.tool)
            if named != (target.session_id, target.turn_id, target.call_id, target.tool) \
                    or row.attributed != (target.tool == "web_fetch"):
                misattributed.append(f"{hop.url}: {named} attributed={row.attributed}")
            if (got != CONNECT and (row.bytes_out or row.bytes_in)) \
                    or (row.status.isdigit() and not (row.bytes_out and row.bytes_in)):
                bad_bytes.append(f"{hop.url}: {row.status} out {row.bytes_out} in {row.bytes_in}")
        extra += max(0, len(mine) - len(target.hops))
    extra += sum(len(r) for r in by_call.values())  # rows of no call the model made
    web = sum(1 for r in rows if r.tool == "web_fetch")
    raw = sum(1 for t in targets if t.tool == "raw_connect")
    kinds = Counter(t.kind for t in targets)
    behind = Counter(t.kind for t in targets if len(t.hops) > 1)

    proof.figure("attempts made", f"{attempts:,} ({len(targets):,} calls; {attempts - len(targets):,}"
                 " more URLs their redirects led to)")
    proof.figure("calls by where they lead (of them behind redirects)",
                 ", ".join(f"{kind} {n:,}" + (f" ({behind[kind]:,})" if behind[kind] else "")
                           for kind, n in kinds.most_common()))
    proof.figure("private addresses generated (in URLs and DNS answers)",
                 ", ".join(f"{kind} {n:,}" for kind, n in world.private_kinds.most_common()))
    proof.figure("rows written", f"{len(rows):,}: web_fetch {web:,}, raw_connect {raw:,} (by the audit"
                 f" hook), model client {sum(1 for r in rows if r.tool == 'model'):,}")
    proof.figure("attempts by outcome (their rows)", dict(outcomes.most_common()))
    proof.figure("refusals and failures by row status", dict(refusals.most_common()))
    proof.figure("attempts without a row", rowless)
    proof.figure("rows without an attempt", extra)
    proof.figure("rows not naming their session, turn, call and tool", len(misattributed))
    proof.figure("rows whose outcome is not the attempt's", len(unexpected))
    proof.figure("rows whose bytes contradict their outcome", len(bad_bytes))
    for n, sample in enumerate(without_row[:4] + unexpected[:4] + misattributed[:4] + bad_bytes[:4], start=1):
        proof.figure(f"  e.g. {n}", sample)
    proof.expect(not rowless, f"{rowless} attempts without a row")
    proof.expect(extra == 0, f"{extra} rows without an attempt")
    proof.expect(not misattributed, f"{len(misattributed)} rows not naming their turn and call")
    proof.expect(not unexpected, f"{len(unexpected)} rows whose outcome is not the attempt's")
    proof.expect(not bad_bytes, f"{len(bad_bytes)} rows whose bytes contradict their outcome")
    turns = {t.turn_id for t in targets}
    proof.expect(all(r.turn_id in turns and r.attributed and r.bytes_out for r in rows if r.tool == "model"),
                 "model-client rows without their turn or bytes")


def _rows_against_connects(rows: list[EgressEntry], connects: list[dict[str, Any]],
                           model_endpoint: tuple[str, int], witness_hits: int, proof: Proof) -> None:
    """The audit hook's account: every inet connect the daemon's process made during the run.
    Each call's connects must equal its rows that connected (web_fetch closes every connection:
    one per hop); the model client's pooled connects go to its endpoint only."""
    connected: Counter[tuple[str, str]] = Counter(
        (r.turn_id, r.call_id) for r in rows if r.tool != "model" and outcome(r.status) == CONNECT)
    model = [c for c in connects if c["tool"] == "model" and c["logged"]
             and (c["host"], c["port"]) == model_endpoint]
    calls_ = [c for c in connects if c not in model]
    per_call: Counter[tuple[str, str]] = Counter((c["turn_id"], c["call_id"]) for c in calls_)
    mismatched = [k for k in set(per_call) | set(connected) if per_call[k] != connected[k]]
    outside = [c for c in connects if not c["logged"]]
    unattributed = [r for r in rows if not r.attributed]
    private_reached = [c for c in calls_ if c["host"] != STANDIN]
    model_rows = sum(1 for r in rows if r.tool == "model")
    proof.figure("connects the process made (audit hook)",
                 f"{len(connects):,}: by calls {len(calls_):,} against {sum(connected.values()):,} rows that"
                 f" connected; model client {len(model):,} against {model_rows:,} rows (pooled); outside a"
                 f" logged client {len(outside)} against {len(unattributed)} unattributed rows")
    proof.figure("calls whose connects differ from their rows", len(mismatched))
    proof.figure("private addresses reached", f"{len(private_reached)} connects;"
                 f" {witness_hits} requests at the loopback witness")
    for n, sample in enumerate(private_reached[:3], start=1):
        proof.figure(f"  reached {n}", sample)
    proof.expect(not mismatched, f"{len(mismatched)} calls whose connects differ from their rows")
    proof.expect(len(outside) == len(unattributed),
                 f"{len(outside)} connects outside a logged client, {len(unattributed)} unattributed rows")
    proof.expect(0 < len(model) <= model_rows, "model connects do not match model rows")
    proof.expect(not private_reached and witness_hits == 0, "a private address was reached")


def run(short: bool = False) -> Proof:
    total = SHORT_TARGETS if short else FULL_TARGETS
    proof = Proof(f"Egress log: {total:,} generated calls (web_fetch targets, a plugin's own connections)")
    model = FakeModel().start()
    endings: Counter[str] = Counter()
    try:
        with Servers() as servers:
            world = World(servers.pages.server_address[1], servers.witness.server_address[1],
                          servers.closed_port, random.Random(8))
            targets = generate(total, world)
            with tempfile.TemporaryDirectory(prefix="re-zone-", dir="/tmp") as name:
                folder = Path(name)
                (folder / "zone.json").write_text(json.dumps({"names": world.zone, "public": [STANDIN]}))
                with daemon_on(model, config(world), prefix="re-", env={ENV: name}) as daemon:
                    rows = asyncio.run(_fetch_all(str(daemon.scratch.socket), str(daemon.scratch.workdir),
                                                  model, targets, endings))
                    connects = [json.loads(line) for line in (folder / "connects.jsonl").read_text().splitlines()]
                    tracebacks = daemon.output().count(TRACEBACK)
                    model_url = URL(model.url)
                    reconcile(world, targets, rows, connects, (model_url.host or "", model_url.port or 0),
                              servers.witness_hits, proof)
    finally:
        model.stop()
    proof.figure("turns", dict(endings))
    proof.figure("tracebacks in the daemon's log", tracebacks)
    proof.expect(endings["completed"] == -(-total // CALLS_PER_TURN), f"turn endings {dict(endings)}")
    proof.expect(tracebacks == 0, f"{tracebacks} tracebacks in the daemon's log")
    return proof


def main() -> int:
    return proof_main(run, __doc__)


if __name__ == "__main__":
    sys.exit(main())
