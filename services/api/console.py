"""Serve the web console at ``/ui/``: prebuilt static assets shipped in the wheel.

The assets are built from ``console/`` (``make console``) into
``services/api/console_assets/`` and committed, so neither CI nor an
air-gapped install needs npm. Routes are client-side (``/ui/#/session/ID``),
so one ``index.html`` serves every page and links stay pasteable. The page
loads nothing from another origin; the Content-Security-Policy says so.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
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
``connect-src 'self'`` covers same-origin ``ws:``/``wss:`` in current browsers."""
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
    async def console_index() -> FileResponse:
        return FileResponse(ASSETS / "index.html", headers=HEADERS)

    app.mount("/ui", _ConsoleFiles(directory=ASSETS), name="console")
