"""The server of `dipole-tui web`: textual-serve's, locked to its own page and to whoever holds
the address it printed, each browser a visitor with a folder of its own, a bounded number of
tabs at once. Apart from web.py so that aiohttp loads only when the web is served.

Who may drive a tab: a WebSocket is a request any page may make, with the browser's cookies for
the address; so the handshake must come from this server's own page (its Origin is the Host it
was served on) and carry the token of the printed address, which the page (served only to who
had that address) set as a cookie. A foreign page has neither; a page of another port on this
machine is "same-site" and would have the cookie, but not the Origin.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import re
import secrets
import shlex
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from .. import storage
from ..games.base import shown
from ..saves import CONFINED_VARIABLE, DATA_DIR_VARIABLE
from .arguments import PROG

log = logging.getLogger("textual-serve")  # textual-serve's own, so that one format says all

# Seconds the tabs' apps have to quit when the server stops, before their pages are cut off.
GOODBYE = 5.0
VISITOR_ID = re.compile(r"[A-Za-z0-9_-]{22}")  # secrets.token_urlsafe(16)
VISITOR_DAYS = 400  # how long a browser keeps its visitor id (the most browsers allow)
# The terminal a page asks for, in cells: a page's numbers, so bounded.
MOST_COLUMNS, MOST_ROWS = 1000, 500
PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{title}</title></head>
<body style="font-family: sans-serif; margin: 3em;"><h1>{title}</h1><p>{text}</p></body></html>
"""
NO_TOKEN = (
    "This page needs the address that dipole-tui web printed, with its ?token=...: "
    "copy it from the terminal where the server runs."
)


def full(most: int) -> str:
    tabs = "1 tab is" if most == 1 else f"{most} tabs are"
    return f"The server is full: {tabs} open, the most it runs at once. Close one, then reload."


def page(status: int, title: str, text: str) -> web.Response:
    """A short page of refusal: no app, no script."""
    html = PAGE.format(title=title, text=text)
    return web.Response(status=status, text=html, content_type="text/html")


def bounded(value: object, default: int, most: int) -> int:
    """A size the page gave (any JSON), as a whole number from 1 to `most`."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 8:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        return default
    return max(1, min(value, most))


class TabService(AppService):
    """textual-serve's app of one tab, with the environment of its visitor (its data folder)
    and the terminal's size bounded."""

    def __init__(self, command: str, environment: dict[str, str], **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.environment = environment

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return {**super()._build_environment(width, height), **self.environment}

    async def ended(self) -> None:
        """Wait for the end of the app's process (told to quit), until asyncio has heard of it:
        at the server's end, its loop must outlive its children (a traceback otherwise)."""
        if self._process is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._process.wait(), GOODBYE)
        if self._stdin is not None:  # its last pipe: asyncio then lets the process go
            self._stdin.close()

    async def set_terminal_size(self, width: int, height: int) -> None:
        """A page's resize (any JSON, so bounded)."""
        await super().set_terminal_size(
            bounded(width, 80, MOST_COLUMNS), bounded(height, 24, MOST_ROWS)
        )


class TabServer(Server):
    """textual-serve's server, saying only what a player needs: the address with its token,
    once bound, and that the server stopped; every tab's app told to quit when it stops."""

    def __init__(
        self,
        command: list[str],
        *,
        host: str,
        port: int,
        data: Path,
        max_tabs: int,
        announce: Callable[[str], None] = print,
    ) -> None:
        # exec: textual-serve starts the command through a shell, which would stay between
        # the server and the app, and keep the app from seeing the server gone.
        super().__init__(f"exec {shlex.join(command)}", host=host, port=port, title=PROG)
        self.data = data
        self.max_tabs = max_tabs
        self.token = secrets.token_urlsafe(32)
        self.tabs: set[asyncio.Task[Any]] = set()
        self.say = announce
        # The port in the names: a cookie goes to every port of its host.
        self.token_cookie = f"dipole-tui-token-{port}"
        self.visitor_cookie = f"dipole-tui-visitor-{port}"

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/?token={self.token}"

    def initialize_logging(self) -> None:
        logging.basicConfig(level=logging.WARNING, format=f"{PROG} web: %(message)s")

    async def on_startup(self, app: web.Application) -> None:
        """Nothing: the banner is printed once the port is ours (`announce`)."""

    # -- who may come in ------------------------------------------------------------------

    def _token_given(self, request: web.Request) -> bool:
        """The printed address's token, in the query or in the cookie its page set."""
        given = [request.query.get("token"), request.cookies.get(self.token_cookie)]
        expected = self.token.encode()
        return any(
            hmac.compare_digest(text.encode("utf-8", "replace"), expected)
            for text in given
            if text is not None
        )

    def visitor(self, request: web.Request) -> str | None:
        """The browser's visitor id, from its cookie; None when it has none of ours."""
        visitor = request.cookies.get(self.visitor_cookie, "")
        return visitor if VISITOR_ID.fullmatch(visitor) else None

    def refused(self, request: web.Request) -> str:
        """Why a WebSocket may not drive a tab ("" when it may), in one line."""
        origin = request.headers.get("Origin")
        own = f"{request.scheme}://{request.host}"
        if origin is None:
            return f"no Origin: only this server's own page ({shown(own, 80)}) may connect"
        if origin.lower() != own.lower():
            return f"a page of {shown(origin, 80)} is not this server's ({shown(own, 80)})"
        if not self._token_given(request):
            return "no token: open the address dipole-tui web printed, with its ?token=..."
        if self.visitor(request) is None:
            return "no visitor id: reload the page"
        return ""

    def is_full(self) -> bool:
        return len(self.tabs) >= self.max_tabs

    # -- the page and its tabs -------------------------------------------------------------

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, to whoever has the token, its links to the address the browser used (with
        --host 0.0.0.0 a friend's browser reaches this machine by a name only it knows); it
        keeps the token and the visitor's id in cookies of this page's alone."""
        if not self._token_given(request):
            return page(403, "dipole-tui: the token is missing", NO_TOKEN)
        if self.is_full():
            return page(503, "dipole-tui: the server is full", full(self.max_tabs))
        self.public_url = f"{request.scheme}://{request.host}"
        response = await super().handle_index(request)
        response.set_cookie(
            self.token_cookie, self.token, httponly=True, samesite="Strict", path="/"
        )
        # Lax, not Strict: a link followed from another site then keeps the visitor's id (a new
        # one would part them from their games); a WebSocket from another site is never sent it.
        response.set_cookie(
            self.visitor_cookie,
            self.visitor(request) or secrets.token_urlsafe(16),
            max_age=VISITOR_DAYS * 24 * 3600,
            httponly=True,
            samesite="Lax",
            path="/",
        )
        return response

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        if self.refused(request):
            raise web.HTTPForbidden(text="only this server's page may download\n")
        return await super().handle_download(request)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A tab: its app started in its visitor's folder, when the page is this server's,
        with the token, and there is room; else refused before any app starts."""
        refusal = self.refused(request)
        if refusal:
            log.warning("refused a tab: %s", refusal)
            raise web.HTTPForbidden(text=f"{refusal}\n")
        if self.is_full():
            log.warning("refused a tab: the server is full (--max-tabs %d)", self.max_tabs)
            raise web.HTTPServiceUnavailable(text=f"{full(self.max_tabs)}\n")
        visitor = self.visitor(request)
        assert visitor is not None  # refused otherwise
        folder = self.data / "web" / visitor
        try:
            storage.make_folder(folder)
            folder.chmod(0o700)  # a visitor's games are theirs
        except OSError as error:
            log.warning("cannot make a tab's folder: %s", error.strerror or error)
            refusal = "the server cannot keep this tab's games\n"
            raise web.HTTPInternalServerError(text=refusal) from None
        environment = {DATA_DIR_VARIABLE: str(folder), CONFINED_VARIABLE: "1"}
        tab = asyncio.current_task()
        assert tab is not None
        self.tabs.add(tab)  # before any await: the count stays true
        try:
            return await self._run_tab(request, environment)
        finally:
            self.tabs.discard(tab)

    async def _run_tab(
        self, request: web.Request, environment: dict[str, str]
    ) -> web.WebSocketResponse:
        """As textual-serve's handle_websocket, with the tab's own environment."""
        websocket = web.WebSocketResponse(heartbeat=15)
        width = bounded(request.query.get("width"), 80, MOST_COLUMNS)
        height = bounded(request.query.get("height"), 24, MOST_ROWS)
        service: TabService | None = None
        try:
            await websocket.prepare(request)
            service = TabService(
                self.command,
                environment,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,
                download_manager=self.download_manager,
            )
            await service.start(width, height)
            try:
                await self._process_messages(websocket, service)
            finally:
                await service.stop()
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # a page's bad message ends its own tab, in one line
            log.warning("a tab ended: %s", shown(f"{type(error).__name__}: {error}", 160))
        finally:
            if service is not None:
                await service.stop()
                await service.ended()
        return websocket

    async def on_shutdown(self, app: web.Application) -> None:
        """Cancel every tab: each tells its app to quit and waits for its end (`_run_tab`)."""
        for tab in self.tabs:
            tab.cancel()
        if self.tabs:
            await asyncio.wait(self.tabs, timeout=2 * GOODBYE)

    def announce(self, *_: object) -> None:
        self.say(self.url)

    def serve(self, debug: bool = False) -> None:
        """As textual-serve's, with `announce` once bound and no access log."""
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        for ending in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(ending, self.request_exit)
        web.run_app(
            self._make_app(),
            host=self.host,
            port=self.port,
            handle_signals=False,
            loop=loop,
            print=self.announce,
            access_log=None,
            shutdown_timeout=GOODBYE,
        )
