"""web_fetch: the SSRF guard (a pure table), HTML → text, and fetches from a local server."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import msgspec
import pytest
from aiohttp import web as aioweb
from aiohttp.test_utils import TestServer

from saturnd.egress import EGRESS
from saturnd.tools import web
from saturnd.tools.registry import Registry, ToolEnv, ToolFailure
from saturnd.tools.web import WEB_FETCH, WEB_TOOLS, WebFetchParams, check_address, html_to_text

PUBLIC = ["93.184.215.14"]
Handler = Callable[[aioweb.Request], Awaitable[aioweb.StreamResponse]]

# host, resolved, allow_private, allowed_hosts, expected: None (allowed) or part of the reason
CASES: list[tuple[str, list[str], bool, tuple[str, ...], str | None]] = [
    ("127.0.0.1", [], False, (), "a loopback address"),
    ("2130706433", [], False, (), "a loopback address"),
    ("0x7f000001", [], False, (), "a loopback address"),
    ("017700000001", [], False, (), "a loopback address"),
    ("127.1", [], False, (), "a loopback address"),
    ("0x7f.1", [], False, (), "a loopback address"),
    ("[::ffff:127.0.0.1]", [], False, (), "a loopback address"),
    ("::ffff:7f00:1", [], False, (), "a loopback address"),
    ("::1", [], False, (), "a loopback address"),
    ("2002:7f00:1::", [], False, (), "a loopback address"),  # 6to4 around 127.0.0.1
    ("0.0.0.0", [], False, (), "an unspecified address"),
    ("0", [], False, (), "an unspecified address"),
    ("::", [], False, (), "an unspecified address"),
    ("10.0.0.1", [], False, (), "a private address"),
    ("172.16.5.4", [], False, (), "a private address"),
    ("192.168.1.1", [], False, (), "a private address"),
    ("0xc0a80101", [], False, (), "a private address"),  # 192.168.1.1
    ("::ffff:10.0.0.1", [], False, (), "a private address"),
    ("64:ff9b::a00:1", [], False, (), "a private address"),  # NAT64 around 10.0.0.1
    ("fc00::1", [], False, (), "a private address"),
    ("169.254.169.254", [], False, (), "a link-local address"),
    ("fe80::1", [], False, (), "a link-local address"),
    ("224.0.0.1", [], False, (), "a multicast address"),
    ("239.255.255.250", [], False, (), "a multicast address"),
    ("ff02::1", [], False, (), "a multicast address"),
    ("240.0.0.1", [], False, (), "a reserved address"),
    ("100.64.0.1", [], False, (), "not a public address"),  # carrier-grade NAT
    ("localhost", ["127.0.0.1", "::1"], False, (), "a loopback address"),
    ("rebind.example", PUBLIC + ["10.1.2.3"], False, (), "a private address"),  # every address
    ("evil.example", ["::ffff:192.168.0.1"], False, (), "a private address"),
    ("nothing.example", [], False, (), "resolves to no address"),
    ("8.8.8.8", [], False, (), None),
    ("2606:4700:4700::1111", [], False, (), None),
    ("example.com", PUBLIC, False, (), None),
    ("127.0.0.1", [], True, (), None),
    ("localhost", ["127.0.0.1"], True, (), None),
    ("docs.python.org", PUBLIC, False, ("python.org",), None),
    ("PYTHON.ORG.", PUBLIC, False, ("python.org",), None),
    ("evilpython.org", PUBLIC, False, ("python.org",), "not one of the allowed hosts"),
    ("python.org.evil.com", PUBLIC, False, ("python.org",), "not one of the allowed hosts"),
    ("localhost", ["127.0.0.1"], True, ("example.com",), "not one of the allowed hosts"),
    ("example.com", ["127.0.0.1"], False, ("example.com",), "a loopback address"),
]


@pytest.mark.parametrize(("host", "resolved", "allow_private", "allowed", "expected"), CASES)
def test_check_address(
    host: str, resolved: list[str], allow_private: bool, allowed: tuple[str, ...],
    expected: str | None,
) -> None:
    why = check_address(host, resolved, allow_private, allowed)
    if expected is None:
        assert why is None
    else:
        assert why is not None and expected in why.reason


def test_tool_metadata() -> None:
    assert WEB_TOOLS == [WEB_FETCH]
    assert (WEB_FETCH.name, WEB_FETCH.risk, WEB_FETCH.outside) == ("web_fetch", "egress", True)
    assert len(WEB_FETCH.description) <= 80
    Registry(WEB_TOOLS)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"url": "http://x", "method": "POST"}, WebFetchParams)


PAGE = """<!doctype html><html><head><title> The  Page </title>
<style>body { color: red }</style><script>var secret = 1;</script></head>
<body><nav><a href="/">Home</a> | <a href="/x">Menu</a></nav>
<h1>Main   heading</h1><p>First
   paragraph &amp; more.</p><p>Second <b>bold</b> one.</p>
<ul><li>one</li><li>two</li></ul><h2>Code</h2><pre>a  =  1
    b</pre></body></html>"""


def test_html_to_text() -> None:
    title, text = html_to_text(PAGE)
    assert title == "The Page"
    assert text == (
        "# Main heading\n\nFirst paragraph & more.\n\nSecond bold one.\n\n"
        "- one\n- two\n\n## Code\n\na  =  1\n    b"
    )


# -- against a local server ------------------------------------------------------------------


@pytest.fixture
async def server() -> AsyncIterator[TestServer]:
    def respond(**kw: object) -> Handler:
        async def handler(request: aioweb.Request) -> aioweb.Response:
            return aioweb.Response(**kw)  # type: ignore[arg-type]

        return handler

    def redirect_to(target: str) -> Handler:
        async def handler(request: aioweb.Request) -> aioweb.Response:
            raise aioweb.HTTPFound(target.replace("PORT", str(request.url.port)))

        return handler

    app = aioweb.Application()
    app.router.add_get("/page", respond(text=PAGE, content_type="text/html"))
    app.router.add_get("/text", respond(text="plain\n  text"))
    app.router.add_get("/json", respond(text='{"a": [1, 2]}', content_type="application/json"))
    app.router.add_get("/png", respond(body=b"\x89PNG\0", content_type="image/png"))
    app.router.add_get("/big", respond(text="x" * 2_000_000))
    app.router.add_get("/missing", respond(status=404, text="no"))
    app.router.add_get("/hop", redirect_to("/page"))
    app.router.add_get("/loop", redirect_to("/loop"))
    app.router.add_get("/to-metadata", redirect_to("http://169.254.169.254/latest/meta-data"))
    app.router.add_get("/to-odd-loopback", redirect_to("http://0x7f000002:PORT/text"))
    app.router.add_get("/to-localhost", redirect_to("http://localhost:PORT/text"))
    running = TestServer(app, host="127.0.0.1")
    await running.start_server()
    try:
        yield running
    finally:
        await running.close()


def open_env(tmp_path: Path, allowed: tuple[str, ...] = ()) -> ToolEnv:
    return ToolEnv(tmp_path, tmp_path, web_allow_private=True, web_allowed_hosts=allowed)


async def fetch(server: TestServer, path: str, env: ToolEnv) -> str:
    return await WEB_FETCH.run(WebFetchParams(url=str(server.make_url(path))), env)


async def test_fetch_html_as_text(server: TestServer, tmp_path: Path) -> None:
    EGRESS.drain()
    out = await fetch(server, "/page", open_env(tmp_path))
    url = server.make_url("/page")
    assert out.startswith(f"{url} (200, text/html)\ntitle: The Page\n# Main heading\n\nFirst")
    assert "secret" not in out and "Menu" not in out and "color" not in out
    [row] = EGRESS.drain()
    assert (row.host, row.port, row.method, row.status) == ("127.0.0.1", server.port, "GET", "200")
    assert row.bytes_in > len(PAGE) and row.bytes_out > 0


async def test_text_and_json_as_is(server: TestServer, tmp_path: Path) -> None:
    env = open_env(tmp_path)
    assert (await fetch(server, "/text", env)).endswith("(200, text/plain)\nplain\n  text")
    assert (await fetch(server, "/json", env)).endswith('(200, application/json)\n{"a": [1, 2]}')


async def test_binary_and_errors_refused(server: TestServer, tmp_path: Path) -> None:
    env = open_env(tmp_path)
    with pytest.raises(ToolFailure, match="is image/png, not text"):
        await fetch(server, "/png", env)
    with pytest.raises(ToolFailure, match="answered HTTP 404 Not Found"):
        await fetch(server, "/missing", env)
    with pytest.raises(ToolFailure, match="only http and https"):
        await WEB_FETCH.run(WebFetchParams(url="file:///etc/passwd"), env)
    with pytest.raises(ToolFailure, match="1.2.3.4.5 is not a valid address"):
        await WEB_FETCH.run(WebFetchParams(url="http://1.2.3.4.5/"), env)


async def test_size_cap(server: TestServer, tmp_path: Path) -> None:
    EGRESS.drain()
    out = await fetch(server, "/big", open_env(tmp_path))
    assert out.endswith("[page larger than 1 MB: only its first 1 MB was read]")
    assert f"[text cut at {web.TEXT_CAP} of 1000000 characters]" in out
    [row] = EGRESS.drain()
    assert row.bytes_in < 1_200_000


async def test_redirects_followed_and_capped(server: TestServer, tmp_path: Path) -> None:
    env = open_env(tmp_path)
    EGRESS.drain()
    out = await fetch(server, "/hop", env)
    assert out.startswith(f"{server.make_url('/page')} (200, text/html)")
    assert [r.status for r in EGRESS.drain()] == ["302", "200"]
    with pytest.raises(ToolFailure, match="redirected more than 5 times"):
        await fetch(server, "/loop", env)
    assert len(EGRESS.drain()) == 6


async def test_loopback_refused_without_allow_private(server: TestServer, tmp_path: Path) -> None:
    EGRESS.drain()
    env = ToolEnv(cwd=tmp_path, kb_dir=tmp_path)
    with pytest.raises(ToolFailure, match="refused .* a loopback address"):
        await fetch(server, "/text", env)
    [row] = EGRESS.drain()  # refused before any connection, and logged as refused
    assert (row.host, row.status) == ("127.0.0.1", "refused: loopback")


@pytest.fixture
def server_is_public(monkeypatch: pytest.MonkeyPatch) -> None:
    """Treat exactly 127.0.0.1 (the test server) as public, so redirects are what is tested."""
    real = web._blocked_kind
    monkeypatch.setattr(
        web, "_blocked_kind", lambda ip: None if ip == ipaddress.ip_address("127.0.0.1") else real(ip)
    )


@pytest.mark.parametrize(
    ("path", "reason", "refused"),
    [
        ("/to-metadata", "169.254.169.254 is a link-local", "refused: link-local"),
        ("/to-odd-loopback", r"0x7f000002 \(127.0.0.2\) is a loopback", "refused: loopback"),
    ],
)
async def test_redirect_to_private_refused(
    server: TestServer, tmp_path: Path, server_is_public: None, path: str, reason: str,
    refused: str,
) -> None:
    EGRESS.drain()
    env = ToolEnv(cwd=tmp_path, kb_dir=tmp_path)
    with pytest.raises(ToolFailure, match=f"refused .*{reason} address"):
        await fetch(server, path, env)
    # the private hop never connected: it is a refusal row after the redirect
    assert [r.status for r in EGRESS.drain()] == ["302", refused]


async def test_redirect_rechecks_the_allowlist(server: TestServer, tmp_path: Path) -> None:
    env = open_env(tmp_path, ("127.0.0.1",))
    with pytest.raises(ToolFailure, match="localhost is not one of the allowed hosts"):
        await fetch(server, "/to-localhost", env)


async def test_connects_to_the_vetted_address(
    server: TestServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name DNS does not know is vetted once and reached at that address: never re-resolved."""
    async def vetted(host: str, port: int) -> list[str]:
        return ["127.0.0.1"] if host == "pinned.invalid" else []

    monkeypatch.setattr(web, "resolve_host", vetted)
    url = f"http://pinned.invalid:{server.port}/text"
    out = await WEB_FETCH.run(WebFetchParams(url=url), open_env(tmp_path))
    assert out == f"{url} (200, text/plain)\nplain\n  text"


async def test_connection_failure_recorded(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    EGRESS.drain()
    with pytest.raises(ToolFailure, match="cannot fetch"):
        await WEB_FETCH.run(WebFetchParams(url=f"http://127.0.0.1:{port}/"), open_env(tmp_path))
    [row] = EGRESS.drain()
    assert (row.port, row.status) == (port, "ClientConnectorError")


@pytest.mark.parametrize(
    "location",
    ["http://169.254.169.254:99999/", "http://10.0.0.1\\@example.com/", "http://[::1]x/",
     "http://[v1.fe80::a+en1]/"],
)
async def test_a_redirect_that_cannot_be_parsed_is_refused_and_logged(
    tmp_path: Path, location: str
) -> None:
    """Found by bench/reliability/egress_log: such a hop was refused with no row at all."""
    async def redirect(request: aioweb.Request) -> aioweb.Response:
        return aioweb.Response(status=302, headers={"Location": location})

    app = aioweb.Application()
    app.router.add_get("/", redirect)
    async with TestServer(app, host="127.0.0.1") as running:
        EGRESS.drain()
        with pytest.raises(ToolFailure, match="not a URL that can be parsed"):
            await fetch(running, "/", open_env(tmp_path))
    rows = EGRESS.drain()
    assert [r.status for r in rows] == ["302", "refused: invalid URL"]
    assert (rows[1].host, rows[1].port) == (location.split("/")[2], 0)


async def test_a_url_that_cannot_be_parsed_is_refused_and_logged(tmp_path: Path) -> None:
    EGRESS.drain()
    with pytest.raises(ToolFailure, match="not a URL that can be parsed"):
        await WEB_FETCH.run(WebFetchParams(url="http://[::1]x/"), open_env(tmp_path))
    [row] = EGRESS.drain()
    assert (row.host, row.port, row.status) == ("[::1]x", 0, "refused: invalid URL")
