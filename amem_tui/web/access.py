"""Who may reach a served inspector beyond this machine: only who holds its token.

A browser opens ``/?token=TOKEN`` once; the token then lives in an HttpOnly,
SameSite=Strict cookie, out of the address bar. Scripts may send a Bearer header.
Anything else gets 401 (see docs/serve.md).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from textual_serve.server import Server

from amem_tui.engine.for_apps import redact_text
from amem_tui.web.token import TOKEN_PARAMETER

#: What a request without the token is told.
REFUSED = "amem-tui: this page needs its token: open the URL that amem-tui serve printed\n"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def cookie_name(port: int) -> str:
    """The token's cookie: one per port (a browser sends a host's cookies to every port)."""
    return f"amem_tui_token_{port}"


def _same(given: str | None, token: str) -> bool:
    """Whether ``given`` is the token (in constant time)."""
    return given is not None and secrets.compare_digest(given.encode(), token.encode())


def _bearer(request: web.Request) -> str | None:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else None


def token_middleware(token: str, cookie: str, secure: bool) -> Any:
    """An aiohttp middleware that answers 401 to any request without ``token``."""

    @web.middleware
    async def require_token(request: web.Request, handler: Handler) -> web.StreamResponse:
        if _same(request.query.get(TOKEN_PARAMETER), token):
            if request.method != "GET" or request.path != "/":
                return await handler(request)
            query = request.rel_url.query.copy()
            del query[TOKEN_PARAMETER]
            response = web.Response(
                status=303, headers={"Location": str(request.rel_url.with_query(query))}
            )
            response.set_cookie(
                cookie, token, httponly=True, samesite="Strict", secure=secure, path="/"
            )
            return response
        if _same(request.cookies.get(cookie), token) or _same(_bearer(request), token):
            return await handler(request)
        return web.Response(
            status=401, text=REFUSED, headers={"WWW-Authenticate": 'Bearer realm="amem-tui"'}
        )

    return require_token


class MaskedAccessLog(logging.Filter):
    """Masks the token in the access log (a first visit's URL holds it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record with the token masked; keep it."""
        record.msg, record.args = redact_text(record.getMessage()), ()
        return True


class QuietServer(Server):
    """textual-serve's server without its banner on stdout (``serve`` says it on stderr)."""

    async def on_startup(self, app: web.Application) -> None:
        """Print nothing."""


class TokenServer(QuietServer):
    """textual-serve's server, answering only requests that bring ``token``."""

    def __init__(self, command: str, *, token: str, **options: Any) -> None:
        super().__init__(command, **options)
        self.token = token

    def initialize_logging(self) -> None:
        """textual-serve's logging, the token masked in the access log."""
        super().initialize_logging()
        logging.getLogger("aiohttp.access").addFilter(MaskedAccessLog())

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        secure = self.public_url.startswith("https:")
        app.middlewares.append(token_middleware(self.token, cookie_name(self.port), secure))
        return app
