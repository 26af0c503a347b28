"""Pure ASGI middleware: request id, access log, metrics, and a last-resort error guard.

Pure ASGI (not ``BaseHTTPMiddleware``) because it sits on the ingestion hot
path. The guard turns anything that escaped the exception handlers into a JSON
500 with the request id: no stack trace ever reaches a client.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from services.api.errors import response_for
from services.api.logs import REQUEST_ID_HEADER, request_id_from, set_request_id
from services.api.metrics import ApiMetrics

log = logging.getLogger("provgraph.api.access")
_HEADER = REQUEST_ID_HEADER.lower().encode()


class RequestContextMiddleware:
    """Wrap each HTTP request with an id, timing, metrics and one JSON access-log line."""

    def __init__(self, app: ASGIApp, metrics: ApiMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        raw = dict(scope.get("headers") or []).get(_HEADER)
        request_id = request_id_from(raw.decode("latin-1") if raw else None)
        set_request_id(request_id)
        scope.setdefault("state", {})["request_id"] = request_id
        started = time.perf_counter()
        status = 500
        response_started = False

        async def send_with_id(message: Message) -> None:
            nonlocal status, response_started
            if message["type"] == "http.response.start":
                response_started = True
                status = int(message["status"])
                headers = list(message.get("headers") or [])
                headers.append((_HEADER, request_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception as exc:  # the guard: handlers missed it
            if response_started:
                raise
            response = response_for(exc)
            status = response.status_code
            await response(scope, receive, send_with_id)
        finally:
            elapsed = time.perf_counter() - started
            route = _route_template(scope)
            method = str(scope.get("method", ""))
            self.metrics.requests.labels(method, route, str(status)).inc()
            self.metrics.latency.labels(method, route).observe(elapsed)
            extra: dict[str, Any] = {
                "method": method,
                "route": route,
                "path": scope.get("path"),
                "status": status,
                "duration_ms": round(elapsed * 1000, 2),
            }
            principal = scope.get("state", {}).get("principal")
            if principal is not None:
                extra["project"] = principal.project
                extra["role"] = principal.role.value
            log.info("request", extra=extra)


def _route_template(scope: Scope) -> str:
    """The matched route's template; never a raw path with ids (label cardinality).

    A route mounted at its router's prefix (GraphQL: prefix ``/graphql``, path ``""``)
    has an empty template; its request path then *is* the fixed prefix.
    """
    route = scope.get("route")
    if route is None:
        return "unmatched"
    path = getattr(route, "path", None)
    return str(path) if path else str(scope.get("path", "unmatched"))
