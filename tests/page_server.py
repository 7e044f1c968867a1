"""A local web server for tests: serves the pages it is given, in its own thread."""

from __future__ import annotations

import asyncio
import threading

from aiohttp import web


class PageServer:
    def __init__(self, pages: dict[str, str]) -> None:
        self.pages = pages
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._runner: web.AppRunner | None = None
        self.port = 0

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def __enter__(self) -> PageServer:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    async def _start(self) -> None:
        app = web.Application()
        app.router.add_get("/{path:.*}", self._page)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def _page(self, request: web.Request) -> web.Response:
        body = self.pages.get("/" + request.match_info["path"])
        if body is None:
            return web.Response(status=404, text="not found")
        return web.Response(text=body, content_type="text/html")
