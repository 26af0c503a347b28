"""Serve the web console at ``/ui/``: prebuilt static assets shipped in the wheel.

The assets are built from ``console/`` (``make console``) into
``services/api/console_assets/`` and committed, so neither CI nor an
air-gapped install needs npm. Routes are client-side (``/ui/#/session/ID``),
so one ``index.html`` serves every page and links stay pasteable. The page
loads nothing from another origin; the Content-Security-Policy says so.
"""

from __future__ import annotations

import re
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Scope

ASSETS = Path(__file__).resolve().parent / "console_assets"
CSP = (
    "default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data: blob:; "
    "style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'"
)
"""Inline styles only (the graph library sets element styles); scripts from this origin only.
The page's own CSP also names this host's ``ws:``/``wss:`` (older browsers do not count
a WebSocket to the same host as ``'self'``)."""
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}


class _ConsoleFiles(StaticFiles):
    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(HEADERS)
        return response


def page_headers(host: str | None) -> dict[str, str]:
    """The index page's headers: its CSP allows WebSockets to the host it was served from."""
    if not host or not _HOST.match(host):
        return HEADERS
    sockets = f"ws://{host} wss://{host}"
    return {
        **HEADERS,
        "Content-Security-Policy": CSP.replace(
            "connect-src 'self'", f"connect-src 'self' {sockets}"
        ),
    }


def mount_console(app: FastAPI) -> None:
    """``/ui`` redirects to ``/ui/``; a missing build answers 404 saying how to build it."""

    @app.get("/ui", include_in_schema=False)
    async def console_redirect() -> RedirectResponse:
        return RedirectResponse("/ui/", status_code=308)

    if not (ASSETS / "index.html").is_file():

        @app.get("/ui/", include_in_schema=False)
        async def console_missing() -> Response:
            return Response(
                "console assets are not built: run `make console`",
                status_code=404,
                media_type="text/plain",
            )

        return

    @app.get("/ui/", include_in_schema=False)
    async def console_index(request: Request) -> FileResponse:
        return FileResponse(
            ASSETS / "index.html", headers=page_headers(request.headers.get("host"))
        )

    app.mount("/ui", _ConsoleFiles(directory=ASSETS), name="console")
