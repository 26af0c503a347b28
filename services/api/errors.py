"""HTTP error mapping: every failure is a JSON body that says what and where, never a trace.

Body shape (all REST errors): ``{"error": {"code", "message", "path"}, "request_id"}``.
Domain errors keep their messages (they are written for users); anything
unexpected becomes a generic 500 naming the request id, and the traceback goes
to the log only.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from provgraph.errors import (
    LimitExceededError,
    NotFoundError,
    ProvgraphError,
    RetryableError,
    ValidationError,
)
from services.api.logs import current_request_id

log = logging.getLogger("provgraph.api")


class ApiError(ProvgraphError):
    """An error with an HTTP status, raised by routes and auth (message safe to show)."""

    status_code = 400
    code = "bad_request"

    def __init__(self, message: str, *, path: str = "", headers: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.headers = headers or {}


class UnauthenticatedError(ApiError):
    status_code = 401
    code = "unauthenticated"

    def __init__(self, message: str) -> None:
        super().__init__(message, headers={"WWW-Authenticate": 'Bearer realm="provgraph"'})


class ForbiddenError(ApiError):
    status_code = 403
    code = "forbidden"


class PayloadTooLargeError(ApiError):
    status_code = 413
    code = "payload_too_large"


class UnsupportedMediaTypeError(ApiError):
    status_code = 415
    code = "unsupported_media_type"


class MalformedBodyError(ApiError):
    status_code = 422
    code = "malformed_body"


class ServiceNotConfiguredError(ApiError):
    """A feature needs a component this deployment does not run (e.g. verification workers)."""

    status_code = 503
    code = "not_configured"


def error_body(code: str, message: str, path: str = "") -> dict[str, Any]:
    return {
        "error": {"code": code, "message": message, "path": path},
        "request_id": current_request_id(),
    }


def retry_after_header(seconds: float) -> str:
    return str(max(1, math.ceil(seconds)))


def response_for(exc: Exception) -> JSONResponse:
    """The JSON response for any exception (shared by handlers and the ASGI guard)."""
    if isinstance(exc, ApiError):
        return JSONResponse(
            error_body(exc.code, exc.message, exc.path), exc.status_code, headers=exc.headers
        )
    if isinstance(exc, RetryableError):
        message = str(exc) if "retry later" in str(exc) else f"{exc} (retry later)"
        return JSONResponse(
            error_body("unavailable", message),
            503,
            headers={"Retry-After": retry_after_header(exc.retry_after)},
        )
    if isinstance(exc, NotFoundError):
        return JSONResponse(error_body("not_found", str(exc)), 404)
    if isinstance(exc, LimitExceededError):
        return JSONResponse(error_body("limit_exceeded", exc.reason, exc.path), 422)
    if isinstance(exc, ValidationError):
        return JSONResponse(error_body("invalid", exc.reason, exc.path), 422)
    if isinstance(exc, ProvgraphError):
        log.error("request failed", exc_info=exc)
        return JSONResponse(error_body("internal", "the request failed; see server logs"), 500)
    log.error("unhandled error", exc_info=exc)
    return JSONResponse(
        error_body("internal", "internal error; quote the request id when reporting it"), 500
    )


def _format_loc(loc: Sequence[Any]) -> str:
    path = ""
    for part in loc:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def install_error_handlers(app: FastAPI) -> None:
    """Route every error class to :func:`response_for` (and FastAPI's own 422s to our shape)."""

    async def on_error(_: Request, exc: Exception) -> JSONResponse:
        return response_for(exc)

    async def on_request_validation(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        return JSONResponse(
            error_body("invalid", str(first.get("msg", "invalid")), _format_loc(first["loc"])), 422
        )

    async def on_http(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        code = {
            401: "unauthenticated",
            403: "forbidden",
            404: "not_found",
            405: "method_not_allowed",
        }.get(exc.status_code, "http_error")
        return JSONResponse(
            error_body(code, str(exc.detail)), exc.status_code, headers=exc.headers or None
        )

    app.add_exception_handler(RequestValidationError, on_request_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(ProvgraphError, on_error)
    app.add_exception_handler(Exception, on_error)
