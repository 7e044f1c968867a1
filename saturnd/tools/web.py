"""web_fetch: one web page as readable text, behind an SSRF guard.

Each hop (the URL, then every redirect) is resolved here and every address checked; the
connection then goes only to those vetted addresses (a pinned aiohttp resolver that never asks
DNS again), so a rebinding DNS answer cannot slip a private address in. Hosts written as
numbers ("127.1", "0x7f000001") never reach DNS: they are parsed as `socket.inet_aton` does.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Annotated, NoReturn

import aiohttp
import msgspec
from aiohttp.abc import AbstractResolver, ResolveResult
from yarl import URL

from saturnd.egress import EGRESS, attributed
from saturnd.tools.registry import Tool, ToolEnv, ToolFailure

FETCH_TIMEOUT_S = 20.0
MAX_BYTES = 1_000_000
MAX_REDIRECTS = 5
TEXT_CAP = 16_000
REDIRECTS = frozenset({301, 302, 303, 307, 308})
HEADERS = {"User-Agent": "Saturn/0.1 (web_fetch)", "Accept": "text/html,text/*;q=0.9,*/*;q=0.5"}
IP = ipaddress.IPv4Address | ipaddress.IPv6Address
_NUMERIC = re.compile(r"[0-9][0-9a-fx.]*", re.IGNORECASE)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_AUTHORITY = re.compile(r"[a-z][a-z0-9+.-]*:/*([^/?#]*)", re.IGNORECASE)
_KINDS = ["loopback", "unspecified", "link_local", "multicast", "reserved", "private", "site_local"]


@dataclass(frozen=True)
class Refusal:
    """Why web_fetch will not connect: `label` goes in the egress log, `reason` to the model."""

    label: str
    """Short: `link-local`, `private`, `host not allowed` ..."""
    reason: str


# -- the SSRF guard ------------------------------------------------------------------------


def parse_ip(host: str) -> IP | None:
    """The address a host names numerically, in any form inet_aton takes ("127.1", "0x7f000001")."""
    host = host.strip("[]")
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        if not _NUMERIC.fullmatch(host):
            return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


def _blocked_kind(ip: IP) -> str | None:
    """`link-local`, `private` ... or None for a public address."""
    if isinstance(ip, ipaddress.IPv6Address):  # IPv4 inside IPv6: mapped, 6to4, NAT64
        inner = ip.ipv4_mapped or ip.sixtofour
        if inner is None and ip in _NAT64:
            inner = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if inner is not None and (kind := _blocked_kind(inner)):
            return kind
    for attr in _KINDS:
        if getattr(ip, f"is_{attr}", False):
            return attr.replace("_", "-")
    return None if ip.is_global else "not public"


def _described(kind: str) -> str:
    if kind == "not public":
        return "not a public address"
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} address"


def host_allowed(host: str, allowed_hosts: tuple[str, ...]) -> bool:
    name = host.strip("[]").rstrip(".").lower()
    allowed = [h.strip().rstrip(".").lower() for h in allowed_hosts if h.strip()]
    return not allowed or any(name == h or name.endswith("." + h) for h in allowed)


def check_address(
    host: str, resolved: list[str], allow_private: bool, allowed_hosts: tuple[str, ...]
) -> Refusal | None:
    """Why web_fetch must not connect to `host` at these addresses, or None when it may."""
    if not host_allowed(host, allowed_hosts):
        return Refusal("host not allowed", f"{host} is not one of the allowed hosts ({', '.join(allowed_hosts)})")
    if allow_private:
        return None
    literal = parse_ip(host)
    addresses = ([str(literal)] if literal else []) + list(resolved)
    if not addresses:
        return Refusal("no address", f"{host} resolves to no address")
    for address in addresses:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return Refusal("unusable address", f"{host} resolves to an unusable address {address!r}")
        if kind := _blocked_kind(ip):
            name = host if host.strip("[]") == str(ip) else f"{host} ({ip})"
            return Refusal(kind, f"{name} is {_described(kind)}; only public addresses can be fetched")
    return None


async def resolve_host(host: str, port: int) -> list[str]:
    """Every address the host names (numeric hosts are parsed, never looked up)."""
    if literal := parse_ip(host):
        return [str(literal)]
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise ToolFailure(f"cannot resolve {host}: {getattr(e, 'strerror', None) or e}") from e
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class _PinnedResolver(AbstractResolver):
    """Answers only with the addresses vetted for a host; never asks DNS again."""

    def __init__(self) -> None:
        self.pins: dict[str, list[str]] = {}

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        if not (addresses := self.pins.get(host)):
            raise OSError(f"{host} was not vetted")
        return [ResolveResult(hostname=host, host=a, port=port, proto=0, flags=socket.AI_NUMERICHOST,
                              family=socket.AF_INET6 if ":" in a else socket.AF_INET)
                for a in addresses]  # fmt: skip

    async def close(self) -> None:
        pass


# -- HTML → text ---------------------------------------------------------------------------

_SKIP = frozenset({"script", "style", "nav", "noscript", "template", "svg", "iframe"})
_BREAKS = {"p": "\n\n", "li": "\n- ", "td": " ", "th": " ", "br": "\n"}
_BLOCKS = frozenset({
    "div", "section", "article", "header", "footer", "main", "aside", "ul", "ol", "table",
    "tr", "blockquote", "pre", "form", "figure", "figcaption", "dl", "dt", "dd", "hr",
})
_HEADING = re.compile(r"h[1-6]")


class _TextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title = ""
        self._in_title = False
        self._skip = self._pre = 0

    def _emit(self, text: str) -> None:
        if not self._pre and self.parts and self.parts[-1][-1] in " \n":
            text = text.lstrip(" ")  # one space between words, none after a break
        if text:
            self.parts.append(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._skip += 1
        elif tag == "title":
            self._in_title = not self.title
        elif _HEADING.fullmatch(tag):
            self._emit("\n\n" + "#" * int(tag[1]) + " ")
        else:
            self._pre += tag == "pre"
            self._emit(_BREAKS.get(tag, "\n" if tag in _BLOCKS else ""))

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag == "title":
            self._in_title = False
        elif tag == "p" or _HEADING.fullmatch(tag):
            self._emit("\n\n")
        elif tag in _BLOCKS:
            self._pre = max(0, self._pre - (tag == "pre"))
            self._emit("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        elif not self._skip:
            self._emit(data if self._pre else re.sub(r"\s+", " ", data))


def html_to_text(html: str) -> tuple[str, str]:
    """(title, readable text) of an HTML page: no scripts, styles or navigation."""
    parser = _TextParser()
    parser.feed(html)
    parser.close()
    lines = "\n".join(line.rstrip() for line in "".join(parser.parts).split("\n"))
    return " ".join(parser.title.split()), re.sub(r"\n{3,}", "\n\n", lines).strip("\n")


# -- web_fetch -----------------------------------------------------------------------------


class WebFetchParams(msgspec.Struct, forbid_unknown_fields=True):
    url: Annotated[str, msgspec.Meta(min_length=1)]


@dataclass
class _Page:
    status: int
    reason: str
    ctype: str | None  # None: no Content-Type header
    charset: str | None
    location: str | None = None
    body: bytes = b""


def _kind(ctype: str | None, body: bytes = b"") -> str:
    """html | text | binary; with no Content-Type the body is sniffed."""
    if ctype is None:
        if b"\0" in body[:8192]:
            return "binary"
        return "html" if re.match(rb"\s*<(!doctype html|html)", body[:100], re.I) else "text"
    if ctype in ("text/html", "application/xhtml+xml"):
        return "html"
    textual = ctype.startswith("text/") or ctype.endswith(("json", "xml", "javascript"))
    return "text" if textual else "binary"


async def _hop(session: aiohttp.ClientSession, url: URL, host: str, port: int) -> _Page:
    sent = received = 0
    status = ""
    try:
        with attributed():
            async with session.get(url, allow_redirects=False) as resp:
                status = str(resp.status)
                sent = sum(len(k) + len(v) + 4 for k, v in resp.request_info.headers.items())
                received = sum(len(k) + len(v) + 4 for k, v in resp.raw_headers)
                ctype = resp.content_type if "Content-Type" in resp.headers else None
                page = _Page(resp.status, resp.reason or "", ctype, resp.charset)
                if resp.status in REDIRECTS:
                    page.location = resp.headers.get("Location")
                elif ctype is None or _kind(ctype) != "binary":  # binary: headers are enough
                    while len(page.body) <= MAX_BYTES and (chunk := await resp.content.read(65_536)):
                        page.body += chunk
                        received += len(chunk)
                return page
    except BaseException as e:
        status = type(e).__name__
        raise
    finally:
        EGRESS.record(host, port, "GET", sent, received, status)


async def _vet(url: URL, env: ToolEnv, pinned: _PinnedResolver) -> tuple[str, int]:
    """The hop's host and port once they pass the SSRF guard. A refusal is logged as egress
    too (`refused: link-local`): the log answers what Saturn tried to reach, not only what
    it reached."""
    host, port = url.raw_host or "", url.port or 0
    if url.scheme not in ("http", "https"):
        _not_fetched(host, port, "refused: scheme",
                f"only http and https URLs can be fetched, not {url.scheme or '(none)'}:")
    if not host or not port:
        _not_fetched(host, port, "refused: no host", f"no host in {url}")
    if (":" in host or host.replace(".", "").isdigit()) and parse_ip(host) is None:
        # aiohttp takes such a host for an address and would hand it to DNS unpinned
        _not_fetched(host, port, "refused: invalid address", f"refused {url}: {host} is not a valid address")
    allowed = env.web_allowed_hosts
    try:
        addresses = await resolve_host(host, port) if host_allowed(host, allowed) else []
    except ToolFailure as failure:
        _not_fetched(host, port, "cannot resolve", str(failure))
    if refusal := check_address(host, addresses, env.web_allow_private, allowed):
        _not_fetched(host, port, f"refused: {refusal.label}", f"refused {url}: {refusal.reason}")
    pinned.pins[host] = addresses
    return host, port


def _not_fetched(host: str, port: int, status: str, message: str) -> NoReturn:
    EGRESS.record(host, port, "GET", status=status)
    raise ToolFailure(message)


def _parsed(text: str, base: URL | None = None) -> URL:
    """`text` as a URL (a redirect's Location: joined to `base`). One that cannot be parsed is
    refused and logged like any refusal (its host as written): a redirect may aim it inside."""
    try:
        url = base.join(URL(text)) if base is not None else URL(text)
        _ = url.raw_host, url.port  # some authorities fail only when read ("[v1.x]" after a join)
    except ValueError as e:  # UnicodeError too
        written = _AUTHORITY.match(text)
        _not_fetched(written.group(1)[:255] if written else "", 0, "refused: invalid URL",
                     f"refused {text[:300]!r}: not a URL that can be parsed ({e})")
    return url


async def _fetch(start: URL, env: ToolEnv) -> tuple[URL, _Page]:
    pinned = _PinnedResolver()
    connector = aiohttp.TCPConnector(resolver=pinned, use_dns_cache=False, force_close=True)
    async with aiohttp.ClientSession(connector=connector, headers=HEADERS) as session:
        url = start
        for _ in range(MAX_REDIRECTS + 1):
            page = await _hop(session, url, *await _vet(url, env, pinned))
            if page.status not in REDIRECTS or not page.location:
                return url, page
            url = _parsed(page.location, url)
    raise ToolFailure(f"{start} redirected more than {MAX_REDIRECTS} times; stopped")


async def _web_fetch(params: WebFetchParams, env: ToolEnv) -> str:
    try:
        start = _parsed(params.url.strip())
        async with asyncio.timeout(FETCH_TIMEOUT_S):
            url, page = await _fetch(start, env)
    except TimeoutError:
        raise ToolFailure(f"{params.url} did not answer within {FETCH_TIMEOUT_S:g}s") from None
    except (aiohttp.ClientError, OSError, ValueError, TypeError) as e:
        raise ToolFailure(f"cannot fetch {params.url}: {type(e).__name__}: {e}") from e
    if page.status >= 400:
        raise ToolFailure(f"{url} answered HTTP {page.status} {page.reason}")
    kind = _kind(page.ctype, page.body)
    if kind == "binary":
        raise ToolFailure(f"{url} is {page.ctype or 'binary data'}, not text; not shown")
    try:
        text = page.body[:MAX_BYTES].decode(page.charset or "utf-8", errors="replace")
    except LookupError:
        text = page.body[:MAX_BYTES].decode("utf-8", errors="replace")
    out = [f"{url} ({page.status}, {page.ctype or 'no content type'})"]
    if kind == "html":
        title, text = html_to_text(text)
        out += [f"title: {title}"] if title else []
    if len(text) > TEXT_CAP:
        text = text[:TEXT_CAP] + f"\n[text cut at {TEXT_CAP} of {len(text)} characters]"
    out.append(text)
    if len(page.body) > MAX_BYTES:
        out.append("[page larger than 1 MB: only its first 1 MB was read]")
    return "\n".join(out)


WEB_FETCH = Tool(name="web_fetch", description="Fetch a web page (http/https) as readable text.",
                 params=WebFetchParams, run=_web_fetch, risk="egress", outside=True)

WEB_TOOLS = [WEB_FETCH]
